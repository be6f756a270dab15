/** Small async building blocks shared by the node controllers (no threads: async concurrency). */

import { abortableSleep } from '../util/abortable-sleep.js';

/**
 * Runs `task` for every item with at most `limit` tasks in flight (upstream
 * `workqueue.ParallelizeUntil`). Stops starting new items once `signal` aborts. Errors thrown by
 * `task` are passed to `onError` (default: ignored) and never stop the other items.
 */
export async function forEachConcurrently<T>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<void>,
  options: { signal?: AbortSignal; onError?: (error: unknown, item: T) => void } = {},
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && options.signal?.aborted !== true) {
      const index = next++;
      const item = items[index] as T;
      try {
        await task(item, index);
      } catch (error) {
        options.onError?.(error, item);
      }
    }
  };
  const workers = Math.max(1, Math.min(Math.floor(limit) || 1, items.length));
  await Promise.all(Array.from({ length: workers }, worker));
}

/**
 * Upstream `wait.UntilWithContext` (sliding): runs `task` at once, then again `periodMs` after
 * each run completes, until `signal` aborts. A throwing run is reported to `onError` and the
 * loop carries on.
 */
export async function runUntilAborted(
  task: () => Promise<void>,
  periodMs: number,
  signal: AbortSignal,
  onError: (error: unknown) => void,
): Promise<void> {
  while (!signal.aborted) {
    try {
      await task();
    } catch (error) {
      onError(error);
    }
    await abortableSleep(periodMs, signal);
  }
}
