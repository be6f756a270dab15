/**
 * A server's node addresses, as upstream `nodeAddresses` (`instances_addresses.go`), in order:
 * 1. InternalIP: each fixed IP of each ACTIVE Neutron port of the server;
 * 2. ExternalIP: `accessIPv4`, `accessIPv6`;
 * 3. Hostname: the server metadata `hostname`;
 * 4. `server.addresses` by network name (sorted): a `floating` address is ExternalIP; an address on
 *    a `public-network-name` network is ExternalIP (and no longer InternalIP); else InternalIP when
 *    `internal-network-name` is empty or names the network, otherwise dropped everywhere.
 * IPv6 addresses are dropped with `ipv6-support-disabled`; duplicates (same address and type) are
 * kept once; `address-sort-order` then sorts (see `sortNodeAddresses`). Pure: table-tested.
 */
import { isIPv4 } from 'node:net';
import { cidrContains as networkContains, parseIp, parseIpAddress, tryParseCidr } from '@ccm/core/net';
import type { NodeAddress, NodeAddressType } from '@ccm/core/provider';
import type { OpenStackServer } from '../ports/compute-port.js';
import type { NeutronPort } from '../ports/network-port.js';

export interface NodeAddressOptions {
  ipv6SupportDisabled: boolean;
  publicNetworkNames: readonly string[];
  internalNetworkNames: readonly string[];
  /** CIDRs, highest priority first. */
  addressSortOrder: readonly string[];
}

/** Upstream metadata key of the Hostname address (`TypeHostName`). */
export const HOSTNAME_METADATA_KEY = 'hostname';
const ACTIVE_PORT_STATUS = 'ACTIVE';

function add(addresses: NodeAddress[], type: NodeAddressType, address: string): void {
  if (!addresses.some((existing) => existing.address === address && existing.type === type)) addresses.push({ type, address });
}

/** Removes every address `address` (any type). */
function remove(addresses: NodeAddress[], address: string): void {
  for (let index = addresses.length - 1; index >= 0; index--) if (addresses[index]?.address === address) addresses.splice(index, 1);
}

const isV6 = (address: string): boolean => !isIPv4(address);

export function nodeAddressesOf(server: OpenStackServer, ports: readonly NeutronPort[], options: NodeAddressOptions): NodeAddress[] {
  const keep = (address: string): boolean => !isV6(address) || !options.ipv6SupportDisabled;
  const addresses: NodeAddress[] = [];
  for (const port of ports) {
    if (port.status !== ACTIVE_PORT_STATUS) continue;
    for (const fixedIp of port.fixedIps) if (keep(fixedIp.ipAddress)) add(addresses, 'InternalIP', fixedIp.ipAddress);
  }
  if (server.accessIPv4 !== '') add(addresses, 'ExternalIP', server.accessIPv4);
  if (server.accessIPv6 !== '' && !options.ipv6SupportDisabled) add(addresses, 'ExternalIP', server.accessIPv6);
  const hostname = server.metadata[HOSTNAME_METADATA_KEY] ?? '';
  if (hostname !== '') add(addresses, 'Hostname', hostname);

  for (const network of Object.keys(server.addresses).sort()) {
    for (const entry of server.addresses[network] ?? []) {
      let type: NodeAddressType;
      if (entry.type === 'floating') type = 'ExternalIP';
      else if (options.publicNetworkNames.includes(network)) {
        type = 'ExternalIP';
        remove(addresses, entry.address);
      } else if (options.internalNetworkNames.length === 0 || options.internalNetworkNames.includes(network)) type = 'InternalIP';
      else {
        remove(addresses, entry.address);
        continue;
      }
      if (keep(entry.address)) add(addresses, type, entry.address);
    }
  }
  return options.addressSortOrder.length === 0 ? addresses : sortNodeAddresses(addresses, options.addressSortOrder);
}

/** The 16 bytes of an IPv4 (mapped) or IPv6 address (core's `parseIp`), for byte order comparison as Go's `bytes.Compare(net.ParseIP(...))`. */
export function ipBytes(address: string): number[] | undefined {
  const bytes = parseIp(address);
  return bytes === undefined ? undefined : [...bytes];
}

function compareBytes(left: readonly number[] | undefined, right: readonly number[] | undefined): number {
  const a = left ?? [];
  const b = right ?? [];
  for (let index = 0; index < Math.min(a.length, b.length); index++) if (a[index] !== b[index]) return (a[index] as number) - (b[index] as number);
  return a.length - b.length;
}

/** Whether `address` is inside `cidr` (same family; core's `@ccm/core/net`). */
export function cidrContains(cidr: string, address: string): boolean {
  const network = tryParseCidr(cidr);
  const parsed = parseIpAddress(address);
  return network !== undefined && parsed !== undefined && networkContains(network, parsed);
}

/**
 * Upstream `sortNodeAddresses`: a stable sort where an address in the i-th CIDR of
 * `address-sort-order` has priority `n - i` (others 0); higher priority first, addresses of the
 * same CIDR ascending by IP, others keep their order.
 */
export function sortNodeAddresses(addresses: readonly NodeAddress[], cidrs: readonly string[]): NodeAddress[] {
  const priorityOf = (address: string): number => {
    if (ipBytes(address) === undefined) return 0;
    const index = cidrs.findIndex((cidr) => cidrContains(cidr, address));
    return index === -1 ? 0 : cidrs.length - index;
  };
  return addresses
    .map((address, index) => ({ address, index, priority: priorityOf(address.address) }))
    .sort((left, right) => {
      if (left.priority > 0 && left.priority === right.priority) return compareBytes(ipBytes(left.address.address), ipBytes(right.address.address)) || left.index - right.index;
      return right.priority - left.priority || left.index - right.index;
    })
    .map((entry) => entry.address);
}
