/**
 * A rate-limited work queue with client-go semantics: keys are de-duplicated while waiting, a key
 * being processed is never handed to a second worker (re-adds while processing are deferred until
 * `done`), per-item exponential backoff (5 ms doubling to 1000 s) combined with an overall
 * token bucket (10 qps, burst 100), and delayed adds.
 */
export interface WorkQueue<K extends string = string> {
  add(key: K): void;
  addAfter(key: K, delayMs: number): void;
  /** add after max(per-item backoff, overall bucket delay); increments the item's requeue count. */
  addRateLimited(key: K): void;
  /** Resets the item's backoff. */
  forget(key: K): void;
  numRequeues(key: K): number;
  /** Next key to process, or `undefined` once shut down and drained. */
  get(): Promise<K | undefined>;
  /** Must be called after processing a key returned by `get`. */
  done(key: K): void;
  shutDown(): void;
  length(): number;
}

export interface WorkQueueOptions {
  /** Used for the `workqueue_*` metrics `name` label (upstream: Nodes, service, node, Routes). */
  name: string;
  /** Per-item backoff start; default 5 ms. */
  baseDelayMs?: number;
  /** Per-item backoff cap; default 1000 s. */
  maxDelayMs?: number;
  /**
   * The overall token bucket every `addRateLimited` also waits for; default 10 qps.
   * `Infinity` disables it, leaving only the per-item backoff (upstream's service controller
   * queues).
   */
  overallQps?: number;
  /** Default 100. */
  overallBurst?: number;
}
