import { Coalescer, type CoalescerObserver } from '@ccm/core/cloud';
import { isSandboxApiError } from '../ports/sandbox-api-error.js';
import type { CallOptions, CloudInstance, SandboxCloudPort } from '../ports/sandbox-cloud-port.js';

/**
 * How instance lookups reach the cloud (cloud-config `[Global] lookup-policy`):
 * - `batched` (default): concurrent lookups (one per node, from every controller) are coalesced
 *   into `batchGetInstances` calls, and a node asked for twice at once is asked once;
 * - `single`: every lookup is its own call (upstream's one-call-per-node behaviour; the
 *   benchmark's reference row).
 */
export const LOOKUP_POLICIES = ['batched', 'single'] as const;
export type LookupPolicy = (typeof LOOKUP_POLICIES)[number];

/** The three instance reads the operations make. */
export interface InstanceLookup {
  /** The instance with this id (any state), or `undefined`. */
  getById(id: string, options?: CallOptions): Promise<CloudInstance | undefined>;
  /** Every instance with this name, terminated ones included. */
  findByName(name: string, options?: CallOptions): Promise<CloudInstance[]>;
  /** Every instance matching any id or name, each once. */
  getMany(lookup: { ids: string[]; names: string[] }, options?: CallOptions): Promise<CloudInstance[]>;
}

/** One cloud call per lookup (and one batch call per `getMany`). */
export function singleInstanceLookup(client: SandboxCloudPort): InstanceLookup {
  return {
    getById: (id, options) => client.getInstance(id, options),
    findByName: (name, options) => client.findInstancesByName(name, options),
    getMany: (lookup, options) => client.batchGetInstances(lookup, options),
  };
}

interface InstanceKey {
  by: 'id' | 'name';
  value: string;
}

const keyId = (key: InstanceKey): string => `${key.by}:${key.value}`;
const matches = (instance: CloudInstance, key: InstanceKey): boolean => (key.by === 'id' ? instance.id === key.value : instance.name === key.value);

export interface BatchedInstanceLookupOptions {
  /** See `CoalescerOptions`; the core defaults when not given. */
  windowMs?: number;
  maxBatchSize?: number;
  maxConcurrentBatches?: number;
  maxConcurrentFullBatches?: number;
  observer?: CoalescerObserver;
}

/**
 * Lookups through a `Coalescer` over `batchGetInstances`: every id and name asked for within the
 * window goes out in one call. If a batch call fails (after the client's own retries) the keys
 * are asked one by one, except when the cloud throttled us: splitting a throttled call into many
 * would only make it worse.
 */
export class BatchedInstanceLookup implements InstanceLookup {
  readonly #coalescer: Coalescer<InstanceKey, CloudInstance[]>;

  constructor(client: SandboxCloudPort, options: BatchedInstanceLookupOptions = {}) {
    this.#coalescer = new Coalescer<InstanceKey, CloudInstance[]>({
      name: 'batchGetInstances',
      keyId,
      batchLoad: async (keys, { signal }) => {
        const ids = keys.filter((key) => key.by === 'id').map((key) => key.value);
        const names = keys.filter((key) => key.by === 'name').map((key) => key.value);
        const instances = await client.batchGetInstances({ ids, names }, { signal });
        const answer = new Map<InstanceKey, CloudInstance[]>();
        for (const key of keys) {
          const found = instances.filter((instance) => matches(instance, key));
          if (found.length > 0) answer.set(key, found);
        }
        return answer;
      },
      singleLoad: async (key, { signal }) => {
        if (key.by === 'name') return client.findInstancesByName(key.value, { signal });
        const instance = await client.getInstance(key.value, { signal });
        return instance === undefined ? [] : [instance];
      },
      shouldFallBack: (error) => !isSandboxApiError(error, 'Throttled'),
      resolveMissing: () => [],
      ...options,
    });
  }

  async getById(id: string, options?: CallOptions): Promise<CloudInstance | undefined> {
    return (await this.#coalescer.load({ by: 'id', value: id }, options?.signal === undefined ? {} : { signal: options.signal }))[0];
  }

  findByName(name: string, options?: CallOptions): Promise<CloudInstance[]> {
    return this.#coalescer.load({ by: 'name', value: name }, options?.signal === undefined ? {} : { signal: options.signal });
  }

  async getMany(lookup: { ids: string[]; names: string[] }, options?: CallOptions): Promise<CloudInstance[]> {
    const keys: InstanceKey[] = [...lookup.ids.map((value) => ({ by: 'id' as const, value })), ...lookup.names.map((value) => ({ by: 'name' as const, value }))];
    const loadOptions = options?.signal === undefined ? {} : { signal: options.signal };
    const results = await Promise.all(keys.map((key) => this.#coalescer.load(key, loadOptions)));
    const unique = new Map<string, CloudInstance>();
    for (const instance of results.flat()) unique.set(instance.id, instance);
    return [...unique.values()];
  }

  /** Rejects lookups not sent yet (shutdown). */
  close(): void {
    this.#coalescer.close();
  }
}
