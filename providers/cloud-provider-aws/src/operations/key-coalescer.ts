/**
 * Coalesces concurrent single-key lookups into batched calls: requests arriving within
 * `windowMs` of the first one (or until `maxBatchSize` distinct keys) share one `fetchMany`.
 * When the batched call fails, every key is retried with `fetchOne` (bounded concurrency), so one
 * bad key cannot fail its neighbours. Each caller gets its own answer or error, and may abort.
 *
 * Kept behind the small `Coalescer` interface so a generic coalescer from @ccm/core can replace it.
 */
export interface Coalescer<K, V> {
  load(key: K, signal?: AbortSignal): Promise<V>;
}

export interface KeyCoalescerOptions<K, V> {
  fetchMany(keys: K[]): Promise<Map<K, V>>;
  fetchOne(key: K): Promise<V>;
  /** Answer for a key the batched call did not return. */
  missing(key: K): V;
  windowMs?: number;
  maxBatchSize?: number;
  fallbackConcurrency?: number;
}

interface Waiter<V> {
  resolve(value: V): void;
  reject(error: unknown): void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

export class KeyCoalescer<K, V> implements Coalescer<K, V> {
  readonly #options: Required<KeyCoalescerOptions<K, V>>;
  #pending = new Map<K, Waiter<V>[]>();
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: KeyCoalescerOptions<K, V>) {
    this.#options = { windowMs: 5, maxBatchSize: 1000, fallbackConcurrency: 10, ...options };
  }

  load(key: K, signal?: AbortSignal): Promise<V> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<V>((resolve, reject) => {
      const waiter: Waiter<V> = { resolve, reject, signal, onAbort: undefined };
      if (signal) {
        waiter.onAbort = () => {
          const waiters = this.#pending.get(key);
          if (waiters) {
            const index = waiters.indexOf(waiter);
            if (index >= 0) waiters.splice(index, 1);
          }
          reject(signal.reason);
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      const waiters = this.#pending.get(key);
      if (waiters) waiters.push(waiter);
      else this.#pending.set(key, [waiter]);
      if (this.#pending.size >= this.#options.maxBatchSize) this.#flush();
      else if (this.#timer === undefined) this.#timer = setTimeout(() => this.#flush(), this.#options.windowMs);
    });
  }

  #flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#pending;
    this.#pending = new Map();
    for (const [key, waiters] of batch) if (waiters.length === 0) batch.delete(key);
    if (batch.size > 0) void this.#run(batch);
  }

  async #run(batch: Map<K, Waiter<V>[]>): Promise<void> {
    const keys = [...batch.keys()];
    let results: Map<K, V>;
    try {
      results = await this.#options.fetchMany(keys);
    } catch {
      await this.#fallback(batch);
      return;
    }
    for (const [key, waiters] of batch) {
      settle(waiters, { ok: true, value: results.has(key) ? (results.get(key) as V) : this.#options.missing(key) });
    }
  }

  async #fallback(batch: Map<K, Waiter<V>[]>): Promise<void> {
    const entries = [...batch.entries()];
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < entries.length) {
        const entry = entries[next++];
        if (!entry) return;
        const [key, waiters] = entry;
        try {
          settle(waiters, { ok: true, value: await this.#options.fetchOne(key) });
        } catch (error) {
          settle(waiters, { ok: false, error });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.#options.fallbackConcurrency, entries.length) }, worker));
  }
}

function settle<V>(waiters: Waiter<V>[], outcome: { ok: true; value: V } | { ok: false; error: unknown }): void {
  for (const waiter of waiters) {
    if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener('abort', waiter.onAbort);
    if (outcome.ok) waiter.resolve(outcome.value);
    else waiter.reject(outcome.error);
  }
}
