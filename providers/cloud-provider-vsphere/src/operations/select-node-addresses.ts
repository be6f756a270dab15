/**
 * Node addresses from a VM's guest data, with upstream's selection rules (DiscoverNode /
 * discoverIPs of cloud-provider-vsphere):
 *  1. `Hostname` = guest.hostName (required), and guest.net must list at least one NIC: a VM whose
 *     tools report a hostname but no NICs yet fails discovery ("VM GuestNicInfo is empty"), so no
 *     address list of a lone `Hostname` ever replaces a node's addresses;
 *  2. only virtual NICs (`deviceConfigId != -1`) count; loopback, link-local, unspecified and
 *     multicast addresses are dropped; addresses listed in guestinfo.metadata come first;
 *  3. when both VM network names are configured, one of them must be among the NICs' networks;
 *  4. per IP family (config order): drop excluded subnets (per role), then the first address in an
 *     internal/external subnet wins, then the first on the internal/external VM network, and
 *     when neither role found anything, the first remaining address serves as both;
 *  5. a VM that reports NICs but yields no address for a family is an error.
 * Pure: inputs in, addresses or a reason out.
 */
import type { NodeAddress } from '@ccm/core/provider';
import type { NodesConfig } from '../config/vsphere-config.js';
import { isLocalOnlyIp, parseIp, type Cidr, type IpFamily, type ParsedIp } from '../net/ip-address.js';
import type { GuestNic } from '../ports/vcenter-port.js';

export interface AddressSelectionInput {
  /** For messages: the node name or UUID being looked up. */
  nodeId: string;
  guestHostName: string;
  guestNet: readonly GuestNic[];
  /** IPs listed in guestinfo.metadata, in document order. */
  metadataIps: readonly string[];
  ipFamilies: readonly IpFamily[];
  nodes: NodesConfig;
}

export type AddressSelection = { ok: true; addresses: NodeAddress[]; notes: string[] } | { ok: false; reason: string };

interface Candidate {
  text: string;
  ip: ParsedIp;
  network: string;
}

export function selectNodeAddresses(input: AddressSelectionInput): AddressSelection {
  if (input.guestHostName === '') return { ok: false, reason: 'the VM reports no guest hostname (VMware Tools must run in the guest)' };
  if (input.guestNet.length === 0) return { ok: false, reason: 'VM GuestNicInfo is empty: the guest reports no network interfaces yet (VMware Tools must run in the guest)' };
  const { nodes } = input;
  const notes: string[] = [];
  const addresses: NodeAddress[] = [];
  const add = (address: NodeAddress): void => {
    if (!addresses.some((existing) => existing.type === address.type && existing.address === address.address)) addresses.push(address);
  };
  add({ type: 'Hostname', address: input.guestHostName });

  const vnics = input.guestNet.filter((nic) => nic.deviceConfigId !== -1);
  if (nodes.internalVmNetworkName !== '' && nodes.externalVmNetworkName !== '') {
    const names = vnics.map((nic) => (nic.network ?? '').toLowerCase());
    if (!names.includes(nodes.internalVmNetworkName.toLowerCase()) && !names.includes(nodes.externalVmNetworkName.toLowerCase())) {
      return { ok: false, reason: 'unable to find suitable IP address for node' };
    }
  }

  const candidates: Candidate[] = [];
  for (const nic of vnics) {
    for (const text of nic.ipAddresses) {
      const ip = parseIp(text);
      if (ip === undefined || isLocalOnlyIp(ip)) continue;
      candidates.push({ text, ip, network: nic.network ?? '' });
    }
  }
  const ordered = metadataFirst(candidates, input.metadataIps);

  for (const family of input.ipFamilies) {
    const { internal, external, note } = discoverIps(ordered, family, nodes);
    if (note !== undefined) notes.push(note);
    if (internal !== undefined) add({ type: 'InternalIP', address: internal.text });
    if (external !== undefined) add({ type: 'ExternalIP', address: external.text });
    if (internal === undefined && external === undefined) {
      return { ok: false, reason: `unable to find suitable IP address for node ${input.nodeId} with IP family [${input.ipFamilies.join(' ')}]` };
    }
  }
  return { ok: true, addresses, notes };
}

/** Candidates listed in the metadata first (in metadata order), the others after, in order. */
function metadataFirst(candidates: readonly Candidate[], metadataIps: readonly string[]): Candidate[] {
  if (metadataIps.length === 0) return [...candidates];
  const rank = (candidate: Candidate): number => {
    const index = metadataIps.findIndex((ip) => sameIp(ip, candidate.ip));
    return index < 0 ? Number.MAX_SAFE_INTEGER : index;
  };
  return candidates
    .map((candidate, index) => ({ candidate, index, rank: rank(candidate) }))
    .sort((left, right) => left.rank - right.rank || left.index - right.index)
    .map((entry) => entry.candidate);
}

function sameIp(text: string, ip: ParsedIp): boolean {
  const parsed = parseIp(text);
  return parsed !== undefined && parsed.family === ip.family && parsed.bytes.every((byte, index) => byte === ip.bytes[index]);
}

function discoverIps(candidates: readonly Candidate[], family: IpFamily, nodes: NodesConfig): { internal?: Candidate; external?: Candidate; note?: string } {
  const familyMatches = candidates.filter((candidate) => candidate.ip.family === family);
  const internalPool = excludeSubnets(familyMatches, nodes.excludeInternalNetworkSubnets);
  const externalPool = excludeSubnets(familyMatches, nodes.excludeExternalNetworkSubnets);
  if (internalPool.length === 0 && externalPool.length === 0) return {};

  let internal = firstInSubnets(internalPool, nodes.internalNetworkSubnets);
  let external = firstInSubnets(externalPool, nodes.externalNetworkSubnets);
  if (internal === undefined && nodes.internalVmNetworkName !== '') internal = firstOnNetwork(internalPool, nodes.internalVmNetworkName);
  if (external === undefined && nodes.externalVmNetworkName !== '') external = firstOnNetwork(externalPool, nodes.externalVmNetworkName);

  if (internal === undefined && external === undefined) {
    // Default selection: the first remaining address of each role.
    return { ...optional('internal', internalPool[0]), ...optional('external', externalPool[0]) };
  }
  if (internal !== undefined && external === undefined) return { internal, note: `${family}: internal address found, but no external address` };
  if (internal === undefined && external !== undefined) return { external, note: `${family}: external address found, but no internal address` };
  return { ...optional('internal', internal), ...optional('external', external) };
}

function optional<K extends 'internal' | 'external'>(key: K, value: Candidate | undefined): Partial<Record<K, Candidate>> {
  return value === undefined ? {} : ({ [key]: value } as Partial<Record<K, Candidate>>);
}

function excludeSubnets(candidates: readonly Candidate[], subnets: readonly Cidr[]): Candidate[] {
  return candidates.filter((candidate) => !subnets.some((subnet) => subnet.contains(candidate.ip)));
}

/** Subnets in config order: the first subnet with a matching candidate decides. */
function firstInSubnets(candidates: readonly Candidate[], subnets: readonly Cidr[]): Candidate | undefined {
  for (const subnet of subnets) {
    const match = candidates.find((candidate) => subnet.contains(candidate.ip));
    if (match !== undefined) return match;
  }
  return undefined;
}

function firstOnNetwork(candidates: readonly Candidate[], network: string): Candidate | undefined {
  const wanted = network.toLowerCase();
  return candidates.find((candidate) => candidate.network.toLowerCase() === wanted);
}
