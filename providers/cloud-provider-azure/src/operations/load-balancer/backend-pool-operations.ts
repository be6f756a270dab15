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
import type { IpFamily } from './load-balancer-names.js';

const holdsPool = (pools: readonly string[] | undefined, poolId: string): boolean => (pools ?? []).some((id) => id.toLowerCase() === poolId.toLowerCase());

/**
 * The IP configuration a pool change touches: joining, the primary one of the pool's family (an
 * IPv6 pool takes the NIC's IPv6 configuration, upstream `getIPConfigByIPFamily`); leaving,
 * whichever lists the pool.
 */
function networkInterfaceConfiguration(nic: AzureNetworkInterface, poolId: string, family: IpFamily, member: boolean) {
  if (!member) return nic.ipConfigurations.find((configuration) => holdsPool(configuration.loadBalancerBackendAddressPoolIds, poolId));
  return nic.ipConfigurations.find((configuration) => configuration.primary && configuration.privateIpVersion === family) ?? nic.ipConfigurations.find((configuration) => configuration.privateIpVersion === family);
}

function scaleSetConfiguration(network: AzureScaleSetNetwork, poolId: string, family: IpFamily, member: boolean) {
  if (!member) return network.ipConfigurations.find((configuration) => holdsPool(configuration.loadBalancerBackendAddressPoolIds, poolId));
  return network.ipConfigurations.find((configuration) => configuration.primary && configuration.version === family) ?? network.ipConfigurations.find((configuration) => configuration.version === family);
}

export class BackendPoolOperations {
  readonly #network: NetworkPort;
  readonly #compute: ComputePort;

  constructor(network: NetworkPort, compute: ComputePort) {
    this.#network = network;
    this.#compute = compute;
  }

  /** Makes the pool's members exactly the primary IP configurations of `family` of `wanted`. */
  async reconcile(poolId: string, wanted: readonly AzureVirtualMachine[], memberIpConfigurationIds: readonly string[], options?: CloudCallOptions, family: IpFamily = 'IPv4'): Promise<void> {
    const plan = planPoolMembership(wanted, memberIpConfigurationIds);
    for (const scaleSet of plan.scaleSetsWithMembers) await this.#setScaleSetModel(scaleSet.resourceGroup, scaleSet.scaleSet, poolId, family, true, options);
    for (const nicId of plan.addNetworkInterfaces) await this.#setNetworkInterface(nicId, poolId, family, true, options);
    for (const instance of plan.addInstances) await this.#setInstance(instance, poolId, family, true, options);
    for (const nicId of plan.removeNetworkInterfaces) await this.#setNetworkInterface(nicId, poolId, family, false, options);
    for (const instance of plan.removeInstances) await this.#setInstance(instance, poolId, family, false, options);
    // A scale set none of whose instances is wanted any more leaves the pool in its model too.
    const keep = new Set(plan.scaleSetsWithMembers.map((entry) => `${entry.resourceGroup}/${entry.scaleSet}`.toLowerCase()));
    const leaving = new Map<string, ScaleSetInstanceRef>();
    for (const instance of plan.removeInstances) {
      const key = `${instance.resourceGroup}/${instance.scaleSet}`.toLowerCase();
      if (!keep.has(key)) leaving.set(key, instance);
    }
    for (const instance of leaving.values()) await this.#setScaleSetModel(instance.resourceGroup, instance.scaleSet, poolId, family, false, options);
  }

  async #setNetworkInterface(nicId: string, poolId: string, family: IpFamily, member: boolean, options?: CloudCallOptions): Promise<void> {
    await withEtagRetry(async () => {
      const nic = await this.#network.getNetworkInterface(nicId, options);
      const configuration = networkInterfaceConfiguration(nic, poolId, family, member);
      if (configuration === undefined) return;
      const next = withPool(configuration.loadBalancerBackendAddressPoolIds ?? [], poolId, member);
      if (!next.changed) return;
      await this.#network.setNetworkInterfaceBackendPools(nicId, configuration.name, next.pools, nic.etag === undefined ? {} : { ifMatch: nic.etag }, options);
    });
  }

  async #setInstance(instance: ScaleSetInstanceRef, poolId: string, family: IpFamily, member: boolean, options?: CloudCallOptions): Promise<void> {
    await withEtagRetry(async () => {
      const network = await this.#compute.getScaleSetVirtualMachineNetwork(instance.resourceGroup, instance.scaleSet, instance.instanceId, options);
      const configuration = scaleSetConfiguration(network, poolId, family, member);
      if (configuration === undefined) return;
      const next = withPool(configuration.loadBalancerBackendAddressPoolIds, poolId, member);
      if (!next.changed) return;
      await this.#compute.setScaleSetVirtualMachineBackendPools(instance.resourceGroup, instance.scaleSet, instance.instanceId, configuration.key, next.pools, network.etag, options);
    });
  }

  async #setScaleSetModel(resourceGroup: string, scaleSet: string, poolId: string, family: IpFamily, member: boolean, options?: CloudCallOptions): Promise<void> {
    await withEtagRetry(async () => {
      const network = await this.#compute.getScaleSetNetwork(resourceGroup, scaleSet, options);
      const configuration = scaleSetConfiguration(network, poolId, family, member);
      if (configuration === undefined) return;
      const next = withPool(configuration.loadBalancerBackendAddressPoolIds, poolId, member);
      if (!next.changed) return;
      await this.#compute.setScaleSetBackendPools(resourceGroup, scaleSet, configuration.key, next.pools, network.etag, options);
    });
  }
}
