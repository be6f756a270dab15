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
import { isIPv4, isIPv6 } from 'node:net';
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

/** The 16 bytes of an IPv4 (mapped) or IPv6 address, for byte order comparison as Go's `bytes.Compare(net.ParseIP(...))`. */
export function ipBytes(address: string): number[] | undefined {
  if (isIPv4(address)) return [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...address.split('.').map(Number)];
  if (!isIPv6(address)) return undefined;
  let text = address.split('%')[0] as string;
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    tail = text.slice(lastColon + 1).split('.').map(Number);
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const [head = '', rest] = text.split('::');
  const groupsOf = (part: string): number[] => (part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)));
  const left = groupsOf(head);
  const right = rest === undefined ? [] : groupsOf(rest);
  const groups = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  const bytes = groups.flatMap((group) => [group >> 8, group & 0xff]);
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

function compareBytes(left: readonly number[] | undefined, right: readonly number[] | undefined): number {
  const a = left ?? [];
  const b = right ?? [];
  for (let index = 0; index < Math.min(a.length, b.length); index++) if (a[index] !== b[index]) return (a[index] as number) - (b[index] as number);
  return a.length - b.length;
}

/** Whether `address` is inside `cidr` (same family). */
export function cidrContains(cidr: string, address: string): boolean {
  const [network = '', prefixText = ''] = cidr.split('/');
  if (isIPv4(network) !== isIPv4(address)) return false;
  const networkBytes = ipBytes(network);
  const addressBytes = ipBytes(address);
  if (networkBytes === undefined || addressBytes === undefined) return false;
  const offset = isIPv4(network) ? 12 : 0;
  let bits = Number(prefixText);
  for (let index = offset; index < 16 && bits > 0; index++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if (((networkBytes[index] as number) & mask) !== ((addressBytes[index] as number) & mask)) return false;
  }
  return true;
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
