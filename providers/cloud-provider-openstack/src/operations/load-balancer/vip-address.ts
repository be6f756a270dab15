/**
 * Where a new load balancer's VIP goes (upstream `createOctaviaLoadBalancer` + `getSubnetIDForLB`):
 * the `port-id` annotation's port, else the subnet from the annotation or config, else the first
 * IPv4 subnet of the configured network, else the subnet of the first node's InternalIP port.
 * With `vipPortMode: reserved` the CCM reserves the address with a Neutron port of its own
 * (`vip_<lbName>`) and hands Octavia the subnet and address instead of a port.
 */
import type { V1Node } from '@kubernetes/client-node';
import { InvalidServiceConfigurationError } from '@ccm/core/provider';
import { CloudStateError } from '../../errors.js';
import type { CallOptions } from '@ccm/core/cloud';
import type { NeutronPortSummary } from '../../ports/load-balancer-network-port.js';
import type { OctaviaLoadBalancer } from '../../ports/octavia-port.js';
import { ANNOTATIONS } from '../../annotations.js';
import { ignoringNotFound, type LoadBalancerContext } from './load-balancer-context.js';
import { nodeAddressForMember } from './load-balancer-planners.js';
import { SERVICE_PREFIX, vipPortDescription, vipPortName } from './load-balancer-names.js';
import type { LoadBalancerSpec } from './load-balancer-spec.js';

export interface VipPlacement {
  subnetId?: string;
  networkId?: string;
  portId?: string;
  address?: string;
}

async function vipSubnetOf(context: LoadBalancerContext, spec: LoadBalancerSpec, nodes: readonly V1Node[], options?: CallOptions): Promise<{ subnetId: string; networkId: string }> {
  const { network } = context;
  if (spec.vipSubnetId !== undefined) {
    const subnet = await network.getSubnet(spec.vipSubnetId, options);
    if (subnet === undefined) throw new InvalidServiceConfigurationError(`VIP subnet ${spec.vipSubnetId} does not exist`, { annotation: ANNOTATIONS.subnetId.key, value: spec.vipSubnetId });
    return { subnetId: subnet.id, networkId: subnet.networkId };
  }
  if (spec.vipNetworkId !== undefined) {
    const subnets = await network.subnetsOfNetwork(spec.vipNetworkId, options);
    const subnet = subnets.find((candidate) => candidate.ipVersion === 4) ?? subnets[0];
    if (subnet === undefined) throw new InvalidServiceConfigurationError(`VIP network ${spec.vipNetworkId} has no subnet`, { annotation: ANNOTATIONS.networkId.key, value: spec.vipNetworkId });
    return { subnetId: subnet.id, networkId: subnet.networkId };
  }
  for (const node of nodes) {
    const address = nodeAddressForMember(node);
    if (address === undefined) continue;
    for (const port of await network.portsWithAddress(address, options)) {
      const fixed = port.fixedIps.find((ip) => ip.address === address);
      if (fixed !== undefined) return { subnetId: fixed.subnetId, networkId: port.networkId };
    }
    break;
  }
  throw new CloudStateError('cannot find the VIP subnet: no subnet-id or network-id is configured and the first node\'s address is on no Neutron port');
}

/** The Neutron port reserving the VIP address (ours: named and described after the Service), creating it when missing. */
async function reservedVipPort(context: LoadBalancerContext, spec: LoadBalancerSpec, subnet: { subnetId: string; networkId: string }, options?: CallOptions): Promise<NeutronPortSummary> {
  const description = vipPortDescription(spec.clusterName, spec.service);
  const existing = (await context.network.findPortsByName(vipPortName(spec.name), options)).find((port) => port.description === description);
  if (existing !== undefined) return existing;
  return context.network.createPort(
    { name: vipPortName(spec.name), description, networkId: subnet.networkId, subnetId: subnet.subnetId, ...(spec.internal && spec.requestedIp !== undefined ? { address: spec.requestedIp } : {}) },
    options,
  );
}

export async function placeVip(context: LoadBalancerContext, spec: LoadBalancerSpec, nodes: readonly V1Node[], options?: CallOptions): Promise<VipPlacement> {
  const reserved = context.settings.vipPortMode === 'reserved';
  if (spec.vipPortId !== undefined) {
    if (!reserved) return { portId: spec.vipPortId };
    const port = await context.network.getPort(spec.vipPortId, options);
    const fixed = port?.fixedIps[0];
    if (fixed === undefined) throw new InvalidServiceConfigurationError(`VIP port ${spec.vipPortId} does not exist or has no address`, { annotation: ANNOTATIONS.portId.key, value: spec.vipPortId });
    return { subnetId: fixed.subnetId, address: fixed.address };
  }
  const subnet = await vipSubnetOf(context, spec, nodes, options);
  if (!reserved) {
    // Upstream: an internal Service's loadBalancerIP is the VIP address.
    return { subnetId: subnet.subnetId, ...(spec.internal && spec.requestedIp !== undefined ? { address: spec.requestedIp } : {}) };
  }
  const port = await reservedVipPort(context, spec, subnet, options);
  const fixed = port.fixedIps.find((ip) => ip.subnetId === subnet.subnetId) ?? port.fixedIps[0];
  if (fixed === undefined) throw new CloudStateError(`VIP port ${port.id} has no address`);
  return { subnetId: fixed.subnetId, address: fixed.address };
}

/**
 * The Neutron port the floating IP goes on: Octavia's VIP port, or with `vipPortMode: reserved`
 * the port holding the VIP address on the VIP subnet (the CCM's own, or the `port-id` one).
 */
export async function vipPortIdOf(context: LoadBalancerContext, loadBalancer: OctaviaLoadBalancer, options?: CallOptions): Promise<string | undefined> {
  if (context.settings.vipPortMode !== 'reserved') return loadBalancer.vipPortId === '' ? undefined : loadBalancer.vipPortId;
  const holders = await context.network.portsWithAddress(loadBalancer.vipAddress, options);
  return holders.find((port) => port.fixedIps.some((ip) => ip.address === loadBalancer.vipAddress && ip.subnetId === loadBalancer.vipSubnetId))?.id;
}

/**
 * Deletes the reserved VIP port of a deleted load balancer (reserved mode) when it is the CCM's own
 * for the Service under any cluster name: a load balancer renamed after a cluster-name change keeps
 * the port it was made with (`vip_<old name>`, described with the old cluster name), which the
 * lookup by the current name below does not find.
 */
export async function releaseReservedVipPortOf(context: LoadBalancerContext, portId: string, service: LoadBalancerSpec['service'], options?: CallOptions): Promise<void> {
  if (context.settings.vipPortMode !== 'reserved') return;
  const port = await context.network.getPort(portId, options);
  if (port === undefined || !isReservedVipPortOf(port, service)) return;
  await ignoringNotFound(() => context.network.deletePort(port.id, options));
}

/** Whether a port is the CCM's reserved VIP port of the Service, made under whichever cluster name. */
function isReservedVipPortOf(port: NeutronPortSummary, service: LoadBalancerSpec['service']): boolean {
  const descriptionPrefix = vipPortDescription('', service);
  return port.name.startsWith(vipPortName(SERVICE_PREFIX)) && port.description.startsWith(descriptionPrefix) && port.description.length > descriptionPrefix.length;
}

/** Deletes the CCM's own VIP port of the Service (reserved mode), if any. */
export async function releaseReservedVipPort(context: LoadBalancerContext, spec: Pick<LoadBalancerSpec, 'name' | 'clusterName' | 'service'>, options?: CallOptions): Promise<void> {
  if (context.settings.vipPortMode !== 'reserved') return;
  const description = vipPortDescription(spec.clusterName, spec.service);
  for (const port of await context.network.findPortsByName(vipPortName(spec.name), options)) {
    if (port.description !== description) continue;
    await ignoringNotFound(() => context.network.deletePort(port.id, options));
  }
}
