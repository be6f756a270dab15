/**
 * Puts nodes in the cluster backend pool and takes them out: a standalone VM's primary NIC IP
 * configuration (NIC PUT), a uniform scale set's model and each of its VMs (scale set PATCH, VM
 * PUT), as upstream's `nodeIPConfiguration` mode. Every write carries the etag read and is
 * retried on a stale etag after reading again.
 */
import type { CloudCallOptions } from '@ccm/core/provider';
import type { AzureScaleSetNetwork, ComputePort } from '../../ports/compute-port.js';
import type { AzureNetworkInterface, NetworkPort } from '../../ports/network-port.js';
import type { AzureVirtualMachine } from '../../ports/compute-port.js';
import { planPoolMembership, withPool, type ScaleSetInstanceRef } from './plan-pool-membership.js';
import { withEtagRetry } from './etag-retry.js';

function primaryIpv4Configuration(nic: AzureNetworkInterface) {
  return nic.ipConfigurations.find((configuration) => configuration.primary && configuration.privateIpVersion === 'IPv4') ?? nic.ipConfigurations.find((configuration) => configuration.privateIpVersion === 'IPv4');
}

function primaryScaleSetConfiguration(network: AzureScaleSetNetwork) {
  return network.ipConfigurations.find((configuration) => configuration.primary && configuration.version === 'IPv4') ?? network.ipConfigurations.find((configuration) => configuration.version === 'IPv4');
}

export class BackendPoolOperations {
  readonly #network: NetworkPort;
  readonly #compute: ComputePort;

  constructor(network: NetworkPort, compute: ComputePort) {
    this.#network = network;
    this.#compute = compute;
  }

  /** Makes the pool's members exactly the primary IP configurations of `wanted`. */
  async reconcile(poolId: string, wanted: readonly AzureVirtualMachine[], memberIpConfigurationIds: readonly string[], options?: CloudCallOptions): Promise<void> {
    const plan = planPoolMembership(wanted, memberIpConfigurationIds);
    for (const scaleSet of plan.scaleSetsWithMembers) await this.#setScaleSetModel(scaleSet.resourceGroup, scaleSet.scaleSet, poolId, true, options);
    for (const nicId of plan.addNetworkInterfaces) await this.#setNetworkInterface(nicId, poolId, true, options);
    for (const instance of plan.addInstances) await this.#setInstance(instance, poolId, true, options);
    for (const nicId of plan.removeNetworkInterfaces) await this.#setNetworkInterface(nicId, poolId, false, options);
    for (const instance of plan.removeInstances) await this.#setInstance(instance, poolId, false, options);
    // A scale set none of whose instances is wanted any more leaves the pool in its model too.
    const keep = new Set(plan.scaleSetsWithMembers.map((entry) => `${entry.resourceGroup}/${entry.scaleSet}`.toLowerCase()));
    const leaving = new Map<string, ScaleSetInstanceRef>();
    for (const instance of plan.removeInstances) {
      const key = `${instance.resourceGroup}/${instance.scaleSet}`.toLowerCase();
      if (!keep.has(key)) leaving.set(key, instance);
    }
    for (const instance of leaving.values()) await this.#setScaleSetModel(instance.resourceGroup, instance.scaleSet, poolId, false, options);
  }

  async #setNetworkInterface(nicId: string, poolId: string, member: boolean, options?: CloudCallOptions): Promise<void> {
    await withEtagRetry(async () => {
      const nic = await this.#network.getNetworkInterface(nicId, options);
      const configuration = primaryIpv4Configuration(nic);
      if (configuration === undefined) return;
      const next = withPool(configuration.loadBalancerBackendAddressPoolIds ?? [], poolId, member);
      if (!next.changed) return;
      await this.#network.setNetworkInterfaceBackendPools(nicId, configuration.name, next.pools, nic.etag === undefined ? {} : { ifMatch: nic.etag }, options);
    });
  }

  async #setInstance(instance: ScaleSetInstanceRef, poolId: string, member: boolean, options?: CloudCallOptions): Promise<void> {
    await withEtagRetry(async () => {
      const network = await this.#compute.getScaleSetVirtualMachineNetwork(instance.resourceGroup, instance.scaleSet, instance.instanceId, options);
      const configuration = primaryScaleSetConfiguration(network);
      if (configuration === undefined) return;
      const next = withPool(configuration.loadBalancerBackendAddressPoolIds, poolId, member);
      if (!next.changed) return;
      await this.#compute.setScaleSetVirtualMachineBackendPools(instance.resourceGroup, instance.scaleSet, instance.instanceId, configuration.key, next.pools, network.etag, options);
    });
  }

  async #setScaleSetModel(resourceGroup: string, scaleSet: string, poolId: string, member: boolean, options?: CloudCallOptions): Promise<void> {
    await withEtagRetry(async () => {
      const network = await this.#compute.getScaleSetNetwork(resourceGroup, scaleSet, options);
      const configuration = primaryScaleSetConfiguration(network);
      if (configuration === undefined) return;
      const next = withPool(configuration.loadBalancerBackendAddressPoolIds, poolId, member);
      if (!next.changed) return;
      await this.#compute.setScaleSetBackendPools(resourceGroup, scaleSet, configuration.key, next.pools, network.etag, options);
    });
  }
}
