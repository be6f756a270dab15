/**
 * Finds a node's VM across every configured vCenter and datacenter (upstream NodeManager
 * discovery): by BIOS UUID (then its byte-swapped form), or by name (guest DNS name, lower
 * case) then by IP. Each step searches every vCenter and datacenter concurrently; the first match
 * in config order wins. "Not found" is only answered when every vCenter and datacenter could be
 * searched: otherwise the failure is thrown, so a vCenter outage never looks like deleted VMs.
 *
 * In a node storm the steps are first matched against the VM inventory (vm-inventory.ts: every
 * VM's identity, one paged read per datacenter for the storm); a step the inventory has no sure
 * match for is searched as above, so the order of the steps and every "not found" stay
 * vCenter's. A location found in the inventory carries the step (`matchedBy`): the caller checks
 * it against the VM's fresh properties and searches again without the inventory when it no
 * longer holds.
 */
import type { VcenterConfig } from '../config/vsphere-config.js';
import { VsphereProviderError, errorMessage } from '../errors.js';
import { convertK8sUuidToNormal } from '../provider-id.js';
import type { DatacenterRef, ObjectRef, VcenterPort } from '../ports/vcenter-port.js';
import { matchInInventory, type DiscoveryStep, type InventoryPart } from './match-in-inventory.js';
import type { ProblemReporter } from './problem-reporter.js';
import { VmInventory, type InventoryReadPolicy, type VmInventoryOptions } from './vm-inventory.js';

export interface VcenterTarget {
  config: VcenterConfig;
  port: VcenterPort;
}

export interface VmLocation {
  vcenter: VcenterTarget;
  datacenter: DatacenterRef;
  ref: ObjectRef;
  /** Set when the VM inventory answered: the step the VM matched, to check against fresh properties. */
  matchedBy?: DiscoveryStep;
}

/** Where a VM of the inventory was read. */
export interface VmPlace {
  vcenter: VcenterTarget;
  datacenter: DatacenterRef;
}

export interface DiscoverOptions {
  /** Match against the VM inventory first (default true); false searches every step on vCenter. */
  inventory?: boolean;
}

export interface NodeDiscoveryOptions {
  reporter: ProblemReporter;
  /** Parallel searches (upstream: 8 workers). */
  concurrency?: number;
  /** How long a vCenter's datacenter list is reused. */
  datacenterCacheMs?: number;
  now?: () => number;
  /** When node storms read the VM inventory (default `VM_INVENTORY_READS`). */
  inventory?: Partial<InventoryReadPolicy>;
  /** Observes the inventory decisions (tests). */
  onInventoryDecision?: VmInventoryOptions['onDecision'];
}

type Search = (port: VcenterPort, datacenter: DatacenterRef, signal?: AbortSignal) => Promise<ObjectRef | undefined>;

interface DatacenterCacheEntry {
  expiresAt: number;
  datacenters: DatacenterRef[];
  /** Configured names that do not exist. */
  missing: string[];
}

export class NodeDiscovery {
  readonly #targets: readonly VcenterTarget[];
  readonly #reporter: ProblemReporter;
  readonly #concurrency: number;
  readonly #datacenterCacheMs: number;
  readonly #now: () => number;
  readonly #datacenters = new Map<string, DatacenterCacheEntry>();
  /** Datacenter lists being read: concurrent searches on a cold cache share one read. */
  readonly #reading = new Map<string, Promise<DatacenterCacheEntry>>();
  readonly #inventory: VmInventory<VmPlace>;

  constructor(targets: readonly VcenterTarget[], options: NodeDiscoveryOptions) {
    this.#targets = targets;
    this.#reporter = options.reporter;
    this.#concurrency = options.concurrency ?? 8;
    this.#datacenterCacheMs = options.datacenterCacheMs ?? 300_000;
    this.#now = options.now ?? Date.now;
    this.#inventory = new VmInventory<VmPlace>((signal) => this.#readInventory(signal), {
      now: this.#now,
      ...(options.inventory === undefined ? {} : { policy: options.inventory }),
      ...(options.onInventoryDecision === undefined ? {} : { onDecision: options.onInventoryDecision }),
    });
  }

  get targets(): readonly VcenterTarget[] {
    return this.#targets;
  }

  /** By BIOS UUID as given (lower case), then byte-swapped (upstream ConvertK8sUUIDtoNormal). */
  findByUuid(uuid: string, signal?: AbortSignal, options: DiscoverOptions = {}): Promise<VmLocation | undefined> {
    const normal = uuid.toLowerCase();
    const swapped = convertK8sUuidToNormal(normal);
    const steps: DiscoveryStep[] = [{ by: 'uuid', value: normal }];
    if (swapped !== normal) steps.push({ by: 'uuid', value: swapped });
    return this.#discover(steps, signal, options);
  }

  /**
   * By guest DNS name (the node name in lower case; exactly one VM must match), then by each
   * IP (the node name when it is an IP, the provided node IP, the node's addresses).
   */
  findByNodeName(nodeName: string, ips: readonly string[], signal?: AbortSignal, options: DiscoverOptions = {}): Promise<VmLocation | undefined> {
    const steps: DiscoveryStep[] = [{ by: 'dnsName', value: nodeName.toLowerCase() }, ...ips.map((ip): DiscoveryStep => ({ by: 'ip', value: ip }))];
    return this.#discover(steps, signal, options);
  }

  /** The steps in order: each answered by the inventory when it has a sure match, else searched on vCenter. */
  async #discover(steps: readonly DiscoveryStep[], signal: AbortSignal | undefined, options: DiscoverOptions): Promise<VmLocation | undefined> {
    const inventory = options.inventory === false ? undefined : await this.#inventory.forLookup(steps, signal);
    for (const step of steps) {
      if (inventory !== undefined) {
        const match = matchInInventory(inventory.parts, step);
        if (match.kind === 'found') return { vcenter: match.place.vcenter, datacenter: match.place.datacenter, ref: match.ref, matchedBy: step };
      }
      const found = await this.#searchStep(step, signal);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  #searchStep(step: DiscoveryStep, signal: AbortSignal | undefined): Promise<VmLocation | undefined> {
    switch (step.by) {
      case 'uuid':
        return this.#search(`UUID ${step.value}`, (port, datacenter, abort) => port.findVmByUuid(datacenter, step.value, abort), signal);
      case 'ip':
        return this.#search(`IP ${step.value}`, (port, datacenter, abort) => port.findVmByIp(datacenter, step.value, abort), signal);
      case 'dnsName':
        return this.#search(
          `guest hostname ${step.value}`,
          async (port, datacenter, abort) => {
            const refs = await port.findVmsByDnsName(datacenter, step.value, abort);
            if (refs.length > 1) {
              throw new VsphereProviderError('VmNotFound', `${refs.length} VMs in datacenter ${datacenter.path} of vCenter ${JSON.stringify(port.name)} report the guest hostname ${step.value}; rename them or set the node's providerID`, {
                vcenter: port.name,
              });
            }
            return refs[0];
          },
          signal,
        );
    }
  }

  /**
   * Every searched datacenter's VM identities, in config order. A vCenter whose datacenters
   * cannot be listed, or a datacenter that cannot be read, is an unread part (its lookups search
   * on vCenter); the failure is reported once per change.
   */
  async #readInventory(signal: AbortSignal): Promise<InventoryPart<VmPlace>[]> {
    const perTarget = await Promise.all(
      this.#targets.map(async (target): Promise<InventoryPart<VmPlace>[]> => {
        let datacenters: DatacenterRef[];
        try {
          datacenters = (await this.datacentersOf(target)).datacenters;
        } catch {
          return [{ vms: undefined }];
        }
        return Promise.all(
          datacenters.map(async (datacenter): Promise<InventoryPart<VmPlace>> => {
            const key = `vcenter ${JSON.stringify(target.config.name)}: VM inventory of datacenter ${JSON.stringify(datacenter.path)}`;
            try {
              const vms = await target.port.listVmIdentities(datacenter, signal);
              this.#reporter.resolve(key);
              return { place: { vcenter: target, datacenter }, vms };
            } catch (error) {
              if (!signal.aborted) {
                this.#reporter.report(key, `cannot read the VM inventory of datacenter ${datacenter.path} (nodes there are searched VM by VM meanwhile): ${errorMessage(error)}`, {
                  vcenter: target.config.name,
                });
              }
              return { vms: undefined };
            }
          }),
        );
      }),
    );
    return perTarget.flat();
  }

  /**
   * The datacenters searched on a vCenter: the configured ones (that exist), else all. Concurrent
   * callers on a cold or expired cache share one ListDatacenters call (a node storm would
   * otherwise send one per node). The shared read is not tied to one caller's signal.
   */
  async datacentersOf(target: VcenterTarget): Promise<DatacenterCacheEntry> {
    const cached = this.#datacenters.get(target.config.name);
    if (cached !== undefined && cached.expiresAt > this.#now()) return cached;
    let reading = this.#reading.get(target.config.name);
    if (reading === undefined) {
      reading = this.#readDatacenters(target).finally(() => this.#reading.delete(target.config.name));
      this.#reading.set(target.config.name, reading);
    }
    return reading;
  }

  async #readDatacenters(target: VcenterTarget): Promise<DatacenterCacheEntry> {
    const all = await target.port.listDatacenters();
    const wanted = target.config.datacenters;
    let entry: DatacenterCacheEntry;
    if (wanted.length === 0) {
      entry = { expiresAt: this.#now() + this.#datacenterCacheMs, datacenters: all, missing: [] };
    } else {
      const datacenters: DatacenterRef[] = [];
      const missing: string[] = [];
      for (const name of wanted) {
        const match = matchDatacenter(all, name);
        if (match === undefined) missing.push(name);
        else if (!datacenters.includes(match)) datacenters.push(match);
      }
      entry = { expiresAt: this.#now() + this.#datacenterCacheMs, datacenters, missing };
    }
    for (const name of wanted) {
      const key = `vcenter ${JSON.stringify(target.config.name)}: datacenter ${JSON.stringify(name)}`;
      if (entry.missing.includes(name)) {
        this.#reporter.report(key, `datacenter ${JSON.stringify(name)} (configured for vCenter ${JSON.stringify(target.config.name)}) does not exist there; existing: ${all.map((datacenter) => datacenter.path).join(', ') || 'none'}`, {
          vcenter: target.config.name,
        });
      } else {
        this.#reporter.resolve(key);
      }
    }
    this.#datacenters.set(target.config.name, entry);
    return entry;
  }

  async #search(what: string, search: Search, signal?: AbortSignal): Promise<VmLocation | undefined> {
    const failures: string[] = [];
    const pairs: Array<{ target: VcenterTarget; datacenter: DatacenterRef }> = [];
    const firstFailure: unknown[] = [];
    await Promise.all(
      this.#targets.map(async (target) => {
        try {
          const { datacenters, missing } = await this.datacentersOf(target);
          for (const datacenter of datacenters) pairs.push({ target, datacenter });
          for (const name of missing) failures.push(`vCenter ${JSON.stringify(target.config.name)}: datacenter ${JSON.stringify(name)} does not exist`);
        } catch (error) {
          firstFailure.push(error);
          failures.push(errorMessage(error));
        }
      }),
    );
    // Config order decides between matches (vcsim, for one, ignores the datacenter scope).
    const order = (pair: { target: VcenterTarget; datacenter: DatacenterRef }): number => this.#targets.indexOf(pair.target);
    pairs.sort((left, right) => order(left) - order(right));

    const results: Array<ObjectRef | undefined> = new Array(pairs.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < pairs.length) {
        const index = next++;
        const pair = pairs[index];
        if (pair === undefined) return;
        try {
          results[index] = await search(pair.target.port, pair.datacenter, signal);
        } catch (error) {
          if (error instanceof VsphereProviderError && error.kind === 'VmNotFound') throw error;
          firstFailure.push(error);
          failures.push(errorMessage(error));
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.#concurrency, Math.max(1, pairs.length)) }, worker));

    for (let index = 0; index < pairs.length; index++) {
      const ref = results[index];
      const pair = pairs[index];
      if (ref !== undefined && pair !== undefined) return { vcenter: pair.target, datacenter: pair.datacenter, ref };
    }
    if (failures.length > 0) {
      const first = firstFailure[0];
      const kind = first instanceof VsphereProviderError ? first.kind : 'VcenterUnavailable';
      throw new VsphereProviderError(kind, `cannot tell whether a VM with ${what} exists: ${[...new Set(failures)].join('; ')}`, { cause: first });
    }
    return undefined;
  }
}

/** By inventory path (`/F0/DC1`, `F0/DC1`) or by name. */
export function matchDatacenter(datacenters: readonly DatacenterRef[], wanted: string): DatacenterRef | undefined {
  if (wanted.includes('/')) {
    const path = wanted.startsWith('/') ? wanted : `/${wanted}`;
    return datacenters.find((datacenter) => datacenter.path === path);
  }
  return datacenters.find((datacenter) => datacenter.name === wanted);
}
