/**
 * The services for one test file: those named by `OPENSTACK_SERVICES_ENDPOINT_FILE` when set
 * (written by `openstack-services --endpoint-file`, so a CI job can start them once for every
 * file; closing is then a no-op), otherwise a fresh instance of our own.
 */
import { readFileSync } from 'node:fs';
import { startOpenStackServices, type OpenStackEndpoint, type StartOpenStackServicesOptions } from './start-openstack-services.js';

export const ENDPOINT_FILE_VARIABLE = 'OPENSTACK_SERVICES_ENDPOINT_FILE';

export interface TestServices extends OpenStackEndpoint {
  close(): Promise<void>;
  /** Whether these services were started by this call (false: shared through the endpoint file). */
  owned: boolean;
}

export async function openStackServicesForTests(options: StartOpenStackServicesOptions = {}): Promise<TestServices> {
  const file = process.env[ENDPOINT_FILE_VARIABLE];
  if (file !== undefined && file !== '') {
    const endpoint = JSON.parse(readFileSync(file, 'utf8')) as OpenStackEndpoint;
    return { ...endpoint, owned: false, close: async () => undefined };
  }
  const services = await startOpenStackServices(options);
  return { ...services, owned: true };
}
