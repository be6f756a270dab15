/** LeaseClient over client-node's CoordinationV1Api for one Lease. */
import type { CoordinationV1Api, V1Lease } from '@kubernetes/client-node';
import { KubeApiError } from '../kube-api-error.js';
import type { LeaseClient } from '../lease-record.js';
import type { RequestExecutor } from './request-executor.js';

export function createClientNodeLeaseClient(coordination: CoordinationV1Api, executor: RequestExecutor, namespace: string, name: string): LeaseClient {
  const what = `lease ${namespace}/${name}`;
  return {
    get: async (): Promise<V1Lease | undefined> => {
      try {
        return await executor.execute({ method: 'GET', description: `get ${what}` }, (options) => coordination.readNamespacedLease({ namespace, name }, options));
      } catch (error) {
        if (error instanceof KubeApiError && error.isNotFound) return undefined;
        throw error;
      }
    },
    create: (lease: V1Lease): Promise<V1Lease> =>
      executor.execute({ method: 'POST', description: `create ${what}` }, (options) => coordination.createNamespacedLease({ namespace, body: lease }, options)),
    update: (lease: V1Lease): Promise<V1Lease> =>
      executor.execute({ method: 'PUT', description: `update ${what}` }, (options) => coordination.replaceNamespacedLease({ namespace, name, body: lease }, options)),
  };
}
