// The provider's operations against the in-memory fake of its port (test/fakes/fake-sandbox-cloud.ts):
// which cloud calls a lookup, an ensure or a route delete makes, without HTTP.
import { silentLogger } from '@ccm/core/logging';
import { makeNode, makeService } from '@ccm/testing';
import { describe, expect, it } from 'vitest';
import { SandboxApiError } from '../src/ports/sandbox-api-error.js';
import { createSandboxCloud } from '../src/sandbox-cloud.js';
import { SANDBOX_TAGS } from '../src/tags.js';
import { FakeSandboxCloud } from './fakes/fake-sandbox-cloud.js';
import { sandboxConfig } from './helpers.js';

function providerOver(fake: FakeSandboxCloud, overrides: Parameters<typeof sandboxConfig>[1] = {}) {
  return createSandboxCloud(sandboxConfig('http://fake.invalid', overrides), { logger: silentLogger, client: fake, sleep: async () => {} });
}

describe('sandbox operations over the fake port', () => {
  it('answers the concurrent lookups of 60 new nodes with one batchGetInstances call (lookup-policy batched)', async () => {
    const fake = new FakeSandboxCloud();
    const names = Array.from({ length: 60 }, (_, index) => fake.state.createInstance({ name: `node-${index}` }).name);
    const instances = providerOver(fake, { lookupPolicy: 'batched' }).instancesV2()!;
    const metadata = await Promise.all(names.map((name) => instances.instanceMetadata(makeNode(name, { uninitialized: true }))));
    expect(metadata.map((entry) => entry?.providerId.startsWith('sandbox://i-'))).toEqual(names.map(() => true));
    expect(fake.calls.map((call) => call.operation)).toEqual(['batchGetInstances']);
  });

  it('makes one call per lookup with lookup-policy single', async () => {
    const fake = new FakeSandboxCloud();
    const names = ['a', 'b', 'c'].map((name) => fake.state.createInstance({ name }).name);
    const instances = providerOver(fake, { lookupPolicy: 'single' }).instancesV2()!;
    await Promise.all(names.map((name) => instances.instanceMetadata(makeNode(name, { uninitialized: true }))));
    expect(fake.count('findInstancesByName')).toBe(3);
  });

  it('writes nothing when the load balancer is already as desired', async () => {
    const fake = new FakeSandboxCloud();
    const node = makeNode(fake.state.createInstance({ name: 'node-a' }).name);
    const loadBalancer = providerOver(fake).loadBalancer()!;
    const service = makeService('web');
    await loadBalancer.ensureLoadBalancer('kubernetes', service, [node]);
    await loadBalancer.ensureLoadBalancer('kubernetes', service, [node]);
    expect(fake.writes()).toEqual(['createLoadBalancer']);
  });

  it('deletes only its own routes: the cluster tag travels as a precondition', async () => {
    const fake = new FakeSandboxCloud();
    fake.state.createInstance({ name: 'node-a' });
    const routes = providerOver(fake).routes()!;
    await routes.createRoute('kubernetes', 'hint', { name: '', targetNode: 'node-a', destinationCidr: '10.244.1.0/24' });
    const [route] = await routes.listRoutes('kubernetes');
    await routes.deleteRoute('kubernetes', route!);
    expect(fake.calls.find((call) => call.operation === 'deleteRoute')?.input).toEqual({ id: route!.name, requireTags: { [SANDBOX_TAGS.cluster]: 'contract-cluster' } });
    expect(fake.state.listRoutes()).toEqual([]);
  });

  it('retries a failed (5xx) call and then answers', async () => {
    const fake = new FakeSandboxCloud();
    fake.state.createInstance({ name: 'node-a' });
    fake.failNext('findInstancesByName', new SandboxApiError('ServerError', 'findInstancesByName', 'HTTP 500', { status: 500 }));
    const instances = providerOver(fake, { retries: 2 }).instancesV2()!;
    expect(await instances.instanceExists(makeNode('node-a'))).toBe(true);
    expect(fake.count('findInstancesByName')).toBe(2);
  });
});
