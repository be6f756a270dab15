import { describe, expect, it } from 'vitest';
import { nodeSyncedEvent, planNodeInitializationWrites, type CloudNodeFacts, type RegisteredNode } from './node-initialization-writes.js';

const UNINITIALIZED = { key: 'node.cloudprovider.kubernetes.io/uninitialized', value: 'true', effect: 'NoSchedule' };
const KUBELET_ADDRESSES = [
  { type: 'InternalIP', address: '10.0.0.5' },
  { type: 'Hostname', address: 'n1' },
];
const FACTS: CloudNodeFacts = {
  providerId: 'sandbox://i-1',
  instanceType: 'm.small',
  zone: 'zone-a',
  region: 'region-1',
  addresses: [
    { type: 'InternalIP', address: '10.0.0.5' },
    { type: 'InternalDNS', address: 'n1.internal' },
    { type: 'Hostname', address: 'n1' },
  ],
};

function registered(overrides: Partial<RegisteredNode> = {}): RegisteredNode {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'n1', uid: 'u-1', resourceVersion: '42', labels: { 'kubernetes.io/hostname': 'n1' } },
    spec: { taints: [UNINITIALIZED] },
    status: { addresses: KUBELET_ADDRESSES, conditions: [{ type: 'Ready', status: 'True' }] },
    ...overrides,
  };
}

const CLOUD_LABELS = {
  'beta.kubernetes.io/instance-type': 'm.small',
  'node.kubernetes.io/instance-type': 'm.small',
  'failure-domain.beta.kubernetes.io/zone': 'zone-a',
  'topology.kubernetes.io/zone': 'zone-a',
  'failure-domain.beta.kubernetes.io/region': 'region-1',
  'topology.kubernetes.io/region': 'region-1',
};

describe('planNodeInitializationWrites', () => {
  it('updates the informer copy (resourceVersion kept) with the provider ID and the labels, without the taint, then patches the addresses', () => {
    const writes = planNodeInitializationWrites(registered(), FACTS);
    expect(writes.update).toEqual({
      method: 'PUT',
      path: '/api/v1/nodes/n1',
      contentType: 'application/json',
      body: {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: 'n1', uid: 'u-1', resourceVersion: '42', labels: { 'kubernetes.io/hostname': 'n1', ...CLOUD_LABELS } },
        spec: { providerID: 'sandbox://i-1' },
        status: { addresses: KUBELET_ADDRESSES, conditions: [{ type: 'Ready', status: 'True' }] },
      },
    });
    expect(writes.statusPatch).toEqual({
      method: 'PATCH',
      path: '/api/v1/nodes/n1/status',
      contentType: 'application/strategic-merge-patch+json',
      body: { status: { addresses: [{ $patch: 'replace' }, ...FACTS.addresses] } },
    });
  });

  it.each<[string, Partial<RegisteredNode>, Partial<CloudNodeFacts>, (writes: ReturnType<typeof planNodeInitializationWrites>) => void]>([
    ['keeps the taints of others', { spec: { taints: [UNINITIALIZED, { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] } }, {}, (writes) => expect((writes.update.body as RegisteredNode).spec).toEqual({ providerID: 'sandbox://i-1', taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] })],
    ['keeps a provider ID the node already has', { spec: { providerID: 'sandbox://given', taints: [UNINITIALIZED] } }, {}, (writes) => expect((writes.update.body as RegisteredNode).spec?.providerID).toBe('sandbox://given')],
    ['sets no label the cloud leaves empty', {}, { zone: '', region: '' }, (writes) => expect(Object.keys((writes.update.body as RegisteredNode).metadata.labels ?? {})).toEqual(['kubernetes.io/hostname', 'beta.kubernetes.io/instance-type', 'node.kubernetes.io/instance-type'])],
    ['sends no patch when the node has the cloud addresses already', { status: { addresses: FACTS.addresses.map((address) => ({ ...address })) } }, {}, (writes) => expect(writes.statusPatch).toBeUndefined()],
    ['sends no patch when the cloud reports no address', {}, { addresses: [] }, (writes) => expect(writes.statusPatch).toBeUndefined()],
    [
      "keeps the kubelet's hostname when the cloud reports none",
      {},
      { addresses: [{ type: 'InternalIP', address: '10.0.0.9' }] },
      (writes) => expect(writes.statusPatch?.body).toEqual({ status: { addresses: [{ $patch: 'replace' }, { type: 'InternalIP', address: '10.0.0.9' }, { type: 'Hostname', address: 'n1' }] } }),
    ],
  ])('%s', (_name, node, facts, check) => {
    check(planNodeInitializationWrites(registered(node), { ...FACTS, ...facts }));
  });

  it('leaves the informer copy untouched', () => {
    const node = registered();
    planNodeInitializationWrites(node, FACTS);
    expect(node).toEqual(registered());
  });
});

describe('nodeSyncedEvent', () => {
  it("is the cloud node controller's Synced event in the default namespace, named <node>.<nanoseconds hex>", () => {
    const now = new Date('2026-11-29T12:00:00.000Z');
    expect(nodeSyncedEvent(registered(), now, 0x1abn)).toEqual({
      method: 'POST',
      path: '/api/v1/namespaces/default/events',
      contentType: 'application/json',
      body: {
        metadata: { name: 'n1.1ab', namespace: 'default' },
        involvedObject: { apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'u-1' },
        reason: 'Synced',
        message: 'Node synced successfully',
        firstTimestamp: '2026-11-29T12:00:00.000Z',
        lastTimestamp: '2026-11-29T12:00:00.000Z',
        count: 1,
        type: 'Normal',
        source: { component: 'cloud-node-controller' },
        reportingComponent: 'cloud-node-controller',
        reportingInstance: '',
      },
    });
  });
});
