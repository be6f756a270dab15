import { describe, expect, it } from 'vitest';
import { EMPTY_NODES_CONFIG, type NodesConfig } from '../config/vsphere-config.js';
import { Cidr, type IpFamily } from '../net/ip-address.js';
import type { GuestNic } from '../ports/vcenter-port.js';
import { selectNodeAddresses } from './select-node-addresses.js';

const cidrs = (...texts: string[]): Cidr[] => texts.map((text) => Cidr.parse(text)!);
const nic = (network: string, ...ipAddresses: string[]): GuestNic => ({ network, ipAddresses, deviceConfigId: 4000 });
const cni = (...ipAddresses: string[]): GuestNic => ({ network: undefined, ipAddresses, deviceConfigId: -1 });

interface Case {
  title: string;
  net: GuestNic[];
  nodes?: Partial<NodesConfig>;
  families?: IpFamily[];
  metadata?: string[];
  expected: Array<[string, string]> | string;
}

const cases: Case[] = [
  {
    title: 'one NIC, one IP: it is both InternalIP and ExternalIP',
    net: [nic('VM Network', '10.0.0.5')],
    expected: [['InternalIP', '10.0.0.5'], ['ExternalIP', '10.0.0.5']],
  },
  {
    title: 'non-vNIC devices (deviceConfigId -1) and local-only addresses are skipped',
    net: [cni('10.244.0.1'), nic('VM Network', '127.0.0.1', 'fe80::1', '169.254.3.4', '::1', '0.0.0.0', '224.0.0.251', '10.0.0.5')],
    expected: [['InternalIP', '10.0.0.5'], ['ExternalIP', '10.0.0.5']],
  },
  {
    title: 'ipv6 only picks the first global IPv6 address',
    net: [nic('VM Network', '10.0.0.5', 'fe80::250:56ff:fe00:1', '2001:db8::5')],
    families: ['ipv6'],
    expected: [['InternalIP', '2001:db8::5'], ['ExternalIP', '2001:db8::5']],
  },
  {
    title: 'dual stack adds both families in priority order',
    net: [nic('VM Network', '2001:db8::5', '10.0.0.5')],
    families: ['ipv4', 'ipv6'],
    expected: [['InternalIP', '10.0.0.5'], ['ExternalIP', '10.0.0.5'], ['InternalIP', '2001:db8::5'], ['ExternalIP', '2001:db8::5']],
  },
  {
    title: 'subnet matching picks internal and external addresses',
    net: [nic('a', '192.168.1.10'), nic('b', '10.0.0.5')],
    nodes: { internalNetworkSubnets: cidrs('10.0.0.0/8'), externalNetworkSubnets: cidrs('192.168.0.0/16') },
    expected: [['InternalIP', '10.0.0.5'], ['ExternalIP', '192.168.1.10']],
  },
  {
    title: 'subnets are tried in config order',
    net: [nic('a', '10.0.0.5', '172.16.0.5')],
    nodes: { internalNetworkSubnets: cidrs('172.16.0.0/12', '10.0.0.0/8') },
    expected: [['InternalIP', '172.16.0.5']],
  },
  {
    title: 'network names match case-insensitively when subnets do not match',
    net: [nic('Public', '203.0.113.7'), nic('Private', '10.0.0.5')],
    nodes: { internalNetworkSubnets: cidrs('172.16.0.0/12'), internalVmNetworkName: 'private', externalVmNetworkName: 'PUBLIC' },
    expected: [['InternalIP', '10.0.0.5'], ['ExternalIP', '203.0.113.7']],
  },
  {
    title: 'both network names configured but neither present is an error',
    net: [nic('Other', '10.0.0.5')],
    nodes: { internalVmNetworkName: 'Private', externalVmNetworkName: 'Public' },
    expected: 'unable to find suitable IP address for node',
  },
  {
    title: 'excluded subnets never serve their role; the default selection uses what remains',
    net: [nic('a', '10.244.1.1', '10.0.0.5', '203.0.113.7')],
    nodes: { excludeInternalNetworkSubnets: cidrs('10.244.0.0/16'), excludeExternalNetworkSubnets: cidrs('10.0.0.0/8') },
    expected: [['InternalIP', '10.0.0.5'], ['ExternalIP', '203.0.113.7']],
  },
  {
    title: 'only an external match: no InternalIP (upstream warns)',
    net: [nic('a', '10.0.0.5', '203.0.113.7')],
    nodes: { externalNetworkSubnets: cidrs('203.0.113.0/24') },
    expected: [['ExternalIP', '203.0.113.7']],
  },
  {
    title: 'addresses listed in guestinfo.metadata come first',
    net: [nic('a', '10.0.0.5', '10.0.0.9')],
    metadata: ['10.0.0.9'],
    expected: [['InternalIP', '10.0.0.9'], ['ExternalIP', '10.0.0.9']],
  },
  {
    title: 'an IPv4-mapped IPv6 address counts as IPv4',
    net: [nic('a', '::ffff:10.0.0.5')],
    expected: [['InternalIP', '::ffff:10.0.0.5'], ['ExternalIP', '::ffff:10.0.0.5']],
  },
  {
    title: 'NICs without a usable address for the family is an error naming the node and families',
    net: [nic('a', '10.0.0.5')],
    families: ['ipv6'],
    expected: 'unable to find suitable IP address for node node-1 with IP family [ipv6]',
  },
  {
    title: 'a VM reporting a hostname but no NICs fails discovery (no Hostname-only address list)',
    net: [],
    expected: 'VM GuestNicInfo is empty: the guest reports no network interfaces yet (VMware Tools must run in the guest)',
  },
];

describe('selectNodeAddresses', () => {
  it.each(cases)('$title', ({ net, nodes, families, metadata, expected }) => {
    const result = selectNodeAddresses({
      nodeId: 'node-1',
      guestHostName: 'node-1.example.com',
      guestNet: net,
      metadataIps: metadata ?? [],
      ipFamilies: families ?? ['ipv4'],
      nodes: { ...EMPTY_NODES_CONFIG, ...nodes },
    });
    if (typeof expected === 'string') {
      expect(result).toEqual({ ok: false, reason: expected });
      return;
    }
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.addresses).toEqual([{ type: 'Hostname', address: 'node-1.example.com' }, ...expected.map(([type, address]) => ({ type, address }))]);
  });

  it('requires a guest hostname (VMware Tools running)', () => {
    const result = selectNodeAddresses({ nodeId: 'n', guestHostName: '', guestNet: [nic('a', '10.0.0.5')], metadataIps: [], ipFamilies: ['ipv4'], nodes: EMPTY_NODES_CONFIG });
    expect(result).toEqual({ ok: false, reason: 'the VM reports no guest hostname (VMware Tools must run in the guest)' });
  });
});
