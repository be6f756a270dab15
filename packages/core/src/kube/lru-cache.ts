/** A small least-recently-used map (client-go's event caches hold 4096 entries). */
export class LruCache<K, V> {
  readonly #entries = new Map<K, V>();
  readonly #capacity: number;

  constructor(capacity: number) {
    if (!(capacity >= 1)) throw new RangeError(`LRU capacity must be >= 1, got ${capacity}`);
    this.#capacity = capacity;
  }

  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.#capacity) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
  }

  /** Removes every entry for which `stale` is true; returns how many. */
  deleteWhere(stale: (value: V, key: K) => boolean): number {
    let removed = 0;
    for (const [key, value] of this.#entries) {
      if (!stale(value, key)) continue;
      this.#entries.delete(key);
      removed++;
    }
    return removed;
  }

  get size(): number {
    return this.#entries.size;
  }
}
