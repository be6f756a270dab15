/** Waiting for the endpoint file of services started elsewhere (vitest's global setup, a CI job). */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { endpointErrorFile, waitForEndpointFile } from './openstack-services-for-tests.js';

const ENDPOINT = { authUrl: 'http://127.0.0.1:5000/v3', region: 'RegionOne', username: 'admin', password: 'secret', projectName: 'admin', userDomainName: 'Default', projectDomainName: 'Default' };

describe('waitForEndpointFile', () => {
  let directory = '';
  let file = '';
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'endpoint-wait-'));
    file = join(directory, 'endpoint.json');
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('returns the endpoint of a file already there', async () => {
    writeFileSync(file, JSON.stringify(ENDPOINT));
    await expect(waitForEndpointFile(file, 1_000)).resolves.toEqual(ENDPOINT);
  });

  it('waits for a file written later', async () => {
    const waiting = waitForEndpointFile(file, 60_000);
    setTimeout(() => writeFileSync(file, JSON.stringify(ENDPOINT)), 300);
    await expect(waiting).resolves.toEqual(ENDPOINT);
  });

  it('fails with the reason of the error file when the start failed', async () => {
    writeFileSync(endpointErrorFile(file), 'openstack-services exited (code 1) before it was ready\n');
    await expect(waitForEndpointFile(file, 60_000)).rejects.toThrow(`the shared OpenStack services (OPENSTACK_SERVICES_ENDPOINT_FILE=${file}) failed to start: openstack-services exited (code 1) before it was ready`);
  });

  it('fails naming the file when it never comes', async () => {
    await expect(waitForEndpointFile(file, 300)).rejects.toThrow(`were not ready within 0.3 s: ${file} was not written`);
  });
});
