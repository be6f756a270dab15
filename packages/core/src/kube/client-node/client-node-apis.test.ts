import { CoreV1Api } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger.js';
import { KubeApiError } from '../kube-api-error.js';
import { TokenBucket } from '../token-bucket.js';
import { FakeApiServer, status } from './test-support/fake-api-server.js';
import { createClientNodeNodeApi } from './client-node-node-api.js';
import { createClientNodeServiceApi } from './client-node-service-api.js';
import { RequestExecutor, retryAfterSeconds } from './request-executor.js';

const nodeBody = (name: string, resourceVersion = '7') => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, resourceVersion, creationTimestamp: '2026-01-01T00:00:00Z' },
  spec: { providerID: 'sandbox://i-1' },
});

const rejection = async (promise: Promise<unknown>): Promise<KubeApiError> => {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(KubeApiError);
    return error as KubeApiError;
  }
  throw new Error('expected a rejection');
};

describe('client-node NodeApi and ServiceApi adapters', () => {
  let server: FakeApiServer;
  let sleeps: number[];
  let executor: RequestExecutor;
  let core: CoreV1Api;

  beforeEach(async () => {
    server = new FakeApiServer();
    await server.start();
    sleeps = [];
    executor = new RequestExecutor({
      userAgent: 'cloud-controller-manager/v0.1.0',
      logger: silentLogger,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    core = server.kubeConfig().makeApiClient(CoreV1Api);
  });
  afterEach(async () => {
    await server.close();
  });

  it('get returns the typed node (Dates parsed) and sends our User-Agent and credentials', async () => {
    server.on('GET', /^\/api\/v1\/nodes\/n1$/, () => ({ body: nodeBody('n1') }));
    const node = await createClientNodeNodeApi(core, executor).get('n1');
    expect(node.metadata?.name).toBe('n1');
    expect(node.metadata?.creationTimestamp).toEqual(new Date('2026-01-01T00:00:00Z'));
    const [request] = server.requests;
    expect(request?.headers['user-agent']).toBe('cloud-controller-manager/v0.1.0');
    expect(request?.headers.authorization).toBe('Bearer fake-token');
  });

  it.each([
    ['merge', 'application/merge-patch+json'],
    ['strategic', 'application/strategic-merge-patch+json'],
    ['json', 'application/json-patch+json'],
  ] as const)('patch type %s is sent as %s, on the main resource and the status subresource', async (type, contentType) => {
    server.on('PATCH', /^\/api\/v1\/nodes\/n1(\/status)?$/, () => ({ body: nodeBody('n1') }));
    const nodes = createClientNodeNodeApi(core, executor);
    const body = type === 'json' ? [{ op: 'add', path: '/metadata/labels', value: { a: 'b' } }] : { metadata: { labels: { a: 'b' } } };
    await nodes.patch('n1', body, type);
    await nodes.patchStatus('n1', body, type);
    const [main, statusRequest] = server.requestsTo('PATCH', /nodes/);
    expect(main?.path).toBe('/api/v1/nodes/n1');
    expect(statusRequest?.path).toBe('/api/v1/nodes/n1/status');
    for (const request of [main, statusRequest]) {
      expect(request?.headers['content-type']).toBe(contentType);
      expect(JSON.parse(request?.body ?? '')).toEqual(body);
    }
  });

  it('patch bodies with Dates are sent as RFC 3339 strings', async () => {
    server.on('PATCH', /^\/api\/v1\/nodes\/n1\/status$/, () => ({ body: nodeBody('n1') }));
    const at = new Date('2026-02-03T04:05:06.000Z');
    await createClientNodeNodeApi(core, executor).patchStatus('n1', { status: { conditions: [{ type: 'NetworkUnavailable', lastTransitionTime: at }] } }, 'strategic');
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual({ status: { conditions: [{ type: 'NetworkUnavailable', lastTransitionTime: '2026-02-03T04:05:06.000Z' }] } });
  });

  it('update PUTs the whole node and delete DELETEs it', async () => {
    server.on('PUT', /^\/api\/v1\/nodes\/n1$/, (request) => ({ body: { ...JSON.parse(request.body), metadata: { name: 'n1', resourceVersion: '8' } } }));
    server.on('DELETE', /^\/api\/v1\/nodes\/n1$/, () => ({ body: { kind: 'Status', apiVersion: 'v1', status: 'Success' } }));
    const nodes = createClientNodeNodeApi(core, executor);
    const updated = await nodes.update({ metadata: { name: 'n1', resourceVersion: '7' }, spec: { unschedulable: true } });
    expect(updated.metadata?.resourceVersion).toBe('8');
    expect(JSON.parse(server.requests[0]?.body ?? '')).toMatchObject({ metadata: { name: 'n1', resourceVersion: '7' }, spec: { unschedulable: true } });
    await nodes.delete('n1');
    expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['PUT /api/v1/nodes/n1', 'DELETE /api/v1/nodes/n1']);
  });

  it('service calls use the namespaced paths and the status subresource', async () => {
    server.on('GET', /^\/api\/v1\/namespaces\/ns\/services\/s1$/, () => ({ body: { kind: 'Service', metadata: { namespace: 'ns', name: 's1' } } }));
    server.on('PUT', /^\/api\/v1\/namespaces\/ns\/services\/s1$/, (request) => ({ body: JSON.parse(request.body) }));
    server.on('PATCH', /^\/api\/v1\/namespaces\/ns\/services\/s1(\/status)?$/, () => ({ body: { kind: 'Service', metadata: { namespace: 'ns', name: 's1' } } }));
    const services = createClientNodeServiceApi(core, executor);
    expect((await services.get('ns', 's1')).metadata?.name).toBe('s1');
    await services.update({ metadata: { namespace: 'ns', name: 's1' }, spec: { type: 'LoadBalancer' } });
    await services.patch('ns', 's1', { metadata: { finalizers: ['service.kubernetes.io/load-balancer-cleanup'] } }, 'strategic');
    await services.patchStatus('ns', 's1', { status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } } }, 'merge');
    expect(server.requests.map((request) => `${request.method} ${request.path} ${request.headers['content-type'] ?? ''}`)).toEqual([
      'GET /api/v1/namespaces/ns/services/s1 ',
      'PUT /api/v1/namespaces/ns/services/s1 application/json',
      'PATCH /api/v1/namespaces/ns/services/s1 application/strategic-merge-patch+json',
      'PATCH /api/v1/namespaces/ns/services/s1/status application/merge-patch+json',
    ]);
  });

  it('translates Status answers into KubeApiError with reason and message', async () => {
    server.on('GET', /^\/api\/v1\/nodes\/missing$/, () => ({ status: 404, body: status(404, 'NotFound', 'nodes "missing" not found') }));
    server.on('PUT', /^\/api\/v1\/nodes\/n1$/, () => ({
      status: 409,
      body: status(409, 'Conflict', 'Operation cannot be fulfilled on nodes "n1": the object has been modified'),
    }));
    server.on('PATCH', /^\/api\/v1\/nodes\/n1$/, () => ({ status: 500, body: 'upstream connect error' }));
    const nodes = createClientNodeNodeApi(core, executor);
    const notFound = await rejection(nodes.get('missing'));
    expect({ code: notFound.statusCode, reason: notFound.reason, message: notFound.message, isNotFound: notFound.isNotFound }).toEqual({
      code: 404,
      reason: 'NotFound',
      message: 'nodes "missing" not found',
      isNotFound: true,
    });
    const conflict = await rejection(nodes.update({ metadata: { name: 'n1', resourceVersion: '1' } }));
    expect(conflict.isConflict).toBe(true);
    expect(conflict.message).toMatch(/the object has been modified/);
    const internal = await rejection(nodes.patch('n1', {}, 'merge'));
    expect({ code: internal.statusCode, reason: internal.reason, retryable: internal.isRetryable }).toEqual({ code: 500, reason: 'InternalError', retryable: true });
    expect(internal.message).toMatch(/patch node n1: the server responded with 500/);
  });

  it('transport errors become statusCode 0', async () => {
    const url = server.url;
    await server.close();
    const unreachable = new FakeApiServer();
    const config = unreachable.kubeConfig();
    config.clusters[0] = { ...config.clusters[0]!, server: url };
    const error = await rejection(createClientNodeNodeApi(config.makeApiClient(CoreV1Api), executor).get('n1'));
    expect(error.statusCode).toBe(0);
    expect(error.isRetryable).toBe(true);
    expect(error.message).toMatch(/^get node n1: /);
    server = new FakeApiServer();
    await server.start();
  });

  it('retries 429 answers carrying Retry-After, then succeeds', async () => {
    let calls = 0;
    server.on('GET', /^\/api\/v1\/nodes\/n1$/, () => {
      calls += 1;
      return calls <= 2 ? { status: 429, headers: { 'Retry-After': '3' }, body: status(429, 'TooManyRequests', 'slow down') } : { body: nodeBody('n1') };
    });
    const node = await createClientNodeNodeApi(core, executor).get('n1');
    expect(node.metadata?.name).toBe('n1');
    expect(sleeps).toEqual([3000, 3000]);
  });

  it('gives up after maxRetries, and does not retry without Retry-After', async () => {
    server.on('GET', /^\/api\/v1\/nodes\/n1$/, () => ({ status: 429, headers: { 'Retry-After': '100' }, body: status(429, 'TooManyRequests', 'slow down') }));
    server.on('GET', /^\/api\/v1\/nodes\/n2$/, () => ({ status: 429, body: status(429, 'TooManyRequests', 'slow down') }));
    const bounded = new RequestExecutor({ userAgent: 'ua', logger: silentLogger, maxRetries: 2, maxRetryAfterMs: 5000, sleep: async (ms) => void sleeps.push(ms) });
    const nodes = createClientNodeNodeApi(core, bounded);
    const error = await rejection(nodes.get('n1'));
    expect(error.statusCode).toBe(429);
    expect(sleeps).toEqual([5000, 5000]);
    expect(server.requestsTo('GET', /n1$/)).toHaveLength(3);
    await rejection(nodes.get('n2'));
    expect(server.requestsTo('GET', /n2$/)).toHaveLength(1);
  });

  it('waits for the shared token bucket instead of failing', async () => {
    server.on('GET', /^\/api\/v1\/nodes\/n\d$/, (request) => ({ body: nodeBody(request.path.split('/').pop() ?? '') }));
    const limited = new RequestExecutor({ userAgent: 'ua', logger: silentLogger, bucket: new TokenBucket({ qps: 20, burst: 2 }) });
    const nodes = createClientNodeNodeApi(core, limited);
    const services = createClientNodeServiceApi(core, limited);
    server.on('GET', /^\/api\/v1\/namespaces\/ns\/services\/s1$/, () => ({ body: { metadata: { name: 's1' } } }));
    const started = Date.now();
    await Promise.all([nodes.get('n1'), nodes.get('n2'), services.get('ns', 's1'), nodes.get('n3')]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
    expect(server.requests).toHaveLength(4);
  });
});

describe('retryAfterSeconds', () => {
  it.each([
    [{ 'retry-after': '5' }, 5],
    [{ 'Retry-After': ' 0 ' }, 0],
    [{ 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' }, undefined],
    [{ 'retry-after': '-1' }, undefined],
    [{}, undefined],
    [undefined, undefined],
  ])('%j -> %s', (headers, expected) => {
    expect(retryAfterSeconds(headers)).toBe(expected);
  });
});
