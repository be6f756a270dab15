/**
 * The watch transport the resilient informer needs, implemented over client-node's `Watch`
 * (newline-delimited JSON over a long GET with `?watch=true`).
 */
import { Watch, type KubeConfig } from '@kubernetes/client-node';

/**
 * Opens a watch on `path`. `onEvent` gets each event's type and raw (wire JSON) object; `onDone`
 * is called once when the stream ends (`error` null for a normal server-side close). Resolves to
 * a function that aborts the stream.
 */
export type WatchFunction = (
  path: string,
  query: Record<string, string | number | boolean>,
  onEvent: (type: string, object: unknown) => void,
  onDone: (error: unknown) => void,
) => Promise<() => void>;

/**
 * Default inactivity timeout: longer than the API server's bookmark interval (about 1 min, we
 * ask for bookmarks), short enough to notice a silently dead connection.
 */
export const DEFAULT_WATCH_INACTIVITY_TIMEOUT_MS = 150_000;

export function createClientNodeWatch(kubeConfig: KubeConfig, inactivityTimeoutMs = DEFAULT_WATCH_INACTIVITY_TIMEOUT_MS): WatchFunction {
  const watch = new Watch(kubeConfig);
  // client-node hard-codes a private 30 s inactivity timeout, which would drop every quiet watch
  // before the first bookmark arrives. Adjust it when the field is there (checked by a test).
  if (typeof Reflect.get(watch, 'requestTimeoutMs') === 'number') Reflect.set(watch, 'requestTimeoutMs', inactivityTimeoutMs);
  return async (path, query, onEvent, onDone) => {
    const controller = await watch.watch(path, query, (type, object) => onEvent(type, object), onDone);
    return () => controller.abort();
  };
}
