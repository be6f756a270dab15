/**
 * Resolves a node to its VM and the VM's properties. Locations found by UUID are remembered
 * (upstream keeps nodeUUIDMap): the next lookup reads the remembered VM directly and only
 * searches again when it is gone or is another VM now. Properties are loaded through a
 * per-vCenter core `Coalescer`, so concurrent lookups of many nodes share one RetrievePropertiesEx
 * call. Finding the VM is discovery's (node-discovery.ts): in a storm from the VM inventory, read
 * once for all nodes; a VM found there is used only when its fresh properties still match the
 * step that found it (else every step is searched on vCenter, as upstream).
 */
import { Coalescer, createCoalescerMetrics, type CoalescerObserver } from '@ccm/core/cloud';
import type { CloudProviderFactoryContext } from '@ccm/core/provider';
import { convertK8sUuidToNormal, VSPHERE_PROVIDER_NAME } from '../provider-id.js';
import { refKey, type ObjectRef, type VmRecord } from '../ports/vcenter-port.js';
import { surelyMatches } from './match-in-inventory.js';
import type { DiscoverOptions, NodeDiscovery, VcenterTarget, VmLocation } from './node-discovery.js';

export interface VmInstance {
  location: VmLocation;
  vm: VmRecord;
}

export interface InstanceLookupOptions {
  /** Batching window for property reads (default `VM_LOADING.windowMs`). */
  batchWindowMs?: number;
  maxBatchSize?: number;
  /** Observes batch sizes (tests). */
  onBatch?: (vcenter: string, size: number) => void;
  /** Where the coalescers publish their metrics (`coalescer="RetrieveVirtualMachines"`). */
  metrics?: CloudProviderFactoryContext['metrics'];
}

/**
 * Property loads wait up to 20 ms for company and one RetrievePropertiesEx per vCenter is in
 * flight at a time (as AWS's and the sandbox's lookups): loads arriving meanwhile go together, up
 * to 500 VMs per call. A storm of 1,000 new nodes costs 12 to 16 such calls, plus the VM
 * inventory read that finds the nodes' VMs (vm-inventory.ts).
 */
export const VM_LOADING = { windowMs: 20, maxBatchSize: 500, maxConcurrentBatches: 1 } as const;

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
    const instance = await this.#discover((options) => this.#discovery.findByUuid(wanted, signal, options), signal);
    if (instance !== undefined) this.#locations.set(wanted, instance.location);
    return instance;
  }

  /** The VM of a node without providerID: guest DNS name, then IPs. */
  async byNodeName(nodeName: string, ips: readonly string[], signal?: AbortSignal): Promise<VmInstance | undefined> {
    const instance = await this.#discover((options) => this.#discovery.findByNodeName(nodeName, ips, signal, options), signal);
    if (instance !== undefined && instance.vm.uuid !== '') this.#locations.set(instance.vm.uuid.toLowerCase(), instance.location);
    return instance;
  }

  /** Forgets a remembered location (the node was deleted). */
  forget(uuid: string): void {
    this.#locations.delete(uuid.toLowerCase());
  }

  /**
   * Finds and loads the VM. A VM the inventory answered must still match its step in the fresh
   * properties (it may be gone, renamed or readdressed since the inventory was read): otherwise
   * the lookup is repeated on vCenter alone.
   */
  async #discover(find: (options: DiscoverOptions) => Promise<VmLocation | undefined>, signal?: AbortSignal): Promise<VmInstance | undefined> {
    const location = await find({});
    if (location === undefined) return undefined;
    const vm = await this.#load(location, signal);
    if (location.matchedBy === undefined || (vm !== undefined && surelyMatches(vm, location.matchedBy))) return vm === undefined ? undefined : { location, vm };
    const searched = await find({ inventory: false });
    if (searched === undefined) return undefined;
    const fresh = await this.#load(searched, signal);
    return fresh === undefined ? undefined : { location: searched, vm: fresh };
  }

  #load(location: VmLocation, signal?: AbortSignal): Promise<VmRecord | undefined> {
    const loader = this.#loaders.get(location.vcenter.config.name);
    if (loader === undefined) throw new Error(`no property loader for vCenter ${location.vcenter.config.name}`);
    return loader.load(location.ref, signal === undefined ? {} : { signal });
  }
}

function uuidMatches(vmUuid: string, wanted: string): boolean {
  const actual = vmUuid.toLowerCase();
  return actual === wanted || actual === convertK8sUuidToNormal(wanted);
}

/** One coalescer per vCenter: absent VMs read as undefined; when a batch fails, each VM is read alone. */
export function createVmLoader(target: VcenterTarget, options: InstanceLookupOptions = {}): Coalescer<ObjectRef, VmRecord | undefined> {
  const observers: CoalescerObserver[] = [];
  if (options.metrics !== undefined) observers.push(createCoalescerMetrics(options.metrics, VSPHERE_PROVIDER_NAME, 'RetrieveVirtualMachines'));
  if (options.onBatch !== undefined) observers.push({ batchSent: (size) => options.onBatch?.(target.config.name, size) });
  return new Coalescer<ObjectRef, VmRecord | undefined>({
    name: 'RetrieveVirtualMachines',
    keyId: refKey,
    batchLoad: async (refs, { signal }) => {
      const records = await target.port.retrieveVms(refs, signal);
      const byKey = new Map(records.map((record) => [refKey(record.ref), record]));
      return new Map(refs.map((ref) => [ref, byKey.get(refKey(ref))]));
    },
    singleLoad: async (ref, { signal }) => (await target.port.retrieveVms([ref], signal))[0],
    resolveMissing: () => undefined,
    windowMs: options.batchWindowMs ?? VM_LOADING.windowMs,
    maxBatchSize: options.maxBatchSize ?? VM_LOADING.maxBatchSize,
    maxConcurrentBatches: VM_LOADING.maxConcurrentBatches,
    ...(observers.length === 0 ? {} : { observer: combinedObserver(observers) }),
  });
}

function combinedObserver(observers: readonly CoalescerObserver[]): CoalescerObserver {
  return {
    batchSent: (size) => observers.forEach((observer) => observer.batchSent?.(size)),
    batchFailed: (size, error, fellBack) => observers.forEach((observer) => observer.batchFailed?.(size, error, fellBack)),
    singleSent: () => observers.forEach((observer) => observer.singleSent?.()),
    deduplicated: () => observers.forEach((observer) => observer.deduplicated?.()),
  };
}
