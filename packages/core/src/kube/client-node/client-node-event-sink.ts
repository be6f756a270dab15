/** EventSink over client-node's CoreV1Api (`/api/v1/namespaces/{namespace}/events`). */
import type { CoreV1Api, CoreV1Event } from '@kubernetes/client-node';
import type { EventSink } from '../event-recorder.js';
import { PATCH_CONTENT_TYPES } from './patch-content-type.js';
import type { RequestExecutor } from './request-executor.js';

export function createClientNodeEventSink(core: CoreV1Api, executor: RequestExecutor): EventSink {
  return {
    create: (namespace: string, event: CoreV1Event): Promise<CoreV1Event> =>
      executor.execute({ method: 'POST', description: `create event ${namespace}/${event.metadata?.name ?? ''}` }, (options) =>
        core.createNamespacedEvent({ namespace, body: event }, options),
      ),
    patch: (namespace, name, patch): Promise<CoreV1Event> =>
      executor.execute(
        { method: 'PATCH', description: `patch event ${namespace}/${name}`, contentType: PATCH_CONTENT_TYPES.strategic },
        (options) => core.patchNamespacedEvent({ namespace, name, body: patch }, options),
      ),
  };
}
