/**
 * Finds the VM behind a node from cached lists (upstream's VM cache per resource group and VMSS
 * VM cache per scale set): by provider ID when the node has one, else by node name (a VM's name
 * or computer name, a scale-set VM's computer name, case-insensitive). A node already seen costs
 * no ARM call until its list's refresh period is over.
 */
import type { AzureVirtualMachine, ComputePort } from '../ports/compute-port.js';
import type { AzureInstanceRef } from '../provider-id.js';
import { TimedListCache } from './timed-list-cache.js';

export interface InstanceLocatorSettings {
  /** The cluster's resource group (`resourceGroup`). */
  resourceGroup: string;
  /** `vmss` looks at VMs and uniform scale sets, `standard` and `vmssflex` only at VMs. */
  vmType: 'vmss' | 'standard' | 'vmssflex';
  /** With vmType=vmss: no VM lists, only uniform scale sets. */
  disableAvailabilitySetNodes: boolean;
  vmCacheTtlMs: number;
  vmssCacheTtlMs: number;
  vmssVirtualMachinesCacheTtlMs: number;
  now?: () => number;
}

function sameName(left: string | undefined, right: string): boolean {
  return left !== undefined && left.toLowerCase() === right.toLowerCase();
}

export class InstanceLocator {
  readonly #compute: ComputePort;
  readonly #settings: InstanceLocatorSettings;
  readonly #virtualMachines: TimedListCache<AzureVirtualMachine>;
  readonly #scaleSets: TimedListCache<string>;
  readonly #scaleSetVirtualMachines: TimedListCache<AzureVirtualMachine>;

  constructor(compute: ComputePort, settings: InstanceLocatorSettings) {
    this.#compute = compute;
    this.#settings = settings;
    const cache = (ttlMs: number) => ({ ttlMs, ...(settings.now === undefined ? {} : { now: settings.now }) });
    this.#virtualMachines = new TimedListCache(cache(settings.vmCacheTtlMs));
    this.#scaleSets = new TimedListCache(cache(settings.vmssCacheTtlMs));
    this.#scaleSetVirtualMachines = new TimedListCache(cache(settings.vmssVirtualMachinesCacheTtlMs));
  }

  /** The VM a provider ID names, or `undefined` when it is gone. */
  async byReference(ref: AzureInstanceRef): Promise<AzureVirtualMachine | undefined> {
    if (ref.kind === 'vm') return this.#findVirtualMachine(ref.resourceGroup, (vm) => sameName(vm.name, ref.name));
    return this.#findScaleSetVirtualMachine(ref.resourceGroup, ref.scaleSetName, (vm) => vm.scaleSet?.instanceId === ref.instanceId);
  }

  /** The VM of a node without a provider ID, searched in `resourceGroups` (the cluster's first). */
  async byNodeName(nodeName: string, resourceGroups: readonly string[]): Promise<AzureVirtualMachine | undefined> {
    const askedAt = this.#scaleSets.question();
    const matches = (vm: AzureVirtualMachine): boolean => sameName(vm.name, nodeName) || sameName(vm.computerName, nodeName);
    for (const resourceGroup of resourceGroups) {
      if (this.#looksAtVirtualMachines()) {
        const vm = await this.#findVirtualMachine(resourceGroup, matches);
        if (vm) return vm;
      }
      if (this.#settings.vmType === 'vmss') {
        const key = resourceGroup.toLowerCase();
        const load = () => this.#compute.listScaleSets(resourceGroup);
        const matches = (candidate: AzureVirtualMachine): boolean => sameName(candidate.computerName, nodeName);
        const scaleSets = await this.#scaleSets.list(key, load);
        for (const scaleSet of scaleSets) {
          const vm = await this.#findScaleSetVirtualMachine(resourceGroup, scaleSet, matches);
          if (vm) return vm;
        }
        // A scale set created after the cached list: the scale sets as listed since the question.
        const refreshed = await this.#scaleSets.refreshAfterMiss(key, load, askedAt);
        for (const scaleSet of refreshed.filter((name) => !scaleSets.includes(name))) {
          const vm = await this.#findScaleSetVirtualMachine(resourceGroup, scaleSet, matches);
          if (vm) return vm;
        }
      }
    }
    return undefined;
  }

  #looksAtVirtualMachines(): boolean {
    return this.#settings.vmType !== 'vmss' || !this.#settings.disableAvailabilitySetNodes;
  }

  #findVirtualMachine(resourceGroup: string, matches: (vm: AzureVirtualMachine) => boolean): Promise<AzureVirtualMachine | undefined> {
    return this.#virtualMachines.find(resourceGroup.toLowerCase(), () => this.#compute.listVirtualMachines(resourceGroup), matches);
  }

  #findScaleSetVirtualMachine(resourceGroup: string, scaleSet: string, matches: (vm: AzureVirtualMachine) => boolean): Promise<AzureVirtualMachine | undefined> {
    return this.#scaleSetVirtualMachines.find(`${resourceGroup.toLowerCase()}/${scaleSet.toLowerCase()}`, () => this.#compute.listScaleSetVirtualMachines(resourceGroup, scaleSet), matches);
  }
}
