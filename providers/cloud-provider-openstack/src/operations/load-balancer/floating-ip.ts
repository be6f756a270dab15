/**
 * The floating IP of a load balancer's VIP port (upstream `ensureFloatingIP`):
 * 1. a floating IP already on the VIP port is used; an internal Service's is deleted when the CCM
 *    created it (its description names the Service) and `keep-floatingip` is not set, else detached;
 * 2. `loadBalancerIP` names an existing floating IP: attached when free, an error when in use;
 * 3. else a new one on the floating network (`floating-network-id`, `floating-subnet-id`, with
 *    `loadBalancerIP` as its address when given). Without a floating network the Service gets its
 *    VIP (upstream's `LoadBalancerForcedInternal` warning).
 */
import { InvalidServiceConfigurationError } from '@ccm/core/provider';
import type { CallOptions } from '@ccm/core/cloud';
import type { NeutronFloatingIp } from '../../ports/load-balancer-network-port.js';
import { ignoringNotFound, type LoadBalancerContext } from './load-balancer-context.js';
import { floatingIpDescription, isProviderMadeFloatingIp } from './load-balancer-names.js';
import type { LoadBalancerSpec } from './load-balancer-spec.js';

export type FloatingIpSpec = Pick<LoadBalancerSpec, 'service' | 'clusterName' | 'name' | 'internal' | 'keepFloatingIp' | 'requestedIp' | 'floatingNetworkId' | 'floatingSubnetId'>;

/** The floating IP address of the load balancer, or undefined when it keeps its VIP only. */
export async function ensureFloatingIp(context: LoadBalancerContext, spec: FloatingIpSpec, vipPortId: string | undefined, options?: CallOptions): Promise<string | undefined> {
  const { network, logger } = context;
  if (vipPortId === undefined) {
    if (spec.internal) return undefined;
    throw new InvalidServiceConfigurationError(`load balancer ${spec.name} has no VIP port in Neutron to put a floating IP on`);
  }
  const attached = (await network.floatingIpsOfPort(vipPortId, options))[0];
  if (spec.internal) {
    if (attached !== undefined) await releaseFloatingIp(context, spec, attached, options);
    return undefined;
  }
  if (attached !== undefined) return attached.address;
  if (spec.requestedIp !== undefined) {
    const existing = (await network.floatingIpsByAddress(spec.requestedIp, options))[0];
    if (existing !== undefined) {
      if (existing.portId !== undefined && existing.portId !== vipPortId) {
        throw new InvalidServiceConfigurationError(`spec.loadBalancerIP=${spec.requestedIp}: the floating IP is attached to another port`, { annotation: 'spec.loadBalancerIP', value: spec.requestedIp });
      }
      return (await network.attachFloatingIp(existing.id, vipPortId, options)).address;
    }
  }
  if (spec.floatingNetworkId === undefined) {
    logger.warn('no floating network configured for the Service: it keeps its VIP address (LoadBalancerForcedInternal)', { service: `${spec.service.namespace}/${spec.service.name}` });
    return undefined;
  }
  const created = await network.createFloatingIp(
    {
      floatingNetworkId: spec.floatingNetworkId,
      ...(spec.floatingSubnetId === undefined ? {} : { floatingSubnetId: spec.floatingSubnetId }),
      ...(spec.requestedIp === undefined ? {} : { address: spec.requestedIp }),
      portId: vipPortId,
      description: floatingIpDescription(spec.clusterName, spec.service),
    },
    options,
  );
  logger.info('created floating IP for load balancer', { loadBalancer: spec.name, floatingIp: created.address });
  return created.address;
}

/**
 * Deletes a floating IP a CCM created (for this Service, under any cluster name, as upstream
 * matches the description's prefix) unless `keep-floatingip`; any other is only detached.
 */
export async function releaseFloatingIp(context: LoadBalancerContext, spec: Pick<FloatingIpSpec, 'service' | 'clusterName' | 'keepFloatingIp' | 'name'>, floatingIp: NeutronFloatingIp, options?: CallOptions): Promise<void> {
  const ours = isProviderMadeFloatingIp(floatingIp.description);
  if (ours && !spec.keepFloatingIp) {
    context.logger.info('deleting floating IP of load balancer', { loadBalancer: spec.name, floatingIp: floatingIp.address });
    await ignoringNotFound(() => context.network.deleteFloatingIp(floatingIp.id, options));
    return;
  }
  await context.network.attachFloatingIp(floatingIp.id, undefined, options);
}
