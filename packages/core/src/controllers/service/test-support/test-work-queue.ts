/**
 * A deterministic WorkQueue for controller tests with client-go semantics (de-duplication, a key
 * is never handed out twice while processing, per-item exponential backoff, delayed adds on
 * `setTimeout` so fake timers drive them) and a log of delayed adds (like upstream's spy queue).
 */
import type { WorkQueue, WorkQueueOptions } from '../../../kube/work-queue.js';

export interface DelayedAdd<K> {
  key: K;
  delayMs: number;
  rateLimited: boolean;
}

export class TestWorkQueue<K extends string = string> implements WorkQueue<K> {
  readonly name: string;
  /** Every addAfter / addRateLimited call, oldest first. */
  readonly delayedAdds: Array<DelayedAdd<K>> = [];
  readonly #baseDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #queue: K[] = [];
  readonly #dirty = new Set<K>();
  readonly #processing = new Set<K>();
  readonly #requeues = new Map<K, number>();
  readonly #waiters: Array<(key: K | undefined) => void> = [];
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  #shuttingDown = false;

  constructor(options: WorkQueueOptions = { name: 'test' }) {
    this.name = options.name;
    this.#baseDelayMs = options.baseDelayMs ?? 5;
    this.#maxDelayMs = options.maxDelayMs ?? 1_000_000;
  }

  add(key: K): void {
    if (this.#shuttingDown || this.#dirty.has(key)) return;
    this.#dirty.add(key);
    if (this.#processing.has(key)) return;
    this.#push(key);
  }

  addAfter(key: K, delayMs: number): void {
    this.delayedAdds.push({ key, delayMs, rateLimited: false });
    this.#schedule(key, delayMs);
  }

  addRateLimited(key: K): void {
    const failures = this.#requeues.get(key) ?? 0;
    this.#requeues.set(key, failures + 1);
    const delayMs = Math.min(this.#baseDelayMs * 2 ** failures, this.#maxDelayMs);
    this.delayedAdds.push({ key, delayMs, rateLimited: true });
    this.#schedule(key, delayMs);
  }

  forget(key: K): void {
    this.#requeues.delete(key);
  }

  numRequeues(key: K): number {
    return this.#requeues.get(key) ?? 0;
  }

  get(): Promise<K | undefined> {
    const next = this.#take();
    if (next !== undefined || this.#shuttingDown) return Promise.resolve(next);
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** The next key if one is ready, without waiting (tests). */
  tryGet(): K | undefined {
    return this.#take();
  }

  done(key: K): void {
    this.#processing.delete(key);
    if (this.#dirty.has(key)) this.#push(key);
  }

  shutDown(): void {
    this.#shuttingDown = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    for (const waiter of this.#waiters.splice(0)) waiter(undefined);
  }

  length(): number {
    return this.#queue.length;
  }

  /** Keys waiting to be processed, in order (tests). */
  pendingKeys(): K[] {
    return [...this.#queue];
  }

  #schedule(key: K, delayMs: number): void {
    if (this.#shuttingDown) return;
    if (delayMs <= 0) {
      this.add(key);
      return;
    }
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      this.add(key);
    }, delayMs);
    this.#timers.add(timer);
  }

  #push(key: K): void {
    const waiter = this.#waiters.shift();
    if (waiter !== undefined) {
      this.#dirty.delete(key);
      this.#processing.add(key);
      waiter(key);
      return;
    }
    this.#queue.push(key);
  }

  #take(): K | undefined {
    const key = this.#queue.shift();
    if (key === undefined) return undefined;
    this.#dirty.delete(key);
    this.#processing.add(key);
    return key;
  }
}
