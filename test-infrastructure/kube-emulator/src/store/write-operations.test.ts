import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/kube-object.js';
import { createInMemoryKube } from '../kube-emulator.js';
import { statusOf } from '../test-support/status-of.js';

const node = (name: string, extra: Record<string, unknown> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'Node', metadata: { name }, ...extra });

describe('create', () => {
  it('fills system metadata and advances one global resourceVersion', () => {
    const kube = createInMemoryKube();
    const before = Number(kube.resourceVersion());
    const first = kube.create('nodes', node('n1'));
    const second = kube.create('configmaps', { metadata: { name: 'c1', namespace: 'default' } });
    expect(first.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(first.metadata.generation).toBe(1);
    expect(Number(first.metadata.resourceVersion)).toBe(before + 1);
    expect(Number(second.metadata.resourceVersion)).toBe(before + 2);
    expect(first).toMatchObject({ apiVersion: 'v1', kind: 'Node' });
  });

  it('answers 409 AlreadyExists for an existing name', () => {
    const kube = createInMemoryKube();
    kube.create('nodes', node('n1'));
    expect(statusOf(() => kube.create('nodes', node('n1')))).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'nodes "n1" already exists',
      reason: 'AlreadyExists',
      details: { name: 'n1', kind: 'nodes' },
      code: 409,
    });
  });

  it('answers 422 Invalid with causes for a bad name and a missing name', () => {
    const kube = createInMemoryKube();
    const bad = statusOf(() => kube.create('nodes', node('Bad_Name')));
    expect(bad.code).toBe(422);
    expect(bad.reason).toBe('Invalid');
    expect(bad.message).toMatch(/^Node "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/);
    expect(bad.details?.causes?.[0]).toMatchObject({ reason: 'FieldValueInvalid', field: 'metadata.name' });
    const missing = statusOf(() => kube.create('nodes', { metadata: {} }));
    expect(missing.details?.causes?.[0]).toEqual({ reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' });
    const serviceName = statusOf(() => kube.create('services', { metadata: { name: '1svc' }, spec: { ports: [{ port: 80 }] } }));
    expect(serviceName.message).toContain('a DNS-1035 label');
  });

  it('rejects mismatched kind, apiVersion, namespace and a preset resourceVersion with 400', () => {
    const kube = createInMemoryKube();
    expect(statusOf(() => kube.create('nodes', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'x' } })).code).toBe(400);
    expect(statusOf(() => kube.create('nodes', { apiVersion: 'apps/v1', kind: 'Node', metadata: { name: 'x' } })).code).toBe(400);
    expect(statusOf(() => kube.create('configmaps', { metadata: { name: 'x', namespace: 'a' } }, { namespace: 'b' })).code).toBe(400);
    expect(statusOf(() => kube.create('nodes', node('x', { metadata: { name: 'x', resourceVersion: '5' } }))).message).toBe('resourceVersion should not be set on objects to be created');
    expect(statusOf(() => kube.create('nodes', node('x', { spec: { taints: 'no' } }))).message).toContain('Node in version "v1" cannot be handled as a Node');
  });

  it('requires the namespace of namespaced objects to exist', () => {
    const kube = createInMemoryKube();
    const status = statusOf(() => kube.create('configmaps', { metadata: { name: 'c' } }, { namespace: 'nope' }));
    expect(status).toMatchObject({ code: 404, reason: 'NotFound', message: 'namespaces "nope" not found' });
  });

  it('generates names from generateName and clears client-set system fields', () => {
    const kube = createInMemoryKube();
    const created = kube.create('configmaps', { metadata: { generateName: 'cfg-', uid: 'mine', creationTimestamp: '2000-01-01T00:00:00Z', managedFields: [{}] } });
    expect(created.metadata.name).toMatch(/^cfg-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(created.metadata.uid).not.toBe('mine');
    expect(created.metadata.creationTimestamp).not.toBe('2000-01-01T00:00:00Z');
    expect(created.metadata).not.toHaveProperty('managedFields');
  });

  it('normalises timestamps to UTC with the type precision', () => {
    const kube = createInMemoryKube();
    const created = kube.create<KubeObject & { status: { conditions: Array<Record<string, string>> } }>(
      'nodes',
      node('n1', { status: { conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2024-01-01T02:00:00.987+02:00' }] } }),
    );
    expect(created.status.conditions[0]?.['lastHeartbeatTime']).toBe('2024-01-01T00:00:00Z');
    const lease = kube.create<KubeObject & { spec: Record<string, string> }>('leases', { metadata: { name: 'l', namespace: 'kube-system' }, spec: { renewTime: '2024-01-01T00:00:00.5Z' } });
    expect(lease.spec['renewTime']).toBe('2024-01-01T00:00:00.500000Z');
    expect(statusOf(() => kube.create('leases', { metadata: { name: 'm', namespace: 'kube-system' }, spec: { renewTime: 'yesterday' } })).code).toBe(400);
  });

  it('supports dry-run without persisting', () => {
    const kube = createInMemoryKube();
    const version = kube.resourceVersion();
    kube.create('nodes', node('dry'), { dryRun: true });
    expect(kube.get('nodes', 'dry')).toBeUndefined();
    expect(kube.resourceVersion()).toBe(version);
  });
});

describe('update', () => {
  it('answers 409 Conflict for a stale resourceVersion and accepts an unconditional update', () => {
    const kube = createInMemoryKube();
    const created = kube.create('nodes', node('n1'));
    kube.update('nodes', { ...created, metadata: { ...created.metadata, labels: { a: '1' } } });
    const conflict = statusOf(() => kube.update('nodes', { ...created, metadata: { ...created.metadata, labels: { b: '1' } } }));
    expect(conflict).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled on nodes "n1": the object has been modified; please apply your changes to the latest version and try again',
      details: { name: 'n1', kind: 'nodes' },
    });
    const unconditional = kube.update('nodes', { metadata: { name: 'n1', labels: { c: '1' } } });
    expect(unconditional.metadata.labels).toEqual({ c: '1' });
  });

  it('bumps generation only when spec changes and skips no-op writes', () => {
    const kube = createInMemoryKube();
    const created = kube.create('nodes', node('n1'));
    const labelled = kube.update('nodes', { ...created, metadata: { ...created.metadata, labels: { a: '1' } } });
    expect(labelled.metadata.generation).toBe(1);
    const specChanged = kube.update('nodes', { ...labelled, spec: { providerID: 'sandbox://n1' } });
    expect(specChanged.metadata.generation).toBe(2);
    const same = kube.update('nodes', specChanged);
    expect(same.metadata.resourceVersion).toBe(specChanged.metadata.resourceVersion);
  });

  it('keeps uid and creationTimestamp, and rejects a different uid', () => {
    const kube = createInMemoryKube();
    const created = kube.create('nodes', node('n1'));
    const updated = kube.update('nodes', { metadata: { name: 'n1', creationTimestamp: '1999-01-01T00:00:00Z', labels: { a: 'b' } } });
    expect(updated.metadata.uid).toBe(created.metadata.uid);
    expect(updated.metadata.creationTimestamp).toBe(created.metadata.creationTimestamp);
    expect(statusOf(() => kube.update('nodes', { metadata: { name: 'n1', uid: 'other' } })).message).toContain('metadata.uid: Invalid value: "other": field is immutable');
  });

  it('answers 404 for a missing object, but creates leases on PUT', () => {
    const kube = createInMemoryKube();
    expect(statusOf(() => kube.update('nodes', node('ghost'))).code).toBe(404);
    const lease = kube.update('leases', { metadata: { name: 'lock', namespace: 'kube-system' }, spec: { holderIdentity: 'me' } });
    expect(lease.metadata.uid).toBeDefined();
  });
});

describe('status subresource', () => {
  const withStatus = { status: { addresses: [{ type: 'InternalIP', address: '10.0.0.1' }] } };

  it('lets nodes be created with status, then ignores status on the main resource', () => {
    const kube = createInMemoryKube();
    const created = kube.create<KubeObject & { status: Record<string, unknown> }>('nodes', node('n1', withStatus));
    expect(created.status['addresses']).toEqual([{ type: 'InternalIP', address: '10.0.0.1' }]);
    const updated = kube.update<KubeObject & { status: Record<string, unknown> }>('nodes', { ...created, spec: { unschedulable: true }, status: { addresses: [] } });
    expect(updated.status['addresses']).toEqual([{ type: 'InternalIP', address: '10.0.0.1' }]);
    expect(updated['spec']).toEqual({ unschedulable: true });
    const patched = kube.patch<KubeObject & { status: Record<string, unknown> }>('nodes', 'n1', { status: { addresses: [{ type: 'ExternalIP', address: '1.1.1.1' }] } }, 'merge');
    expect(patched.status['addresses']).toEqual([{ type: 'InternalIP', address: '10.0.0.1' }]);
  });

  it('takes only .status from writes to /status (labels, annotations and spec are ignored)', () => {
    const kube = createInMemoryKube();
    const created = kube.create('nodes', node('n1', withStatus));
    const updated = kube.patch<KubeObject & { status: Record<string, unknown>; spec: Record<string, unknown> }>(
      'nodes',
      'n1',
      { metadata: { labels: { sneaky: 'yes' }, annotations: { a: 'b' } }, spec: { providerID: 'x' }, status: { addresses: [{ type: 'ExternalIP', address: '1.1.1.1' }] } },
      'strategic',
      { subresource: 'status' },
    );
    expect(updated.metadata.labels).toBeUndefined();
    expect(updated.metadata.annotations).toBeUndefined();
    // Only the taint kube-apiserver's TaintNodesByCondition admission added on create.
    expect(updated.spec).toEqual({ taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }] });
    // A real kube-apiserver lists an element the patch added before the server-only ones.
    expect(updated.status['addresses']).toEqual([
      { type: 'ExternalIP', address: '1.1.1.1' },
      { type: 'InternalIP', address: '10.0.0.1' },
    ]);
    const put = kube.update<KubeObject & { status: Record<string, unknown> }>('nodes', { ...created, metadata: { ...created.metadata, resourceVersion: updated.metadata.resourceVersion, labels: { x: 'y' } }, status: { phase: 'Running' } }, { subresource: 'status' });
    expect(put.metadata.labels).toBeUndefined();
    expect(put.status['phase']).toBe('Running');
  });

  it('clears a Service status on create and keeps it out of main-resource writes', () => {
    const kube = createInMemoryKube();
    const created = kube.create<KubeObject & { status: Record<string, unknown> }>('services', {
      metadata: { name: 'lb' },
      spec: { type: 'LoadBalancer', ports: [{ port: 80 }] },
      status: { loadBalancer: { ingress: [{ ip: '9.9.9.9' }] } },
    });
    expect(created.status).toEqual({ loadBalancer: {} });
    const withIngress = kube.patch<KubeObject & { status: { loadBalancer: { ingress: unknown[] } } }>('services', 'lb', { status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } } }, 'merge', { subresource: 'status' });
    expect(withIngress.status.loadBalancer.ingress).toEqual([{ ip: '1.2.3.4', ipMode: 'VIP' }]);
  });
});

describe('finalizers', () => {
  it('marks an object with finalizers as deleting, and removes it when they are emptied', () => {
    const kube = createInMemoryKube();
    const changes: string[] = [];
    kube.onChange((change) => changes.push(`${change.type} ${change.object.metadata.name ?? ''}`));
    kube.create('services', { metadata: { name: 'svc', finalizers: ['service.kubernetes.io/load-balancer-cleanup'] }, spec: { ports: [{ port: 80 }] } });
    const deleting = kube.delete('services', 'svc');
    expect(deleting.deleted).toBe(false);
    expect(deleting.object.metadata.deletionTimestamp).toBeDefined();
    expect(deleting.object.metadata.deletionGracePeriodSeconds).toBe(0);
    expect(kube.delete('services', 'svc').object.metadata.resourceVersion).toBe(deleting.object.metadata.resourceVersion);
    const added = statusOf(() => kube.patch('services', 'svc', { metadata: { finalizers: ['service.kubernetes.io/load-balancer-cleanup', 'example.com/new'] } }, 'merge'));
    expect(added.code).toBe(422);
    expect(added.message).toContain('no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/new"}');
    kube.patch('services', 'svc', [{ op: 'remove', path: '/metadata/finalizers' }], 'json');
    expect(kube.get('services', 'svc')).toBeUndefined();
    expect(changes).toEqual(['ADDED svc', 'MODIFIED svc', 'DELETED svc']);
  });

  it('deletes immediately without finalizers and checks preconditions', () => {
    const kube = createInMemoryKube();
    const created = kube.create('nodes', node('n1'));
    expect(statusOf(() => kube.delete('nodes', 'n1', { preconditions: { uid: 'other' } })).message).toContain('Precondition failed: UID in precondition: other');
    expect(kube.delete('nodes', 'n1', { preconditions: { uid: created.metadata.uid ?? '' } }).deleted).toBe(true);
    expect(statusOf(() => kube.delete('nodes', 'n1')).code).toBe(404);
  });
});

describe('namespaces', () => {
  it('pre-creates the standard namespaces and refuses to delete the immortal ones', () => {
    const kube = createInMemoryKube();
    expect(kube.list('namespaces').map((namespace) => namespace.metadata.name)).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    expect(statusOf(() => kube.delete('namespaces', 'kube-system'))).toMatchObject({ code: 403, message: 'namespaces "kube-system" is forbidden: this namespace may not be deleted' });
  });

  it('deletes the content of a deleted namespace and waits for finalizers', () => {
    const kube = createInMemoryKube();
    kube.create('namespaces', { metadata: { name: 'team' } });
    kube.create('configmaps', { metadata: { name: 'plain' } }, { namespace: 'team' });
    kube.create('configmaps', { metadata: { name: 'held', finalizers: ['example.com/hold'] } }, { namespace: 'team' });
    const result = kube.delete<KubeObject & { status: Record<string, unknown> }>('namespaces', 'team');
    expect(result.deleted).toBe(false);
    expect(result.object.status['phase']).toBe('Terminating');
    expect(kube.get('configmaps', 'plain', 'team')).toBeUndefined();
    expect(statusOf(() => kube.create('configmaps', { metadata: { name: 'late' } }, { namespace: 'team' }))).toMatchObject({ code: 403, reason: 'Forbidden' });
    kube.patch('configmaps', 'held', { metadata: { finalizers: null } }, 'merge', { namespace: 'team' });
    expect(kube.get('namespaces', 'team')).toBeUndefined();
  });
});

describe('kube-apiserver behaviours found by the replay of the conformance suite', () => {
  it('answers a write that removes the last finalizer of a deleting object with the object as written', () => {
    const kube = createInMemoryKube();
    kube.create('services', { metadata: { name: 's', namespace: 'default', finalizers: ['service.kubernetes.io/load-balancer-cleanup'] }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } });
    kube.delete('services', 's', { namespace: 'default' });
    const answer = kube.patch<KubeObject>('services', 's', { metadata: { finalizers: null } }, 'strategic', { namespace: 'default' });
    expect(answer.metadata.finalizers).toBeUndefined();
    expect(answer.metadata.deletionTimestamp).toBeDefined();
    expect(kube.get('services', 's', 'default')).toBeUndefined();
  });

  it('clears status.loadBalancer when a Service stops being of type LoadBalancer', () => {
    const kube = createInMemoryKube();
    kube.create('services', { metadata: { name: 's', namespace: 'default' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } });
    kube.patch('services', 's', { status: { loadBalancer: { ingress: [{ ip: '203.0.113.1' }] } } }, 'merge', { namespace: 'default', subresource: 'status' });
    const changed = kube.patch<KubeObject & { status: Record<string, unknown> }>('services', 's', { spec: { type: 'ClusterIP' } }, 'merge', { namespace: 'default' });
    expect(changed.status['loadBalancer']).toEqual({});
  });
});
