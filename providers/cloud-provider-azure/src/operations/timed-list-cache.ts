/**
 * Cached lists with a refresh period (upstream's TimedCache of VM lists per resource group and
 * of VMs per scale set): an entry is listed again when it is older than its TTL. A miss is an
 * answer only when the list it comes from was taken after the question was asked: otherwise the
 * list is taken again (a VM created a moment after the last list must never read as gone, or the
 * node lifecycle controller deletes its Node). Concurrent readers of one key share one list call,
 * so a burst of misses costs one list.
 */
export interface TimedListCacheOptions {
  /** Refresh period; 0 disables caching (every read lists). */
  ttlMs: number;
  now?: () => number;
}

interface Entry<T> {
  items: T[];
  /** When the list call that produced `items` started (for the TTL). */
  fetchedAt: number;
  /** The cache's sequence number at that start (orders list calls and questions, whatever the clock). */
  sequence: number;
}

interface Loading<T> {
  sequence: number;
  entry: Promise<Entry<T>>;
}

export class TimedListCache<T> {
  readonly #entries = new Map<string, Entry<T>>();
  readonly #loading = new Map<string, Loading<T>>();
  readonly #options: Required<TimedListCacheOptions>;
  /** Numbers questions and list calls in the order they happen. */
  #sequence = 0;

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
   * The first item of `key`'s list that `matches`; on a miss, from a list taken after this call
   * began (the cached one when it is that recent, else a new or in-flight one started since).
   */
  async find(key: string, load: () => Promise<T[]>, matches: (item: T) => boolean): Promise<T | undefined> {
    const askedAt = this.question();
    const found = (await this.list(key, load)).find(matches);
    if (found !== undefined) return found;
    return (await this.refreshAfterMiss(key, load, askedAt)).find(matches);
  }

  /** A ticket for a question about to be asked, for `refreshAfterMiss`. */
  question(): number {
    return ++this.#sequence;
  }

  /**
   * `key`'s list as taken after the question `askedAt` (a ticket of `question()`) was asked: the
   * cached list when it started later, an in-flight one that did, or a new one.
   */
  async refreshAfterMiss(key: string, load: () => Promise<T[]>, askedAt: number): Promise<T[]> {
    const entry = this.#entries.get(key);
    if (entry !== undefined && entry.sequence > askedAt) return entry.items;
    const pending = this.#loading.get(key);
    if (pending !== undefined && pending.sequence > askedAt) return (await pending.entry).items;
    if (pending !== undefined) await pending.entry.catch(() => undefined);
    return (await this.#refresh(key, load)).items;
  }

  /** Forgets `key` (a deleted node's scale set, a changed resource group). */
  invalidate(key: string): void {
    this.#entries.delete(key);
  }

  #refresh(key: string, load: () => Promise<T[]>): Promise<Entry<T>> {
    const pending = this.#loading.get(key);
    if (pending !== undefined) return pending.entry;
    const startedAt = this.#options.now();
    const sequence = ++this.#sequence;
    const entry = load()
      .then((items) => {
        const loaded = { items, fetchedAt: startedAt, sequence };
        if (this.#options.ttlMs > 0) this.#entries.set(key, loaded);
        return loaded;
      })
      .finally(() => this.#loading.delete(key));
    this.#loading.set(key, { sequence, entry });
    return entry;
  }
}
