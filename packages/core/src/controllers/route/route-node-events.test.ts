import type { V1Node } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { shouldReconcileOnNodeUpdate } from './route-node-events.js';

const baseNode = (): V1Node => ({
  metadata: { name: 'node1', resourceVersion: '1', labels: { a: 'b' } },
  spec: { podCIDRs: ['10.120.0.0/24'] },
  status: { addresses: [{ type: 'InternalIP', address: '10.0.0.1' }], conditions: [{ type: 'Ready', status: 'True' }] },
});

const changed = (mutate: (node: V1Node) => void): V1Node => {
  const node = structuredClone(baseNode());
  node.metadata!.resourceVersion = '2';
  mutate(node);
  return node;
};

describe('TestHandleNodeUpdate (watch-based trigger predicate)', () => {
  it('internal IP change enqueues', () => {
    expect(shouldReconcileOnNodeUpdate(baseNode(), changed((node) => (node.status!.addresses = [{ type: 'InternalIP', address: '10.0.0.2' }])))).toBe(true);
  });
  it('pod CIDR change enqueues', () => {
    expect(shouldReconcileOnNodeUpdate(baseNode(), changed((node) => (node.spec!.podCIDRs = ['10.120.0.0/24', 'a00::/64'])))).toBe(true);
  });
  it('identical object (informer resync) enqueues', () => {
    expect(shouldReconcileOnNodeUpdate(baseNode(), baseNode())).toBe(true);
  });
  it('an unrelated change does not enqueue', () => {
    expect(shouldReconcileOnNodeUpdate(baseNode(), changed((node) => (node.metadata!.labels = { a: 'c' })))).toBe(false);
    expect(shouldReconcileOnNodeUpdate(baseNode(), changed((node) => (node.status!.conditions = [{ type: 'Ready', status: 'False' }])))).toBe(false);
  });
});
