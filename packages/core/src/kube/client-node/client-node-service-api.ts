/** ServiceApi over client-node's CoreV1Api (`/api/v1/namespaces/{namespace}/services`). */
import type { CoreV1Api, V1Service } from '@kubernetes/client-node';
import type { PatchType, ServiceApi } from '../ports.js';
import { PATCH_CONTENT_TYPES } from './patch-content-type.js';
import type { RequestExecutor } from './request-executor.js';

export function createClientNodeServiceApi(core: CoreV1Api, executor: RequestExecutor): ServiceApi {
  return {
    get: (namespace: string, name: string): Promise<V1Service> =>
      executor.execute({ method: 'GET', description: `get service ${namespace}/${name}` }, (options) =>
        core.readNamespacedService({ namespace, name }, options),
      ),
    update: (service: V1Service): Promise<V1Service> => {
      const namespace = service.metadata?.namespace ?? 'default';
      const name = service.metadata?.name ?? '';
      return executor.execute({ method: 'PUT', description: `update service ${namespace}/${name}` }, (options) =>
        core.replaceNamespacedService({ namespace, name, body: service }, options),
      );
    },
    patch: (namespace: string, name: string, patch: unknown, type: PatchType): Promise<V1Service> =>
      executor.execute(
        { method: 'PATCH', description: `patch service ${namespace}/${name}`, contentType: PATCH_CONTENT_TYPES[type] },
        (options) => core.patchNamespacedService({ namespace, name, body: patch }, options),
      ),
    patchStatus: (namespace: string, name: string, patch: unknown, type: PatchType): Promise<V1Service> =>
      executor.execute(
        { method: 'PATCH', description: `patch status of service ${namespace}/${name}`, contentType: PATCH_CONTENT_TYPES[type] },
        (options) => core.patchNamespacedServiceStatus({ namespace, name, body: patch }, options),
      ),
  };
}
