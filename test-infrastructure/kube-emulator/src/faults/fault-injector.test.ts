import { afterEach, describe, expect, it } from 'vitest';
import { startKubeEmulator, type KubeEmulator } from '../kube-emulator.js';
import { request, WatchReader } from '../test-support/http-client.js';

let emulator: KubeEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

describe('fault injection', () => {
  it('fails the next N matching requests with 500, then recovers', async () => {
    emulator = await startKubeEmulator();
    emulator.faults.failNext(2, { method: 'GET', path: /\/api\/v1\/nodes/ });
    expect((await request(emulator.url, 'GET', '/api/v1/namespaces')).status).toBe(200);
    const failed = await request(emulator.url, 'GET', '/api/v1/nodes');
    expect(failed).toMatchObject({ status: 500, body: { kind: 'Status', reason: 'InternalError', code: 500, message: 'Internal error occurred: injected fault' } });
    expect((await request(emulator.url, 'POST', '/api/v1/nodes', { metadata: { name: 'n' } })).status).toBe(201);
    expect((await request(emulator.url, 'GET', '/api/v1/nodes/n')).status).toBe(500);
    expect((await request(emulator.url, 'GET', '/api/v1/nodes/n')).status).toBe(200);
  });

  it('answers 429 with Retry-After', async () => {
    emulator = await startKubeEmulator();
    emulator.faults.failNext(1, { status: 429, retryAfterSeconds: 3 });
    const throttled = await request(emulator.url, 'GET', '/api/v1/nodes');
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toBe('3');
    expect(throttled.body).toMatchObject({ reason: 'TooManyRequests', details: { retryAfterSeconds: 3 } });
  });

  it('adds latency to matching requests', async () => {
    emulator = await startKubeEmulator();
    emulator.faults.addLatency(150, { path: 'nodes' });
    let started = Date.now();
    await request(emulator.url, 'GET', '/api/v1/nodes');
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    started = Date.now();
    await request(emulator.url, 'GET', '/api/v1/namespaces');
    expect(Date.now() - started).toBeLessThan(140);
    emulator.faults.reset();
    started = Date.now();
    await request(emulator.url, 'GET', '/api/v1/nodes');
    expect(Date.now() - started).toBeLessThan(140);
  });

  it('drops open watches and forces 410 after compacting the history', async () => {
    emulator = await startKubeEmulator();
    const version = emulator.resourceVersion();
    const reader = await WatchReader.open(emulator.url, `/api/v1/nodes?watch=true&resourceVersion=${version}`);
    await expect.poll(() => emulator?.openWatchCount()).toBe(1);
    expect(emulator.faults.dropWatches()).toBe(1);
    expect(await reader.ended()).toBe(true);
    emulator.create('nodes', { metadata: { name: 'n' } });
    emulator.faults.compactHistory();
    const resumed = await WatchReader.open(emulator.url, `/api/v1/nodes?watch=true&resourceVersion=${version}`);
    expect(await resumed.next()).toMatchObject({ type: 'ERROR', object: { code: 410 } });
  });

  it('is steerable over HTTP and counts requests by verb and resource', async () => {
    emulator = await startKubeEmulator();
    const url = emulator.url;
    expect((await request(url, 'POST', '/__emulator/faults/fail', { count: 1, status: 503, method: 'PATCH' })).status).toBe(200);
    expect((await request(url, 'GET', '/__emulator/faults')).body).toMatchObject({ failures: [{ remaining: 1, status: 503, method: 'PATCH' }] });
    await request(url, 'POST', '/api/v1/nodes', { metadata: { name: 'n' } });
    const unavailable = await request(url, 'PATCH', '/api/v1/nodes/n/status', { status: {} }, { 'Content-Type': 'application/merge-patch+json' });
    expect(unavailable.status).toBe(503);
    await request(url, 'PATCH', '/api/v1/nodes/n/status', { status: {} }, { 'Content-Type': 'application/merge-patch+json' });
    await request(url, 'GET', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases');
    await request(url, 'GET', '/api');
    const counts = (await request(url, 'GET', '/__emulator/request-counts')).body;
    expect(counts).toEqual({
      total: 5,
      writes: 3,
      byVerb: { create: 1, patch: 2, list: 1 },
      byResource: { nodes: { create: 1 }, 'nodes/status': { patch: 2 }, 'leases.coordination.k8s.io': { list: 1 } },
      nonResource: 1,
    });
    expect(emulator.requestCounts()).toEqual(counts);
    expect((await request(url, 'POST', '/__emulator/faults/latency', { milliseconds: -1 })).status).toBe(400);
    expect((await request(url, 'POST', '/__emulator/faults/drop-watches', {})).body).toEqual({ dropped: 0 });
    expect((await request(url, 'POST', '/__emulator/faults/expired-watch-response', { mode: 'http-status' })).body).toMatchObject({ expiredWatchResponse: 'http-status' });
    expect((await request(url, 'POST', '/__emulator/faults/compact-history')).body).toEqual({ resourceVersion: emulator.resourceVersion() });
    expect((await request(url, 'DELETE', '/__emulator/faults')).body).toMatchObject({ failures: [], latencies: [], expiredWatchResponse: 'error-event' });
    await request(url, 'POST', '/__emulator/request-counts/reset');
    expect(emulator.requestCounts().total).toBe(0);
  });
});
