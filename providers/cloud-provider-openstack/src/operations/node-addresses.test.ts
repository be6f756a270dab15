import { describe, expect, it } from 'vitest';
import type { OpenStackServer } from '../ports/compute-port.js';
import type { NeutronPort } from '../ports/network-port.js';
import { cidrContains, nodeAddressesOf, sortNodeAddresses, type NodeAddressOptions } from './node-addresses.js';

const server = (overrides: Partial<OpenStackServer> = {}): OpenStackServer => ({
  id: 'srv-1',
  name: 'node-1',
  status: 'ACTIVE',
  availabilityZone: 'nova',
  flavor: { id: 'f', originalName: '' },
  addresses: {},
  accessIPv4: '',
  accessIPv6: '',
  metadata: {},
  ...overrides,
});

const port = (ips: string[], status = 'ACTIVE'): NeutronPort => ({
  id: `p-${ips.join('-')}`,
  networkId: 'n',
  deviceId: 'srv-1',
  status,
  macAddress: 'fa:16:3e:00:00:01',
  fixedIps: ips.map((ipAddress) => ({ subnetId: 's', ipAddress })),
  allowedAddressPairs: [],
  portSecurityEnabled: true,
});

const options = (overrides: Partial<NodeAddressOptions> = {}): NodeAddressOptions => ({ ipv6SupportDisabled: false, publicNetworkNames: [], internalNetworkNames: [], addressSortOrder: [], ...overrides });

describe('nodeAddressesOf (upstream nodeAddresses)', () => {
  it.each<[string, OpenStackServer, NeutronPort[], NodeAddressOptions, Array<[string, string]>]>([
    ['fixed IPs of ACTIVE ports only, in port order', server(), [port(['10.0.0.5', 'fd00::5']), port(['10.0.1.9'], 'DOWN')], options(), [['InternalIP', '10.0.0.5'], ['InternalIP', 'fd00::5']]],
    ['IPv6 dropped with ipv6-support-disabled', server({ accessIPv6: 'fd00::1' }), [port(['10.0.0.5', 'fd00::5'])], options({ ipv6SupportDisabled: true }), [['InternalIP', '10.0.0.5']]],
    [
      'access IPs as ExternalIP, then the hostname metadata',
      server({ accessIPv4: '203.0.113.7', accessIPv6: '2001:db8::7', metadata: { hostname: 'node-1.example' } }),
      [port(['10.0.0.5'])],
      options(),
      [['InternalIP', '10.0.0.5'], ['ExternalIP', '203.0.113.7'], ['ExternalIP', '2001:db8::7'], ['Hostname', 'node-1.example']],
    ],
    [
      'server addresses by sorted network name: floating is ExternalIP, duplicates kept once',
      server({ addresses: { zeta: [{ address: '10.0.9.9', version: 4, type: 'fixed' }], alpha: [{ address: '10.0.0.5', version: 4, type: 'fixed' }, { address: '198.51.100.4', version: 4, type: 'floating' }] } }),
      [port(['10.0.0.5'])],
      options(),
      [['InternalIP', '10.0.0.5'], ['ExternalIP', '198.51.100.4'], ['InternalIP', '10.0.9.9']],
    ],
    [
      'a public-network-name address becomes ExternalIP only',
      server({ addresses: { public: [{ address: '172.24.4.10', version: 4, type: 'fixed' }] } }),
      [port(['172.24.4.10'])],
      options({ publicNetworkNames: ['public'] }),
      [['ExternalIP', '172.24.4.10']],
    ],
    [
      'with internal-network-name, addresses of other networks are dropped everywhere',
      server({ addresses: { nodes: [{ address: '10.0.0.5', version: 4, type: 'fixed' }], storage: [{ address: '192.168.50.5', version: 4, type: 'fixed' }] } }),
      [port(['10.0.0.5']), port(['192.168.50.5'])],
      options({ internalNetworkNames: ['nodes'] }),
      [['InternalIP', '10.0.0.5']],
    ],
    [
      'floating addresses survive internal-network-name',
      server({ addresses: { other: [{ address: '198.51.100.4', version: 4, type: 'floating' }] } }),
      [],
      options({ internalNetworkNames: ['nodes'] }),
      [['ExternalIP', '198.51.100.4']],
    ],
    [
      'address-sort-order puts matching addresses first, grouped by CIDR priority, ascending inside',
      server(),
      [port(['192.168.0.9', '10.0.0.7', '172.16.0.1', '10.0.0.3'])],
      options({ addressSortOrder: ['10.0.0.0/8', '192.168.0.0/16'] }),
      [['InternalIP', '10.0.0.3'], ['InternalIP', '10.0.0.7'], ['InternalIP', '192.168.0.9'], ['InternalIP', '172.16.0.1']],
    ],
  ])('%s', (_name, given, ports, given_options, expected) => {
    expect(nodeAddressesOf(given, ports, given_options).map((address) => [address.type, address.address])).toEqual(expected);
  });

  it('does not change its inputs', () => {
    const input = server({ addresses: { public: [{ address: '10.0.0.5', version: 4, type: 'fixed' }] } });
    const snapshot = structuredClone(input);
    nodeAddressesOf(input, [port(['10.0.0.5'])], options({ publicNetworkNames: ['public'] }));
    expect(input).toEqual(snapshot);
  });
});

describe('sortNodeAddresses', () => {
  it('keeps non-matching addresses (and hostnames) in their order', () => {
    const sorted = sortNodeAddresses(
      [
        { type: 'Hostname', address: 'node-1' },
        { type: 'InternalIP', address: '172.16.0.2' },
        { type: 'ExternalIP', address: 'fd00::2' },
        { type: 'InternalIP', address: 'fd00::1' },
        { type: 'InternalIP', address: '172.16.0.1' },
      ],
      ['fd00::/64'],
    );
    expect(sorted.map((address) => address.address)).toEqual(['fd00::1', 'fd00::2', 'node-1', '172.16.0.2', '172.16.0.1']);
  });

  it.each([
    ['10.0.0.0/8', '10.255.1.1', true],
    ['10.0.0.0/8', '11.0.0.1', false],
    ['10.1.2.0/23', '10.1.3.255', true],
    ['10.1.2.0/23', '10.1.4.0', false],
    ['fd00::/64', 'fd00::abcd', true],
    ['fd00::/64', 'fd00:0:0:1::1', false],
    ['10.0.0.0/8', 'fd00::1', false],
  ])('%s contains %s: %s', (cidr, address, expected) => {
    expect(cidrContains(cidr, address)).toBe(expected);
  });
});
