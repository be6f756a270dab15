/** EventSink over client-node's CoreV1Api (`/api/v1/namespaces/{namespace}/events`). */
import type { CoreV1Api, CoreV1Event } from '@kubernetes/client-node';
import type { EventSink } from '../event-recorder.js';
import type { JsonWriteClient } from './json-write-client.js';
import { PATCH_CONTENT_TYPES } from './patch-content-type.js';
import type { RequestExecutor } from './request-executor.js';

const eventsPath = (namespace: string): string => `/api/v1/namespaces/${encodeURIComponent(namespace)}/events`;

/** Over client-node's CoreV1Api, or, given `writes`, over it (`json-write-client.ts`). */
export function createClientNodeEventSink(core: CoreV1Api, executor: RequestExecutor, writes?: JsonWriteClient): EventSink {
  if (writes !== undefined) {
    return {
      create: (namespace: string, event: CoreV1Event): Promise<CoreV1Event> =>
        executor.execute({ method: 'POST', description: `create event ${namespace}/${event.metadata?.name ?? ''}` }, () =>
          writes.send<CoreV1Event>({ method: 'POST', path: eventsPath(namespace), body: event, bodyModel: 'CoreV1Event', answerModel: 'CoreV1Event' }),
        ),
      patch: (namespace, name, patch): Promise<CoreV1Event> =>
        executor.execute({ method: 'PATCH', description: `patch event ${namespace}/${name}` }, () =>
          writes.send<CoreV1Event>({
            method: 'PATCH',
            path: `${eventsPath(namespace)}/${encodeURIComponent(name)}`,
            body: patch,
            contentType: PATCH_CONTENT_TYPES.strategic,
            answerModel: 'CoreV1Event',
          }),
        ),
    };
  }
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
