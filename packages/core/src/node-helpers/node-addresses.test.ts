import { describe, expect, it } from 'vitest';
import { ANNOTATION_PROVIDED_NODE_IP } from '../api/well-known.js';
import type { NodeAddress } from '../provider/node-address.js';
import {
  addToNodeAddresses,
  applyProvidedNodeIp,
  getNodeAddressesFromNodeIp,
  NodeAddressError,
  nodeAddressesChangeDetected,
  parseNodeIpAnnotation,
} from './node-addresses.js';
import { formatIp } from '../net/ip-address.js';

const hostname = 'hostname';
const internal = (address: string): NodeAddress => ({ type: 'InternalIP', address });
const external = (address: string): NodeAddress => ({ type: 'ExternalIP', address });
const host = (address = hostname): NodeAddress => ({ type: 'Hostname', address });

describe('TestAddToNodeAddresses (upstream)', () => {
  it.each<[string, NodeAddress[], NodeAddress[], NodeAddress[]]>([
    ['add no addresses to empty node addresses', [], [], []],
    ['add new node addresses to empty existing addresses', [], [external('1.1.1.1'), host('localhost')], [external('1.1.1.1'), host('localhost')]],
    ['add a duplicate node address', [], [external('1.1.1.1'), external('1.1.1.1')], [external('1.1.1.1')]],
    [
      'add 1 new and 1 duplicate address',
      [external('1.1.1.1'), internal('10.1.1.1')],
      [external('1.1.1.1'), host('localhost')],
      [external('1.1.1.1'), internal('10.1.1.1'), host('localhost')],
    ],
  ])('%s', (_name, existing, toAdd, expected) => {
    const before = structuredClone(existing);
    expect(addToNodeAddresses(existing, ...toAdd)).toEqual(expected);
    expect(existing).toEqual(before);
  });
});

describe('TestGetNodeAddressesFromNodeIP (upstream)', () => {
  const cases: Array<{ name: string; nodeIp: string; cloud: NodeAddress[]; expected?: NodeAddress[] }> = [
    { name: 'A single InternalIP', nodeIp: '10.1.1.1', cloud: [internal('10.1.1.1'), host()], expected: [internal('10.1.1.1'), host()] },
    {
      name: 'NodeIP is external',
      nodeIp: '55.55.55.55',
      cloud: [internal('10.1.1.1'), external('55.55.55.55'), host()],
      expected: [external('55.55.55.55'), internal('10.1.1.1'), host()],
    },
    {
      name: 'InternalIP and ExternalIP are the same',
      nodeIp: '55.55.55.55',
      cloud: [internal('44.44.44.44'), external('44.44.44.44'), internal('55.55.55.55'), external('55.55.55.55'), host()],
      expected: [internal('55.55.55.55'), external('55.55.55.55'), host()],
    },
    {
      name: 'An Internal/ExternalIP, an Internal/ExternalDNS',
      nodeIp: '10.1.1.1',
      cloud: [
        internal('10.1.1.1'),
        external('55.55.55.55'),
        { type: 'InternalDNS', address: 'ip-10-1-1-1.us-west-2.compute.internal' },
        { type: 'ExternalDNS', address: 'ec2-55-55-55-55.us-west-2.compute.amazonaws.com' },
        host(),
      ],
      expected: [
        internal('10.1.1.1'),
        external('55.55.55.55'),
        { type: 'InternalDNS', address: 'ip-10-1-1-1.us-west-2.compute.internal' },
        { type: 'ExternalDNS', address: 'ec2-55-55-55-55.us-west-2.compute.amazonaws.com' },
        host(),
      ],
    },
    {
      name: 'An Internal with multiple internal IPs',
      nodeIp: '10.1.1.1',
      cloud: [internal('10.1.1.1'), internal('10.2.2.2'), internal('10.3.3.3'), external('55.55.55.55'), host()],
      expected: [internal('10.1.1.1'), external('55.55.55.55'), host()],
    },
    { name: "An InternalIP that isn't valid: should error", nodeIp: '10.2.2.2', cloud: [internal('10.1.1.1'), external('55.55.55.55'), host()] },
    {
      name: 'Dual-stack cloud, with nodeIP, different IPv6 formats',
      nodeIp: '2600:1f14:1d4:d101::ba3d',
      cloud: [internal('10.1.1.1'), internal('2600:1f14:1d4:d101:0:0:0:ba3d'), host()],
      expected: [internal('2600:1f14:1d4:d101:0:0:0:ba3d'), host()],
    },
    { name: 'Single-stack cloud, dual-stack request', nodeIp: '10.1.1.1,fc01:1234::5678', cloud: [internal('10.1.1.1'), host()] },
    {
      name: 'Dual-stack cloud, IPv4 first, IPv4-primary request',
      nodeIp: '10.1.1.1,fc01:1234::5678',
      cloud: [internal('10.1.1.1'), internal('fc01:1234::5678'), host()],
      expected: [internal('10.1.1.1'), internal('fc01:1234::5678'), host()],
    },
    {
      name: 'Dual-stack cloud, IPv6 first, IPv4-primary request',
      nodeIp: '10.1.1.1,fc01:1234::5678',
      cloud: [internal('fc01:1234::5678'), internal('10.1.1.1'), host()],
      expected: [internal('10.1.1.1'), internal('fc01:1234::5678'), host()],
    },
    {
      name: 'Dual-stack cloud, dual-stack request, multiple IPs',
      nodeIp: '10.1.1.1,fc01:1234::5678',
      cloud: [internal('10.1.1.1'), internal('10.1.1.2'), internal('fc01:1234::1234'), internal('fc01:1234::5678'), host()],
      expected: [internal('10.1.1.1'), internal('fc01:1234::5678'), host()],
    },
    {
      name: 'Dual-stack cloud, dual-stack request, extra ExternalIP',
      nodeIp: '10.1.1.1,fc01:1234::5678',
      cloud: [internal('10.1.1.1'), external('55.55.55.55'), internal('fc01:1234::1234'), internal('fc01:1234::5678'), host()],
      expected: [internal('10.1.1.1'), internal('fc01:1234::5678'), external('55.55.55.55'), host()],
    },
    {
      name: 'Dual-stack cloud, dual-stack request, multiple ExternalIPs',
      nodeIp: 'fc01:1234::5678,10.1.1.1',
      cloud: [internal('10.1.1.1'), external('55.55.55.55'), internal('fc01:1234::5678'), external('2001:db1::1'), host()],
      expected: [internal('fc01:1234::5678'), internal('10.1.1.1'), external('55.55.55.55'), external('2001:db1::1'), host()],
    },
    {
      name: 'Dual-stack cloud, dual-stack request, mixed InternalIP/ExternalIP match',
      nodeIp: '55.55.55.55,fc01:1234::5678',
      cloud: [internal('10.1.1.1'), external('55.55.55.55'), internal('fc01:1234::5678'), external('2001:db1::1'), host()],
      expected: [external('55.55.55.55'), internal('fc01:1234::5678'), host()],
    },
  ];
  it.each(cases)('$name', ({ nodeIp, cloud, expected }) => {
    if (expected === undefined) {
      expect(() => getNodeAddressesFromNodeIp(nodeIp, cloud)).toThrow(NodeAddressError);
      return;
    }
    expect(getNodeAddressesFromNodeIp(nodeIp, cloud)).toEqual(expected);
  });

  it('reports the unmatched IP in the upstream wording', () => {
    expect(() => getNodeAddressesFromNodeIp('10.2.2.2', [internal('10.1.1.1')])).toThrow(
      'failed to get node address from cloud provider that matches ip: 10.2.2.2',
    );
    expect(() => getNodeAddressesFromNodeIp('10.1.1.1,fc01:1234::5678', [internal('10.1.1.1')])).toThrow(
      'failed to get node address from cloud provider that matches ip: fc01:1234::5678',
    );
  });

  it('wraps parse errors as InvalidProvidedNodeIp', () => {
    try {
      getNodeAddressesFromNodeIp('not-an-ip', [internal('10.1.1.1')]);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(NodeAddressError);
      expect((error as NodeAddressError).kind).toBe('InvalidProvidedNodeIp');
      expect((error as Error).message).toBe('failed to parse node IP "not-an-ip": could not parse "not-an-ip"');
    }
  });

  it('does not mutate the cloud list', () => {
    const cloud = [internal('10.2.2.2'), internal('10.1.1.1')];
    const before = structuredClone(cloud);
    getNodeAddressesFromNodeIp('10.1.1.1', cloud);
    expect(cloud).toEqual(before);
  });
});

describe('ParseNodeIPAnnotation (component-helpers)', () => {
  it.each([
    ['10.1.1.1', ['10.1.1.1']],
    ['fc01::1', ['fc01::1']],
    ['10.1.1.1,fc01::1', ['10.1.1.1', 'fc01::1']],
    ['fc01::1,10.1.1.1', ['fc01::1', '10.1.1.1']],
    ['0.0.0.0', ['0.0.0.0']],
  ])('accepts %j', (value, expected) => {
    expect(parseNodeIpAnnotation(value).map(formatIp)).toEqual(expected);
  });

  it.each([
    ['', 'could not parse ""'],
    ['10.1.1.1, fc01::1', 'could not parse " fc01::1"'],
    ['10.1.1.1,', 'could not parse ""'],
    ['10.1.1.1,10.1.1.2', 'must contain either a single IP or a dual-stack pair of IPs'],
    ['fc01::1,fc01::2', 'must contain either a single IP or a dual-stack pair of IPs'],
    ['10.1.1.1,fc01::1,10.1.1.2', 'must contain either a single IP or a dual-stack pair of IPs'],
    ['0.0.0.0,fc01::1', "dual-stack node IP cannot include '0.0.0.0' or '::'"],
    ['10.1.1.1,::', "dual-stack node IP cannot include '0.0.0.0' or '::'"],
  ])('rejects %j', (value, message) => {
    expect(() => parseNodeIpAnnotation(value)).toThrow(message);
  });
});

describe('applyProvidedNodeIp', () => {
  it('passes addresses through without the annotation and filters with it', () => {
    const cloud = [internal('10.2.2.2'), internal('10.1.1.1'), host()];
    expect(applyProvidedNodeIp({ metadata: { name: 'n' } }, cloud)).toEqual(cloud);
    expect(applyProvidedNodeIp({ metadata: { name: 'n', annotations: { [ANNOTATION_PROVIDED_NODE_IP]: '10.1.1.1' } } }, cloud)).toEqual([
      internal('10.1.1.1'),
      host(),
    ]);
  });
});

describe('TestNodeAddressesChangeDetected (upstream)', () => {
  it.each<[string, NodeAddress[], NodeAddress[], boolean]>([
    ['same addresses', [internal('10.0.0.1'), external('1.1.1.1'), host('h')], [internal('10.0.0.1'), external('1.1.1.1'), host('h')], false],
    ['same addresses, different order', [internal('10.0.0.1'), external('1.1.1.1')], [external('1.1.1.1'), internal('10.0.0.1')], false],
    ['different address value', [internal('10.0.0.1'), external('1.1.1.1')], [internal('10.0.0.2'), external('1.1.1.1')], true],
    ['different address type', [internal('10.0.0.1'), external('1.1.1.1')], [internal('10.0.0.1'), { type: 'InternalDNS', address: '1.1.1.1' }], true],
    ['more new addresses', [internal('10.0.0.1')], [internal('10.0.0.1'), external('1.1.1.1')], true],
    ['fewer new addresses', [internal('10.0.0.1'), external('1.1.1.1')], [internal('10.0.0.1')], true],
    ['both empty', [], [], false],
    // The type->address map keeps the last value per type, as upstream does.
    ['two of one type, swapped', [internal('10.0.0.1'), internal('10.0.0.2')], [internal('10.0.0.2'), internal('10.0.0.1')], true],
    ['two of one type, first differs but last matches', [internal('10.0.0.9'), internal('10.0.0.2')], [internal('10.0.0.2'), internal('10.0.0.2')], false],
  ])('%s', (_name, oldAddresses, newAddresses, expected) => {
    expect(nodeAddressesChangeDetected(oldAddresses, newAddresses)).toBe(expected);
  });
});
