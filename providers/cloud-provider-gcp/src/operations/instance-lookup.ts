/**
 * Instance lookups through core's Coalescer: concurrent lookups of many nodes become one
 * `instances.list` per zone (by zone and name, from provider IDs, or by name when one zone is
 * managed) or one `instances.aggregatedList` (by name across the zones of the region), each with
 * a name filter `name eq "(a|b|...)"`. Upstream asks `instances.get` once per node and zone.
 */
import { type CallOptions, Coalescer, type CoalescerObserver, notThrottled } from '@ccm/core/cloud';
import type { ComputePort, GceInstance } from '../ports/compute-port.js';
import type { ManagedZones } from './managed-zones.js';

/** Names per list call: keeps the filter (and the URL) well under Google's 8 KiB request-line limit. */
export const MAX_NAMES_PER_LIST = 100;
/** Window and concurrency of the lookup coalescers. */
export const INSTANCE_LOOKUP_COALESCING = { windowMs: 20, maxConcurrentBatches: 1 } as const;

export interface InstanceLookup {
  /** The instance `name` in `zone`, or undefined when there is none. */
  inZone(zone: string, name: string, options?: CallOptions): Promise<GceInstance | undefined>;
  /** The instance `name` in any managed zone, or undefined. */
  byName(name: string, options?: CallOptions): Promise<GceInstance | undefined>;
}

export interface CoalescedInstanceLookupOptions {
  observers?: { inZone?: CoalescerObserver; byName?: CoalescerObserver };
}

const keyOf = (zone: string, name: string): string => `${zone}/${name}`;

export class CoalescedInstanceLookup implements InstanceLookup {
  readonly #inZone: Coalescer<string, GceInstance | undefined>;
  readonly #byName: Coalescer<string, GceInstance | undefined>;
  readonly #zones: ManagedZones;

  constructor(compute: ComputePort, zones: ManagedZones, options: CoalescedInstanceLookupOptions = {}) {
    this.#zones = zones;
    this.#inZone = new Coalescer<string, GceInstance | undefined>({
      name: 'InstancesList',
      ...INSTANCE_LOOKUP_COALESCING,
      maxBatchSize: MAX_NAMES_PER_LIST,
      batchLoad: async (keys, { signal }) => {
        const byZone = new Map<string, string[]>();
        for (const key of keys) {
          const [zone = '', name = ''] = key.split('/');
          byZone.set(zone, [...(byZone.get(zone) ?? []), name]);
        }
        const found = new Map<string, GceInstance | undefined>();
        for (const [zone, names] of byZone) {
          for (const instance of await compute.listInstances({ zone, names }, { signal })) found.set(keyOf(instance.zone, instance.name), instance);
        }
        return found;
      },
      shouldFallBack: () => false,
      resolveMissing: () => undefined,
      ...(options.observers?.inZone === undefined ? {} : { observer: options.observers.inZone }),
    });
    this.#byName = new Coalescer<string, GceInstance | undefined>({
      name: 'InstancesAggregatedList',
      ...INSTANCE_LOOKUP_COALESCING,
      maxBatchSize: MAX_NAMES_PER_LIST,
      batchLoad: async (names, { signal }) => {
        const found = new Map<string, GceInstance | undefined>();
        for (const instance of await compute.listInstances({ names }, { signal })) {
          if (zones.includes(instance.zone) && !found.has(instance.name)) found.set(instance.name, instance);
        }
        return found;
      },
      shouldFallBack: notThrottled,
      singleLoad: async (name, { signal }) => (await compute.listInstances({ names: [name] }, { signal })).find((instance) => zones.includes(instance.zone)),
      resolveMissing: () => undefined,
      ...(options.observers?.byName === undefined ? {} : { observer: options.observers.byName }),
    });
  }

  inZone(zone: string, name: string, options?: CallOptions): Promise<GceInstance | undefined> {
    return this.#inZone.load(keyOf(zone, name), options);
  }

  byName(name: string, options?: CallOptions): Promise<GceInstance | undefined> {
    const zone = this.#zones.singleZone;
    return zone === undefined ? this.#byName.load(name, options) : this.inZone(zone, name, options);
  }
}
