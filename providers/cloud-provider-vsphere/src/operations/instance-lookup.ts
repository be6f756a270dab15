/**
 * Resolves a node to its VM and the VM's properties. Locations found by UUID are remembered
 * (upstream keeps nodeUUIDMap): the next lookup reads the remembered VM directly and only
 * searches again when it is gone or is another VM now. Properties are loaded through a
 * per-vCenter batcher, so concurrent lookups of many nodes share one RetrievePropertiesEx call.
 */
import { convertK8sUuidToNormal } from '../provider-id.js';
import { refKey, type ObjectRef, type VmRecord } from '../ports/vcenter-port.js';
import { KeyBatcher, type Coalescer } from './key-batcher.js';
import type { NodeDiscovery, VcenterTarget, VmLocation } from './node-discovery.js';

export interface VmInstance {
  location: VmLocation;
  vm: VmRecord;
}

export interface InstanceLookupOptions {
  /** Batching window for property reads. */
  batchWindowMs?: number;
  maxBatchSize?: number;
  /** Observes batch sizes (tests, metrics). */
  onBatch?: (vcenter: string, size: number) => void;
}

export class InstanceLookup {
  readonly #discovery: NodeDiscovery;
  readonly #loaders = new Map<string, Coalescer<ObjectRef, VmRecord | undefined>>();
  readonly #locations = new Map<string, VmLocation>();

  constructor(discovery: NodeDiscovery, options: InstanceLookupOptions = {}) {
    this.#discovery = discovery;
    for (const target of discovery.targets) this.#loaders.set(target.config.name, createVmLoader(target, options));
  }

  /** The VM with this BIOS UUID (either byte order), or undefined when no vCenter has it. */
  async byUuid(uuid: string, signal?: AbortSignal): Promise<VmInstance | undefined> {
    const wanted = uuid.toLowerCase();
    const remembered = this.#locations.get(wanted);
    if (remembered !== undefined) {
      const vm = await this.#load(remembered, signal);
      if (vm !== undefined && uuidMatches(vm.uuid, wanted)) return { location: remembered, vm };
      this.#locations.delete(wanted);
    }
    const location = await this.#discovery.findByUuid(wanted, signal);
    if (location === undefined) return undefined;
    const vm = await this.#load(location, signal);
    if (vm === undefined) return undefined;
    this.#locations.set(wanted, location);
    return { location, vm };
  }

  /** The VM of a node without providerID: guest DNS name, then IPs. */
  async byNodeName(nodeName: string, ips: readonly string[], signal?: AbortSignal): Promise<VmInstance | undefined> {
    const location = await this.#discovery.findByNodeName(nodeName, ips, signal);
    if (location === undefined) return undefined;
    const vm = await this.#load(location, signal);
    if (vm === undefined) return undefined;
    if (vm.uuid !== '') this.#locations.set(vm.uuid.toLowerCase(), location);
    return { location, vm };
  }

  /** Forgets a remembered location (the node was deleted). */
  forget(uuid: string): void {
    this.#locations.delete(uuid.toLowerCase());
  }

  #load(location: VmLocation, signal?: AbortSignal): Promise<VmRecord | undefined> {
    const loader = this.#loaders.get(location.vcenter.config.name);
    if (loader === undefined) throw new Error(`no property loader for vCenter ${location.vcenter.config.name}`);
    return loader.load(location.ref, signal);
  }
}

function uuidMatches(vmUuid: string, wanted: string): boolean {
  const actual = vmUuid.toLowerCase();
  return actual === wanted || actual === convertK8sUuidToNormal(wanted);
}

/** One batcher per vCenter: absent VMs read as undefined. */
export function createVmLoader(target: VcenterTarget, options: InstanceLookupOptions = {}): Coalescer<ObjectRef, VmRecord | undefined> {
  return new KeyBatcher<ObjectRef, VmRecord | undefined>({
    keyOf: refKey,
    fetchMany: async (refs) => {
      const records = await target.port.retrieveVms(refs);
      const byKey = new Map(records.map((record) => [refKey(record.ref), record]));
      return new Map(refs.map((ref) => [ref, byKey.get(refKey(ref))]));
    },
    fetchOne: async (ref) => (await target.port.retrieveVms([ref]))[0],
    missing: () => undefined,
    ...(options.batchWindowMs === undefined ? {} : { windowMs: options.batchWindowMs }),
    ...(options.maxBatchSize === undefined ? {} : { maxBatchSize: options.maxBatchSize }),
    ...(options.onBatch === undefined ? {} : { onBatch: (size: number) => options.onBatch?.(target.config.name, size) }),
  });
}
