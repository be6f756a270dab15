/** An in-memory Compute: VMs per resource group and uniform scale sets with their VMs. */
import type { AzureVirtualMachine, ComputePort } from '../../src/ports/compute-port.js';
import { armError, FakeCallLog } from './fake-errors.js';

export class FakeCompute implements ComputePort {
  readonly log = new FakeCallLog();
  readonly #virtualMachines = new Map<string, AzureVirtualMachine[]>();
  readonly #scaleSets = new Map<string, Map<string, AzureVirtualMachine[]>>();
  readonly #resourceGroups = new Set<string>();

  addResourceGroup(name: string): void {
    this.#resourceGroups.add(name.toLowerCase());
  }

  addVirtualMachine(vm: AzureVirtualMachine): void {
    this.addResourceGroup(vm.resourceGroup);
    const list = this.#virtualMachines.get(vm.resourceGroup.toLowerCase()) ?? [];
    list.push(vm);
    this.#virtualMachines.set(vm.resourceGroup.toLowerCase(), list);
  }

  addScaleSetVirtualMachine(vm: AzureVirtualMachine): void {
    if (!vm.scaleSet) throw new Error('a scale-set VM needs scaleSet');
    this.addResourceGroup(vm.resourceGroup);
    const scaleSets = this.#scaleSets.get(vm.resourceGroup.toLowerCase()) ?? new Map<string, AzureVirtualMachine[]>();
    const list = scaleSets.get(vm.scaleSet.name) ?? [];
    list.push(vm);
    scaleSets.set(vm.scaleSet.name, list);
    this.#scaleSets.set(vm.resourceGroup.toLowerCase(), scaleSets);
  }

  removeVirtualMachine(id: string): void {
    for (const list of [...this.#virtualMachines.values(), ...[...this.#scaleSets.values()].flatMap((sets) => [...sets.values()])]) {
      const index = list.findIndex((vm) => vm.id === id);
      if (index >= 0) list.splice(index, 1);
    }
  }

  /** Changes a VM in place (power state, provisioning state). */
  updateVirtualMachine(id: string, change: Partial<AzureVirtualMachine>): void {
    for (const list of [...this.#virtualMachines.values(), ...[...this.#scaleSets.values()].flatMap((sets) => [...sets.values()])]) {
      const vm = list.find((candidate) => candidate.id === id);
      if (vm) Object.assign(vm, change);
    }
  }

  async listVirtualMachines(resourceGroup: string): Promise<AzureVirtualMachine[]> {
    this.log.record('compute.listVirtualMachines', [resourceGroup]);
    this.#requireResourceGroup('compute.listVirtualMachines', resourceGroup);
    return structuredClone(this.#virtualMachines.get(resourceGroup.toLowerCase()) ?? []);
  }

  async listScaleSets(resourceGroup: string): Promise<string[]> {
    this.log.record('compute.listScaleSets', [resourceGroup]);
    this.#requireResourceGroup('compute.listScaleSets', resourceGroup);
    return [...(this.#scaleSets.get(resourceGroup.toLowerCase())?.keys() ?? [])];
  }

  async listScaleSetVirtualMachines(resourceGroup: string, scaleSetName: string): Promise<AzureVirtualMachine[]> {
    this.log.record('compute.listScaleSetVirtualMachines', [resourceGroup, scaleSetName]);
    const list = this.#scaleSets.get(resourceGroup.toLowerCase())?.get(scaleSetName);
    if (list === undefined) throw armError('compute.listScaleSetVirtualMachines', 'NotFound', 'ResourceNotFound');
    return structuredClone(list);
  }

  #requireResourceGroup(operation: string, resourceGroup: string): void {
    if (!this.#resourceGroups.has(resourceGroup.toLowerCase())) throw armError(operation, 'NotFound', 'ResourceGroupNotFound');
  }
}
