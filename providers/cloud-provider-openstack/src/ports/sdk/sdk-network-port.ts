/** The Network port over openstack-client-ts's Neutron client: the only code that sees Neutron's JSON. */
import type { NeutronClient, Port, Router } from 'openstack-client-ts';
import type { CallOptions } from '@ccm/core/cloud';
import type { NetworkPort, NeutronPort, NeutronRouter, PortFilter } from '../network-port.js';
import { callOpenStack } from './sdk-errors.js';

export function toNeutronPort(port: Port): NeutronPort {
  return {
    id: port.id,
    networkId: port.network_id,
    deviceId: port.device_id,
    status: port.status,
    macAddress: port.mac_address,
    fixedIps: (port.fixed_ips ?? []).map((fixedIp) => ({ subnetId: fixedIp.subnet_id, ipAddress: fixedIp.ip_address })),
    allowedAddressPairs: (port.allowed_address_pairs ?? []).map((pair) => (pair.mac_address === undefined ? { ipAddress: pair.ip_address } : { ipAddress: pair.ip_address, macAddress: pair.mac_address })),
    portSecurityEnabled: port.port_security_enabled !== false,
  };
}

function toNeutronRouter(router: Router): NeutronRouter {
  return { id: router.id, routes: (router.routes ?? []).map((route) => ({ destination: route.destination, nexthop: route.nexthop })) };
}

function portQuery(filter: PortFilter): Record<string, readonly string[] | undefined> {
  return {
    device_id: filter.deviceIds,
    network_id: filter.networkIds,
    fixed_ips: filter.ipAddresses?.map((ip) => `ip_address=${ip}`),
  };
}

export function createSdkNetworkPort(neutron: NeutronClient): NetworkPort {
  const signalOf = (options: CallOptions | undefined): AbortSignal | undefined => options?.signal;
  const listOptions = (options: CallOptions | undefined): { signal?: AbortSignal } => (options?.signal === undefined ? {} : { signal: options.signal });
  const listPorts = (filter: PortFilter, options: CallOptions | undefined): Promise<NeutronPort[]> =>
    callOpenStack('network.listPorts', async () => (await neutron.ports.list(portQuery(filter), listOptions(options))).map(toNeutronPort));
  return {
    listPorts,
    portsOfDevice: (deviceId, options) => listPorts({ deviceIds: [deviceId] }, options),
    updatePortAllowedAddressPairs: (portId, pairs, options) =>
      callOpenStack('network.updatePortAllowedAddressPairs', async () =>
        toNeutronPort(
          await neutron.ports.update(portId, { allowed_address_pairs: pairs.map((pair) => (pair.macAddress === undefined ? { ip_address: pair.ipAddress } : { ip_address: pair.ipAddress, mac_address: pair.macAddress })) }, signalOf(options)),
        ),
      ),
    getRouter: (routerId, options) => callOpenStack('network.getRouter', async () => toNeutronRouter(await neutron.routers.get(routerId, signalOf(options)))),
    addExtraRoutes: (routerId, routes, options) => callOpenStack('network.addExtraRoutes', async () => toNeutronRouter(await neutron.routers.addExtraRoutes(routerId, routes, signalOf(options)))),
    removeExtraRoutes: (routerId, routes, options) => callOpenStack('network.removeExtraRoutes', async () => toNeutronRouter(await neutron.routers.removeExtraRoutes(routerId, routes, signalOf(options)))),
    setRouterRoutes: (routerId, routes, options) => callOpenStack('network.setRouterRoutes', async () => toNeutronRouter(await neutron.routers.setRoutes(routerId, routes, signalOf(options)))),
    listExtensionAliases: (options) => callOpenStack('network.listExtensionAliases', async () => (await neutron.extensions(signalOf(options))).map((extension) => extension.alias)),
  };
}
