/**
 * Batches concurrent single-key loads into one call: loads arriving within `windowMs` of the
 * first pending one (or until `maxBatchSize` distinct keys) share one `fetchMany`. Each caller
 * gets its own value or error. When the batched call fails, every key is fetched on its own
 * (`fetchOne`, bounded concurrency), so one bad key cannot fail its neighbours. Callers may abort.
 *
 * Kept behind the small `Coalescer` interface: a generic coalescer in @ccm/core can replace it.
 */
export interface Coalescer<K, V> {
  load(key: K, signal?: AbortSignal): Promise<V>;
}

export interface KeyBatcherOptions<K, V> {
  /** One call for many keys; keys absent from the answer get `missing(key)`. */
  fetchMany(keys: K[]): Promise<Map<K, V>>;
  fetchOne(key: K): Promise<V>;
  missing(key: K): V;
  /** Keys are compared with this (objects as keys): default identity. */
  keyOf?: (key: K) => string;
  windowMs?: number;
  maxBatchSize?: number;
  fallbackConcurrency?: number;
  /** Called with the size of every batch sent (metrics, tests). */
  onBatch?: (size: number) => void;
}

interface Waiter<V> {
  resolve(value: V): void;
  reject(error: unknown): void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

interface Pending<K, V> {
  key: K;
  waiters: Array<Waiter<V>>;
}

export class KeyBatcher<K, V> implements Coalescer<K, V> {
  readonly #options: Required<Omit<KeyBatcherOptions<K, V>, 'onBatch'>> & Pick<KeyBatcherOptions<K, V>, 'onBatch'>;
  #pending = new Map<string, Pending<K, V>>();
  #timer: NodeJS.Timeout | undefined;

  constructor(options: KeyBatcherOptions<K, V>) {
    this.#options = { windowMs: 5, maxBatchSize: 500, fallbackConcurrency: 8, keyOf: (key: K) => String(key), ...options };
  }

  load(key: K, signal?: AbortSignal): Promise<V> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    return new Promise<V>((resolve, reject) => {
      const id = this.#options.keyOf(key);
      const waiter: Waiter<V> = { resolve, reject, signal, onAbort: undefined };
      if (signal !== undefined) {
        waiter.onAbort = () => {
          const pending = this.#pending.get(id);
          if (pending !== undefined) {
            const index = pending.waiters.indexOf(waiter);
            if (index >= 0) pending.waiters.splice(index, 1);
          }
          reject(signal.reason as Error);
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      const pending = this.#pending.get(id);
      if (pending !== undefined) pending.waiters.push(waiter);
      else this.#pending.set(id, { key, waiters: [waiter] });
      if (this.#pending.size >= this.#options.maxBatchSize) this.#flush();
      else this.#timer ??= setTimeout(() => this.#flush(), this.#options.windowMs);
    });
  }

  #flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = [...this.#pending.values()].filter((pending) => pending.waiters.length > 0);
    this.#pending = new Map();
    if (batch.length > 0) void this.#run(batch);
  }

  async #run(batch: Array<Pending<K, V>>): Promise<void> {
    this.#options.onBatch?.(batch.length);
    let results: Map<K, V>;
    try {
      results = await this.#options.fetchMany(batch.map((pending) => pending.key));
    } catch {
      await this.#fallback(batch);
      return;
    }
    const byId = new Map([...results].map(([key, value]) => [this.#options.keyOf(key), value]));
    for (const pending of batch) {
      const id = this.#options.keyOf(pending.key);
      settle(pending.waiters, { ok: true, value: byId.has(id) ? (byId.get(id) as V) : this.#options.missing(pending.key) });
    }
  }

  async #fallback(batch: Array<Pending<K, V>>): Promise<void> {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < batch.length) {
        const pending = batch[next++];
        if (pending === undefined) return;
        try {
          settle(pending.waiters, { ok: true, value: await this.#options.fetchOne(pending.key) });
        } catch (error) {
          settle(pending.waiters, { ok: false, error });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.#options.fallbackConcurrency, batch.length) }, worker));
  }
}

function settle<V>(waiters: Array<Waiter<V>>, outcome: { ok: true; value: V } | { ok: false; error: unknown }): void {
  for (const waiter of waiters) {
    if (waiter.signal !== undefined && waiter.onAbort !== undefined) waiter.signal.removeEventListener('abort', waiter.onAbort);
    if (outcome.ok) waiter.resolve(outcome.value);
    else waiter.reject(outcome.error);
  }
}
