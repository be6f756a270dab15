/**
 * An in-memory Compute: VMs per resource group and uniform scale sets with their VMs. Like ARM
 * (checked by test/support/azure-ports-contract.ts on this fake and on the SDK adapter against the
 * Azure simulator), a scale set's or scale-set VM's network may only name backend pools that exist
 * (`backendPoolExists`, wired to the fake network by `linkFakes`): else InvalidResourceReference.
 */
import type { AzureScaleSetNetwork, AzureVirtualMachine, ComputePort } from '../../src/ports/compute-port.js';
import { armError, FakeCallLog } from './fake-errors.js';

/** Writes whose etag is not the current one fail as ARM does (412). */
function checkEtag(operation: string, current: string | undefined, given: string | undefined): void {
  if (given !== undefined && current !== given) throw armError(operation, 'PreconditionFailed', 'PreconditionFailed', { httpStatus: 412 });
}

export class FakeCompute implements ComputePort {
  readonly log = new FakeCallLog();
  readonly #virtualMachines = new Map<string, AzureVirtualMachine[]>();
  readonly #scaleSets = new Map<string, Map<string, AzureVirtualMachine[]>>();
  readonly #resourceGroups = new Set<string>();
  /** Scale-set models (`<rg>/<set>`) and scale-set VM networks (`<rg>/<set>/<instance>`), lower-cased keys. */
  readonly scaleSetNetworks = new Map<string, AzureScaleSetNetwork>();
  readonly instanceNetworks = new Map<string, AzureScaleSetNetwork>();
  #etag = 0;
  /** Whether a backend pool (ARM ID) exists: the fake network's answer once `linkFakes` joined them; none without a network. */
  backendPoolExists: (poolId: string) => boolean = () => false;

  /** The scale sets (`<rg>/<set>`, lower-cased) whose model or VMs name `poolId`: ARM refuses to drop such a pool. */
  scaleSetsUsingPool(poolId: string): string[] {
    const names = (network: AzureScaleSetNetwork) => network.ipConfigurations.some((configuration) => configuration.loadBalancerBackendAddressPoolIds.some((id) => id.toLowerCase() === poolId.toLowerCase()));
    const models = [...this.scaleSetNetworks.entries()].filter(([, network]) => names(network)).map(([key]) => key);
    const instances = [...this.instanceNetworks.entries()].filter(([, network]) => names(network)).map(([key]) => key.split('/').slice(0, 2).join('/'));
    return [...new Set([...models, ...instances])];
  }

  #checkPools(operation: string, poolIds: readonly string[]): void {
    if (poolIds.some((poolId) => !this.backendPoolExists(poolId))) throw armError(operation, 'Invalid', 'InvalidResourceReference', { httpStatus: 400 });
  }

  /** The IP configuration IDs of scale-set VMs in `poolId` (the fake network's pool members). */
  poolMembers(poolId: string): string[] {
    const members: string[] = [];
    for (const [key, network] of this.instanceNetworks) {
      const [resourceGroup, scaleSet, instanceId] = key.split('/') as [string, string, string];
      const vm = this.#scaleSets.get(resourceGroup)?.get(scaleSet) ?? [...(this.#scaleSets.get(resourceGroup)?.entries() ?? [])].find(([name]) => name.toLowerCase() === scaleSet)?.[1];
      const instance = vm?.find((candidate) => candidate.scaleSet?.instanceId === instanceId);
      if (!instance) continue;
      for (const configuration of network.ipConfigurations) {
        if (!configuration.loadBalancerBackendAddressPoolIds.some((id) => id.toLowerCase() === poolId.toLowerCase())) continue;
        const [nic, ip] = configuration.key.split('/') as [string, string];
        members.push(`${instance.id}/networkInterfaces/${nic}/ipConfigurations/${ip}`);
      }
    }
    return members;
  }

  #nextEtag(): string {
    this.#etag += 1;
    return `"compute-${this.#etag}"`;
  }

  async getScaleSetNetwork(resourceGroup: string, scaleSetName: string): Promise<AzureScaleSetNetwork> {
    this.log.record('compute.getScaleSetNetwork', [resourceGroup, scaleSetName]);
    const network = this.scaleSetNetworks.get(`${resourceGroup}/${scaleSetName}`.toLowerCase());
    if (!network) throw armError('compute.getScaleSetNetwork', 'NotFound', 'ResourceNotFound');
    return structuredClone(network);
  }

  async setScaleSetBackendPools(resourceGroup: string, scaleSetName: string, key: string, poolIds: readonly string[], etag: string | undefined): Promise<void> {
    this.log.record('compute.setScaleSetBackendPools', [resourceGroup, scaleSetName, key, poolIds, etag]);
    const network = this.scaleSetNetworks.get(`${resourceGroup}/${scaleSetName}`.toLowerCase());
    if (!network) throw armError('compute.setScaleSetBackendPools', 'NotFound', 'ResourceNotFound');
    checkEtag('compute.setScaleSetBackendPools', network.etag, etag);
    const configuration = network.ipConfigurations.find((candidate) => candidate.key === key);
    if (!configuration) throw armError('compute.setScaleSetBackendPools', 'NotFound', 'NotFound');
    this.#checkPools('compute.setScaleSetBackendPools', poolIds);
    configuration.loadBalancerBackendAddressPoolIds = [...poolIds];
    network.etag = this.#nextEtag();
  }

  async getScaleSetVirtualMachineNetwork(resourceGroup: string, scaleSetName: string, instanceId: string): Promise<AzureScaleSetNetwork> {
    this.log.record('compute.getScaleSetVirtualMachineNetwork', [resourceGroup, scaleSetName, instanceId]);
    const network = this.instanceNetworks.get(`${resourceGroup}/${scaleSetName}/${instanceId}`.toLowerCase());
    if (!network) throw armError('compute.getScaleSetVirtualMachineNetwork', 'NotFound', 'ResourceNotFound');
    return structuredClone(network);
  }

  async setScaleSetVirtualMachineBackendPools(resourceGroup: string, scaleSetName: string, instanceId: string, key: string, poolIds: readonly string[], etag: string | undefined): Promise<void> {
    this.log.record('compute.setScaleSetVirtualMachineBackendPools', [resourceGroup, scaleSetName, instanceId, key, poolIds, etag]);
    const network = this.instanceNetworks.get(`${resourceGroup}/${scaleSetName}/${instanceId}`.toLowerCase());
    if (!network) throw armError('compute.setScaleSetVirtualMachineBackendPools', 'NotFound', 'ResourceNotFound');
    checkEtag('compute.setScaleSetVirtualMachineBackendPools', network.etag, etag);
    const configuration = network.ipConfigurations.find((candidate) => candidate.key === key);
    if (!configuration) throw armError('compute.setScaleSetVirtualMachineBackendPools', 'NotFound', 'NotFound');
    this.#checkPools('compute.setScaleSetVirtualMachineBackendPools', poolIds);
    configuration.loadBalancerBackendAddressPoolIds = [...poolIds];
    network.etag = this.#nextEtag();
  }

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
    const model = () => ({ etag: this.#nextEtag(), ipConfigurations: [{ key: `${vm.scaleSet?.name}-nic/ipconfig1`, primary: true, version: 'IPv4' as const, loadBalancerBackendAddressPoolIds: [] }] });
    const scaleSetKey = `${vm.resourceGroup}/${vm.scaleSet.name}`.toLowerCase();
    if (!this.scaleSetNetworks.has(scaleSetKey)) this.scaleSetNetworks.set(scaleSetKey, model());
    this.instanceNetworks.set(`${scaleSetKey}/${vm.scaleSet.instanceId}`.toLowerCase(), model());
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
