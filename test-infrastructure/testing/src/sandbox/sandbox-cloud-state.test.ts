import { describe, expect, it } from 'vitest';
import { SandboxCloudError } from './sandbox-cloud-error.js';
import { SandboxCloudState } from './sandbox-cloud-state.js';

function expectSandboxError(action: () => unknown, code: string): void {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(SandboxCloudError);
    expect((error as SandboxCloudError).code).toBe(code);
    return;
  }
  throw new Error(`expected a ${code} error`);
}

const listener = { protocol: 'TCP' as const, port: 80, nodePort: 30080 };

describe('SandboxCloudState instances', () => {
  it('creates running instances with addresses from the pools, spread over zones', () => {
    const state = new SandboxCloudState({ region: 'r1' });
    const first = state.createInstance({ name: 'node-a' });
    const second = state.createInstance({ name: 'node-b', internalIpv6: true, externalIp: false, instanceType: 'm1.large' });
    expect(first).toMatchObject({ id: 'i-00000000000000001', name: 'node-a', hostname: 'node-a', zone: 'r1a', region: 'r1', state: 'running', instanceType: 'm1.small' });
    expect(first.addresses).toEqual([
      { type: 'InternalIP', address: '10.0.0.2' },
      { type: 'ExternalIP', address: '198.51.100.2' },
      { type: 'InternalDNS', address: 'node-a.r1.sandbox.internal' },
      { type: 'ExternalDNS', address: '198-51-100-2.r1.sandbox.example' },
      { type: 'Hostname', address: 'node-a' },
    ]);
    expect(second.zone).toBe('r1b');
    expect(second.instanceType).toBe('m1.large');
    expect(second.addresses).toEqual([
      { type: 'InternalIP', address: '10.0.0.3' },
      { type: 'InternalIP', address: 'fd00:10::2' },
      { type: 'InternalDNS', address: 'node-b.r1.sandbox.internal' },
      { type: 'Hostname', address: 'node-b' },
    ]);
  });

  it('rejects duplicate names and addresses, and releases reserved addresses on failure', () => {
    const state = new SandboxCloudState();
    state.createInstance({ name: 'node-a', internalIp: '10.0.5.5' });
    expectSandboxError(() => state.createInstance({ name: 'node-a' }), 'AlreadyExists');
    expectSandboxError(() => state.createInstance({ name: 'node-b', internalIp: '10.0.5.5' }), 'AlreadyExists');
    expectSandboxError(() => state.createInstance({ name: 'node-c', internalIp: '10.0.7.7', externalIp: 'not-an-ip' }), 'InvalidArgument');
    // 10.0.7.7 was released when the creation failed.
    expect(state.createInstance({ name: 'node-c', internalIp: '10.0.7.7' }).addresses[0]).toEqual({ type: 'InternalIP', address: '10.0.7.7' });
    expectSandboxError(() => state.createInstance({ name: 'Bad_Name' }), 'InvalidArgument');
  });

  it('stops, starts and terminates; terminated instances stay listed until purged', () => {
    const state = new SandboxCloudState();
    const { id } = state.createInstance({ name: 'node-a' });
    expect(state.stopInstance(id).state).toBe('stopped');
    expect(state.stopInstance(id).generation).toBe(2);
    expect(state.startInstance(id).state).toBe('running');
    state.deleteInstance(id);
    expect(state.getInstance(id)).toMatchObject({ state: 'terminated', addresses: [] });
    expectSandboxError(() => state.startInstance(id), 'InvalidState');
    // The name is free again once the old instance is terminated.
    const replacement = state.createInstance({ name: 'node-a' });
    expect(replacement.addresses[0]).toEqual({ type: 'InternalIP', address: '10.0.0.2' });
    state.deleteInstance(id, { purge: true });
    expectSandboxError(() => state.getInstance(id), 'NotFound');
  });

  it('looks up many instances at once by ids and names', () => {
    const state = new SandboxCloudState();
    const a = state.createInstance({ name: 'node-a' });
    const b = state.createInstance({ name: 'node-b' });
    const result = state.batchGetInstances({ ids: [a.id, 'i-missing', a.id], names: ['node-b', 'node-a', 'ghost'] });
    expect(result.instances.map((instance) => instance.name)).toEqual(['node-a', 'node-b']);
    expect(result.missingIds).toEqual(['i-missing']);
    expect(result.missingNames).toEqual(['ghost']);
    expect(state.listInstances({ name: 'node-b' }).map((instance) => instance.id)).toEqual([b.id]);
  });

  it('hands out copies that cannot change the state', () => {
    const state = new SandboxCloudState();
    const instance = state.createInstance({ name: 'node-a' });
    instance.addresses.length = 0;
    instance.state = 'stopped';
    expect(state.getInstance(instance.id).state).toBe('running');
    expect(state.getInstance(instance.id).addresses).toHaveLength(5);
  });
});

describe('SandboxCloudState load balancers', () => {
  it('allocates the ingress from the pool and frees it on deletion', () => {
    const state = new SandboxCloudState({ region: 'r1' });
    const node = state.createInstance({ name: 'node-a' });
    const created = state.createLoadBalancer({ name: 'lb-one', listeners: [listener], backendInstanceIds: [node.id], tags: { owner: 'me' } });
    expect(created.ingress).toEqual({ ip: '203.0.113.2', hostname: 'lb-one.lb.r1.sandbox.example' });
    expect(state.createLoadBalancer({ name: 'lb-two', listeners: [listener], backendInstanceIds: [] }).ingress.ip).toBe('203.0.113.3');
    state.deleteLoadBalancer('lb-one');
    expect(state.createLoadBalancer({ name: 'lb-three', listeners: [listener], backendInstanceIds: [] }).ingress.ip).toBe('203.0.113.2');
    expect(state.listLoadBalancers({ tags: { owner: 'me' } })).toEqual([]);
    expectSandboxError(() => state.deleteLoadBalancer('lb-one'), 'NotFound');
  });

  it('validates listeners, backends and names', () => {
    const state = new SandboxCloudState();
    expectSandboxError(() => state.createLoadBalancer({ name: 'lb', listeners: [], backendInstanceIds: [] }), 'InvalidArgument');
    expectSandboxError(() => state.createLoadBalancer({ name: 'lb', listeners: [listener, listener], backendInstanceIds: [] }), 'InvalidArgument');
    expectSandboxError(() => state.createLoadBalancer({ name: 'lb', listeners: [{ ...listener, port: 0 }], backendInstanceIds: [] }), 'InvalidArgument');
    expectSandboxError(() => state.createLoadBalancer({ name: 'lb', listeners: [listener], backendInstanceIds: ['i-nope'] }), 'InvalidArgument');
    expectSandboxError(() => state.createLoadBalancer({ name: 'LB!', listeners: [listener], backendInstanceIds: [] }), 'InvalidArgument');
    state.createLoadBalancer({ name: 'lb', listeners: [listener], backendInstanceIds: [] });
    expectSandboxError(() => state.createLoadBalancer({ name: 'lb', listeners: [listener], backendInstanceIds: [] }), 'AlreadyExists');
  });

  it('moves the generation only when an update changes something', () => {
    const state = new SandboxCloudState();
    const a = state.createInstance({ name: 'node-a' });
    const b = state.createInstance({ name: 'node-b' });
    state.createLoadBalancer({ name: 'lb', listeners: [listener], backendInstanceIds: [b.id, a.id] });
    expect(state.getLoadBalancer('lb').backendInstanceIds).toEqual([a.id, b.id].sort());
    expect(state.updateLoadBalancer('lb', { backendInstanceIds: [a.id, b.id] }).generation).toBe(1);
    const updated = state.updateLoadBalancer('lb', { backendInstanceIds: [a.id], healthCheckNodePort: 32000 });
    expect(updated).toMatchObject({ generation: 2, backendInstanceIds: [a.id], healthCheckNodePort: 32000 });
    expect(state.updateLoadBalancer('lb', { healthCheckNodePort: null }).healthCheckNodePort).toBeUndefined();
  });
});

describe('SandboxCloudState routes', () => {
  it('creates, lists by tag and deletes routes; one route per destination', () => {
    const state = new SandboxCloudState();
    const node = state.createInstance({ name: 'node-a' });
    const route = state.createRoute({ destinationCidr: '10.244.1.0/24', targetInstanceId: node.id, tags: { cluster: 'c1' }, description: 'uid-1' });
    expect(route).toEqual({
      id: 'rt-00000001',
      destinationCidr: '10.244.1.0/24',
      targetInstanceId: node.id,
      targetInstanceName: 'node-a',
      blackhole: false,
      description: 'uid-1',
      tags: { cluster: 'c1' },
    });
    expectSandboxError(() => state.createRoute({ destinationCidr: '10.244.1.0/24', targetInstanceId: node.id }), 'AlreadyExists');
    expectSandboxError(() => state.createRoute({ destinationCidr: '10.244.2.0/33', targetInstanceId: node.id }), 'InvalidArgument');
    expectSandboxError(() => state.createRoute({ destinationCidr: '10.244.2.0/24', targetInstanceId: 'i-none' }), 'InvalidArgument');
    expect(state.createRoute({ destinationCidr: 'fd00:244::/64', targetInstanceId: node.id }).destinationCidr).toBe('fd00:244::/64');
    expect(state.listRoutes({ tags: { cluster: 'c1' } }).map((item) => item.id)).toEqual([route.id]);
    state.deleteRoute(route.id);
    expectSandboxError(() => state.deleteRoute(route.id), 'NotFound');
  });

  it('turns routes into blackholes when the target goes away', () => {
    const state = new SandboxCloudState();
    const node = state.createInstance({ name: 'node-a' });
    const route = state.createRoute({ destinationCidr: '10.244.1.0/24', targetInstanceId: node.id });
    state.deleteInstance(node.id);
    expect(state.getRoute(route.id)).toMatchObject({ blackhole: true, targetInstanceName: 'node-a' });
    state.deleteInstance(node.id, { purge: true });
    expect(state.getRoute(route.id)).toMatchObject({ blackhole: true, targetInstanceName: '' });
    expect(state.createRoute({ destinationCidr: '10.244.9.0/24', targetInstanceId: 'i-gone', blackhole: true }).blackhole).toBe(true);
  });

  it('clear() forgets everything and restarts ids and pools', () => {
    const state = new SandboxCloudState();
    const node = state.createInstance({ name: 'node-a' });
    state.createRoute({ destinationCidr: '10.244.1.0/24', targetInstanceId: node.id });
    state.clear();
    expect(state.snapshot()).toEqual({ instances: [], loadBalancers: [], routes: [] });
    expect(state.createInstance({ name: 'node-b' })).toMatchObject({ id: 'i-00000000000000001', addresses: [{ type: 'InternalIP', address: '10.0.0.2' }, expect.anything(), expect.anything(), expect.anything(), expect.anything()] });
  });
});
