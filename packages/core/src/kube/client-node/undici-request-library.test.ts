import { createServer } from 'node:net';
import { CoreV1Api, type ConfigurationOptions, type CoreV1Event, type V1Node } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger.js';
import type { JsonValue } from '../json-value.js';
import { fromWire } from '../wire-format.js';
import { FakeApiServer, status } from './test-support/fake-api-server.js';
import { requestAsSeen } from './test-support/request-as-seen.js';
import { PATCH_CONTENT_TYPES } from './patch-content-type.js';
import { RequestExecutor } from './request-executor.js';
import { undiciRequestLibrary } from './undici-request-library.js';

const node = {
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'n1', resourceVersion: '8', creationTimestamp: '2026-01-01T00:00:00Z', labels: { 'node.kubernetes.io/instance-type': 'm1' } },
  spec: { providerID: 'sandbox://i-1', taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule', timeAdded: '2026-01-01T00:00:01Z' }] },
  status: { addresses: [{ type: 'InternalIP', address: '10.0.0.1' }], conditions: [{ type: 'Ready', status: 'False', lastHeartbeatTime: '2026-01-01T00:00:02Z' }] },
};
const event = {
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: 'n1.1', namespace: 'default' },
  involvedObject: { kind: 'Node', name: 'n1', uid: 'u1' },
  reason: 'Synced',
  message: 'Node synced successfully',
  type: 'Normal',
  count: 1,
  firstTimestamp: '2026-01-01T00:00:03Z',
  eventTime: '2026-01-01T00:00:03.123456Z',
};

const typedNode = (wire: object): V1Node => fromWire<V1Node>(wire as JsonValue, 'V1Node');
const typedEvent = (wire: object): CoreV1Event => fromWire<CoreV1Event>(wire as JsonValue, 'CoreV1Event');

/** The `Date` answer header, which differs between two answers a second apart. */
const withoutDate = (text: string): string => text.replace(/"date":"[^"]*"/g, '"date":"<date>"');

/** The value a call resolved to, or the error it rejected with (class, message, code, body, headers, cause's message). */
async function outcome(call: Promise<unknown>): Promise<unknown> {
  try {
    return { value: await call };
  } catch (error) {
    const failure = error as Error & { code?: unknown; body?: unknown; headers?: Record<string, string> };
    const headers = failure.headers === undefined ? undefined : { ...failure.headers, date: '<date>' };
    return { error: [failure.constructor.name, withoutDate(failure.message.replace(/\\"/g, '"')), failure.code, failure.body, headers, (failure.cause as Error | undefined)?.message] };
  }
}

type Call = (core: CoreV1Api, options: ConfigurationOptions) => Promise<unknown>;

describe('undiciRequestLibrary', () => {
  let server: FakeApiServer;
  let core: CoreV1Api;
  let executor: RequestExecutor;

  beforeEach(async () => {
    server = new FakeApiServer();
    await server.start();
    core = server.kubeConfig().makeApiClient(CoreV1Api);
    executor = new RequestExecutor({ userAgent: 'cloud-controller-manager', logger: silentLogger });
    server.on('PUT', /^\/api\/v1\/nodes\/n1$/, (request) => ({ body: { ...JSON.parse(request.body), metadata: node.metadata } }));
    server.on('PATCH', /^\/api\/v1\/nodes\/n1\/status$/, () => ({ body: node }));
    server.on('PATCH', /^\/api\/v1\/nodes\/gone$/, () => ({ status: 404, body: status(404, 'NotFound', 'nodes "gone" not found') }));
    server.on('PUT', /^\/api\/v1\/nodes\/stale$/, () => ({ status: 409, body: status(409, 'Conflict', 'the object has been modified') }));
    server.on('POST', /^\/api\/v1\/namespaces\/default\/events$/, (request) => ({ status: 201, body: JSON.parse(request.body) }));
    server.on('PATCH', /^\/api\/v1\/namespaces\/default\/events\/n1\.1$/, () => ({ body: { ...event, count: 2 } }));
    server.on('POST', /^\/api\/v1\/namespaces\/busy\/events$/, () => ({ status: 429, body: status(429, 'TooManyRequests', 'slow down'), headers: { 'Retry-After': '1' } }));
    server.on('DELETE', /^\/api\/v1\/nodes\/n1$/, () => ({ body: { kind: 'Status', apiVersion: 'v1', status: 'Success' } }));
  });
  afterEach(async () => {
    await server.close();
  });

  const calls: Array<[string, Call, string | undefined]> = [
    ['update node', (api, options) => api.replaceNode({ name: 'n1', body: typedNode({ ...node, metadata: { ...node.metadata, resourceVersion: '7' } }) }, options), undefined],
    [
      'strategic merge patch of node status (Dates in the body)',
      (api, options) => api.patchNodeStatus({ name: 'n1', body: { status: { conditions: [{ type: 'Ready', lastTransitionTime: new Date('2026-02-03T04:05:06Z') }] } } }, options),
      PATCH_CONTENT_TYPES.strategic,
    ],
    ['patch of a missing node (404 Status)', (api, options) => api.patchNode({ name: 'gone', body: { metadata: { labels: { a: 'b' } } } }, options), PATCH_CONTENT_TYPES.merge],
    ['update conflict (409 Status)', (api, options) => api.replaceNode({ name: 'stale', body: typedNode(node) }, options), undefined],
    ['create event', (api, options) => api.createNamespacedEvent({ namespace: 'default', body: typedEvent(event) }, options), undefined],
    ['patch event', (api, options) => api.patchNamespacedEvent({ name: 'n1.1', namespace: 'default', body: { count: 2 } }, options), PATCH_CONTENT_TYPES.strategic],
    ['throttled event (429 with Retry-After)', (api, options) => api.createNamespacedEvent({ namespace: 'busy', body: typedEvent(event) }, options), undefined],
    ['delete node', (api, options) => api.deleteNode({ name: 'n1' }, options), undefined],
  ];

  it.each(calls)('%s: the server sees the same request and the caller gets the same result as with fetch', async (_, call, contentType) => {
    const withFetch = await outcome(call(core, executor.callOptions(contentType)));
    const withUndici = await outcome(call(core, { ...executor.callOptions(contentType), httpApi: undiciRequestLibrary }));
    expect(server.requests).toHaveLength(2);
    expect(requestAsSeen(server.requests[1])).toEqual(requestAsSeen(server.requests[0]));
    expect(withUndici).toEqual(withFetch);
  });

  it('a server that cannot be reached fails as fetch fails (fetch failed, the socket error as cause)', async () => {
    // A port that was free a moment ago: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise((resolve) => probe.close(resolve));
    const config = server.kubeConfig();
    config.clusters[0] = { ...config.clusters[0]!, server: `http://127.0.0.1:${port}` };
    const unreachable = config.makeApiClient(CoreV1Api);
    const call = (options: ConfigurationOptions) => outcome(unreachable.replaceNode({ name: 'n1', body: typedNode(node) }, options));
    const withFetch = await call(executor.callOptions());
    const withUndici = await call({ ...executor.callOptions(), httpApi: undiciRequestLibrary });
    expect((withFetch as { error: unknown[] }).error.slice(0, 2)).toEqual(['TypeError', 'fetch failed']);
    expect(withUndici).toEqual(withFetch);
  });

  it('the request executor sends writes through it and reads through fetch', () => {
    for (const method of ['PUT', 'PATCH', 'POST', 'DELETE'] as const) expect(executor.callOptions(undefined, method).httpApi, method).toBe(undiciRequestLibrary);
    expect(executor.callOptions(undefined, 'GET').httpApi).toBeUndefined();
  });
});
