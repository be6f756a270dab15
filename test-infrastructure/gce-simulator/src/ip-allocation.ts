import type { ComputeState } from './compute-state.js';
import { GceError } from './gce-error.js';
import { parseResourcePath } from './resource-links.js';
import { firstFreeHost, ipv4ToNumber, numberToIpv4, parseIpv4Range, type Ipv4Range } from './ipv4.js';

/** External (NAT, forwarding rule, static) addresses come from this block, lowest free first. */
const EXTERNAL_POOL: Ipv4Range = { base: ipv4ToNumber('34.1.0.0') ?? 0, prefix: 16, size: 65_536 };

function asArray(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
}

/** Every IPv4 address held by an instance, an address or a forwarding rule. */
export function addressesInUse(state: ComputeState): Set<string> {
  const used = new Set<string>();
  const add = (value: unknown): void => {
    if (typeof value === 'string') used.add(value);
  };
  for (const [path, resource] of state.entries()) {
    const collection = parseResourcePath(path)?.collection;
    if (collection === 'instances') {
      for (const nic of asArray(resource['networkInterfaces'])) {
        add(nic['networkIP']);
        for (const access of asArray(nic['accessConfigs'])) add(access['natIP']);
      }
    } else if (collection === 'addresses') add(resource['address']);
    else if (collection === 'forwardingRules') add(resource['IPAddress']);
  }
  return used;
}

/** Paths of the instances and forwarding rules holding each IP (reserved addresses do not hold, they reserve). */
export function ipHolders(state: ComputeState): Map<string, string[]> {
  const holders = new Map<string, string[]>();
  const hold = (ip: unknown, path: string): void => {
    if (typeof ip === 'string') holders.set(ip, [...(holders.get(ip) ?? []), path]);
  };
  for (const [path, resource] of state.entries()) {
    const collection = parseResourcePath(path)?.collection;
    if (collection === 'forwardingRules') hold(resource['IPAddress'], path);
    if (collection === 'instances') {
      for (const nic of asArray(resource['networkInterfaces'])) {
        hold(nic['networkIP'], path);
        for (const access of asArray(nic['accessConfigs'])) hold(access['natIP'], path);
      }
    }
  }
  return holders;
}

export function allocateExternalAddress(state: ComputeState): string {
  const address = firstFreeHost(EXTERNAL_POOL, addressesInUse(state));
  if (address === undefined) throw new GceError('invalid', 'The external address pool is exhausted.');
  return address;
}

/** The lowest free host of an IPv4 CIDR (a subnetwork's ipCidrRange or a legacy network's IPv4Range). */
export function allocateInternalAddress(state: ComputeState, cidr: string, owner: string): string {
  const address = firstFreeHost(parseIpv4Range('ipCidrRange', cidr), addressesInUse(state));
  if (address === undefined) throw new GceError('invalid', `The IP range ${cidr} of '${owner}' has no free address.`);
  return address;
}

export function gatewayOf(cidr: string): string {
  const range = parseIpv4Range('ipCidrRange', cidr);
  return numberToIpv4(range.base + 1);
}
