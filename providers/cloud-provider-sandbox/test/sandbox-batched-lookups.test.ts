import { createMetricsRegistry } from '@ccm/core/app';
import { silentLogger } from '@ccm/core/logging';
import { makeNode, makeService } from '@ccm/testing';
import { describeInstancesV2Contract, describeLoadBalancerContract, describeRoutesContract } from '@ccm/testing/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { sandboxCloudProviderFactory } from '../src/sandbox-cloud.js';
import { startSandboxFixture, type SandboxFixture } from './helpers.js';

// The shared contracts again, with every instance lookup going through the coalescer.
describeInstancesV2Contract('sandbox (batched lookups)', () => startSandboxFixture({ config: { lookupPolicy: 'batched' } }));
describeLoadBalancerContract('sandbox (batched lookups)', () => startSandboxFixture({ config: { lookupPolicy: 'batched' } }));
describeRoutesContract('sandbox (batched lookups)', () => startSandboxFixture({ config: { lookupPolicy: 'batched' } }));

let fixture: SandboxFixture | undefined;
afterEach(async () => {
  await fixture?.cleanup?.();
  fixture = undefined;
});

async function start(options: Parameters<typeof startSandboxFixture>[0]): Promise<SandboxFixture> {
  fixture = await startSandboxFixture(options);
  return fixture;
}

describe('lookup-policy = batched', () => {
  it('answers concurrent per-node lookups with one batch call, each node its own instance', async () => {
    const current = await start({ config: { lookupPolicy: 'batched' } });
    const instances = [];
    for (let index = 0; index < 40; index++) instances.push(await current.sandbox.createInstance({ name: `node-${index}` }));
    await current.sandbox.resetCalls();
    const instancesV2 = current.provider.instancesV2?.()!;
    // Half by provider ID, half by name, and one node asked twice at once.
    const nodes = instances.map((instance, index) => (index % 2 === 0 ? makeNode(instance.name, { providerId: `sandbox://${instance.id}` }) : makeNode(instance.name)));
    const results = await Promise.all([...nodes.map((node) => instancesV2.instanceMetadata(node)), instancesV2.instanceMetadata(nodes[0]!)]);
    expect(results.map((metadata) => metadata?.providerId)).toEqual([...instances.map((instance) => `sandbox://${instance.id}`), `sandbox://${instances[0]!.id}`]);
    const calls = await current.sandbox.calls();
    expect(calls.operations['instances.batchGet'].requests).toBe(1);
    expect(calls.total.requests).toBe(1);
  });

  it('shares the instance lookups of concurrent load balancer updates', async () => {
    const current = await start({ config: { lookupPolicy: 'batched' } });
    const a = await current.sandbox.createInstance({ name: 'node-a' });
    const b = await current.sandbox.createInstance({ name: 'node-b' });
    const nodes = [makeNode('node-a', { providerId: `sandbox://${a.id}` }), makeNode('node-b', { providerId: `sandbox://${b.id}` })];
    const loadBalancer = current.provider.loadBalancer?.()!;
    const services = Array.from({ length: 10 }, (_, index) => makeService(`web-${index}`));
    await Promise.all(services.map((service) => loadBalancer.ensureLoadBalancer('kubernetes', service, nodes)));
    await current.sandbox.resetCalls();
    const c = await current.sandbox.createInstance({ name: 'node-c' });
    const more = [...nodes, makeNode('node-c', { providerId: `sandbox://${c.id}` })];
    await Promise.all(services.map((service) => loadBalancer.updateLoadBalancer('kubernetes', service, more)));
    const calls = await current.sandbox.calls();
    expect(calls.operations['instances.batchGet'].requests).toBe(1);
    expect(calls.operations['loadBalancers.setBackends'].requests).toBe(10);
    for (const balancer of await current.sandbox.listLoadBalancers()) expect(balancer.backendInstanceIds).toEqual([a.id, b.id, c.id].sort());
  });

  it('falls back to one lookup per node when the batch call keeps failing', async () => {
    const current = await start({ config: { lookupPolicy: 'batched', retries: 0 } });
    const a = await current.sandbox.createInstance({ name: 'node-a' });
    await current.sandbox.createInstance({ name: 'node-b' });
    await current.sandbox.injectErrors({ operation: 'instances.batchGet', count: 1, code: 'InternalError' });
    const instancesV2 = current.provider.instancesV2?.()!;
    const [byId, byName] = await Promise.all([
      instancesV2.instanceMetadata(makeNode('node-a', { providerId: `sandbox://${a.id}` })),
      instancesV2.instanceExists(makeNode('node-b')),
    ]);
    expect(byId?.providerId).toBe(`sandbox://${a.id}`);
    expect(byName).toBe(true);
    const calls = await current.sandbox.calls();
    expect(calls.operations['instances.batchGet'].requests).toBe(1);
    expect(calls.operations['instances.get'].requests).toBe(1);
    expect(calls.operations['instances.list'].requests).toBe(1);
  });

  it('does not turn a throttled batch into single lookups', async () => {
    const current = await start({ config: { lookupPolicy: 'batched', retries: 0 } });
    await current.sandbox.createInstance({ name: 'node-a' });
    await current.sandbox.injectErrors({ operation: 'instances.batchGet', count: 1, code: 'Throttling' });
    const error = await current.provider.instancesV2?.()!.instanceExists(makeNode('node-a')).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'BatchFailed', cause: { kind: 'Throttled' } });
    expect((await current.sandbox.calls()).total.requests).toBe(1);
  });
});

describe('lookup-policy = single', () => {
  it('makes one call per lookup', async () => {
    const current = await start({ config: { lookupPolicy: 'single' } });
    const instances = [];
    for (let index = 0; index < 5; index++) instances.push(await current.sandbox.createInstance({ name: `node-${index}` }));
    await current.sandbox.resetCalls();
    await Promise.all(instances.map((instance) => current.provider.instancesV2?.()!.instanceExists(makeNode(instance.name, { providerId: `sandbox://${instance.id}` }))));
    expect((await current.sandbox.calls()).operations['instances.get'].requests).toBe(5);
  });
});

describe('the cloud API budget (cloud-config api-qps, api-burst)', () => {
  it('spends every call from one budget, retries throttled calls after Retry-After, and publishes its metrics', async () => {
    const current = await start({});
    const metrics = createMetricsRegistry();
    const provider = await sandboxCloudProviderFactory(`[Global]\nurl = ${current.sandbox.url}\ncluster-id = c1\napi-qps = 50\napi-burst = 5\nretries = 2\n`, {
      logger: silentLogger,
      metrics,
      configPath: '/etc/cloud.conf',
    });
    const instance = await current.sandbox.createInstance({ name: 'node-a' });
    await current.sandbox.injectErrors({ operation: 'instances.batchGet', count: 1, code: 'Throttling' });
    const started = performance.now();
    expect(await provider.instancesV2?.()!.instanceExists(makeNode('node-a', { providerId: `sandbox://${instance.id}` }))).toBe(true);
    // The sandbox asks for Retry-After: 1 s; the budget waits at least that long, once.
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
    expect((await current.sandbox.calls()).operations['instances.batchGet']).toMatchObject({ requests: 2, throttled: 0, injectedErrors: 1, succeeded: 1 });
    const text = await metrics.metrics();
    expect(text).toContain('cloudprovider_api_requests_total{provider="sandbox",operation="batchGetInstances"} 2');
    expect(text).toContain('cloudprovider_api_throttled_total{provider="sandbox",operation="batchGetInstances"} 1');
    // Halved from 50 by the throttle; recovering (2.5/s) only since the Retry-After pause ended.
    const rate = Number(/cloudprovider_api_current_rate\{provider="sandbox"\} ([\d.]+)/.exec(text)?.[1]);
    expect(rate).toBeGreaterThanOrEqual(25);
    expect(rate).toBeLessThan(26);
    expect(text).toContain('cloudprovider_api_request_duration_seconds_count{provider="sandbox",request="batchGetInstances"} 2');
    expect(text).toContain('cloudprovider_coalescer_batches_total{provider="sandbox",coalescer="batchGetInstances"} 1');
  });

  it('rejects a non-positive budget with the file and line', () => {
    expect(() => sandboxCloudProviderFactory('[Global]\nurl = http://127.0.0.1:1\napi-qps = 0\n', { logger: silentLogger, metrics: createMetricsRegistry(), configPath: '/etc/cloud.conf' })).toThrow(
      '/etc/cloud.conf:3: section [Global], key "api-qps": must be a positive number of requests per second',
    );
  });
});
