/**
 * InstancesV2 of the Azure provider (upstream `azure_instances_v2.go`), translating nodes into
 * instance lookups: the provider ID when the node has one, else the node name (plus the resource
 * group of the `kubernetes.azure.com/resource-group` label). Nodes labelled
 * `kubernetes.azure.com/managed=false`, or with a provider ID that is not an Azure VM, are
 * unmanaged: they exist, are never shut down and get no metadata.
 */
import type { V1Node } from '@kubernetes/client-node';
import type { CloudCallOptions, InstanceMetadata, InstancesV2 } from '@ccm/core/provider';
import type { AzureVirtualMachine } from './ports/compute-port.js';
import type { InstanceLocator } from './operations/instance-locator.js';
import { isShutDown, providerIdOf, regionOf, zoneOf } from './operations/instance-facts.js';
import type { NodeAddressOperations } from './operations/node-addresses.js';
import { parseAzureProviderId } from './provider-id.js';

export const LABEL_MANAGED = 'kubernetes.azure.com/managed';
export const LABEL_RESOURCE_GROUP = 'kubernetes.azure.com/resource-group';

export interface AzureInstancesDependencies {
  locator: InstanceLocator;
  addresses: NodeAddressOperations;
  /** The cluster's resource group (`resourceGroup`). */
  resourceGroup: string;
  /** `nodeInstanceNotFoundGracePeriodInSeconds` in ms (0: off). */
  notFoundGracePeriodMs?: number;
  now?: () => number;
}

export class AzureInstances implements InstancesV2 {
  readonly #dependencies: AzureInstancesDependencies;

  constructor(dependencies: AzureInstancesDependencies) {
    this.#dependencies = dependencies;
  }

  async instanceExists(node: V1Node, _options?: CloudCallOptions): Promise<boolean> {
    if (isUnmanaged(node)) return true;
    if ((await this.#virtualMachineOf(node)) !== undefined) return true;
    return this.#withinNotFoundGracePeriod(node);
  }

  /**
   * Upstream `InstanceExists` with `nodeInstanceNotFoundGracePeriodInSeconds` (#10604): a node
   * created within the period exists although its VM is not found, so the lifecycle controller does
   * not delete a node whose VM ARM does not list yet.
   */
  #withinNotFoundGracePeriod(node: V1Node): boolean {
    const gracePeriodMs = this.#dependencies.notFoundGracePeriodMs ?? 0;
    const created = node.metadata?.creationTimestamp;
    if (gracePeriodMs <= 0 || created === undefined) return false;
    const createdMs = new Date(created).getTime();
    return Number.isFinite(createdMs) && (this.#dependencies.now ?? Date.now)() - createdMs < gracePeriodMs;
  }

  async instanceShutdown(node: V1Node, _options?: CloudCallOptions): Promise<boolean> {
    if (isUnmanaged(node)) return false;
    const vm = await this.#virtualMachineOf(node);
    return vm !== undefined && isShutDown(vm);
  }

  async instanceMetadata(node: V1Node, _options?: CloudCallOptions): Promise<InstanceMetadata | undefined> {
    if (isUnmanaged(node)) return undefined;
    const nodeName = node.metadata?.name ?? '';
    const vm = await this.#virtualMachineOf(node);
    if (vm === undefined) throw new Error(`instance not found for node ${JSON.stringify(nodeName)}`);
    return {
      providerId: providerIdOf(vm),
      instanceType: vm.vmSize,
      nodeAddresses: await this.#dependencies.addresses.addressesOf(vm, nodeName),
      zone: zoneOf(vm),
      region: regionOf(vm),
    };
  }

  #virtualMachineOf(node: V1Node): Promise<AzureVirtualMachine | undefined> {
    const providerId = node.spec?.providerID ?? '';
    if (providerId !== '') {
      const ref = parseAzureProviderId(providerId);
      if (ref !== undefined) return this.#dependencies.locator.byReference(ref);
    }
    return this.#dependencies.locator.byNodeName(node.metadata?.name ?? '', resourceGroupsOf(node, this.#dependencies.resourceGroup));
  }
}

/** The cluster's resource group, then the node's `kubernetes.azure.com/resource-group` label's. */
export function resourceGroupsOf(node: V1Node | undefined, clusterResourceGroup: string): string[] {
  const labelled = node?.metadata?.labels?.[LABEL_RESOURCE_GROUP];
  return labelled !== undefined && labelled !== '' && labelled.toLowerCase() !== clusterResourceGroup.toLowerCase() ? [clusterResourceGroup, labelled] : [clusterResourceGroup];
}

export function isUnmanaged(node: V1Node): boolean {
  if (node.metadata?.labels?.[LABEL_MANAGED] === 'false') return true;
  const providerId = node.spec?.providerID ?? '';
  return providerId !== '' && parseAzureProviderId(providerId) === undefined;
}
