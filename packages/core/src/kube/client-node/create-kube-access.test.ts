import type { CoreV1Event } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger.js';
import { FakeApiServer } from './test-support/fake-api-server.js';
import { clientRateLimit, createKubeAccess, type ClientNodeKubeAccess } from './create-kube-access.js';

describe('createKubeAccess against a fake API server', () => {
  let server: FakeApiServer;
  let access: ClientNodeKubeAccess | undefined;
  const controller = new AbortController();

  beforeEach(async () => {
    server = new FakeApiServer();
    await server.start();
    server.on('GET', /^\/api\/v1\/nodes$/, () => ({ body: { metadata: { resourceVersion: '10' }, items: [{ metadata: { name: 'n1', resourceVersion: '9' } }] } }));
    server.on('GET', /^\/api\/v1\/services$/, () => ({
      body: { metadata: { resourceVersion: '10' }, items: [{ metadata: { namespace: 'ns', name: 's1', resourceVersion: '8' } }] },
    }));
    server.onWatch(/^\/api\/v1\/(nodes|services)$/);
    server.on('GET', /^\/api\/v1\/nodes\/n1$/, () => ({ body: { kind: 'Node', apiVersion: 'v1', metadata: { name: 'n1' } } }));
    server.on('POST', /^\/api\/v1\/namespaces\/[^/]+\/events$/, (request) => ({ status: 201, body: JSON.parse(request.body) }));
  });

  afterEach(async () => {
    access?.stop();
    access = undefined;
    await server.close();
  });

  it('syncs node and service informers (all namespaces), serves the APIs and records events', async () => {
    const metrics = new Registry();
    access = createKubeAccess({ kubeConfig: server.kubeConfig(), qps: 20, burst: 30, userAgent: 'ccm-test/1.0', logger: silentLogger, metrics });
    access.start(controller.signal);
    await Promise.all([access.nodeInformer.waitForSync(), access.serviceInformer.waitForSync()]);
    expect(access.nodeInformer.store.get('n1')?.kind).toBe('Node');
    expect(access.serviceInformer.store.get('ns/s1')?.kind).toBe('Service');
    await server.waitForWatches(2);
    expect(server.watches.map((watch) => watch.request.path).sort()).toEqual(['/api/v1/nodes', '/api/v1/services']);

    expect((await access.nodes.get('n1')).metadata?.name).toBe('n1');
    expect(server.requestsTo('GET', /^\/api\/v1\/nodes\/n1$/)[0]?.headers['user-agent']).toBe('ccm-test/1.0');

    const node = access.nodeInformer.store.get('n1');
    expect(access.eventRecorder('cloud-node-controller')).toBe(access.eventRecorder('cloud-node-controller'));
    access.eventRecorder('cloud-node-controller').event(node!, 'Normal', 'Synced', 'Node synced successfully');
    await access.flushEvents();
    const [posted] = server.requestsTo('POST', /events$/);
    expect(posted?.path).toBe('/api/v1/namespaces/default/events');
    const event = JSON.parse(posted?.body ?? '{}') as CoreV1Event;
    expect(event).toMatchObject({
      involvedObject: { apiVersion: 'v1', kind: 'Node', name: 'n1' },
      source: { component: 'cloud-node-controller' },
      reportingComponent: 'cloud-node-controller',
      reason: 'Synced',
      type: 'Normal',
      count: 1,
    });

    const requests = (await metrics.getMetricsAsJSON()).find((metric) => metric.name === 'rest_client_requests_total') as
      | { values: Array<{ value: number; labels: Record<string, string> }> }
      | undefined;
    const host = new URL(server.url).host;
    expect(requests?.values).toEqual(
      expect.arrayContaining([
        { value: 3, labels: { code: '200', host, method: 'GET' } },
        { value: 1, labels: { code: '200', host, method: 'POST' } },
      ]),
    );
  });

  it('shares one token bucket across APIs, informers and events', async () => {
    access = createKubeAccess({ kubeConfig: server.kubeConfig(), qps: 10, burst: 1, userAgent: 'ua', logger: silentLogger, minResyncPeriodMs: 0 });
    const started = Date.now();
    await Promise.all([access.nodes.get('n1'), access.nodes.get('n1'), access.nodes.get('n1')]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('--kube-api-qps=0 means client-go\'s default 5 qps / burst 10, not unthrottled', async () => {
    access = createKubeAccess({ kubeConfig: server.kubeConfig(), qps: 0, burst: 0, userAgent: 'ua', logger: silentLogger, minResyncPeriodMs: 0 });
    const started = Date.now();
    await Promise.all(Array.from({ length: 12 }, () => access?.nodes.get('n1')));
    // 10 at once (burst), then one every 200 ms.
    expect(Date.now() - started).toBeGreaterThanOrEqual(380);
  });

  it('stops the watches when the start signal aborts', async () => {
    const local = new AbortController();
    access = createKubeAccess({ kubeConfig: server.kubeConfig(), qps: 20, burst: 30, userAgent: 'ua', logger: silentLogger });
    access.start(local.signal);
    await server.waitForWatches(2);
    local.abort();
    const deadline = Date.now() + 2000;
    while (server.watches.some((watch) => !watch.closed) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(server.watches.every((watch) => watch.closed)).toBe(true);
    expect(() => access?.start(new AbortController().signal)).toThrow(/stopped/);
  });
});

describe('clientRateLimit (client-go RESTClientFor)', () => {
  it.each([
    [20, 30, { qps: 20, burst: 30 }],
    [0, 0, { qps: 5, burst: 10 }],
    [0, 30, { qps: 5, burst: 30 }],
    [20, 0, { qps: 20, burst: 10 }],
    [-1, 30, { qps: Infinity, burst: 30 }],
    [0.5, -3, { qps: 0.5, burst: 1 }],
  ])('qps %d burst %d', (qps, burst, expected) => {
    expect(clientRateLimit(qps, burst)).toEqual(expected);
  });
});
