/**
 * Cached lists with a refresh period (upstream's TimedCache of VM lists per resource group and
 * of VMs per scale set): an entry is listed again when it is older than its TTL, or on a miss
 * when it is older than the minimum refresh interval (a node that just appeared is found without
 * a list storm). Concurrent readers of one key share one list call.
 */
export interface TimedListCacheOptions {
  /** Refresh period; 0 disables caching (every read lists). */
  ttlMs: number;
  /** A miss lists again only when the cached list is at least this old. */
  minRefreshIntervalMs: number;
  now?: () => number;
}

interface Entry<T> {
  items: T[];
  fetchedAt: number;
}

export class TimedListCache<T> {
  readonly #entries = new Map<string, Entry<T>>();
  readonly #loading = new Map<string, Promise<Entry<T>>>();
  readonly #options: Required<TimedListCacheOptions>;

  constructor(options: TimedListCacheOptions) {
    this.#options = { now: Date.now, ...options };
  }

  /** The cached list of `key` (listed with `load` when missing or older than the TTL). */
  async list(key: string, load: () => Promise<T[]>): Promise<T[]> {
    const entry = this.#entries.get(key);
    if (entry !== undefined && this.#options.ttlMs > 0 && this.#options.now() - entry.fetchedAt < this.#options.ttlMs) return entry.items;
    return (await this.#refresh(key, load)).items;
  }

  /**
   * The first item of `key`'s list that `matches`; on a miss the list is refreshed once when it is
   * older than the minimum refresh interval.
   */
  async find(key: string, load: () => Promise<T[]>, matches: (item: T) => boolean): Promise<T | undefined> {
    const found = (await this.list(key, load)).find(matches);
    if (found !== undefined) return found;
    const entry = this.#entries.get(key);
    if (entry !== undefined && this.#options.now() - entry.fetchedAt < this.#options.minRefreshIntervalMs) return undefined;
    return (await this.#refresh(key, load)).items.find(matches);
  }

  /** Lists `key` again when its list is at least the minimum refresh interval old (a miss elsewhere); `undefined` when it is younger. */
  async refreshAfterMiss(key: string, load: () => Promise<T[]>): Promise<T[] | undefined> {
    const entry = this.#entries.get(key);
    if (entry !== undefined && this.#options.now() - entry.fetchedAt < this.#options.minRefreshIntervalMs) return undefined;
    return (await this.#refresh(key, load)).items;
  }

  /** Forgets `key` (a deleted node's scale set, a changed resource group). */
  invalidate(key: string): void {
    this.#entries.delete(key);
  }

  #refresh(key: string, load: () => Promise<T[]>): Promise<Entry<T>> {
    const pending = this.#loading.get(key);
    if (pending !== undefined) return pending;
    const started = this.#options.now();
    const loading = load()
      .then((items) => {
        const entry = { items, fetchedAt: started };
        if (this.#options.ttlMs > 0) this.#entries.set(key, entry);
        return entry;
      })
      .finally(() => this.#loading.delete(key));
    this.#loading.set(key, loading);
    return loading;
  }
}
