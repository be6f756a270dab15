/** The load balancer's Neutron port (floating IPs, the VIP port, subnets) over openstack-client-ts's Neutron client. */
import type { FloatingIp, NeutronClient, Port, Subnet } from 'openstack-client-ts';
import type { CallOptions } from '@ccm/core/cloud';
import type { LoadBalancerNetworkPort, NeutronFloatingIp, NeutronPortSummary, NeutronSubnetSummary } from '../load-balancer-network-port.js';
import { isOpenStackErrorKind } from '../openstack-api-error.js';
import { callOpenStack } from './sdk-errors.js';

function toFloatingIp(floating: FloatingIp): NeutronFloatingIp {
  return {
    id: floating.id,
    address: floating.floating_ip_address,
    floatingNetworkId: floating.floating_network_id,
    portId: floating.port_id ?? undefined,
    description: floating.description ?? '',
  };
}

function toPortSummary(port: Port): NeutronPortSummary {
  return {
    id: port.id,
    name: port.name ?? '',
    description: port.description ?? '',
    networkId: port.network_id,
    fixedIps: (port.fixed_ips ?? []).map((fixed) => ({ subnetId: fixed.subnet_id, address: fixed.ip_address })),
  };
}

function toSubnetSummary(subnet: Subnet): NeutronSubnetSummary {
  return { id: subnet.id, networkId: subnet.network_id, cidr: subnet.cidr, ipVersion: subnet.ip_version };
}

export function createSdkLoadBalancerNetworkPort(neutron: NeutronClient): LoadBalancerNetworkPort {
  const signalOf = (options: CallOptions | undefined): AbortSignal | undefined => options?.signal;
  const listOptions = (options: CallOptions | undefined): { signal?: AbortSignal } => (options?.signal === undefined ? {} : { signal: options.signal });
  const orUndefinedOnNotFound = async <T>(run: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await run();
    } catch (error) {
      if (isOpenStackErrorKind(error, 'NotFound')) return undefined;
      throw error;
    }
  };
  return {
    floatingIpsOfPort: (portId, options) => callOpenStack('network.listFloatingIps', async () => (await neutron.floatingIps.list({ port_id: portId }, listOptions(options))).map(toFloatingIp)),
    floatingIpsByAddress: (address, options) => callOpenStack('network.listFloatingIps', async () => (await neutron.floatingIps.list({ floating_ip_address: address }, listOptions(options))).map(toFloatingIp)),
    createFloatingIp: (spec, options) =>
      callOpenStack('network.createFloatingIp', async () =>
        toFloatingIp(
          await neutron.floatingIps.create(
            {
              floating_network_id: spec.floatingNetworkId,
              ...(spec.floatingSubnetId === undefined ? {} : { subnet_id: spec.floatingSubnetId }),
              ...(spec.address === undefined ? {} : { floating_ip_address: spec.address }),
              port_id: spec.portId,
              description: spec.description,
            },
            signalOf(options),
          ),
        ),
      ),
    attachFloatingIp: (id, portId, options) => callOpenStack('network.updateFloatingIp', async () => toFloatingIp(await neutron.floatingIps.update(id, { port_id: portId ?? null }, signalOf(options)))),
    deleteFloatingIp: (id, options) => callOpenStack('network.deleteFloatingIp', () => neutron.floatingIps.delete(id, signalOf(options))),

    getPort: (id, options) => orUndefinedOnNotFound(() => callOpenStack('network.getPort', async () => toPortSummary(await neutron.ports.get(id, signalOf(options))))),
    findPortsByName: (name, options) => callOpenStack('network.listPorts', async () => (await neutron.ports.list({ name }, listOptions(options))).map(toPortSummary)),
    portsWithAddress: (address, options) => callOpenStack('network.listPorts', async () => (await neutron.ports.list({ fixed_ips: [`ip_address=${address}`] }, listOptions(options))).map(toPortSummary)),
    createPort: (spec, options) =>
      callOpenStack('network.createPort', async () =>
        toPortSummary(
          await neutron.ports.create(
            { name: spec.name, description: spec.description, network_id: spec.networkId, fixed_ips: [{ subnet_id: spec.subnetId, ...(spec.address === undefined ? {} : { ip_address: spec.address }) }] },
            signalOf(options),
          ),
        ),
      ),
    deletePort: (id, options) => callOpenStack('network.deletePort', () => neutron.ports.delete(id, signalOf(options))),

    getSubnet: (id, options) => orUndefinedOnNotFound(() => callOpenStack('network.getSubnet', async () => toSubnetSummary(await neutron.subnets.get(id, signalOf(options))))),
    subnetsOfNetwork: (networkId, options) => callOpenStack('network.listSubnets', async () => (await neutron.subnets.list({ network_id: networkId }, listOptions(options))).map(toSubnetSummary)),
  };
}
