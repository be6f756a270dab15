/**
 * `describe` for tests that read Nova's API samples: under CI=true a missing samples directory is
 * one failing test saying how to get it; elsewhere the suite is skipped with a console warning.
 */
import { describe, it } from 'vitest';
import { NOVA_API_SAMPLES_INSTALL_HINT, novaApiSamplesUnavailableReason } from './nova-api-samples.js';

export function novaApiSamplesSuite(title: string, body: () => void): void {
  const reason = novaApiSamplesUnavailableReason();
  if (reason === undefined) {
    describe(title, body);
    return;
  }
  if (process.env['CI'] === 'true') {
    describe(title, () => {
      it("needs Nova's API samples", () => {
        throw new Error(`${reason}; ${NOVA_API_SAMPLES_INSTALL_HINT}`);
      });
    });
    return;
  }
  console.warn(`\n*** SKIPPING "${title}": ${reason}.\n*** To run it, ${NOVA_API_SAMPLES_INSTALL_HINT}\n`);
  describe.skip(title, body);
}
