import { describe, expect, it } from 'vitest';
import {
  applyJsonPatch,
  applyMergePatch,
  applyPatch,
  applyStrategicMergePatch,
  NODE_MERGE_SCHEMA,
  PatchError,
  SERVICE_MERGE_SCHEMA,
  type JsonValue,
} from './apply-patch.js';

interface Case {
  name: string;
  target: JsonValue;
  patch: JsonValue;
  expected: JsonValue;
}

describe('applyMergePatch (RFC 7386)', () => {
  const cases: Case[] = [
    { name: 'adds a key', target: { a: 1 }, patch: { b: 2 }, expected: { a: 1, b: 2 } },
    { name: 'null deletes', target: { a: 1, b: 2 }, patch: { a: null }, expected: { b: 2 } },
    { name: 'nested objects merge', target: { m: { a: 1, b: 2 } }, patch: { m: { b: 3 } }, expected: { m: { a: 1, b: 3 } } },
    { name: 'lists replace', target: { l: [1, 2, 3] }, patch: { l: [4] }, expected: { l: [4] } },
    { name: 'non-object patch replaces', target: { a: 1 }, patch: [1], expected: [1] },
    { name: 'object into scalar', target: { a: 'x' }, patch: { a: { b: 1 } }, expected: { a: { b: 1 } } },
    { name: 'null inside new object is dropped', target: {}, patch: { a: { b: null, c: 1 } }, expected: { a: { c: 1 } } },
    {
      name: 'finalizers list replaced as a whole',
      target: { metadata: { finalizers: ['a', 'b'] } },
      patch: { metadata: { finalizers: ['b'] } },
      expected: { metadata: { finalizers: ['b'] } },
    },
  ];
  it.each(cases)('$name', ({ target, patch, expected }) => {
    expect(applyMergePatch(target, patch)).toEqual(expected);
  });

  it('does not mutate its inputs', () => {
    const target = { m: { a: 1 } };
    const patch = { m: { b: 2 } };
    applyMergePatch(target, patch);
    expect(target).toEqual({ m: { a: 1 } });
    expect(patch).toEqual({ m: { b: 2 } });
  });
});

describe('applyStrategicMergePatch with the Node schema', () => {
  const ready = { type: 'Ready', status: 'True', reason: 'KubeletReady' };
  const network = { type: 'NetworkUnavailable', status: 'True', reason: 'NoRouteCreated' };
  const cases: Case[] = [
    {
      name: 'conditions merge by type (update existing)',
      target: { status: { conditions: [ready, network] } },
      patch: { status: { conditions: [{ type: 'NetworkUnavailable', status: 'False', reason: 'RouteCreated' }] } },
      expected: { status: { conditions: [ready, { type: 'NetworkUnavailable', status: 'False', reason: 'RouteCreated' }] } },
    },
    {
      // A real kube-apiserver lists an element the patch adds before the server-only ones.
      name: 'conditions merge by type (a new one first, as kube-apiserver orders it)',
      target: { status: { conditions: [ready] } },
      patch: { status: { conditions: [network] } },
      expected: { status: { conditions: [network, ready] } },
    },
    {
      name: 'addresses merge by type',
      target: { status: { addresses: [{ type: 'InternalIP', address: '10.0.0.1' }, { type: 'Hostname', address: 'n1' }] } },
      patch: { status: { addresses: [{ type: 'InternalIP', address: '10.0.0.2' }] } },
      expected: { status: { addresses: [{ type: 'InternalIP', address: '10.0.0.2' }, { type: 'Hostname', address: 'n1' }] } },
    },
    {
      name: 'addresses replaced with $patch: replace',
      target: { status: { addresses: [{ type: 'InternalIP', address: '10.0.0.1' }, { type: 'Hostname', address: 'n1' }] } },
      patch: { status: { addresses: [{ $patch: 'replace' }, { type: 'ExternalIP', address: '1.2.3.4' }] } },
      expected: { status: { addresses: [{ type: 'ExternalIP', address: '1.2.3.4' }] } },
    },
    {
      name: 'absent addresses take the patch list, the $patch: replace marker dropped (dual-stack)',
      target: { status: {} },
      patch: { status: { addresses: [{ $patch: 'replace' }, { type: 'InternalIP', address: '10.0.0.1' }, { type: 'InternalIP', address: 'fd00::1' }] } },
      expected: { status: { addresses: [{ type: 'InternalIP', address: '10.0.0.1' }, { type: 'InternalIP', address: 'fd00::1' }] } },
    },
    {
      name: 'list item deleted with $patch: delete',
      target: { status: { conditions: [ready, network] } },
      patch: { status: { conditions: [{ type: 'NetworkUnavailable', $patch: 'delete' }] } },
      expected: { status: { conditions: [ready] } },
    },
    {
      name: 'taints are atomic (replaced)',
      target: { spec: { taints: [{ key: 'a', effect: 'NoSchedule' }, { key: 'b', effect: 'NoSchedule' }] } },
      patch: { spec: { taints: [{ key: 'b', effect: 'NoSchedule' }] } },
      expected: { spec: { taints: [{ key: 'b', effect: 'NoSchedule' }] } },
    },
    {
      name: 'taints cleared with null',
      target: { spec: { taints: [{ key: 'a', effect: 'NoSchedule' }], providerID: 'x' } },
      patch: { spec: { taints: null } },
      expected: { spec: { providerID: 'x' } },
    },
    {
      name: 'finalizers merge as a set',
      target: { metadata: { finalizers: ['a'] } },
      patch: { metadata: { finalizers: ['a', 'b'] } },
      expected: { metadata: { finalizers: ['a', 'b'] } },
    },
    {
      name: 'finalizers removed with $deleteFromPrimitiveList',
      target: { metadata: { finalizers: ['a', 'b', 'c'] } },
      patch: { metadata: { '$deleteFromPrimitiveList/finalizers': ['b'] } },
      expected: { metadata: { finalizers: ['a', 'c'] } },
    },
    {
      name: '$setElementOrder orders the merged list',
      target: { metadata: { finalizers: ['a'] } },
      patch: { metadata: { '$setElementOrder/finalizers': ['b', 'a'], finalizers: ['b'] } },
      expected: { metadata: { finalizers: ['b', 'a'] } },
    },
    {
      name: 'labels merge, null deletes',
      target: { metadata: { labels: { a: '1', b: '2' } } },
      patch: { metadata: { labels: { b: null, c: '3' } } },
      expected: { metadata: { labels: { a: '1', c: '3' } } },
    },
    {
      name: 'map replaced with $patch: replace',
      target: { metadata: { labels: { a: '1', b: '2' } } },
      patch: { metadata: { labels: { $patch: 'replace', c: '3' } } },
      expected: { metadata: { labels: { c: '3' } } },
    },
    {
      name: 'map deleted with $patch: delete',
      target: { metadata: { labels: { a: '1' }, name: 'n' } },
      patch: { metadata: { labels: { $patch: 'delete' } } },
      expected: { metadata: { name: 'n' } },
    },
    {
      name: '$retainKeys drops the other keys',
      target: { spec: { a: 1, b: 2, c: 3 } },
      patch: { spec: { $retainKeys: ['a', 'c'], c: 4 } },
      expected: { spec: { a: 1, c: 4 } },
    },
    {
      name: 'podCIDRs merge as a set',
      target: { spec: { podCIDRs: ['10.0.0.0/24'] } },
      patch: { spec: { podCIDRs: ['10.0.0.0/24', 'fd00::/64'] } },
      expected: { spec: { podCIDRs: ['10.0.0.0/24', 'fd00::/64'] } },
    },
  ];
  it.each(cases)('$name', ({ target, patch, expected }) => {
    expect(applyStrategicMergePatch(target, patch, NODE_MERGE_SCHEMA)).toEqual(expected);
  });

  it('rejects a list item without its merge key', () => {
    expect(() => applyStrategicMergePatch({}, { status: { conditions: [{ status: 'True' }] } }, NODE_MERGE_SCHEMA)).toThrow(PatchError);
  });

  it('rejects a non-object patch', () => {
    expect(() => applyStrategicMergePatch({}, [1], NODE_MERGE_SCHEMA)).toThrow(PatchError);
  });
});

describe('applyStrategicMergePatch with the Service schema', () => {
  const cases: Case[] = [
    {
      name: 'load balancer ingress is atomic',
      target: { status: { loadBalancer: { ingress: [{ ip: '1.1.1.1' }, { ip: '2.2.2.2' }] } } },
      patch: { status: { loadBalancer: { ingress: [{ hostname: 'lb.example' }] } } },
      expected: { status: { loadBalancer: { ingress: [{ hostname: 'lb.example' }] } } },
    },
    {
      name: 'ports merge by port',
      target: { spec: { ports: [{ port: 80, nodePort: 30080 }, { port: 443, nodePort: 30443 }] } },
      patch: { spec: { ports: [{ port: 443, nodePort: 31443 }] } },
      expected: { spec: { ports: [{ port: 80, nodePort: 30080 }, { port: 443, nodePort: 31443 }] } },
    },
    {
      name: 'load balancer status cleared with null',
      target: { status: { loadBalancer: { ingress: [{ ip: '1.1.1.1' }] } } },
      patch: { status: { loadBalancer: { ingress: null } } },
      expected: { status: { loadBalancer: {} } },
    },
  ];
  it.each(cases)('$name', ({ target, patch, expected }) => {
    expect(applyStrategicMergePatch(target, patch, SERVICE_MERGE_SCHEMA)).toEqual(expected);
  });
});

describe('applyJsonPatch (RFC 6902)', () => {
  const cases: Case[] = [
    { name: 'add a key', target: { a: 1 }, patch: [{ op: 'add', path: '/b', value: 2 }], expected: { a: 1, b: 2 } },
    { name: 'append to a list', target: { l: [1] }, patch: [{ op: 'add', path: '/l/-', value: 2 }], expected: { l: [1, 2] } },
    { name: 'insert into a list', target: { l: [1, 3] }, patch: [{ op: 'add', path: '/l/1', value: 2 }], expected: { l: [1, 2, 3] } },
    { name: 'remove a list item', target: { l: [1, 2, 3] }, patch: [{ op: 'remove', path: '/l/1' }], expected: { l: [1, 3] } },
    { name: 'replace', target: { a: { b: 1 } }, patch: [{ op: 'replace', path: '/a/b', value: 2 }], expected: { a: { b: 2 } } },
    { name: 'move', target: { a: 1 }, patch: [{ op: 'move', from: '/a', path: '/b' }], expected: { b: 1 } },
    { name: 'copy', target: { a: [1] }, patch: [{ op: 'copy', from: '/a', path: '/b' }], expected: { a: [1], b: [1] } },
    {
      name: 'escaped pointer tokens',
      target: { metadata: { labels: { 'a/b': '1', 'c~d': '2' } } },
      patch: [
        { op: 'remove', path: '/metadata/labels/a~1b' },
        { op: 'replace', path: '/metadata/labels/c~0d', value: '3' },
      ],
      expected: { metadata: { labels: { 'c~d': '3' } } },
    },
    {
      name: 'test then replace (optimistic update)',
      target: { metadata: { resourceVersion: '5' }, spec: { taints: [] } },
      patch: [
        { op: 'test', path: '/metadata/resourceVersion', value: '5' },
        { op: 'replace', path: '/spec/taints', value: [{ key: 'k', effect: 'NoSchedule' }] },
      ],
      expected: { metadata: { resourceVersion: '5' }, spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] } },
    },
  ];
  it.each(cases)('$name', ({ target, patch, expected }) => {
    expect(applyJsonPatch(target, patch)).toEqual(expected);
  });

  const failures: Array<{ name: string; target: JsonValue; patch: JsonValue }> = [
    { name: 'failed test', target: { a: 1 }, patch: [{ op: 'test', path: '/a', value: 2 }] },
    { name: 'remove of a missing key', target: { a: 1 }, patch: [{ op: 'remove', path: '/b' }] },
    { name: 'replace of a missing key', target: { a: 1 }, patch: [{ op: 'replace', path: '/b', value: 1 }] },
    { name: 'index out of range', target: { l: [1] }, patch: [{ op: 'add', path: '/l/5', value: 1 }] },
    { name: 'missing parent', target: {}, patch: [{ op: 'add', path: '/a/b', value: 1 }] },
    { name: 'unknown op', target: {}, patch: [{ op: 'frobnicate', path: '/a' }] },
    { name: 'not a list', target: {}, patch: { op: 'add', path: '/a', value: 1 } },
  ];
  it.each(failures)('rejects $name', ({ target, patch }) => {
    expect(() => applyJsonPatch(target, patch)).toThrow(PatchError);
  });

  it('is atomic: a failing operation leaves the input untouched', () => {
    const target = { a: 1 };
    expect(() =>
      applyJsonPatch(target, [
        { op: 'replace', path: '/a', value: 2 },
        { op: 'test', path: '/a', value: 3 },
      ]),
    ).toThrow(PatchError);
    expect(target).toEqual({ a: 1 });
  });
});

describe('applyPatch', () => {
  it('dispatches by patch type', () => {
    const target = { metadata: { finalizers: ['a'] } };
    expect(applyPatch(target, { metadata: { finalizers: ['b'] } }, 'merge')).toEqual({ metadata: { finalizers: ['b'] } });
    expect(applyPatch(target, { metadata: { finalizers: ['b'] } }, 'strategic', NODE_MERGE_SCHEMA)).toEqual({ metadata: { finalizers: ['b', 'a'] } });
    expect(applyPatch(target, [{ op: 'add', path: '/metadata/finalizers/-', value: 'b' }], 'json')).toEqual({ metadata: { finalizers: ['a', 'b'] } });
  });
});
