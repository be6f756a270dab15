/**
 * The service controller's in-memory record of the last service state it processed, keyed
 * `namespace/name` (upstream `serviceCache`). Needed to clean up load balancers of services
 * deleted without the finalizer, and to know which services node syncs must look at.
 */
import type { V1Service } from '@kubernetes/client-node';

export interface CachedService {
  /** The last processed state; undefined until the first sync stores it. */
  state: V1Service | undefined;
}

export class ServiceCache {
  readonly #services = new Map<string, CachedService>();

  get(key: string): CachedService | undefined {
    return this.#services.get(key);
  }

  getOrCreate(key: string): CachedService {
    let cached = this.#services.get(key);
    if (cached === undefined) {
      cached = { state: undefined };
      this.#services.set(key, cached);
    }
    return cached;
  }

  set(key: string, cached: CachedService): void {
    this.#services.set(key, cached);
  }

  delete(key: string): void {
    this.#services.delete(key);
  }

  listKeys(): string[] {
    return [...this.#services.keys()];
  }

  /** The cached states (entries not yet synced give `undefined`, which node syncs skip). */
  allServices(): Array<V1Service | undefined> {
    return [...this.#services.values()].map((cached) => cached.state);
  }

  get size(): number {
    return this.#services.size;
  }
}
