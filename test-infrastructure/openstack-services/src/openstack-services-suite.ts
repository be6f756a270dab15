/**
 * `describe` for suites that need the real services. When they cannot run: under CI=true one
 * failing test states why; elsewhere the suite is skipped with a console warning and the hint.
 */
import { describe, it } from 'vitest';
import { OPENSTACK_SERVICES_INSTALL_HINT, openStackServicesUnavailableReason } from './openstack-services-availability.js';
import { ENDPOINT_FILE_VARIABLE } from './openstack-services-for-tests.js';
import { OPENSTACK_CLI_INSTALL_HINT, openStackCliUnavailableReason } from './openstack-cli.js';

export function openStackServicesSuite(title: string, body: () => void): void {
  // Services shared through an endpoint file need no local packages.
  const reason = process.env[ENDPOINT_FILE_VARIABLE] ? undefined : openStackServicesUnavailableReason();
  if (reason === undefined) {
    describe(title, body);
    return;
  }
  if (process.env['CI'] === 'true') {
    describe(title, () => {
      it('needs the OpenStack services', () => {
        throw new Error(`the OpenStack services cannot start: ${reason}; ${OPENSTACK_SERVICES_INSTALL_HINT}`);
      });
    });
    return;
  }
  console.warn(`\n*** SKIPPING "${title}": the OpenStack services cannot start: ${reason}.\n*** To run it, ${OPENSTACK_SERVICES_INSTALL_HINT}\n`);
  describe.skip(title, body);
}

/** `describe` for tests that run the `openstack` CLI (inside a services suite): same rules. */
export function openStackCliSuite(title: string, body: () => void): void {
  const reason = openStackCliUnavailableReason();
  if (reason === undefined) {
    describe(title, body);
    return;
  }
  if (process.env['CI'] === 'true') {
    describe(title, () => {
      it('needs the openstack CLI', () => {
        throw new Error(`${reason}; ${OPENSTACK_CLI_INSTALL_HINT}`);
      });
    });
    return;
  }
  console.warn(`\n*** SKIPPING "${title}": ${reason}.\n*** To run it, ${OPENSTACK_CLI_INSTALL_HINT}\n`);
  describe.skip(title, body);
}
