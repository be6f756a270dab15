/** NodeApi over client-node's CoreV1Api (`/api/v1/nodes`). */
import type { CoreV1Api, V1Node } from '@kubernetes/client-node';
import type { NodeApi, PatchType } from '../ports.js';
import { PATCH_CONTENT_TYPES } from './patch-content-type.js';
import type { RequestExecutor } from './request-executor.js';

export function createClientNodeNodeApi(core: CoreV1Api, executor: RequestExecutor): NodeApi {
  return {
    get: (name: string): Promise<V1Node> =>
      executor.execute({ method: 'GET', description: `get node ${name}` }, (options) => core.readNode({ name }, options)),
    update: (node: V1Node): Promise<V1Node> => {
      const name = node.metadata?.name ?? '';
      return executor.execute({ method: 'PUT', description: `update node ${name}` }, (options) => core.replaceNode({ name, body: node }, options));
    },
    patch: (name: string, patch: unknown, type: PatchType): Promise<V1Node> =>
      executor.execute({ method: 'PATCH', description: `patch node ${name}`, contentType: PATCH_CONTENT_TYPES[type] }, (options) =>
        core.patchNode({ name, body: patch }, options),
      ),
    patchStatus: (name: string, patch: unknown, type: PatchType): Promise<V1Node> =>
      executor.execute({ method: 'PATCH', description: `patch status of node ${name}`, contentType: PATCH_CONTENT_TYPES[type] }, (options) =>
        core.patchNodeStatus({ name, body: patch }, options),
      ),
    delete: async (name: string): Promise<void> => {
      await executor.execute({ method: 'DELETE', description: `delete node ${name}` }, (options) => core.deleteNode({ name }, options));
    },
  };
}
