/**
 * Integration tests of the client-node adapters against @ccm/kube-emulator (a strict in-process
 * API server): real HTTP, real patch semantics, watches with bookmarks, 410s and injected faults.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startKubeEmulator, type KubeEmulator } from '@ccm/kube-emulator';
import type { CoreV1Event, V1Node, V1Secret } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger.js';
import { KubeApiError } from '../kube-api-error.js';
import { LeaderElector } from '../leader-election.js';
import { loadKubeConfig } from '../load-kube-config.js';
import { createKubeAccess, type ClientNodeKubeAccess } from './create-kube-access.js';

const until = async (condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

const rejection = async (promise: Promise<unknown>): Promise<KubeApiError> => {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(KubeApiError);
    return error as KubeApiError;
  }
  throw new Error('expected a rejection');
};

describe('client-node adapters against the kube emulator', () => {
  let emulator: KubeEmulator;
  let directory: string;
  let access: ClientNodeKubeAccess | undefined;

  const connect = async (target: KubeEmulator = emulator): Promise<ClientNodeKubeAccess> => {
    const path = join(directory, `kubeconfig-${target.port}`);
    await target.writeKubeconfig(path);
    access = createKubeAccess({ kubeConfig: loadKubeConfig({ kubeconfigPath: path }), qps: 100, burst: 100, userAgent: 'ccm-integration', logger: silentLogger });
    access.start(new AbortController().signal);
    await Promise.all([access.nodeInformer.waitForSync(), access.serviceInformer.waitForSync()]);
    return access;
  };

  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'ccm-emulator-'));
    emulator = await startKubeEmulator({ bookmarkIntervalMs: 200 });
  });

  afterEach(async () => {
    access?.stop();
    access = undefined;
    await emulator.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('nodes: informer sees creates; get/update/patch (all types)/status/delete behave like an API server', async () => {
    emulator.create('nodes', {
      metadata: { name: 'n1' },
      spec: { taints: [{ key: 'node.cloudprovider.kubernetes.io/uninitialized', value: 'true', effect: 'NoSchedule' }] },
      status: { conditions: [{ type: 'Ready', status: 'True' }], addresses: [{ type: 'Hostname', address: 'n1' }] },
    });
    const kube = await connect();
    expect(kube.nodeInformer.store.get('n1')?.kind).toBe('Node');

    const node = await kube.nodes.get('n1');
    const stale = structuredClone(node);
    node.spec = { ...node.spec, providerID: 'sandbox://i-1', taints: [] };
    const updated = await kube.nodes.update(node);
    expect(updated.spec?.providerID).toBe('sandbox://i-1');
    expect((await rejection(kube.nodes.update(stale))).isConflict).toBe(true);

    const labelled = await kube.nodes.patch('n1', { metadata: { labels: { 'topology.kubernetes.io/zone': 'z1' } } }, 'strategic');
    expect(labelled.metadata?.labels?.['topology.kubernetes.io/zone']).toBe('z1');
    await kube.nodes.patch('n1', { metadata: { labels: { extra: 'x' } } }, 'merge');
    await kube.nodes.patch('n1', [{ op: 'remove', path: '/metadata/labels/extra' }], 'json');

    const statusPatched = await kube.nodes.patchStatus(
      'n1',
      { status: { conditions: [{ type: 'NetworkUnavailable', status: 'False', reason: 'RouteCreated', message: 'RouteController created a route', lastTransitionTime: new Date() }] } },
      'strategic',
    );
    expect(statusPatched.status?.conditions?.map((condition) => condition.type).sort()).toEqual(['NetworkUnavailable', 'Ready']);
    expect(statusPatched.status?.conditions?.find((condition) => condition.type === 'NetworkUnavailable')?.lastTransitionTime).toBeInstanceOf(Date);

    await until(() => kube.nodeInformer.store.get('n1')?.metadata?.resourceVersion === statusPatched.metadata?.resourceVersion, 'informer to see the status patch');
    expect(kube.nodeInformer.store.get('n1')?.metadata?.labels).toEqual({ 'topology.kubernetes.io/zone': 'z1' });

    const deleted: V1Node[] = [];
    kube.nodeInformer.addHandlers({ onDelete: (object) => deleted.push(object) });
    await kube.nodes.delete('n1');
    await until(() => deleted.length === 1, 'the delete event');
    expect((await rejection(kube.nodes.get('n1'))).isNotFound).toBe(true);
  });

  it('services: finalizer patches and the status subresource', async () => {
    emulator.create('services', { metadata: { namespace: 'default', name: 'web' }, spec: { type: 'LoadBalancer', ports: [{ port: 80, protocol: 'TCP' }] } });
    const kube = await connect();
    expect(kube.serviceInformer.store.get('default/web')?.spec?.type).toBe('LoadBalancer');
    const withFinalizer = await kube.services.patch('default', 'web', { metadata: { finalizers: ['service.kubernetes.io/load-balancer-cleanup'] } }, 'strategic');
    expect(withFinalizer.metadata?.finalizers).toEqual(['service.kubernetes.io/load-balancer-cleanup']);
    const withStatus = await kube.services.patchStatus('default', 'web', { status: { loadBalancer: { ingress: [{ ip: '203.0.113.10' }] } } }, 'merge');
    expect(withStatus.status?.loadBalancer?.ingress?.map((ingress) => ingress.ip)).toEqual(['203.0.113.10']);
    await until(() => kube.serviceInformer.store.get('default/web')?.status?.loadBalancer?.ingress?.length === 1, 'informer to see the status');
    const missing = await rejection(kube.services.get('default', 'nope'));
    expect(missing.statusCode).toBe(404);
    expect(missing.reason).toBe('NotFound');
  });

  it('secrets: informers per namespace, or per Secret by field selector, shared and started with the others', async () => {
    emulator.create('secrets', { metadata: { namespace: 'kube-system', name: 'vsphere-creds' }, stringData: { password: 'one' } });
    emulator.create('secrets', { metadata: { namespace: 'kube-system', name: 'other' }, stringData: { token: 'x' } });
    const kube = await connect();
    // Asked for after the access started: runs at once.
    const one = kube.secretInformer('kube-system', 'vsphere-creds');
    const all = kube.secretInformer('kube-system');
    expect(kube.secretInformer('kube-system', 'vsphere-creds')).toBe(one);
    await Promise.all([one.waitForSync(), all.waitForSync()]);
    expect(one.store.list().map((secret) => secret.metadata?.name)).toEqual(['vsphere-creds']);
    expect(all.store.list().map((secret) => secret.metadata?.name).sort()).toEqual(['other', 'vsphere-creds']);
    expect(one.store.get('kube-system/vsphere-creds')?.kind).toBe('Secret');

    const updates: V1Secret[] = [];
    one.addHandlers({ onUpdate: (_old, secret) => updates.push(secret) });
    const current = emulator.get<V1Secret>('secrets', 'vsphere-creds', 'kube-system')!;
    emulator.update('secrets', { ...current, data: { password: Buffer.from('two').toString('base64') } });
    await until(() => updates.length === 1, 'the Secret update');
    expect(Buffer.from(updates[0]?.data?.['password'] ?? '', 'base64').toString()).toBe('two');
    // The other Secret is not watched by the per-Secret informer.
    const other = emulator.get<V1Secret>('secrets', 'other', 'kube-system')!;
    emulator.update('secrets', { ...other, data: { token: Buffer.from('y').toString('base64') } });
    await until(() => all.store.get('kube-system/other')?.data?.['token'] === Buffer.from('y').toString('base64'), 'the namespace informer to see the other Secret');
    expect(updates).toHaveLength(1);
  });

  it('events: created in the object namespace and aggregated into one Event with a growing count', async () => {
    emulator.create('nodes', { metadata: { name: 'n1' } });
    const kube = await connect();
    const node = kube.nodeInformer.store.get('n1')!;
    const recorder = kube.eventRecorder('cloud-node-lifecycle-controller');
    recorder.event(node, 'Normal', 'DeletingNode', 'Deleting node n1 because it does not exist in the cloud provider');
    recorder.event(node, 'Normal', 'DeletingNode', 'Deleting node n1 because it does not exist in the cloud provider');
    recorder.event(node, 'Normal', 'DeletingNode', 'Deleting node n1 because it does not exist in the cloud provider');
    await kube.flushEvents();
    const events = emulator.list<CoreV1Event>('events', { namespace: 'default' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      count: 3,
      reason: 'DeletingNode',
      involvedObject: { apiVersion: 'v1', kind: 'Node', name: 'n1' },
      source: { component: 'cloud-node-lifecycle-controller' },
    });
  });

  it('the informer survives dropped watches, expired resourceVersions and injected 500s', async () => {
    emulator.create('nodes', { metadata: { name: 'n1' } });
    const kube = await connect();
    const seen: string[] = [];
    kube.nodeInformer.addHandlers({ onAdd: (node) => seen.push(node.metadata?.name ?? '') });

    emulator.faults.dropWatches('reset');
    emulator.create('nodes', { metadata: { name: 'n2' } });
    await until(() => kube.nodeInformer.store.get('n2') !== undefined, 'n2 after a connection reset');

    emulator.faults.failNext(2, { method: 'GET', path: /watch=(true|1)/ });
    emulator.faults.dropWatches('end');
    emulator.create('nodes', { metadata: { name: 'n3' } });
    await until(() => kube.nodeInformer.store.get('n3') !== undefined, 'n3 after watch failures');

    emulator.faults.compactHistory();
    emulator.faults.dropWatches('end');
    emulator.create('nodes', { metadata: { name: 'n4' } });
    emulator.delete('nodes', 'n1');
    await until(() => kube.nodeInformer.store.get('n4') !== undefined && kube.nodeInformer.store.get('n1') === undefined, 'relist after 410');
    expect(seen).toEqual(expect.arrayContaining(['n1', 'n2', 'n3', 'n4']));
  });

  it('honours 429 Retry-After from the API server', async () => {
    emulator.create('nodes', { metadata: { name: 'n1' } });
    const kube = await connect();
    emulator.faults.failNext(1, { status: 429, retryAfterSeconds: 1, method: 'GET', path: /\/api\/v1\/nodes\/n1/ });
    const started = Date.now();
    expect((await kube.nodes.get('n1')).metadata?.name).toBe('n1');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('leader election: one leader at a time, release hands over at once', async () => {
    const path = join(directory, 'kubeconfig-leader');
    await emulator.writeKubeconfig(path);
    const kubeConfig = loadKubeConfig({ kubeconfigPath: path });
    const elector = (identity: string): { elector: LeaderElector; controller: AbortController; done: Promise<void> } => {
      const instance = new LeaderElector({
        kubeConfig,
        namespace: 'kube-system',
        name: 'cloud-controller-manager',
        identity,
        leaseDurationMs: 4000,
        renewDeadlineMs: 3000,
        retryPeriodMs: 200,
        logger: silentLogger,
        onStartedLeading: () => {},
        onStoppedLeading: () => {},
      });
      const controller = new AbortController();
      return { elector: instance, controller, done: instance.run(controller.signal) };
    };
    const a = elector('a');
    await until(() => a.elector.isLeader(), 'a to lead');
    const b = elector('b');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(b.elector.isLeader()).toBe(false);
    a.controller.abort();
    await a.done;
    await a.elector.release();
    const released = emulator.get<{ spec: { holderIdentity?: string; leaseDurationSeconds: number } }>('leases.coordination.k8s.io', 'cloud-controller-manager', 'kube-system');
    expect(released?.spec.leaseDurationSeconds).toBe(1);
    await until(() => b.elector.isLeader(), 'b to take over', 3000);
    const lease = emulator.get<{ spec: { holderIdentity: string; leaseTransitions: number } }>('leases.coordination.k8s.io', 'cloud-controller-manager', 'kube-system');
    expect(lease?.spec).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
    b.controller.abort();
    await b.done;
  });

  it('works over HTTPS with the kubeconfig CA', async () => {
    const secure = await startKubeEmulator({ https: true });
    try {
      secure.create('nodes', { metadata: { name: 'tls-node' } });
      const kube = await connect(secure);
      expect((await kube.nodes.get('tls-node')).metadata?.name).toBe('tls-node');
      expect(kube.nodeInformer.store.get('tls-node')).toBeDefined();
      access?.stop();
      access = undefined;
    } finally {
      await secure.close();
    }
  });
});
