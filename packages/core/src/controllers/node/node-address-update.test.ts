import { describe, expect, it } from 'vitest';
import { ANNOTATION_PROVIDED_NODE_IP } from '../../api/well-known.js';
import type { NodeAddress } from '../../provider/node-address.js';
import { buildNodeAddressesPatch, planNodeAddressUpdate } from './node-address-update.js';
import { makeNode, UNINITIALIZED_TAINT } from './test-support/node-test-context.js';

const cloud: NodeAddress[] = [
  { type: 'InternalIP', address: '10.0.0.1' },
  { type: 'ExternalIP', address: '132.143.154.163' },
];

describe('planNodeAddressUpdate (upstream updateNodeAddress rules)', () => {
  it('TestNodeAddressesNotUpdate: skips a node that still has the uninitialized taint', () => {
    const node = makeNode('node0', { taints: [UNINITIALIZED_TAINT], addresses: [{ type: 'InternalIP', address: '10.0.0.9' }] });
    expect(planNodeAddressUpdate(node, cloud)).toEqual({ action: 'skip', reason: 'Tainted' });
  });
  it('skips an empty cloud answer (the kubelet addresses stay)', () => {
    expect(planNodeAddressUpdate(makeNode('node0', { addresses: [{ type: 'Hostname', address: 'h' }] }), [])).toEqual({ action: 'skip', reason: 'NoCloudAddresses' });
  });
  it('keeps the kubelet hostname when the cloud reports none', () => {
    const node = makeNode('node0', { addresses: [{ type: 'Hostname', address: 'node0.local' }] });
    expect(planNodeAddressUpdate(node, cloud)).toEqual({ action: 'patch', addresses: [...cloud, { type: 'Hostname', address: 'node0.local' }] });
  });
  it("prefers the cloud's hostname when it reports one", () => {
    const node = makeNode('node0', { addresses: [{ type: 'Hostname', address: 'node0.local' }] });
    const withHostname: NodeAddress[] = [...cloud, { type: 'Hostname', address: 'node0.cloud' }];
    expect(planNodeAddressUpdate(node, withHostname)).toEqual({ action: 'patch', addresses: withHostname });
  });
  it('reports unchanged addresses', () => {
    expect(planNodeAddressUpdate(makeNode('node0', { addresses: [...cloud] }), cloud)).toEqual({ action: 'unchanged' });
  });
  it('applies the provided node IP and reports a bad one as an error (no patch)', () => {
    const annotated = (value: string) => makeNode('node0', { annotations: { [ANNOTATION_PROVIDED_NODE_IP]: value } });
    expect(planNodeAddressUpdate(annotated('132.143.154.163'), cloud)).toEqual({
      action: 'patch',
      addresses: [
        { type: 'ExternalIP', address: '132.143.154.163' },
        { type: 'InternalIP', address: '10.0.0.1' },
      ],
    });
    expect(planNodeAddressUpdate(annotated('10.0.0.2'), cloud)).toMatchObject({ action: 'error', error: { kind: 'ProvidedNodeIpNotFound' } });
    expect(planNodeAddressUpdate(annotated('bogus'), cloud)).toMatchObject({ action: 'error', error: { kind: 'InvalidProvidedNodeIp' } });
  });
});

describe('dual-stack nodes (two InternalIPs)', () => {
  const dualStack: NodeAddress[] = [
    { type: 'InternalIP', address: '10.0.0.1' },
    { type: 'InternalIP', address: 'fd00::1' },
    { type: 'Hostname', address: 'node0' },
  ];
  it('an unchanged list needs no patch although the by-type change detection says changed', () => {
    expect(planNodeAddressUpdate(makeNode('node0', { addresses: dualStack.map((address) => ({ ...address })) }), dualStack)).toEqual({ action: 'unchanged' });
  });
  it('a changed list is patched with the whole list', () => {
    const changed: NodeAddress[] = [
      { type: 'InternalIP', address: '10.0.0.1' },
      { type: 'InternalIP', address: 'fd00::2' },
      { type: 'Hostname', address: 'node0' },
    ];
    expect(planNodeAddressUpdate(makeNode('node0', { addresses: dualStack.map((address) => ({ ...address })) }), changed)).toEqual({ action: 'patch', addresses: changed });
    expect(buildNodeAddressesPatch(changed)).toEqual({ status: { addresses: [{ $patch: 'replace' }, ...changed] } });
  });
});

describe('buildNodeAddressesPatch (PatchNodeStatus address fix-up)', () => {
  it('replaces the list', () => {
    expect(buildNodeAddressesPatch(cloud)).toEqual({ status: { addresses: [{ $patch: 'replace' }, ...cloud] } });
  });
  it('replaces the list also when there were no addresses', () => {
    expect(buildNodeAddressesPatch(cloud)).toEqual({ status: { addresses: [{ $patch: 'replace' }, ...cloud] } });
  });
});
