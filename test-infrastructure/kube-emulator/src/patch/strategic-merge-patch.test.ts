import { describe, expect, it } from 'vitest';
import { nodeResource } from '../resources/node-resource.js';
import { serviceResource } from '../resources/service-resource.js';
import { PatchError } from './patch-error.js';
import { applyStrategicMergePatch } from './strategic-merge-patch.js';

const nodeSchema = nodeResource.patchSchema;
const serviceSchema = serviceResource.patchSchema;

const node = {
  metadata: { name: 'n1', labels: { a: '1' }, finalizers: ['x.io/a', 'x.io/b'], ownerReferences: [{ uid: 'u1', name: 'o1', kind: 'K', apiVersion: 'v1' }] },
  spec: { providerID: 'p', taints: [{ key: 't1', effect: 'NoSchedule' }, { key: 't2', effect: 'NoExecute' }], podCIDRs: ['10.0.0.0/24'] },
  status: {
    addresses: [
      { type: 'InternalIP', address: '10.0.0.1' },
      { type: 'Hostname', address: 'n1' },
    ],
    conditions: [
      { type: 'Ready', status: 'True', reason: 'KubeletReady' },
      { type: 'MemoryPressure', status: 'False' },
    ],
  },
};

describe('applyStrategicMergePatch', () => {
  it('merges maps recursively and deletes keys set to null', () => {
    const result = applyStrategicMergePatch(node, { metadata: { labels: { a: null, b: '2' } }, spec: { providerID: null } }, nodeSchema) as typeof node;
    expect(result.metadata.labels).toEqual({ b: '2' });
    expect(result.spec).not.toHaveProperty('providerID');
    expect(node.metadata.labels).toEqual({ a: '1' });
  });

  it('merges status.addresses by type', () => {
    const result = applyStrategicMergePatch(node, { status: { addresses: [{ type: 'InternalIP', address: '10.0.0.9' }, { type: 'ExternalIP', address: '1.2.3.4' }] } }, nodeSchema) as typeof node;
    // As a real kube-apiserver orders it: patch elements in the patch's order, server-only ones
    // after any element the patch added (checked with kubectl against kube-apiserver v1.36).
    expect(result.status.addresses).toEqual([
      { type: 'InternalIP', address: '10.0.0.9' },
      { type: 'ExternalIP', address: '1.2.3.4' },
      { type: 'Hostname', address: 'n1' },
    ]);
  });

  it('lists a condition or finalizer the patch adds first, as kube-apiserver does', () => {
    const original = { metadata: { finalizers: ['a.io/x'] }, status: { conditions: [{ type: 'MemoryPressure' }, { type: 'Ready' }], addresses: [{ type: 'ExternalIP', address: '1.1.1.1' }, { type: 'InternalIP', address: '10.0.0.1' }] } };
    const added = applyStrategicMergePatch(structuredClone(original), { metadata: { finalizers: ['b.io/y'] }, status: { conditions: [{ type: 'NetworkUnavailable', status: 'False' }] } }, nodeSchema) as typeof original;
    expect(added.metadata.finalizers).toEqual(['b.io/y', 'a.io/x']);
    expect(added.status.conditions.map((condition) => condition.type)).toEqual(['NetworkUnavailable', 'MemoryPressure', 'Ready']);
    const mixed = applyStrategicMergePatch(structuredClone(original), { status: { addresses: [{ type: 'InternalIP', address: '10.0.0.2' }, { type: 'Hostname', address: 'h' }] } }, nodeSchema) as typeof original;
    expect(mixed.status.addresses).toEqual([
      { type: 'ExternalIP', address: '1.1.1.1' },
      { type: 'InternalIP', address: '10.0.0.2' },
      { type: 'Hostname', address: 'h' },
    ]);
  });

  it('replaces a merge list with $patch: replace', () => {
    const result = applyStrategicMergePatch(node, { status: { addresses: [{ $patch: 'replace' }, { type: 'InternalIP', address: '10.0.0.2' }, { type: 'InternalIP', address: '10.0.0.3' }] } }, nodeSchema) as typeof node;
    expect(result.status.addresses).toEqual([
      { type: 'InternalIP', address: '10.0.0.2' },
      { type: 'InternalIP', address: '10.0.0.3' },
    ]);
  });

  it('deletes list elements with $patch: delete and orders with $setElementOrder', () => {
    const result = applyStrategicMergePatch(
      node,
      {
        status: {
          '$setElementOrder/addresses': [{ type: 'ExternalIP' }, { type: 'Hostname' }],
          addresses: [{ type: 'ExternalIP', address: '1.2.3.4' }, { type: 'InternalIP', $patch: 'delete' }],
        },
      },
      nodeSchema,
    ) as typeof node;
    expect(result.status.addresses).toEqual([
      { type: 'ExternalIP', address: '1.2.3.4' },
      { type: 'Hostname', address: 'n1' },
    ]);
  });

  it('interleaves server-only elements by their original position under $setElementOrder', () => {
    const original = { status: { conditions: [{ type: 'A' }, { type: 'B' }, { type: 'C' }] } };
    const result = applyStrategicMergePatch(original, { status: { '$setElementOrder/conditions': [{ type: 'C' }, { type: 'A' }], conditions: [{ type: 'C', status: 'True' }] } }, nodeSchema) as typeof original;
    // B was before C in the original list, so it stays ahead of the ordered elements (upstream's mergeSortedSlice).
    expect(result.status.conditions.map((condition) => condition.type)).toEqual(['B', 'C', 'A']);
    const added = applyStrategicMergePatch(original, { status: { '$setElementOrder/conditions': [{ type: 'D' }, { type: 'A' }], conditions: [{ type: 'D' }] } }, nodeSchema) as typeof original;
    expect(added.status.conditions.map((condition) => condition.type)).toEqual(['D', 'A', 'B', 'C']);
  });

  it('merges conditions by type, keeping fields the patch does not mention', () => {
    const result = applyStrategicMergePatch(node, { status: { conditions: [{ type: 'Ready', status: 'False' }] } }, nodeSchema) as typeof node;
    expect(result.status.conditions[0]).toEqual({ type: 'Ready', status: 'False', reason: 'KubeletReady' });
    expect(result.status.conditions).toHaveLength(2);
  });

  it('replaces spec.taints (no merge key upstream)', () => {
    const result = applyStrategicMergePatch(node, { spec: { taints: [{ key: 't3', effect: 'NoSchedule' }] } }, nodeSchema) as typeof node;
    expect(result.spec.taints).toEqual([{ key: 't3', effect: 'NoSchedule' }]);
  });

  it('merges finalizers as a set and removes with $deleteFromPrimitiveList', () => {
    const added = applyStrategicMergePatch(node, { metadata: { finalizers: ['x.io/b', 'x.io/c'] } }, nodeSchema) as typeof node;
    expect(added.metadata.finalizers).toEqual(['x.io/a', 'x.io/b', 'x.io/c']);
    const removed = applyStrategicMergePatch(node, { metadata: { '$deleteFromPrimitiveList/finalizers': ['x.io/a'] } }, nodeSchema) as typeof node;
    expect(removed.metadata.finalizers).toEqual(['x.io/b']);
  });

  it('merges ownerReferences by uid and podCIDRs as a set', () => {
    const result = applyStrategicMergePatch(
      node,
      { metadata: { ownerReferences: [{ uid: 'u1', name: 'renamed' }, { uid: 'u2', name: 'o2', kind: 'K', apiVersion: 'v1' }] }, spec: { podCIDRs: ['10.0.0.0/24', 'fd00::/64'] } },
      nodeSchema,
    ) as typeof node;
    expect(result.metadata.ownerReferences.map((reference) => [reference.uid, reference.name])).toEqual([
      ['u1', 'renamed'],
      ['u2', 'o2'],
    ]);
    expect(result.spec.podCIDRs).toEqual(['10.0.0.0/24', 'fd00::/64']);
  });

  it('merges service ports by port and replaces loadBalancer ingress', () => {
    const service = {
      spec: { ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }, { port: 443, protocol: 'TCP' }] },
      status: { loadBalancer: { ingress: [{ ip: '1.1.1.1' }, { ip: '2.2.2.2' }] } },
    };
    const result = applyStrategicMergePatch(service, { spec: { ports: [{ port: 80, nodePort: 30080 }] }, status: { loadBalancer: { ingress: [{ hostname: 'lb.example.com' }] } } }, serviceSchema) as typeof service;
    expect(result.spec.ports).toEqual([{ port: 80, targetPort: 8080, protocol: 'TCP', nodePort: 30080 }, { port: 443, protocol: 'TCP' }]);
    expect(result.status.loadBalancer.ingress).toEqual([{ hostname: 'lb.example.com' }]);
  });

  it('honours $patch: replace and $patch: delete on maps', () => {
    const replaced = applyStrategicMergePatch(node, { metadata: { labels: { $patch: 'replace', only: 'this' } } }, nodeSchema) as typeof node;
    expect(replaced.metadata.labels).toEqual({ only: 'this' });
    const deleted = applyStrategicMergePatch(node, { status: { $patch: 'delete' } }, nodeSchema) as Record<string, unknown>;
    expect(deleted).not.toHaveProperty('status');
  });

  it('keeps only $retainKeys of a map', () => {
    const result = applyStrategicMergePatch({ spec: { a: 1, b: 2, c: 3 } }, { spec: { $retainKeys: ['a', 'c'], c: 4 } }, undefined);
    expect(result).toEqual({ spec: { a: 1, c: 4 } });
    expect(() => applyStrategicMergePatch({ spec: {} }, { spec: { $retainKeys: ['a'], b: 1 } }, undefined)).toThrow(PatchError);
  });

  it('replaces unknown lists and merges unknown maps', () => {
    const result = applyStrategicMergePatch({ x: { list: [1, 2], map: { a: 1 } } }, { x: { list: [3], map: { b: 2 } } }, nodeSchema);
    expect(result).toEqual({ x: { list: [3], map: { a: 1, b: 2 } } });
  });

  it('reports a missing merge key like kube (internal error) and a bad directive as bad request', () => {
    expect(() => applyStrategicMergePatch(node, { status: { addresses: [{ address: '1.1.1.1' }] } }, nodeSchema)).toThrow(expect.objectContaining({ kind: 'internal', message: expect.stringContaining('does not contain declared merge key: type') }));
    expect(() => applyStrategicMergePatch(node, { metadata: { $patch: 'explode' } }, nodeSchema)).toThrow(expect.objectContaining({ kind: 'bad-request' }));
    expect(() => applyStrategicMergePatch(node, ['not', 'a', 'map'], nodeSchema)).toThrow(expect.objectContaining({ kind: 'bad-request' }));
  });

  it('takes a list the original lacks as sent: two addresses of one type both stay (dual-stack)', () => {
    const dualStack = [
      { type: 'InternalIP', address: '10.0.0.1' },
      { type: 'InternalIP', address: 'fd00::1' },
    ];
    const bare = { metadata: { name: 'n1' }, status: {} };
    expect(applyStrategicMergePatch(bare, { status: { addresses: dualStack } }, nodeSchema)).toEqual({ metadata: { name: 'n1' }, status: { addresses: dualStack } });
    expect(applyStrategicMergePatch(bare, { status: { addresses: [{ $patch: 'replace' }, ...dualStack] } }, nodeSchema)).toEqual({ metadata: { name: 'n1' }, status: { addresses: dualStack } });
    expect(applyStrategicMergePatch({ metadata: { name: 'n1' } }, { status: { addresses: dualStack } }, nodeSchema)).toEqual({ metadata: { name: 'n1' }, status: { addresses: dualStack } });
    expect(() => applyStrategicMergePatch(bare, { status: { addresses: [{ address: '1.1.1.1' }] } }, nodeSchema)).toThrow(expect.objectContaining({ kind: 'internal', message: expect.stringContaining('does not contain declared merge key: type') }));
  });
});
