/**
 * A server's networking as Nova shows it, read from Neutron: its ports (device_id = server ID,
 * those attached at create first, in their order, as Nova's network info cache keeps them) and
 * `addresses` keyed by network name (fixed IPs, then floating IPs as `floating`).
 */
import type { NeutronForNova, NeutronFloatingIp, NeutronPort } from './neutron-for-nova.js';
import type { ServerRecord } from './nova-server-record.js';
import type { ServerAddress } from './nova-server-view.js';

export interface ServerNetworking {
  addresses: Record<string, ServerAddress[]>;
  ports: NeutronPort[];
}

/** One ports query, one networks query and one floating-IPs query for any number of servers. */
export async function readServerNetworking(neutron: NeutronForNova, records: readonly ServerRecord[]): Promise<Map<string, ServerNetworking>> {
  const ports = await neutron.portsOfDevices(records.map((record) => record.id));
  const networkNames = new Map((await neutron.networks([...new Set(ports.map((port) => port.network_id))])).map((network) => [network.id, network.name]));
  const floating = await neutron.floatingIpsOfPorts(ports.map((port) => port.id));
  return new Map(records.map((record) => [record.id, serverNetworking(record, ports, networkNames, floating)]));
}

/** Pure: the networking of one server from what Neutron answered. */
export function serverNetworking(record: ServerRecord, ports: readonly NeutronPort[], networkNames: ReadonlyMap<string, string>, floating: readonly NeutronFloatingIp[]): ServerNetworking {
  const position = (id: string): number => {
    const index = record.portIds.indexOf(id);
    return index < 0 ? record.portIds.length : index;
  };
  const own = ports.filter((port) => port.device_id === record.id).sort((left, right) => position(left.id) - position(right.id));
  const addresses: Record<string, ServerAddress[]> = {};
  for (const port of own) {
    const list = (addresses[networkNames.get(port.network_id) || port.network_id] ??= []);
    for (const fixed of port.fixed_ips) list.push(address(fixed.ip_address, 'fixed', port.mac_address));
    for (const entry of floating) if (entry.port_id === port.id) list.push(address(entry.floating_ip_address, 'floating', port.mac_address));
  }
  return { addresses, ports: own };
}

function address(addr: string, type: 'fixed' | 'floating', mac: string): ServerAddress {
  return { version: addr.includes(':') ? 6 : 4, addr, 'OS-EXT-IPS:type': type, 'OS-EXT-IPS-MAC:mac_addr': mac };
}
