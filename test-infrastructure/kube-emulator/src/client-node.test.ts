/**
 * @kubernetes/client-node 2.0.1 against the emulator over HTTP: typed CRUD, the patch
 * strategies, optimistic concurrency, and a ListWatch informer through a forced 410 relist.
 */
import {
  ApiException,
  CoordinationV1Api,
  CoreV1Api,
  EventsV1Api,
  KubeConfig,
  ListWatch,
  PatchStrategy,
  Watch,
  setHeaderOptions,
  type V1Node,
} from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { startKubeEmulator, type KubeEmulator, type KubeEmulatorOptions } from './kube-emulator.js';

let emulator: KubeEmulator | undefined;
const informers: Array<ListWatch<V1Node>> = [];

afterEach(async () => {
  for (const informer of informers.splice(0)) await informer.stop();
  await emulator?.close();
  emulator = undefined;
});

async function connect(options: KubeEmulatorOptions = {}): Promise<{ kube: KubeEmulator; config: KubeConfig; core: CoreV1Api }> {
  const kube = await startKubeEmulator(options);
  emulator = kube;
  const config = new KubeConfig();
  config.loadFromString(kube.kubeconfigYaml());
  return { kube, config, core: config.makeApiClient(CoreV1Api) };
}

async function failureCode(call: Promise<unknown>): Promise<{ code: number; reason: string }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ApiException) {
      const body = typeof error.body === 'string' ? (JSON.parse(error.body) as { reason?: string }) : (error.body as { reason?: string });
      return { code: error.code, reason: body.reason ?? '' };
    }
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('client-node against the emulator', () => {
  it('lists, patches with each strategy and updates nodes', async () => {
    const { core } = await connect();
    await core.createNode({ body: { metadata: { name: 'n1' }, status: { addresses: [{ type: 'InternalIP', address: '10.0.0.1' }] } } });
    expect((await core.listNode()).items.map((node) => node.metadata?.name)).toEqual(['n1']);
    const merged = await core.patchNode({ name: 'n1', body: { metadata: { labels: { a: '1' } } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
    expect(merged.metadata?.labels).toEqual({ a: '1' });
    const strategic = await core.patchNode({ name: 'n1', body: { spec: { providerID: 'sandbox:///n1', taints: [{ key: 'k', effect: 'NoSchedule' }] } } }, setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch));
    expect(strategic.spec?.providerID).toBe('sandbox:///n1');
    const json = await core.patchNode({ name: 'n1', body: [{ op: 'remove', path: '/spec/taints' }] }, setHeaderOptions('Content-Type', PatchStrategy.JsonPatch));
    expect(json.spec?.taints).toBeUndefined();
    const status = await core.patchNodeStatus(
      { name: 'n1', body: { status: { addresses: [{ type: 'ExternalIP', address: '1.2.3.4' }] } } },
      setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
    );
    // A real kube-apiserver lists an element the patch added before the server-only ones.
    expect(status.status?.addresses).toEqual([
      { type: 'ExternalIP', address: '1.2.3.4' },
      { type: 'InternalIP', address: '10.0.0.1' },
    ]);
    const stale = { ...merged, metadata: { ...merged.metadata, labels: { late: 'yes' } } };
    expect(await failureCode(core.replaceNode({ name: 'n1', body: stale }))).toEqual({ code: 409, reason: 'Conflict' });
    expect(await failureCode(core.patchNode({ name: 'n1', body: { spec: { taints: [{ key: 'k', effect: 'Bad' }] } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch)))).toEqual({
      code: 422,
      reason: 'Invalid',
    });
    expect(await failureCode(core.readNode({ name: 'ghost' }))).toEqual({ code: 404, reason: 'NotFound' });
  });

  it('handles services, leases and events', async () => {
    const { config, core } = await connect();
    await core.createNamespacedService({ namespace: 'default', body: { metadata: { name: 'lb' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } } });
    const withStatus = await core.patchNamespacedServiceStatus(
      { name: 'lb', namespace: 'default', body: { status: { loadBalancer: { ingress: [{ ip: '203.0.113.10' }] } } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    expect(withStatus.status?.loadBalancer?.ingress).toEqual([{ ip: '203.0.113.10', ipMode: 'VIP' }]);
    expect(await failureCode(core.createNamespacedService({ namespace: 'default', body: { metadata: { name: 'lb' }, spec: { ports: [{ port: 80 }] } } }))).toEqual({
      code: 409,
      reason: 'AlreadyExists',
    });
    const coordination = config.makeApiClient(CoordinationV1Api);
    const lease = await coordination.createNamespacedLease({ namespace: 'kube-system', body: { metadata: { name: 'ccm' }, spec: { holderIdentity: 'a', leaseDurationSeconds: 15 } } });
    const renewed = await coordination.replaceNamespacedLease({ name: 'ccm', namespace: 'kube-system', body: { ...lease, spec: { ...lease.spec, holderIdentity: 'b' } } });
    expect(renewed.spec?.holderIdentity).toBe('b');
    expect(await failureCode(coordination.replaceNamespacedLease({ name: 'ccm', namespace: 'kube-system', body: lease }))).toEqual({ code: 409, reason: 'Conflict' });
    await core.createNamespacedEvent({ namespace: 'default', body: { metadata: { name: 'n1.1' }, involvedObject: { kind: 'Node', name: 'n1' }, reason: 'Synced', message: 'ok', type: 'Normal' } });
    const events = config.makeApiClient(EventsV1Api);
    const listed = await events.listNamespacedEvent({ namespace: 'default' });
    expect(listed.items.map((event) => [event.metadata?.name, event.note, event.regarding?.name])).toEqual([['n1.1', 'ok', 'n1']]);
  });

  for (const expiredWatchResponse of ['error-event', 'http-status'] as const) {
    it(`keeps a ListWatch informer in sync through drops and a 410 relist (${expiredWatchResponse})`, async () => {
      const { kube, config, core } = await connect({ expiredWatchResponse });
      kube.create('nodes', { metadata: { name: 'a' } });
      kube.create('nodes', { metadata: { name: 'b' } });
      const seen: string[] = [];
      const informer = new ListWatch<V1Node>('/api/v1/nodes', new Watch(config), () => core.listNode(), false, undefined, undefined, { delayFn: async () => {} });
      informers.push(informer);
      informer.on('add', (node) => seen.push(`add ${node.metadata?.name ?? ''}`));
      informer.on('update', (node) => seen.push(`update ${node.metadata?.name ?? ''} ${JSON.stringify(node.metadata?.labels ?? {})}`));
      informer.on('delete', (node) => seen.push(`delete ${node.metadata?.name ?? ''}`));
      informer.on('error', (error) => seen.push(`error ${String(error)}`));
      await informer.start();
      await expect.poll(() => kube.openWatchCount()).toBe(1);
      expect(seen).toEqual(['add a', 'add b']);

      kube.patch('nodes', 'a', { metadata: { labels: { step: '1' } } }, 'merge');
      kube.delete('nodes', 'b');
      await expect.poll(() => seen.slice(2)).toEqual(['update a {"step":"1"}', 'delete b']);

      // A dropped watch resumes from the last resourceVersion: nothing is replayed twice.
      kube.faults.dropWatches();
      await expect.poll(() => kube.openWatchCount()).toBe(1);
      kube.create('nodes', { metadata: { name: 'c' } });
      await expect.poll(() => seen.slice(4)).toEqual(['add c']);

      // Changes made while the watch is down (all synchronous, so before the client can reconnect), then a
      // history compaction: the resume gets 410 and the informer relists and diffs its cache.
      const requestsBefore = kube.requestCounts().byVerb['list'] ?? 0;
      kube.faults.dropWatches();
      kube.delete('nodes', 'a');
      kube.create('nodes', { metadata: { name: 'd' } });
      kube.patch('nodes', 'c', { metadata: { labels: { step: '2' } } }, 'merge');
      kube.faults.compactHistory();
      await expect.poll(() => seen.slice(5).sort(), { timeout: 5000 }).toEqual(['add d', 'delete a', 'update c {"step":"2"}']);
      expect(kube.requestCounts().byVerb['list'] ?? 0).toBeGreaterThan(requestsBefore);
      expect(informer.list().map((node) => node.metadata?.name).sort()).toEqual(['c', 'd']);
    });
  }
});
