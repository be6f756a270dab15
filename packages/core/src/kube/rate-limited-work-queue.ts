/**
 * client-go's rate-limiting work queue (`workqueue.NewTypedRateLimitingQueueWithConfig` with
 * `DefaultTypedControllerRateLimiter`):
 * - a key waiting in the queue is held once (dirty set), however often it is added;
 * - a key being processed is never handed to a second worker: an add during processing is
 *   deferred until `done`;
 * - `addAfter` keeps the earliest pending deadline per key;
 * - `addRateLimited` waits max(per-item exponential backoff, overall token bucket delay);
 * - `shutDown` wakes every waiting `get`, which then drains the remaining keys and returns undefined.
 */
import type { Registry } from 'prom-client';
import { TokenBucket } from './token-bucket.js';
import type { WorkQueue, WorkQueueOptions } from './work-queue.js';
import { workQueueMetrics, type WorkQueueMetrics } from './work-queue-metrics.js';

export const DEFAULT_WORK_QUEUE_BASE_DELAY_MS = 5;
export const DEFAULT_WORK_QUEUE_MAX_DELAY_MS = 1000 * 1000;
export const DEFAULT_WORK_QUEUE_OVERALL_QPS = 10;
export const DEFAULT_WORK_QUEUE_OVERALL_BURST = 100;

interface Waiting<K> {
  readyAt: number;
  timer: NodeJS.Timeout;
  key: K;
}

export class RateLimitedWorkQueue<K extends string> implements WorkQueue<K> {
  readonly name: string;
  readonly #baseDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #bucket: TokenBucket;
  readonly #queue: K[] = [];
  readonly #dirty = new Set<K>();
  readonly #processing = new Map<K, number>();
  readonly #addedAt = new Map<K, number>();
  readonly #failures = new Map<K, number>();
  readonly #waitingForDelay = new Map<K, Waiting<K>>();
  readonly #getters: Array<(key: K | undefined) => void> = [];
  readonly #metrics: WorkQueueMetrics;
  #shuttingDown = false;

  constructor(options: WorkQueueOptions, metrics?: Registry) {
    this.name = options.name;
    this.#baseDelayMs = options.baseDelayMs ?? DEFAULT_WORK_QUEUE_BASE_DELAY_MS;
    this.#maxDelayMs = options.maxDelayMs ?? DEFAULT_WORK_QUEUE_MAX_DELAY_MS;
    this.#bucket = new TokenBucket({
      qps: options.overallQps ?? DEFAULT_WORK_QUEUE_OVERALL_QPS,
      burst: options.overallBurst ?? DEFAULT_WORK_QUEUE_OVERALL_BURST,
    });
    this.#metrics = workQueueMetrics(metrics, { name: this.name, processingStartTimes: () => this.#processing.values() });
  }

  add(key: K): void {
    if (this.#shuttingDown || this.#dirty.has(key)) return;
    this.#metrics.add();
    this.#dirty.add(key);
    if (!this.#addedAt.has(key)) this.#addedAt.set(key, Date.now());
    if (this.#processing.has(key)) return;
    this.#enqueue(key);
  }

  addAfter(key: K, delayMs: number): void {
    if (this.#shuttingDown) return;
    this.#metrics.retry();
    if (delayMs <= 0) {
      this.add(key);
      return;
    }
    const readyAt = Date.now() + delayMs;
    const pending = this.#waitingForDelay.get(key);
    if (pending !== undefined) {
      if (pending.readyAt <= readyAt) return;
      clearTimeout(pending.timer);
    }
    const timer = setTimeout(() => {
      this.#waitingForDelay.delete(key);
      this.add(key);
    }, delayMs);
    timer.unref();
    this.#waitingForDelay.set(key, { readyAt, timer, key });
  }

  addRateLimited(key: K): void {
    this.addAfter(key, this.#when(key));
  }

  forget(key: K): void {
    this.#failures.delete(key);
  }

  numRequeues(key: K): number {
    return this.#failures.get(key) ?? 0;
  }

  get(): Promise<K | undefined> {
    const key = this.#queue.shift();
    if (key !== undefined) return Promise.resolve(this.#startProcessing(key));
    if (this.#shuttingDown) return Promise.resolve(undefined);
    return new Promise((resolve) => this.#getters.push(resolve));
  }

  done(key: K): void {
    const startedAt = this.#processing.get(key);
    if (startedAt === undefined) return;
    this.#metrics.done(Date.now() - startedAt);
    this.#processing.delete(key);
    if (this.#dirty.has(key)) this.#enqueue(key);
  }

  shutDown(): void {
    if (this.#shuttingDown) return;
    this.#shuttingDown = true;
    for (const waiting of this.#waitingForDelay.values()) clearTimeout(waiting.timer);
    this.#waitingForDelay.clear();
    this.#metrics.release();
    for (const getter of this.#getters.splice(0)) getter(undefined);
  }

  /** True once `shutDown` was called. */
  shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  length(): number {
    return this.#queue.length;
  }

  /** ItemExponentialFailureRateLimiter combined (max) with the overall BucketRateLimiter. */
  #when(key: K): number {
    const failures = this.#failures.get(key) ?? 0;
    this.#failures.set(key, failures + 1);
    const backoff = Math.min(this.#baseDelayMs * 2 ** failures, this.#maxDelayMs);
    return Math.max(backoff, this.#bucket.reserve());
  }

  #enqueue(key: K): void {
    const getter = this.#getters.shift();
    if (getter !== undefined) getter(this.#startProcessing(key));
    else this.#queue.push(key);
  }

  #startProcessing(key: K): K {
    const now = Date.now();
    this.#metrics.get(now - (this.#addedAt.get(key) ?? now));
    this.#addedAt.delete(key);
    this.#processing.set(key, now);
    this.#dirty.delete(key);
    return key;
  }
}

/** A new rate-limited work queue; with `metrics`, it reports the `workqueue_*` metrics. */
export function createWorkQueue<K extends string>(options: WorkQueueOptions, metrics?: Registry): WorkQueue<K> {
  return new RateLimitedWorkQueue<K>(options, metrics);
}

/** `ControllerContext.createWorkQueue` bound to a registry. */
export function workQueueFactory(metrics?: Registry): <K extends string>(options: WorkQueueOptions) => WorkQueue<K> {
  return <K extends string>(options: WorkQueueOptions) => new RateLimitedWorkQueue<K>(options, metrics);
}
