import type { V1Node, V1Service } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { KubeApiError } from '@ccm/core/kube';
import { InMemoryKubeAccess } from './in-memory-kube-access.js';

const fixedNow = new Date('2026-01-02T03:04:05.000Z');

const node = (name: string, extra: Partial<V1Node> = {}): V1Node => ({
  metadata: { name },
  spec: { taints: [{ key: 'node.cloudprovider.kubernetes.io/uninitialized', value: 'true', effect: 'NoSchedule' }] },
  status: { addresses: [{ type: 'Hostname', address: name }], conditions: [{ type: 'Ready', status: 'True' }] },
  ...extra,
});

const service = (namespace: string, name: string, extra: Partial<V1Service> = {}): V1Service => ({
  metadata: { namespace, name },
  spec: { type: 'LoadBalancer', ports: [{ port: 80, protocol: 'TCP' }] },
  ...extra,
});

const rejection = async (promise: Promise<unknown>): Promise<KubeApiError> => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof KubeApiError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
};

describe('InMemoryKubeAccess nodes', () => {
  it('creates nodes with uid, creationTimestamp (a Date) and resourceVersion, stamped with kind', async () => {
    const kube = new InMemoryKubeAccess({ now: () => fixedNow });
    const created = kube.addNode(node('n1'));
    expect(created.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.metadata?.creationTimestamp).toEqual(fixedNow);
    expect(created.metadata?.creationTimestamp).toBeInstanceOf(Date);
    expect(created.metadata?.resourceVersion).toBe('1');
    expect(created.apiVersion).toBe('v1');
    expect(created.kind).toBe('Node');
    const read = await kube.nodes.get('n1');
    expect(read).toEqual(created);
    expect(() => kube.addNode(node('n1'))).toThrow(/already exists/);
  });

  it('returns copies: mutating a result does not change the store', async () => {
    const kube = new InMemoryKubeAccess();
    kube.addNode(node('n1'));
    const read = await kube.nodes.get('n1');
    read.metadata!.labels = { mutated: 'yes' };
    expect(kube.getNode('n1')?.metadata?.labels).toBeUndefined();
  });

  it('get of a missing node is a 404 KubeApiError', async () => {
    const kube = new InMemoryKubeAccess();
    const error = await rejection(kube.nodes.get('missing'));
    expect(error.statusCode).toBe(404);
    expect(error.isNotFound).toBe(true);
    expect(error.message).toBe('nodes "missing" not found');
  });

  it('update enforces resourceVersion (409 Conflict) and ignores status', async () => {
    const kube = new InMemoryKubeAccess();
    kube.addNode(node('n1'));
    const first = await kube.nodes.get('n1');
    const stale = await kube.nodes.get('n1');
    first.spec = { ...first.spec, taints: [], providerID: 'sandbox://i-1' };
    first.status = { addresses: [{ type: 'InternalIP', address: '10.0.0.9' }] };
    const updated = await kube.nodes.update(first);
    expect(updated.spec?.providerID).toBe('sandbox://i-1');
    expect(updated.spec?.taints).toEqual([]);
    expect(updated.status?.addresses).toEqual([{ type: 'Hostname', address: 'n1' }]);
    expect(Number(updated.metadata?.resourceVersion)).toBeGreaterThan(Number(first.metadata?.resourceVersion));

    stale.metadata!.labels = { a: 'b' };
    const conflict = await rejection(kube.nodes.update(stale));
    expect(conflict.statusCode).toBe(409);
    expect(conflict.isConflict).toBe(true);
    expect(conflict.reason).toBe('Conflict');
  });

  it('an update without resourceVersion is unconditional', async () => {
    const kube = new InMemoryKubeAccess();
    kube.addNode(node('n1'));
    await kube.nodes.patch('n1', { metadata: { labels: { a: '1' } } }, 'merge');
    const updated = await kube.nodes.update({ metadata: { name: 'n1', labels: { b: '2' } }, spec: {} });
    expect(updated.metadata?.labels).toEqual({ b: '2' });
  });

  it('a no-op write does not bump resourceVersion nor notify informers', async () => {
    const kube = new InMemoryKubeAccess();
    kube.addNode(node('n1'));
    const updates: string[] = [];
    kube.nodeInformer.addHandlers({ onUpdate: (_old, next) => updates.push(next.metadata?.resourceVersion ?? '') });
    const before = await kube.nodes.get('n1');
    const after = await kube.nodes.patch('n1', { metadata: { labels: null } }, 'strategic');
    expect(after.metadata?.resourceVersion).toBe(before.metadata?.resourceVersion);
    expect(updates).toEqual([]);
  });

  it('strategic patch merges conditions and addresses by type on the status subresource only', async () => {
    const kube = new InMemoryKubeAccess();
    kube.addNode(node('n1'));
    const patched = await kube.nodes.patchStatus(
      'n1',
      {
        metadata: { labels: { ignored: 'true' } },
        spec: { providerID: 'ignored' },
        status: {
          conditions: [{ type: 'NetworkUnavailable', status: 'False', reason: 'RouteCreated', lastTransitionTime: fixedNow }],
          addresses: [{ type: 'InternalIP', address: '10.0.0.1' }],
        },
      },
      'strategic',
    );
    // As kube-apiserver orders a strategic merge: the condition the patch adds comes first.
    expect(patched.status?.conditions?.map((condition) => condition.type)).toEqual(['NetworkUnavailable', 'Ready']);
    expect(patched.status?.conditions?.[0]?.lastTransitionTime).toEqual(fixedNow);
    expect(patched.status?.addresses).toEqual([
      { type: 'InternalIP', address: '10.0.0.1' },
      { type: 'Hostname', address: 'n1' },
    ]);
    expect(patched.metadata?.labels).toBeUndefined();
    expect(patched.spec?.providerID).toBeUndefined();
  });

  it('a main-resource patch cannot change status', async () => {
    const kube = new InMemoryKubeAccess();
    kube.addNode(node('n1'));
    const patched = await kube.nodes.patch('n1', { spec: { taints: null }, status: { addresses: [] } }, 'merge');
    expect(patched.spec?.taints).toBeUndefined();
    expect(patched.status?.addresses).toEqual([{ type: 'Hostname', address: 'n1' }]);
  });

  it('a patch carrying a stale resourceVersion is a conflict', async () => {
    const kube = new InMemoryKubeAccess();
    const created = kube.addNode(node('n1'));
    await kube.nodes.patch('n1', { metadata: { labels: { a: '1' } } }, 'merge');
    const conflict = await rejection(
      kube.nodes.patch('n1', { metadata: { resourceVersion: created.metadata?.resourceVersion, labels: { a: '2' } } }, 'strategic'),
    );
    expect(conflict.isConflict).toBe(true);
  });

  it('json patch test failure is 422 Invalid and changes nothing', async () => {
    const kube = new InMemoryKubeAccess();
    kube.addNode(node('n1'));
    const error = await rejection(
      kube.nodes.patch(
        'n1',
        [
          { op: 'test', path: '/spec/providerID', value: 'x' },
          { op: 'add', path: '/spec/providerID', value: 'y' },
        ],
        'json',
      ),
    );
    expect(error.statusCode).toBe(422);
    expect(kube.getNode('n1')?.spec?.providerID).toBeUndefined();
  });

  it('delete removes the node and informers see onDelete with the last state', async () => {
    const kube = new InMemoryKubeAccess();
    kube.addNode(node('n1'));
    await kube.nodes.patch('n1', { metadata: { labels: { last: 'state' } } }, 'merge');
    const deleted: V1Node[] = [];
    kube.nodeInformer.addHandlers({ onDelete: (object) => deleted.push(object) });
    await kube.nodes.delete('n1');
    expect(kube.getNode('n1')).toBeUndefined();
    expect(kube.nodeInformer.store.get('n1')).toBeUndefined();
    expect(deleted.map((object) => object.metadata?.labels)).toEqual([{ last: 'state' }]);
    expect((await rejection(kube.nodes.delete('n1'))).isNotFound).toBe(true);
  });
});

describe('InMemoryKubeAccess informers', () => {
  it('deliver add/update(old,new)/delete synchronously and synthesize adds for late handlers', async () => {
    const kube = new InMemoryKubeAccess();
    kube.addNode(node('n1'));
    const seen: string[] = [];
    kube.nodeInformer.addHandlers({
      onAdd: (object) => seen.push(`add ${object.metadata?.name}`),
      onUpdate: (old, next) => seen.push(`update ${old.metadata?.labels?.v ?? '-'}->${next.metadata?.labels?.v}`),
      onDelete: (object) => seen.push(`delete ${object.metadata?.name}`),
    });
    expect(seen).toEqual(['add n1']);
    const pending = kube.nodes.patch('n1', { metadata: { labels: { v: '1' } } }, 'merge');
    expect(seen).toEqual(['add n1', 'update -->1']);
    await pending;
    kube.addNode(node('n2'));
    await kube.nodes.delete('n2');
    expect(seen).toEqual(['add n1', 'update -->1', 'add n2', 'delete n2']);
    expect(kube.nodeInformer.hasSynced()).toBe(true);
    await expect(kube.nodeInformer.waitForSync()).resolves.toBeUndefined();
  });

  it('resync re-delivers onUpdate(object, object)', () => {
    const kube = new InMemoryKubeAccess();
    kube.addNode(node('n1'));
    const pairs: Array<[V1Node, V1Node]> = [];
    kube.nodeInformer.addHandlers({ onUpdate: (old, next) => pairs.push([old, next]) });
    kube.nodeInformer.resync();
    expect(pairs).toHaveLength(1);
    expect(pairs[0]?.[0]).toBe(pairs[0]?.[1]);
  });

  it('records per-handler resync periods without running timers', () => {
    const kube = new InMemoryKubeAccess();
    kube.serviceInformer.addHandlers({}, { resyncPeriodMs: 30_000 });
    kube.serviceInformer.addHandlers({});
    expect(kube.serviceInformer.resyncPeriods).toEqual([30_000, 0]);
  });

  it('services are keyed namespace/name', () => {
    const kube = new InMemoryKubeAccess();
    kube.addService(service('ns1', 's1'));
    kube.addService({ metadata: { name: 's2' }, spec: {} });
    expect(kube.serviceInformer.store.get('ns1/s1')?.metadata?.name).toBe('s1');
    expect(kube.serviceInformer.store.get('default/s2')?.metadata?.namespace).toBe('default');
    expect(kube.serviceInformer.store.list()).toHaveLength(2);
  });
});

describe('InMemoryKubeAccess services', () => {
  it('finalizers: strategic patch adds, $deleteFromPrimitiveList removes, merge patch replaces', async () => {
    const kube = new InMemoryKubeAccess();
    kube.addService(service('default', 's1', { metadata: { namespace: 'default', name: 's1', finalizers: ['other'] } }));
    const added = await kube.services.patch('default', 's1', { metadata: { finalizers: ['service.kubernetes.io/load-balancer-cleanup'] } }, 'strategic');
    expect(added.metadata?.finalizers).toEqual(['service.kubernetes.io/load-balancer-cleanup', 'other']);
    const removed = await kube.services.patch(
      'default',
      's1',
      { metadata: { '$deleteFromPrimitiveList/finalizers': ['service.kubernetes.io/load-balancer-cleanup'] } },
      'strategic',
    );
    expect(removed.metadata?.finalizers).toEqual(['other']);
    const replaced = await kube.services.patch('default', 's1', { metadata: { finalizers: ['x'] } }, 'merge');
    expect(replaced.metadata?.finalizers).toEqual(['x']);
  });

  it('status patch sets the load balancer ingress, leaving spec alone', async () => {
    const kube = new InMemoryKubeAccess();
    kube.addService(service('default', 's1'));
    const patched = await kube.services.patchStatus(
      'default',
      's1',
      { spec: { type: 'ClusterIP' }, status: { loadBalancer: { ingress: [{ ip: '203.0.113.1' }] } } },
      'merge',
    );
    expect(patched.status?.loadBalancer?.ingress).toEqual([{ ip: '203.0.113.1' }]);
    expect(patched.spec?.type).toBe('LoadBalancer');
  });

  it('deletion waits for finalizers; removing the last one deletes the service', async () => {
    const kube = new InMemoryKubeAccess({ now: () => fixedNow });
    kube.addService(service('default', 's1', { metadata: { namespace: 'default', name: 's1', finalizers: ['service.kubernetes.io/load-balancer-cleanup'] } }));
    const seen: string[] = [];
    kube.serviceInformer.addHandlers({
      onUpdate: (_old, next) => seen.push(`update deleting=${next.metadata?.deletionTimestamp?.toISOString()}`),
      onDelete: () => seen.push('delete'),
    });
    kube.deleteService('default', 's1');
    expect(kube.getService('default', 's1')?.metadata?.deletionTimestamp).toEqual(fixedNow);
    const forbidden = await rejection(kube.services.patch('default', 's1', { metadata: { finalizers: ['new'] } }, 'strategic'));
    expect(forbidden.statusCode).toBe(422);
    expect(forbidden.message).toMatch(/no new finalizers can be added/);
    await kube.services.patch('default', 's1', { metadata: { finalizers: null } }, 'merge');
    expect(kube.getService('default', 's1')).toBeUndefined();
    expect(seen).toEqual([`update deleting=${fixedNow.toISOString()}`, 'delete']);
  });

  it('update keeps status and conflicts on a stale resourceVersion', async () => {
    const kube = new InMemoryKubeAccess();
    kube.addService(service('default', 's1'));
    await kube.services.patchStatus('default', 's1', { status: { loadBalancer: { ingress: [{ ip: '1.1.1.1' }] } } }, 'merge');
    const current = await kube.services.get('default', 's1');
    const stale = structuredClone(current);
    current.spec = { ...current.spec, loadBalancerIP: '1.1.1.1' };
    current.status = {};
    const updated = await kube.services.update(current);
    expect(updated.spec?.loadBalancerIP).toBe('1.1.1.1');
    expect(updated.status?.loadBalancer?.ingress).toEqual([{ ip: '1.1.1.1' }]);
    expect((await rejection(kube.services.update({ ...stale, spec: { type: 'ClusterIP' } }))).isConflict).toBe(true);
  });
});

describe('InMemoryKubeAccess actions and failures', () => {
  it('records every port call with its patch type and subresource', async () => {
    const kube = new InMemoryKubeAccess();
    kube.addNode(node('n1'));
    kube.addService(service('ns', 's1'));
    await kube.nodes.get('n1');
    await kube.nodes.patchStatus('n1', { status: { conditions: [] } }, 'strategic');
    await kube.services.patch('ns', 's1', { metadata: { labels: { a: 'b' } } }, 'merge');
    expect(kube.actions.map(({ verb, resource, namespace, name, subresource, patchType }) => ({ verb, resource, namespace, name, subresource, patchType }))).toEqual([
      { verb: 'get', resource: 'nodes', namespace: undefined, name: 'n1', subresource: undefined, patchType: undefined },
      { verb: 'patch', resource: 'nodes', namespace: undefined, name: 'n1', subresource: 'status', patchType: 'strategic' },
      { verb: 'patch', resource: 'services', namespace: 'ns', name: 's1', subresource: undefined, patchType: 'merge' },
    ]);
    kube.clearActions();
    expect(kube.actions).toEqual([]);
  });

  it('failNext injects errors for matching calls only, the given number of times', async () => {
    const kube = new InMemoryKubeAccess();
    kube.addNode(node('n1'));
    const injected = new KubeApiError('boom', 500, 'InternalError');
    kube.failNext({ verb: 'patch', resource: 'nodes', subresource: 'status' }, injected, 2);
    await expect(kube.nodes.patch('n1', { metadata: { labels: { a: '1' } } }, 'merge')).resolves.toBeDefined();
    await expect(kube.nodes.patchStatus('n1', { status: {} }, 'merge')).rejects.toBe(injected);
    await expect(kube.nodes.patchStatus('n1', { status: {} }, 'merge')).rejects.toBe(injected);
    await expect(kube.nodes.patchStatus('n1', { status: {} }, 'merge')).resolves.toBeDefined();
    expect(kube.actions.filter((action) => action.subresource === 'status')).toHaveLength(3);
  });
});

describe('InMemoryKubeAccess events', () => {
  it('records events with client-go object references and namespaces', () => {
    const kube = new InMemoryKubeAccess({ now: () => fixedNow });
    const created = kube.addNode(node('n1'));
    const svc = kube.addService(service('ns', 's1'));
    kube.eventRecorder('cloud-node-controller').event(created, 'Normal', 'Synced', 'Node synced successfully');
    kube.eventRecorder('service-controller').event(svc, 'Warning', 'SyncLoadBalancerFailed', 'Error syncing load balancer: x');
    kube.eventRecorder('route_controller').event({ kind: 'Node', metadata: { name: 'n9', uid: 'u9' } }, 'Warning', 'FailedToCreateRoute', 'm');
    const [synced, failed, route] = kube.eventLog.events;
    expect(synced).toEqual({
      component: 'cloud-node-controller',
      namespace: 'default',
      involvedObject: { apiVersion: 'v1', kind: 'Node', name: 'n1', uid: created.metadata?.uid, resourceVersion: created.metadata?.resourceVersion },
      type: 'Normal',
      reason: 'Synced',
      message: 'Node synced successfully',
      timestamp: fixedNow,
    });
    expect(failed?.namespace).toBe('ns');
    expect(failed?.involvedObject.namespace).toBe('ns');
    expect(route?.involvedObject).toEqual({ apiVersion: 'v1', kind: 'Node', name: 'n9', uid: 'u9' });
    expect(kube.eventLog.find({ component: 'service-controller', type: 'Warning' })).toHaveLength(1);
    expect(kube.eventLog.find({ name: 'n1', reason: 'Synced' })).toHaveLength(1);
    kube.eventLog.clear();
    expect(kube.eventLog.events).toEqual([]);
  });
});
