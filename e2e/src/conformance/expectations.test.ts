import { LABEL_EXCLUDE_FROM_EXTERNAL_LOAD_BALANCERS, TAINT_TO_BE_DELETED_BY_CLUSTER_AUTOSCALER } from '@ccm/core/api';
import { describe, expect, it } from 'vitest';
import type { KubeNode, NodeAddress } from '../harness/kube-objects.js';
import { addressesForProvidedNodeIp, eligibleBackendNames, expectedNodeAddresses, parseGoBool, sameIp } from './expectations.js';

const internal = (address: string): NodeAddress => ({ type: 'InternalIP', address });
const external = (address: string): NodeAddress => ({ type: 'ExternalIP', address });
const hostname = (address: string): NodeAddress => ({ type: 'Hostname', address });
const dns = (address: string): NodeAddress => ({ type: 'InternalDNS', address });

describe('sameIp', () => {
  it.each([
    ['10.0.0.1', '10.0.0.1', true],
    ['10.0.0.1', '10.0.0.2', false],
    ['2001:db8::1', '2001:0db8:0:0:0:0:0:1', true],
    ['::ffff:10.0.0.1', '10.0.0.1', true],
    ['::1.2.3.4', '::102:304', true],
    ['fd00::1', 'fd00::2', false],
    ['not-an-ip', 'not-an-ip', false],
  ])('%s vs %s -> %s', (left, right, expected) => {
    expect(sameIp(left, right)).toBe(expected);
  });
});

describe('addressesForProvidedNodeIp (upstream GetNodeAddressesFromNodeIP)', () => {
  it('puts the matching address first and drops other addresses of its type', () => {
    const cloud = [internal('10.0.0.1'), internal('10.0.0.2'), external('203.0.113.5'), hostname('n1')];
    expect(addressesForProvidedNodeIp('10.0.0.2', cloud)).toEqual([internal('10.0.0.2'), external('203.0.113.5'), hostname('n1')]);
  });

  it('enforces every type the IP matches', () => {
    const cloud = [internal('10.0.0.1'), external('10.0.0.1'), internal('10.0.0.9'), external('203.0.113.5'), dns('n1.internal')];
    expect(addressesForProvidedNodeIp('10.0.0.1', cloud)).toEqual([internal('10.0.0.1'), external('10.0.0.1'), dns('n1.internal')]);
  });

  it('matches an external IP and keeps the internal ones', () => {
    const cloud = [internal('10.0.0.1'), external('203.0.113.5'), external('203.0.113.6')];
    expect(addressesForProvidedNodeIp('203.0.113.6', cloud)).toEqual([external('203.0.113.6'), internal('10.0.0.1')]);
  });

  it('orders a dual-stack pair in annotation order and keeps the cloud spelling', () => {
    const cloud = [internal('10.0.0.1'), internal('2001:db8::0001'), internal('10.0.0.2'), hostname('n1')];
    expect(addressesForProvidedNodeIp('2001:db8::1,10.0.0.2', cloud)).toEqual([
      internal('2001:db8::0001'),
      internal('10.0.0.2'),
      hostname('n1'),
    ]);
  });

  it('fails when an annotated IP matches no cloud address', () => {
    expect(() => addressesForProvidedNodeIp('192.0.2.1', [internal('10.0.0.1')])).toThrow(
      'failed to get node address from cloud provider that matches ip: 192.0.2.1',
    );
    expect(() => addressesForProvidedNodeIp('10.0.0.1,fd00::1', [internal('10.0.0.1')])).toThrow(/matches ip: fd00::1/);
  });
});

describe('expectedNodeAddresses', () => {
  const kubelet = [internal('10.0.0.1'), hostname('kubelet-name')];

  it('appends the kubelet hostname when the cloud reports none', () => {
    expect(expectedNodeAddresses([internal('10.0.0.1'), external('203.0.113.5')], kubelet)).toEqual([
      internal('10.0.0.1'),
      external('203.0.113.5'),
      hostname('kubelet-name'),
    ]);
  });

  it("keeps the cloud's hostname when it reports one", () => {
    expect(expectedNodeAddresses([hostname('cloud-name'), internal('10.0.0.1')], kubelet)).toEqual([hostname('cloud-name'), internal('10.0.0.1')]);
  });

  it('leaves the kubelet addresses when the cloud reports nothing', () => {
    expect(expectedNodeAddresses([], kubelet)).toEqual(kubelet);
  });

  it('applies the provided-node-ip filter after adding the hostname', () => {
    expect(expectedNodeAddresses([internal('10.0.0.1'), internal('10.0.0.2')], kubelet, '10.0.0.2')).toEqual([
      internal('10.0.0.2'),
      hostname('kubelet-name'),
    ]);
  });
});

describe('load balancer backend eligibility', () => {
  const node = (name: string, extra: Partial<KubeNode> = {}, labels: Record<string, string> = {}): KubeNode => ({
    metadata: { name, labels, ...extra.metadata },
    ...(extra.spec ? { spec: extra.spec } : {}),
  });

  it('parses booleans the way Go does', () => {
    expect(['1', 't', 'T', 'TRUE', 'true', 'True'].map(parseGoBool)).toEqual(new Array(6).fill(true));
    expect(['0', 'f', 'F', 'FALSE', 'false', 'False'].map(parseGoBool)).toEqual(new Array(6).fill(false));
    expect(['', 'yes', 'tRuE'].map(parseGoBool)).toEqual([undefined, undefined, undefined]);
  });

  it('applies the stable node-set predicates', () => {
    const nodes = [
      node('plain'),
      node('excluded', {}, { [LABEL_EXCLUDE_FROM_EXTERNAL_LOAD_BALANCERS]: 'true' }),
      node('excluded-empty', {}, { [LABEL_EXCLUDE_FROM_EXTERNAL_LOAD_BALANCERS]: '' }),
      node('included-false', {}, { [LABEL_EXCLUDE_FROM_EXTERNAL_LOAD_BALANCERS]: 'false' }),
      node('deleting', { metadata: { name: 'deleting', deletionTimestamp: '2026-01-01T00:00:00Z' } }),
      node('autoscaled-away', { spec: { taints: [{ key: TAINT_TO_BE_DELETED_BY_CLUSTER_AUTOSCALER, effect: 'NoSchedule' }] } }),
      node('not-ready', { status: { conditions: [{ type: 'Ready', status: 'False' }] } }),
    ];
    expect(eligibleBackendNames(nodes)).toEqual(['included-false', 'not-ready', 'plain']);
  });
});
