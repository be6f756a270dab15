/**
 * A request coalescer (a.k.a. batcher): many concurrent single-key lookups become one batch call.
 *
 *   const instances = new Coalescer<string, Instance | undefined>({
 *     name: 'DescribeInstances',
 *     batchLoad: (ids, { signal }) => describeInstances(ids, signal),   // Map<id, Instance | Error>
 *     singleLoad: (id, { signal }) => describeInstance(id, signal),     // used when a batch fails
 *     resolveMissing: () => undefined,                                  // a key the cloud did not answer
 *   });
 *   const instance = await instances.load('i-0123', { signal });
 *
 * Keys that arrive within `windowMs` of the oldest queued key (or until `maxBatchSize` keys are
 * queued) go out as one `batchLoad` call; at most `maxConcurrentBatches` calls are in flight and
 * keys keep queueing meanwhile, so batches grow when the cloud is slow. A key that is already
 * queued or in flight is not sent again: later callers share its answer. Nothing is cached after
 * the answer arrives.
 */
import { CoalescerBatchFailedError, CoalescerClosedError, CoalescerKeyNotFoundError } from './coalescer-errors.js';

export interface CoalescerCallContext {
  /** Aborted when every caller waiting for the keys of this call has given up. */
  signal: AbortSignal;
}

/** Hooks for metrics; every member is optional. See `createCoalescerMetrics`. */
export interface CoalescerObserver {
  /** A batch call with `size` distinct keys was sent. */
  batchSent?(size: number): void;
  /** A batch call failed; `fellBack` says whether the keys were retried one by one. */
  batchFailed?(size: number, error: unknown, fellBack: boolean): void;
  /** A single-key fallback call was sent. */
  singleSent?(): void;
  /** A load joined a key that was already queued or in flight. */
  deduplicated?(): void;
}

export interface CoalescerOptions<Key, Value> {
  /** Names the coalescer in errors and metrics, e.g. the cloud operation it batches. */
  name: string;
  /**
   * Looks many keys up at once. The answer maps keys to a value or to an `Error` for that key
   * only; a key absent from the answer is "missing" (see `resolveMissing`). The keys passed are
   * distinct (by `keyId`).
   */
  batchLoad(keys: readonly Key[], context: CoalescerCallContext): Promise<ReadonlyMap<Key, Value | Error>>;
  /** Looks one key up; when given, used for each key of a batch call that failed. */
  singleLoad?(key: Key, context: CoalescerCallContext): Promise<Value>;
  /**
   * Whether a failed batch may fall back to single lookups (default: always, when `singleLoad`
   * is given). Say no for throttling errors: turning one throttled call into N calls is a storm.
   */
  shouldFallBack?(error: unknown): boolean;
  /** The value of a key the batch answer did not contain. Without it such keys reject with `CoalescerKeyNotFoundError`. */
  resolveMissing?(key: Key): Value;
  /**
   * Identity of a key for de-duplication and for finding it in the batch answer (default: the
   * key itself, compared like a `Map` key). Give one for object keys.
   */
  keyId?(key: Key): string | number;
  /** How long the oldest queued key waits for company before its batch is sent. Default 5 ms. */
  windowMs?: number;
  /**
   * With it, the window stretches while keys keep coming: a partial batch is sent once no key
   * has joined the queue for `idleMs`, and at the latest `windowMs` after its oldest key (upstream
   * AWS's batcher waits for 100 ms of quiet). Without it, `windowMs` after the oldest key.
   */
  idleMs?: number;
  /** Most keys per batch call. Default 100. */
  maxBatchSize?: number;
  /** Most batch calls in flight (fallback lookups of a failed batch count as that batch). Default 4. */
  maxConcurrentBatches?: number;
  /**
   * Most batch calls in flight when the batch to send is full (`maxBatchSize` keys), never fewer
   * than `maxConcurrentBatches` (the default). A full batch has nothing left to wait for, so a
   * backlog of them (a node storm) may overlap its calls' latency without making more calls;
   * partial batches still wait for a slot under `maxConcurrentBatches`, which is what keeps
   * batches full when keys trickle in.
   */
  maxConcurrentFullBatches?: number;
  /** Most single fallback lookups in flight per failed batch. Default 4. */
  fallbackConcurrency?: number;
  observer?: CoalescerObserver;
  /** Millisecond clock (default `Date.now`, so fake timers control it). */
  now?: () => number;
}

export interface CoalescerLoadOptions {
  /** Rejects this caller's promise with `signal.reason` when aborted; other callers are unaffected. */
  signal?: AbortSignal;
}

export const COALESCER_DEFAULTS = {
  windowMs: 5,
  maxBatchSize: 100,
  maxConcurrentBatches: 4,
  fallbackConcurrency: 4,
} as const;

interface Waiter<Value> {
  resolve(value: Value): void;
  reject(error: unknown): void;
  release(): void;
}

interface Entry<Key, Value> {
  readonly id: unknown;
  readonly key: Key;
  readonly waiters: Set<Waiter<Value>>;
  readonly enqueuedAt: number;
  batch: Batch<Key, Value> | undefined;
}

interface Batch<Key, Value> {
  readonly entries: readonly Entry<Key, Value>[];
  readonly controller: AbortController;
}

export class Coalescer<Key, Value> {
  readonly name: string;
  readonly #options: CoalescerOptions<Key, Value>;
  readonly #windowMs: number;
  readonly #idleMs: number | undefined;
  readonly #maxBatchSize: number;
  readonly #maxConcurrentBatches: number;
  readonly #maxConcurrentFullBatches: number;
  readonly #fallbackConcurrency: number;
  readonly #now: () => number;
  /** Every key queued or in flight, by id. */
  readonly #entries = new Map<unknown, Entry<Key, Value>>();
  /** Keys waiting to be sent, oldest first. */
  readonly #queue = new Set<Entry<Key, Value>>();
  #inFlight = 0;
  /** When the newest queued key joined. */
  #lastQueuedAt = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  constructor(options: CoalescerOptions<Key, Value>) {
    this.name = options.name;
    this.#options = options;
    this.#windowMs = positiveOrDefault(options.windowMs, COALESCER_DEFAULTS.windowMs, 'windowMs', 0);
    this.#idleMs = options.idleMs === undefined ? undefined : positiveOrDefault(options.idleMs, 0, 'idleMs', 0);
    this.#maxBatchSize = positiveOrDefault(options.maxBatchSize, COALESCER_DEFAULTS.maxBatchSize, 'maxBatchSize', 1);
    this.#maxConcurrentBatches = positiveOrDefault(options.maxConcurrentBatches, COALESCER_DEFAULTS.maxConcurrentBatches, 'maxConcurrentBatches', 1);
    this.#maxConcurrentFullBatches = Math.max(
      this.#maxConcurrentBatches,
      positiveOrDefault(options.maxConcurrentFullBatches, this.#maxConcurrentBatches, 'maxConcurrentFullBatches', 1),
    );
    this.#fallbackConcurrency = positiveOrDefault(options.fallbackConcurrency, COALESCER_DEFAULTS.fallbackConcurrency, 'fallbackConcurrency', 1);
    this.#now = options.now ?? Date.now;
  }

  /** Keys queued and not yet sent. */
  get queuedKeys(): number {
    return this.#queue.size;
  }

  /** Batch calls (or fallback rounds) in flight. */
  get batchesInFlight(): number {
    return this.#inFlight;
  }

  /** Resolves with the key's value, or rejects with the key's error. */
  load(key: Key, options: CoalescerLoadOptions = {}): Promise<Value> {
    const signal = options.signal;
    if (this.#closed) return Promise.reject(new CoalescerClosedError(this.name));
    if (signal?.aborted) return Promise.reject(signal.reason);
    const id = this.#options.keyId ? this.#options.keyId(key) : key;
    let entry = this.#entries.get(id);
    if (entry === undefined) {
      entry = { id, key, waiters: new Set(), enqueuedAt: this.#now(), batch: undefined };
      this.#entries.set(id, entry);
      this.#queue.add(entry);
      this.#lastQueuedAt = entry.enqueuedAt;
    } else {
      this.#options.observer?.deduplicated?.();
    }
    const joined = entry;
    const promise = new Promise<Value>((resolve, reject) => {
      const onAbort = (): void => {
        joined.waiters.delete(waiter);
        reject(signal?.reason);
        this.#abandonIfUnwanted(joined);
      };
      const waiter: Waiter<Value> = {
        resolve,
        reject,
        release: () => signal?.removeEventListener('abort', onAbort),
      };
      joined.waiters.add(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    this.#pump();
    return promise;
  }

  /** Rejects every queued (not yet sent) key with `CoalescerClosedError`; calls in flight finish. */
  close(): void {
    this.#closed = true;
    this.#clearTimer();
    const queued = [...this.#queue];
    this.#queue.clear();
    for (const entry of queued) this.#settle(entry, { error: new CoalescerClosedError(this.name) });
  }

  #abandonIfUnwanted(entry: Entry<Key, Value>): void {
    if (entry.waiters.size > 0) return;
    if (entry.batch === undefined) {
      this.#queue.delete(entry);
      this.#forget(entry);
      this.#pump();
      return;
    }
    const batch = entry.batch;
    if (batch.entries.every((member) => member.waiters.size === 0)) {
      // Nobody wants any answer of this call any more: stop it, and let new loads start afresh.
      for (const member of batch.entries) this.#forget(member);
      batch.controller.abort(new Error(`${this.name}: every caller of this batch gave up`));
    }
  }

  #forget(entry: Entry<Key, Value>): void {
    if (this.#entries.get(entry.id) === entry) this.#entries.delete(entry.id);
  }

  /**
   * Sends full batches while the full batches' slots allow; a partial batch waits for the timer,
   * armed for the end of the oldest queued key's window (never synchronously, so loads of the same
   * tick share it), and for a slot under `maxConcurrentBatches`.
   */
  #pump(): void {
    if (this.#closed) return;
    while (this.#inFlight < this.#maxConcurrentFullBatches && this.#queue.size >= this.#maxBatchSize) {
      this.#dispatch(this.#takeBatch());
    }
    if (this.#queue.size === 0) {
      this.#clearTimer();
      return;
    }
    if (this.#timer !== undefined || this.#inFlight >= this.#maxConcurrentBatches) return;
    this.#armTimer();
  }

  /** The end of the queue's window: `windowMs` after the oldest key, or sooner after `idleMs` of quiet. */
  #windowEnd(): number {
    const oldest = this.#queue.values().next().value as Entry<Key, Value>;
    const latest = oldest.enqueuedAt + this.#windowMs;
    return this.#idleMs === undefined ? latest : Math.min(latest, this.#lastQueuedAt + this.#idleMs);
  }

  /** A timer for the window's end; when keys joined meanwhile (`idleMs`), it is armed again for the new end. */
  #armTimer(): void {
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        if (this.#closed || this.#queue.size === 0) return;
        if (this.#idleMs !== undefined && this.#windowEnd() > this.#now()) this.#armTimer();
        else this.#flush();
      },
      Math.max(0, this.#windowEnd() - this.#now()),
    );
  }

  /** The oldest key's window is over: send what is queued, as slots allow. */
  #flush(): void {
    if (this.#closed) return;
    while (this.#inFlight < this.#maxConcurrentBatches && this.#queue.size > 0) {
      this.#dispatch(this.#takeBatch());
    }
    this.#pump();
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #takeBatch(): Entry<Key, Value>[] {
    const entries: Entry<Key, Value>[] = [];
    for (const entry of this.#queue) {
      if (entries.length >= this.#maxBatchSize) break;
      entries.push(entry);
    }
    for (const entry of entries) this.#queue.delete(entry);
    return entries;
  }

  #dispatch(entries: Entry<Key, Value>[]): void {
    const batch: Batch<Key, Value> = { entries, controller: new AbortController() };
    for (const entry of entries) entry.batch = batch;
    this.#inFlight++;
    this.#options.observer?.batchSent?.(entries.length);
    void this.#runBatch(batch).finally(() => {
      this.#inFlight--;
      this.#pump();
    });
  }

  async #runBatch(batch: Batch<Key, Value>): Promise<void> {
    const keys = batch.entries.map((entry) => entry.key);
    const signal = batch.controller.signal;
    let answer: ReadonlyMap<Key, Value | Error>;
    try {
      answer = await Promise.resolve().then(() => this.#options.batchLoad(keys, { signal }));
    } catch (error) {
      await this.#batchFailed(batch, error);
      return;
    }
    const lookup = this.#indexAnswer(answer);
    for (const entry of batch.entries) {
      if (lookup.has(entry.id)) {
        const value = lookup.get(entry.id) as Value | Error;
        this.#settle(entry, value instanceof Error ? { error: value } : { value });
      } else if (this.#options.resolveMissing) {
        this.#settleWith(entry, () => ({ value: this.#options.resolveMissing!(entry.key) }));
      } else {
        this.#settle(entry, { error: new CoalescerKeyNotFoundError(this.name, entry.key, describeKey(entry.id)) });
      }
    }
  }

  #indexAnswer(answer: ReadonlyMap<Key, Value | Error>): ReadonlyMap<unknown, Value | Error> {
    const keyId = this.#options.keyId;
    if (keyId === undefined) return answer;
    const index = new Map<unknown, Value | Error>();
    for (const [key, value] of answer) index.set(keyId(key), value);
    return index;
  }

  async #batchFailed(batch: Batch<Key, Value>, error: unknown): Promise<void> {
    const singleLoad = this.#options.singleLoad;
    const signal = batch.controller.signal;
    let fallBack = singleLoad !== undefined && !signal.aborted;
    if (fallBack) {
      try {
        fallBack = this.#options.shouldFallBack?.(error) ?? true;
      } catch {
        fallBack = false;
      }
    }
    this.#options.observer?.batchFailed?.(batch.entries.length, error, fallBack);
    if (!fallBack || singleLoad === undefined) {
      const failure = signal.aborted ? error : new CoalescerBatchFailedError(this.name, batch.entries.length, error);
      for (const entry of batch.entries) this.#settle(entry, { error: failure });
      return;
    }
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < batch.entries.length) {
        const entry = batch.entries[next++] as Entry<Key, Value>;
        if (entry.waiters.size === 0) {
          this.#forget(entry);
          continue;
        }
        this.#options.observer?.singleSent?.();
        try {
          this.#settle(entry, { value: await singleLoad(entry.key, { signal }) });
        } catch (singleError) {
          this.#settle(entry, { error: singleError });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.#fallbackConcurrency, batch.entries.length) }, worker));
  }

  #settleWith(entry: Entry<Key, Value>, compute: () => { value: Value }): void {
    try {
      this.#settle(entry, compute());
    } catch (error) {
      this.#settle(entry, { error });
    }
  }

  #settle(entry: Entry<Key, Value>, outcome: { value: Value } | { error: unknown }): void {
    this.#forget(entry);
    const waiters = [...entry.waiters];
    entry.waiters.clear();
    for (const waiter of waiters) {
      waiter.release();
      if ('error' in outcome) waiter.reject(outcome.error);
      else waiter.resolve(outcome.value);
    }
  }
}

function positiveOrDefault(value: number | undefined, fallback: number, option: string, minimum: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < minimum) throw new RangeError(`coalescer ${option} must be a number >= ${minimum}, got ${value}`);
  return option === 'windowMs' || option === 'idleMs' ? value : Math.floor(value);
}

function describeKey(id: unknown): string {
  return typeof id === 'string' ? JSON.stringify(id) : String(id);
}
