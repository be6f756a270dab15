/** NodeApi over client-node's CoreV1Api (`/api/v1/nodes`). */
import type { CoreV1Api, V1Node } from '@kubernetes/client-node';
import type { NodeApi, PatchType } from '../ports.js';
import type { JsonWriteClient } from './json-write-client.js';
import { PATCH_CONTENT_TYPES } from './patch-content-type.js';
import type { RequestExecutor } from './request-executor.js';

const nodePath = (name: string): string => `/api/v1/nodes/${encodeURIComponent(name)}`;

/** Reads and deletes through client-node's CoreV1Api; given `writes`, the update and the patches go through it (`json-write-client.ts`). */
export function createClientNodeNodeApi(core: CoreV1Api, executor: RequestExecutor, writes?: JsonWriteClient): NodeApi {
  if (writes !== undefined) {
    return {
      ...createClientNodeNodeApi(core, executor),
      update: (node: V1Node): Promise<V1Node> => {
        const name = node.metadata?.name ?? '';
        return executor.execute({ method: 'PUT', description: `update node ${name}` }, () =>
          writes.send<V1Node>({ method: 'PUT', path: nodePath(name), body: node, bodyModel: 'V1Node', answerModel: 'V1Node' }),
        );
      },
      patch: (name: string, patch: unknown, type: PatchType): Promise<V1Node> =>
        executor.execute({ method: 'PATCH', description: `patch node ${name}` }, () =>
          writes.send<V1Node>({ method: 'PATCH', path: nodePath(name), body: patch, contentType: PATCH_CONTENT_TYPES[type], answerModel: 'V1Node' }),
        ),
      patchStatus: (name: string, patch: unknown, type: PatchType): Promise<V1Node> =>
        executor.execute({ method: 'PATCH', description: `patch status of node ${name}` }, () =>
          writes.send<V1Node>({ method: 'PATCH', path: `${nodePath(name)}/status`, body: patch, contentType: PATCH_CONTENT_TYPES[type], answerModel: 'V1Node' }),
        ),
    };
  }
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
