/**
 * Which nodes join or leave the cluster backend pool (upstream `EnsureHostsInPool` with
 * `nodeIPConfiguration`): standalone NICs by their primary IP configuration, uniform scale-set
 * VMs by instance, read from the pool's members (`backendIPConfigurations`). Pure.
 */
import type { AzureVirtualMachine } from '../../ports/compute-port.js';

export interface ScaleSetInstanceRef {
  resourceGroup: string;
  scaleSet: string;
  instanceId: string;
}

export interface PoolMembershipPlan {
  /** Standalone NICs (ARM IDs) to add to the pool. */
  addNetworkInterfaces: string[];
  /** Standalone NICs to take out of the pool. */
  removeNetworkInterfaces: string[];
  addInstances: ScaleSetInstanceRef[];
  removeInstances: ScaleSetInstanceRef[];
  /** Scale sets (`<rg>/<name>`) whose model must list the pool: they have wanted instances. */
  scaleSetsWithMembers: Array<{ resourceGroup: string; scaleSet: string }>;
}

const NIC_OF_MEMBER = /^(.*\/providers\/microsoft\.network\/networkinterfaces\/[^/]+)\/ipconfigurations\/[^/]+$/i;
const INSTANCE_OF_MEMBER = /^\/subscriptions\/[^/]+\/resourcegroups\/([^/]+)\/providers\/microsoft\.compute\/virtualmachinescalesets\/([^/]+)\/virtualmachines\/([^/]+)\/networkinterfaces\/[^/]+\/ipconfigurations\/[^/]+$/i;

const instanceKey = (ref: ScaleSetInstanceRef): string => `${ref.resourceGroup}/${ref.scaleSet}/${ref.instanceId}`.toLowerCase();

/** A member IP configuration ID as a standalone NIC ID or a scale-set instance. */
export function memberOf(ipConfigurationId: string): { networkInterfaceId: string } | { instance: ScaleSetInstanceRef } | undefined {
  const instance = INSTANCE_OF_MEMBER.exec(ipConfigurationId);
  if (instance) return { instance: { resourceGroup: instance[1] as string, scaleSet: instance[2] as string, instanceId: instance[3] as string } };
  const nic = NIC_OF_MEMBER.exec(ipConfigurationId);
  return nic ? { networkInterfaceId: nic[1] as string } : undefined;
}

export function planPoolMembership(wanted: readonly AzureVirtualMachine[], memberIpConfigurationIds: readonly string[]): PoolMembershipPlan {
  const memberNics = new Map<string, string>();
  const memberInstances = new Map<string, ScaleSetInstanceRef>();
  for (const id of memberIpConfigurationIds) {
    const member = memberOf(id);
    if (member === undefined) continue;
    if ('networkInterfaceId' in member) memberNics.set(member.networkInterfaceId.toLowerCase(), member.networkInterfaceId);
    else memberInstances.set(instanceKey(member.instance), member.instance);
  }
  const wantedNics = new Map<string, string>();
  const wantedInstances = new Map<string, ScaleSetInstanceRef>();
  for (const vm of wanted) {
    if (vm.scaleSet !== undefined) {
      const ref = { resourceGroup: vm.resourceGroup, scaleSet: vm.scaleSet.name, instanceId: vm.scaleSet.instanceId };
      wantedInstances.set(instanceKey(ref), ref);
    } else if (vm.networkInterfaceIds[0] !== undefined) {
      wantedNics.set(vm.networkInterfaceIds[0].toLowerCase(), vm.networkInterfaceIds[0]);
    }
  }
  const scaleSets = new Map<string, { resourceGroup: string; scaleSet: string }>();
  for (const ref of wantedInstances.values()) scaleSets.set(`${ref.resourceGroup}/${ref.scaleSet}`.toLowerCase(), { resourceGroup: ref.resourceGroup, scaleSet: ref.scaleSet });
  return {
    addNetworkInterfaces: [...wantedNics.entries()].filter(([key]) => !memberNics.has(key)).map(([, id]) => id),
    removeNetworkInterfaces: [...memberNics.entries()].filter(([key]) => !wantedNics.has(key)).map(([, id]) => id),
    addInstances: [...wantedInstances.entries()].filter(([key]) => !memberInstances.has(key)).map(([, ref]) => ref),
    removeInstances: [...memberInstances.entries()].filter(([key]) => !wantedInstances.has(key)).map(([, ref]) => ref),
    scaleSetsWithMembers: [...scaleSets.values()],
  };
}

/** `pools` with `poolId` added (`member`) or removed, and whether that changed anything. */
export function withPool(pools: readonly string[], poolId: string, member: boolean): { pools: string[]; changed: boolean } {
  const has = pools.some((id) => id.toLowerCase() === poolId.toLowerCase());
  if (member) return has ? { pools: [...pools], changed: false } : { pools: [...pools, poolId], changed: true };
  return has ? { pools: pools.filter((id) => id.toLowerCase() !== poolId.toLowerCase()), changed: true } : { pools: [...pools], changed: false };
}
