/**
 * A SharedInformer fed directly by an in-memory resource: every committed write is delivered to
 * the handlers synchronously, before the API call that caused it resolves. It is always synced.
 */
import type { HandlerOptions, InformerHandlers, ObjectStore, SharedInformer } from '@ccm/core/kube';

export class InMemoryInformer<T> implements SharedInformer<T> {
  readonly #objects = new Map<string, T>();
  readonly #handlers: Array<InformerHandlers<T>> = [];
  readonly #resyncPeriods: number[] = [];

  /** The resync period each handler registration asked for (0 = none), in registration order. */
  get resyncPeriods(): number[] {
    return [...this.#resyncPeriods];
  }

  /** The informer cache. Objects are shared with the handlers: do not mutate them. */
  readonly store: ObjectStore<T> = {
    get: (key) => this.#objects.get(key),
    list: () => [...this.#objects.values()],
  };

  /**
   * Registers handlers; they receive a synthetic `onAdd` for every object already cached.
   * `options.resyncPeriodMs` is recorded (see {@link resyncPeriods}) but no timer runs: tests
   * call {@link resync} to simulate a resync deterministically.
   */
  addHandlers(handlers: InformerHandlers<T>, options: HandlerOptions = {}): void {
    this.#handlers.push(handlers);
    this.#resyncPeriods.push(options.resyncPeriodMs ?? 0);
    for (const object of this.#objects.values()) handlers.onAdd?.(object);
  }

  /** Always true: the in-memory cache is complete from the start. */
  hasSynced(): boolean {
    return true;
  }

  /** Resolves at once (or rejects if `signal` is already aborted). */
  waitForSync(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    return Promise.resolve();
  }

  /** Delivers `onUpdate(object, object)` for every cached object, like a periodic informer resync. */
  resync(): void {
    for (const object of this.#objects.values()) for (const handlers of this.#handlers) handlers.onUpdate?.(object, object);
  }

  /** @internal Called by the in-memory resource after a create. */
  deliverAdd(key: string, object: T): void {
    this.#objects.set(key, object);
    for (const handlers of this.#handlers) handlers.onAdd?.(object);
  }

  /** @internal Called by the in-memory resource after an update. */
  deliverUpdate(key: string, object: T): void {
    const previous = this.#objects.get(key);
    this.#objects.set(key, object);
    if (previous === undefined) {
      for (const handlers of this.#handlers) handlers.onAdd?.(object);
      return;
    }
    for (const handlers of this.#handlers) handlers.onUpdate?.(previous, object);
  }

  /** @internal Called by the in-memory resource after a removal. */
  deliverDelete(key: string): void {
    const previous = this.#objects.get(key);
    if (previous === undefined) return;
    this.#objects.delete(key);
    for (const handlers of this.#handlers) handlers.onDelete?.(previous);
  }
}
