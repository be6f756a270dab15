import { createMetricsRegistry } from '@ccm/core/app';
import { CloudConfigError } from '@ccm/core/config';
import { silentLogger } from '@ccm/core/logging';
import { CloudProviderRegistry, isInstanceNotFound, type LoadBalancer, type Routes } from '@ccm/core/provider';
import { makeNode, makeService } from '@ccm/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { LoadBalancerNotOwnedError } from '../src/operations/load-balancer-operations.js';
import { LoadBalancerSpecError } from '../src/operations/plan-load-balancer.js';
import { RouteConflictError, RouteTargetMissingError } from '../src/operations/route-operations.js';
import { SandboxApiError } from '../src/ports/sandbox-api-error.js';
import { registerSandboxCloudProvider, sandboxCloudProviderFactory } from '../src/sandbox-cloud.js';
import { SandboxProviderIdError } from '../src/provider-id.js';
import { SANDBOX_TAGS } from '../src/tags.js';
import { startSandboxFixture, type SandboxFixture } from './helpers.js';

let fixture: SandboxFixture | undefined;
afterEach(async () => {
  await fixture?.cleanup?.();
  fixture = undefined;
});

async function start(options: Parameters<typeof startSandboxFixture>[0] = {}): Promise<SandboxFixture> {
  fixture = await startSandboxFixture(options);
  return fixture;
}

const loadBalancerOf = (current: SandboxFixture): LoadBalancer => current.provider.loadBalancer?.()!;
const routesOf = (current: SandboxFixture): Routes => current.provider.routes?.()!;
const factoryContext = { logger: silentLogger, metrics: createMetricsRegistry(), configPath: '/etc/cloud.conf' };

describe('sandbox provider factory', () => {
  it('needs a cloud config and reports problems with the file name', async () => {
    expect(() => sandboxCloudProviderFactory(undefined, factoryContext)).toThrow(CloudConfigError);
    expect(() => sandboxCloudProviderFactory('[Global]\n', factoryContext)).toThrow('/etc/cloud.conf:1: required key "url" in section [Global] is not set');
  });

  it('builds the provider from the config: cluster id and capability switches', async () => {
    const tagged = await sandboxCloudProviderFactory('[Global]\nurl = http://127.0.0.1:1\ncluster-id = c1\n', factoryContext);
    expect(tagged.providerName).toBe('sandbox');
    expect(tagged.hasClusterId()).toBe(true);
    expect(tagged.instancesV2?.()).toBeDefined();
    expect(tagged.loadBalancer?.()).toBeDefined();
    expect(tagged.routes?.()).toBeDefined();
    // Deprecated capabilities are left out (optional), not stubbed.
    expect([tagged.instances?.(), tagged.zones?.(), tagged.clusters?.()]).toEqual([undefined, undefined, undefined]);
    const untagged = await sandboxCloudProviderFactory('[Global]\nurl = http://127.0.0.1:1\n[LoadBalancer]\nenabled = false\n[Routes]\nenabled = false\n', factoryContext);
    expect(untagged.hasClusterId()).toBe(false);
    expect(untagged.loadBalancer?.()).toBeUndefined();
    expect(untagged.routes?.()).toBeUndefined();
  });

  it('observes every cloud API attempt in the core cloud API metrics', async () => {
    const current = await start();
    const metrics = createMetricsRegistry();
    const provider = await sandboxCloudProviderFactory(`[Global]\nurl = ${current.sandbox.url}\ncluster-id = c1\nretries = 1\n`, { ...factoryContext, metrics });
    await current.sandbox.injectErrors({ operation: 'routes.list', count: 1, code: 'InternalError' });
    expect(await provider.routes?.()!.listRoutes('kubernetes')).toEqual([]);
    const text = await metrics.metrics();
    expect(text).toMatch(/cloudprovider_api_request_duration_seconds_count\{provider="sandbox",request="listRoutes"\} 2/);
    expect(text).toMatch(/cloudprovider_api_request_errors_total\{provider="sandbox",request="listRoutes",code="InternalError"\} 1/);
  });

  it('registers as "sandbox" once', async () => {
    const registry = new CloudProviderRegistry();
    registerSandboxCloudProvider(registry);
    registerSandboxCloudProvider(registry);
    expect(registry.names()).toEqual(['sandbox']);
    const provider = await registry.create('sandbox', '[Global]\nurl = http://127.0.0.1:1\n', factoryContext);
    expect(provider?.providerName).toBe('sandbox');
  });
});

describe('sandbox instances', () => {
  it('prefers the live instance when a terminated one has the same name', async () => {
    const current = await start();
    const old = await current.sandbox.createInstance({ name: 'node-a' });
    await current.sandbox.deleteInstance(old.id);
    const replacement = await current.sandbox.createInstance({ name: 'node-a' });
    const metadata = await current.provider.instancesV2?.()!.instanceMetadata(makeNode('node-a', { uninitialized: true }));
    expect(metadata?.providerId).toBe(`sandbox://${replacement.id}`);
  });

  it('throws InstanceNotFound for metadata of a terminated or unknown instance', async () => {
    const current = await start();
    const instance = await current.sandbox.createInstance({ name: 'node-a' });
    await current.sandbox.deleteInstance(instance.id, { purge: true });
    await expect(current.provider.instancesV2?.()!.instanceMetadata(makeNode('node-a', { providerId: `sandbox://${instance.id}` }))).rejects.toSatisfy(isInstanceNotFound);
    await expect(current.provider.instancesV2?.()!.instanceMetadata(makeNode('ghost'))).rejects.toSatisfy(isInstanceNotFound);
    expect(await current.provider.instancesV2?.()!.instanceExists(makeNode('ghost'))).toBe(false);
  });

  it('rejects provider IDs of other clouds instead of guessing', async () => {
    const current = await start();
    await expect(current.provider.instancesV2?.()!.instanceExists(makeNode('n', { providerId: 'aws:///us-east-1a/i-1' }))).rejects.toBeInstanceOf(SandboxProviderIdError);
  });

  it('ignores instances outside the configured region', async () => {
    const current = await start({ config: { region: 'sandbox-1' } });
    const inside = await current.sandbox.createInstance({ name: 'inside' });
    const outside = await current.sandbox.createInstance({ name: 'outside', region: 'elsewhere-1' });
    const instances = current.provider.instancesV2?.()!;
    expect(await instances.instanceExists(makeNode('inside', { providerId: `sandbox://${inside.id}` }))).toBe(true);
    expect(await instances.instanceExists(makeNode('outside', { providerId: `sandbox://${outside.id}` }))).toBe(false);
    expect(await instances.instanceExists(makeNode('outside'))).toBe(false);
  });

  it('does one lookup per node call: by id with a providerID, by name without', async () => {
    const current = await start();
    const instance = await current.sandbox.createInstance({ name: 'node-a' });
    await current.provider.instancesV2?.()!.instanceMetadata(makeNode('node-a', { providerId: `sandbox://${instance.id}` }));
    await current.provider.instancesV2?.()!.instanceMetadata(makeNode('node-a'));
    const calls = await current.sandbox.calls();
    expect(calls.operations['instances.get'].requests).toBe(1);
    expect(calls.operations['instances.list'].requests).toBe(1);
    expect(calls.total.requests).toBe(2);
  });
});

describe('sandbox load balancers', () => {
  it('resolves all backends in one batched lookup and leaves out nodes without a live instance', async () => {
    const current = await start();
    const a = await current.sandbox.createInstance({ name: 'node-a' });
    const b = await current.sandbox.createInstance({ name: 'node-b' });
    const gone = await current.sandbox.createInstance({ name: 'node-c' });
    await current.sandbox.deleteInstance(gone.id);
    const nodes = [makeNode('node-a', { providerId: `sandbox://${a.id}` }), makeNode('node-b'), makeNode('node-c', { providerId: `sandbox://${gone.id}` }), makeNode('node-d')];
    const service = makeService('web');
    const status = await loadBalancerOf(current).ensureLoadBalancer('kubernetes', service, nodes);
    expect(status).toEqual({ ingress: [{ ip: '203.0.113.2' }] });
    const [loadBalancer] = await current.sandbox.listLoadBalancers();
    expect(loadBalancer?.backendInstanceIds).toEqual([a.id, b.id].sort());
    expect(loadBalancer?.tags).toEqual({
      [SANDBOX_TAGS.cluster]: 'contract-cluster',
      [SANDBOX_TAGS.service]: 'default/web',
      [SANDBOX_TAGS.serviceUid]: service.metadata!.uid!,
    });
    const calls = await current.sandbox.calls();
    expect(calls.operations['instances.batchGet'].requests).toBe(1);
    expect(calls.operations['instances.get'].requests).toBe(0);
    expect(calls.operations['loadBalancers.create'].requests).toBe(1);
  });

  it('makes no change call when nothing changed, and only a backends call for an update', async () => {
    const current = await start();
    const a = await current.sandbox.createInstance({ name: 'node-a' });
    const b = await current.sandbox.createInstance({ name: 'node-b' });
    const nodeA = makeNode('node-a', { providerId: `sandbox://${a.id}` });
    const nodeB = makeNode('node-b', { providerId: `sandbox://${b.id}` });
    const service = makeService('web');
    await loadBalancerOf(current).ensureLoadBalancer('kubernetes', service, [nodeA]);
    await current.sandbox.resetCalls();
    await loadBalancerOf(current).ensureLoadBalancer('kubernetes', service, [nodeA]);
    await loadBalancerOf(current).updateLoadBalancer('kubernetes', service, [nodeA]);
    await loadBalancerOf(current).updateLoadBalancer('kubernetes', service, [nodeA, nodeB]);
    const calls = await current.sandbox.calls();
    expect(calls.operations['loadBalancers.update'].requests).toBe(0);
    expect(calls.operations['loadBalancers.setBackends'].requests).toBe(1);
    expect(calls.operations['loadBalancers.create'].requests).toBe(0);
  });

  it('reports the ingress as configured: hostname or both', async () => {
    const hostname = await start({ config: { loadBalancer: { enabled: true, ingress: 'hostname' } } });
    const service = makeService('web');
    const status = await loadBalancerOf(hostname).ensureLoadBalancer('kubernetes', service, []);
    expect(status.ingress).toEqual([{ hostname: expect.stringMatching(/\.lb\.sandbox-1\.sandbox\.example$/) }]);
    await hostname.cleanup!();
    const both = await start({ config: { loadBalancer: { enabled: true, ingress: 'both' } } });
    const bothStatus = await loadBalancerOf(both).ensureLoadBalancer('kubernetes', service, []);
    expect(bothStatus.ingress?.[0]).toEqual({ ip: '203.0.113.2', hostname: expect.any(String) });
  });

  it('never changes or deletes a load balancer it does not own', async () => {
    const current = await start();
    const service = makeService('web');
    const name = loadBalancerOf(current).getLoadBalancerName('kubernetes', service);
    await current.sandbox.createLoadBalancer({
      name,
      listeners: [{ protocol: 'TCP', port: 443, nodePort: 30443 }],
      backendInstanceIds: [],
      tags: { [SANDBOX_TAGS.cluster]: 'someone-else' },
    });
    await expect(loadBalancerOf(current).getLoadBalancer('kubernetes', service)).resolves.toEqual({ status: undefined, exists: false });
    await expect(loadBalancerOf(current).ensureLoadBalancer('kubernetes', service, [])).rejects.toBeInstanceOf(LoadBalancerNotOwnedError);
    await expect(loadBalancerOf(current).updateLoadBalancer('kubernetes', service, [])).rejects.toBeInstanceOf(LoadBalancerNotOwnedError);
    await loadBalancerOf(current).ensureLoadBalancerDeleted('kubernetes', service);
    const [untouched] = await current.sandbox.listLoadBalancers();
    expect(untouched?.listeners).toEqual([{ protocol: 'TCP', port: 443, nodePort: 30443 }]);
  });

  it('follows --cluster-name when no cluster-id is configured', async () => {
    const current = await start({ config: { clusterId: '' } });
    const service = makeService('web');
    await loadBalancerOf(current).ensureLoadBalancer('east', service, []);
    expect((await current.sandbox.listLoadBalancers())[0]?.tags[SANDBOX_TAGS.cluster]).toBe('east');
    expect((await loadBalancerOf(current).getLoadBalancer('west', service)).exists).toBe(false);
    await loadBalancerOf(current).ensureLoadBalancerDeleted('west', service);
    expect(await current.sandbox.listLoadBalancers()).toHaveLength(1);
    await loadBalancerOf(current).ensureLoadBalancerDeleted('east', service);
    expect(await current.sandbox.listLoadBalancers()).toHaveLength(0);
  });

  it('rejects a Service without a UID', async () => {
    const current = await start();
    const service = makeService('web');
    delete service.metadata!.uid;
    await expect(loadBalancerOf(current).ensureLoadBalancer('kubernetes', service, [])).rejects.toBeInstanceOf(LoadBalancerSpecError);
  });
});

describe('sandbox routes', () => {
  it('lists only this cluster\'s routes and refuses to delete foreign ones', async () => {
    const current = await start();
    const node = await current.sandbox.createInstance({ name: 'node-a' });
    const foreign = await current.sandbox.createRoute({ destinationCidr: '10.244.9.0/24', targetInstanceId: node.id, tags: { [SANDBOX_TAGS.cluster]: 'other' } });
    await routesOf(current).createRoute('kubernetes', 'uid-a', { name: '', targetNode: 'node-a', destinationCidr: '10.244.1.0/24' });
    const listed = await routesOf(current).listRoutes('kubernetes');
    expect(listed).toEqual([{ name: expect.stringMatching(/^rt-/), targetNode: 'node-a', destinationCidr: '10.244.1.0/24' }]);
    const error = await routesOf(current).deleteRoute('kubernetes', { name: foreign.id, targetNode: 'node-a', destinationCidr: '10.244.9.0/24' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SandboxApiError);
    expect((error as SandboxApiError).kind).toBe('InvalidState');
    expect((await current.sandbox.listRoutes()).map((route) => route.id)).toContain(foreign.id);
  });

  it('treats an identical existing route as created and a foreign one as a conflict', async () => {
    const current = await start();
    await current.sandbox.createInstance({ name: 'node-a' });
    const other = await current.sandbox.createInstance({ name: 'node-b' });
    const routes = routesOf(current);
    await routes.createRoute('kubernetes', 'uid-a', { name: '', targetNode: 'node-a', destinationCidr: '10.244.1.0/24' });
    await routes.createRoute('kubernetes', 'uid-a', { name: '', targetNode: 'node-a', destinationCidr: '10.244.1.0/24' });
    await current.sandbox.createRoute({ destinationCidr: '10.244.2.0/24', targetInstanceId: other.id });
    await expect(routes.createRoute('kubernetes', 'uid-a', { name: '', targetNode: 'node-a', destinationCidr: '10.244.2.0/24' })).rejects.toBeInstanceOf(RouteConflictError);
    await expect(routes.createRoute('kubernetes', 'uid-x', { name: '', targetNode: 'ghost', destinationCidr: '10.244.3.0/24' })).rejects.toBeInstanceOf(RouteTargetMissingError);
  });

  it('deleting a route that is already gone succeeds', async () => {
    const current = await start();
    await routesOf(current).deleteRoute('kubernetes', { name: 'rt-404', targetNode: 'x', destinationCidr: '10.244.1.0/24' });
  });
});

describe('cloud API failures', () => {
  it('waits out throttling using Retry-After and retries 5xx', async () => {
    const delays: number[] = [];
    const current = await start({
      config: { retries: 3 },
      dependencies: { sleep: async (delayMs) => void delays.push(delayMs) },
    });
    await current.sandbox.injectErrors({ operation: 'routes.list', count: 1, code: 'Throttling' });
    await current.sandbox.injectErrors({ operation: 'routes.list', count: 1, code: 'InternalError' });
    expect(await routesOf(current).listRoutes('kubernetes')).toEqual([]);
    expect(delays).toEqual([1000, 400]);
    expect((await current.sandbox.calls()).operations['routes.list']).toMatchObject({ requests: 3, injectedErrors: 2, succeeded: 1 });
  });

  it('gives up after the configured retries with a typed, retryable error', async () => {
    const current = await start({ config: { retries: 1 }, dependencies: { sleep: async () => {} } });
    await current.sandbox.injectErrors({ operation: 'routes.list', count: 5, code: 'Throttling' });
    const error = await routesOf(current).listRoutes('kubernetes').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'Throttled', retryable: true, status: 429, retryAfterMs: 1000, operation: 'listRoutes' });
    expect((await current.sandbox.calls()).operations['routes.list'].requests).toBe(2);
  });

  it('stops waiting to retry when the caller aborts', async () => {
    const current = await start({ config: { retries: 3 } });
    await current.sandbox.injectErrors({ operation: 'routes.list', count: 1, code: 'Throttling' });
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(new Error('shutting down')), 50);
    await expect(routesOf(current).listRoutes('kubernetes', { signal: controller.signal })).rejects.toThrow('shutting down');
    expect(performance.now() - started).toBeLessThan(900);
  });

  it('reports an unreachable cloud as Unavailable', async () => {
    const current = await start();
    await current.sandbox.close();
    const error = await routesOf(current).listRoutes('kubernetes').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SandboxApiError);
    expect(error).toMatchObject({ kind: 'Unavailable', retryable: true });
    expect((error as Error).message).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/);
  });
});
