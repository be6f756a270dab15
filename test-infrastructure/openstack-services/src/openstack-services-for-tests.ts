/**
 * The services for one test file: those named by `OPENSTACK_SERVICES_ENDPOINT_FILE` when set
 * (written by `openstack-services --endpoint-file`, so a CI job or vitest's global setup can start
 * them once for every file; closing is then a no-op), otherwise a fresh instance of our own.
 *
 * The file may still be on its way: the global setup starts the services in the background and
 * names the file at once, so a test file waits for it, or for `<file>.error` (the start failed:
 * its text says why).
 */
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { startOpenStackServices, type OpenStackEndpoint, type StartOpenStackServicesOptions } from './start-openstack-services.js';

export const ENDPOINT_FILE_VARIABLE = 'OPENSTACK_SERVICES_ENDPOINT_FILE';

/** The file written next to the endpoint file when the shared services failed to start. */
export function endpointErrorFile(endpointFile: string): string {
  return `${endpointFile}.error`;
}

/** How long a test file waits for shared services that are still starting (85-110 s measured on the loaded machine). */
const SHARED_START_TIMEOUT_MS = 300_000;

export interface TestServices extends OpenStackEndpoint {
  close(): Promise<void>;
  /** Whether these services were started by this call (false: shared through the endpoint file). */
  owned: boolean;
}

export async function openStackServicesForTests(options: StartOpenStackServicesOptions = {}): Promise<TestServices> {
  const file = process.env[ENDPOINT_FILE_VARIABLE];
  if (file !== undefined && file !== '') {
    const endpoint = await waitForEndpointFile(file, SHARED_START_TIMEOUT_MS);
    return { ...endpoint, owned: false, close: async () => undefined };
  }
  const services = await startOpenStackServices(options);
  return { ...services, owned: true };
}

/** The endpoint in `file` once it exists; throws when `<file>.error` appears first or the time runs out. */
export async function waitForEndpointFile(file: string, timeoutMs: number): Promise<OpenStackEndpoint> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as OpenStackEndpoint;
    const errorFile = endpointErrorFile(file);
    if (existsSync(errorFile)) throw new Error(`the shared OpenStack services (${ENDPOINT_FILE_VARIABLE}=${file}) failed to start: ${readFileSync(errorFile, 'utf8').trim()}`);
    if (Date.now() >= deadline) throw new Error(`the shared OpenStack services (${ENDPOINT_FILE_VARIABLE}=${file}) were not ready within ${timeoutMs / 1000} s: ${file} was not written`);
    await sleep(250);
  }
}
