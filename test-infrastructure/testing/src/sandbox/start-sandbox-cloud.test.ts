import { afterEach, describe, expect, it } from 'vitest';
import { SandboxCloudAdminClient } from './sandbox-cloud-admin-client.js';
import { SandboxCloudError } from './sandbox-cloud-error.js';
import { startSandboxCloud, type SandboxCloud } from './start-sandbox-cloud.js';

let cloud: SandboxCloud | undefined;
afterEach(async () => {
  await cloud?.close();
  cloud = undefined;
});

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; headers: Headers; body: any }> {
  const init: RequestInit = { method };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { 'content-type': 'application/json' };
  }
  const response = await fetch(`${cloud!.url}${path}`, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
}

describe('startSandboxCloud', () => {
  it('serves instances, load balancers and routes over HTTP', async () => {
    cloud = await startSandboxCloud();
    expect(cloud.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const node = await cloud.createInstance({ name: 'node-a' });

    expect((await call('GET', `/v1/instances/${node.id}`)).body).toMatchObject({ id: node.id, state: 'running' });
    expect((await call('GET', '/v1/instances/i-missing')).body).toEqual({ error: { code: 'NotFound', message: 'instance i-missing not found' } });
    expect((await call('GET', '/v1/instances?name=node-a')).body.instances).toHaveLength(1);
    const batch = await call('POST', '/v1/instances:batchGet', { ids: [node.id, 'i-x'], names: ['ghost'] });
    expect(batch.body).toMatchObject({ missingIds: ['i-x'], missingNames: ['ghost'] });
    expect(batch.body.instances.map((instance: { id: string }) => instance.id)).toEqual([node.id]);

    const created = await call('POST', '/v1/load-balancers', {
      name: 'lb-a',
      listeners: [{ protocol: 'TCP', port: 80, nodePort: 30080 }],
      backendInstanceIds: [],
      tags: { cluster: 'c1' },
    });
    expect(created.status).toBe(201);
    expect((await call('PUT', '/v1/load-balancers/lb-a/backends', { backendInstanceIds: [node.id] })).body.backendInstanceIds).toEqual([node.id]);
    expect((await call('PATCH', '/v1/load-balancers/lb-a', { sourceRanges: ['10.0.0.0/8'] })).body.generation).toBe(3);
    expect((await call('GET', '/v1/load-balancers?tag=cluster=c1')).body.loadBalancers).toHaveLength(1);
    expect((await call('GET', '/v1/load-balancers?tag=cluster=c2')).body.loadBalancers).toHaveLength(0);
    expect((await call('DELETE', '/v1/load-balancers/lb-a')).status).toBe(204);
    expect((await call('DELETE', '/v1/load-balancers/lb-a')).status).toBe(404);

    const route = await call('POST', '/v1/routes', { destinationCidr: '10.244.0.0/24', targetInstanceId: node.id, tags: { cluster: 'c1' } });
    expect(route.body).toMatchObject({ targetInstanceName: 'node-a', blackhole: false });
    expect((await call('POST', '/v1/routes', { destinationCidr: '10.244.0.0/24', targetInstanceId: node.id })).status).toBe(409);
    expect((await call('POST', '/v1/routes', { destinationCidr: '10.244.1.0/24', targetInstanceId: node.id, blackhole: true })).status).toBe(400);
    expect((await call('GET', '/v1/routes?tag=cluster=c1')).body.routes).toHaveLength(1);
    expect((await call('DELETE', `/v1/routes/${route.body.id}`)).status).toBe(204);

    expect((await call('GET', '/v1/nothing')).status).toBe(404);
    expect((await call('PUT', '/v1/routes')).status).toBe(400);
    const badJson = await fetch(`${cloud.url}/v1/routes`, { method: 'POST', body: '{', headers: { 'content-type': 'application/json' } });
    expect(badJson.status).toBe(400);

    const calls = await cloud.calls();
    expect(calls.operations['instances.get']).toMatchObject({ requests: 2, succeeded: 1, failed: 1 });
    expect(calls.operations['routes.create']).toMatchObject({ requests: 4, succeeded: 1, failed: 3 });
    expect(calls.operations['loadBalancers.setBackends'].succeeded).toBe(1);
  });

  it('answers 429 with Retry-After over the rate limit', async () => {
    cloud = await startSandboxCloud({ rateLimit: { qps: 0.5, burst: 2 } });
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    let body: unknown;
    for (let index = 0; index < 4; index++) {
      const response = await call('GET', '/v1/routes');
      statuses.push(response.status);
      if (response.status === 429) {
        retryAfter = response.headers.get('retry-after');
        body = response.body;
      }
    }
    expect(statuses).toEqual([200, 200, 429, 429]);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(body).toEqual({ error: { code: 'Throttling', message: expect.stringContaining('Rate exceeded') } });
    expect((await cloud.calls()).operations['routes.list']).toMatchObject({ requests: 4, throttled: 2, succeeded: 2 });
    // Admin calls are never throttled.
    await cloud.createInstance({ name: 'node-a' });
    await cloud.setRateLimit(undefined);
    expect((await call('GET', '/v1/routes')).status).toBe(200);
  });

  it('delays calls and fails the seeded share of them', async () => {
    cloud = await startSandboxCloud({ latencyMs: 30, errorRate: 1, seed: 3 });
    const started = performance.now();
    const response = await call('GET', '/v1/routes');
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
    expect(response.status).toBe(500);
    expect(response.body.error.code).toBe('InternalError');
    await cloud.setErrorRate(0);
    await cloud.setLatency(0);
    expect((await call('GET', '/v1/routes')).status).toBe(200);
    expect((await cloud.calls()).operations['routes.list']).toMatchObject({ requests: 2, injectedErrors: 1, succeeded: 1 });
  });
});

describe('SandboxCloudAdminClient', () => {
  it('drives the cloud over HTTP like the in-process admin', async () => {
    cloud = await startSandboxCloud({ state: { region: 'lab-1' } });
    const admin = new SandboxCloudAdminClient(`${cloud.url}/`);
    const node = await admin.createInstance({ name: 'node-a', zone: 'lab-1z', instanceType: 'big' });
    expect(node).toMatchObject({ zone: 'lab-1z', region: 'lab-1', instanceType: 'big' });
    expect((await admin.stopInstance(node.id)).state).toBe('stopped');
    expect((await admin.startInstance(node.id)).state).toBe('running');
    expect((await admin.updateInstance(node.id, { addresses: [{ type: 'InternalIP', address: '10.1.1.1' }] })).addresses).toHaveLength(1);
    expect(await admin.listInstances()).toHaveLength(1);

    const foreign = await admin.createLoadBalancer({ name: 'foreign', listeners: [{ protocol: 'UDP', port: 53, nodePort: 30053 }], backendInstanceIds: [node.id] });
    expect(foreign.ingress.ip).toMatch(/^203\.0\.113\./);
    expect(await admin.listLoadBalancers()).toHaveLength(1);
    const blackhole = await admin.createRoute({ destinationCidr: '10.9.0.0/16', targetInstanceId: 'i-gone', blackhole: true });
    expect(blackhole.blackhole).toBe(true);
    expect((await admin.snapshot()).routes).toHaveLength(1);
    await admin.deleteRoute(blackhole.id);
    await admin.deleteLoadBalancer('foreign');

    await admin.setLatency(5);
    await admin.setRateLimit({ qps: 10, burst: 20 });
    await admin.setErrorRate(0.25, 9);
    expect(await admin.settings()).toEqual({ latencyMs: 5, rateLimit: { qps: 10, burst: 20 }, errorRate: 0.25 });
    await admin.setErrorRate(0);
    await admin.injectErrors({ operation: 'instances.get', count: 1, code: 'InternalError' });
    expect((await call('GET', `/v1/instances/${node.id}`)).status).toBe(500);
    expect((await call('GET', `/v1/instances/${node.id}`)).status).toBe(200);
    await admin.injectErrors({ operation: 'instances.get', count: 5 });
    await admin.clearInjectedErrors();
    expect((await call('GET', `/v1/instances/${node.id}`)).status).toBe(200);
    expect((await admin.calls()).operations['instances.get']).toMatchObject({ requests: 3, injectedErrors: 1, succeeded: 2 });
    await admin.resetCalls();
    expect((await admin.calls()).total.requests).toBe(0);

    await expect(admin.getInstance('i-nope')).rejects.toMatchObject({ code: 'NotFound' });
    await expect(admin.injectErrors({ operation: 'nope' as never })).rejects.toBeInstanceOf(SandboxCloudError);
    await admin.deleteInstance(node.id);
    expect((await admin.getInstance(node.id)).state).toBe('terminated');
    await admin.deleteInstance(node.id, { purge: true });
    await expect(admin.getInstance(node.id)).rejects.toMatchObject({ code: 'NotFound' });
    await admin.createInstance({ name: 'node-b' });
    await admin.reset();
    expect(await admin.snapshot()).toEqual({ instances: [], loadBalancers: [], routes: [] });
  });
});
