import { describe, expect, it } from 'vitest';
import type { Route } from '@ccm/core/provider';
import { OpenStackConfigurationError } from '../src/errors.js';
import { fakeError } from './fakes/fake-errors.js';
import { FakeNetwork } from './fakes/fake-network.js';
import { cloudConf, createHarness, initializeContext, makeNode, NODE_NETWORK_ID, ROUTER_ID } from './helpers.js';

const CLUSTER = 'kubernetes';

async function routesHarness(options: { extensions?: string[]; synced?: boolean } = {}) {
  const network = new FakeNetwork();
  if (options.extensions !== undefined) network.extensionAliases = options.extensions;
  network.addRouter(ROUTER_ID, ['10.0.0.0/24', 'fd00::/64']);
  // The router's interface on the node network: how upstream finds the networks of node ports.
  network.addPort({ id: 'router-port', networkId: NODE_NETWORK_ID, deviceId: ROUTER_ID, fixedIps: [{ subnetId: 'subnet-nodes', ipAddress: '10.0.0.1' }] });
  const nodePort = network.addPort({ id: 'node-1-port', networkId: NODE_NETWORK_ID, deviceId: 'srv-1', fixedIps: [{ subnetId: 'subnet-nodes', ipAddress: '10.0.0.11' }, { subnetId: 'subnet-v6', ipAddress: 'fd00::11' }] });
  const nodes = [makeNode('node-1', { internalIps: ['10.0.0.11', 'fd00::11'] }), makeNode('node-2', { internalIps: ['10.0.0.12'] })];
  const harness = await createHarness({ network, config: cloudConf(`[Route]\nrouter-id = ${ROUTER_ID}\n`) });
  harness.cloud.initialize(initializeContext(nodes, options.synced ?? true));
  const routes = harness.cloud.routes();
  if (routes === undefined) throw new Error('routes expected');
  return { ...harness, routes, nodes, nodePort };
}

const route = (targetNode: string, destinationCidr: string): Route => ({ name: '', targetNode, destinationCidr });

describe('OpenStack Routes', () => {
  it('is off without [Route] router-id', async () => {
    const harness = await createHarness();
    expect(harness.cloud.routes()).toBeUndefined();
  });

  it('creates an extra route to the node InternalIP and allows the pod CIDR on its port', async () => {
    const { routes, network } = await routesHarness();
    await routes.createRoute(CLUSTER, 'uid-1', route('node-1', '10.244.1.0/24'));
    expect(network.routers.get(ROUTER_ID)?.routes).toEqual([{ destination: '10.244.1.0/24', nexthop: '10.0.0.11' }]);
    expect(network.ports.get('node-1-port')?.allowedAddressPairs).toEqual([{ ipAddress: '10.244.1.0/24' }]);
    expect(network.callsOf('addExtraRoutes')).toBe(1);
    expect(await routes.listRoutes(CLUSTER)).toEqual([{ name: '10.244.1.0/24', targetNode: 'node-1', destinationCidr: '10.244.1.0/24', blackhole: false }]);
  });

  it('uses the IPv6 InternalIP for an IPv6 pod CIDR', async () => {
    const { routes, network } = await routesHarness();
    await routes.createRoute(CLUSTER, 'uid-1', route('node-1', 'fd00:10:244:1::/64'));
    expect(network.routers.get(ROUTER_ID)?.routes).toEqual([{ destination: 'fd00:10:244:1::/64', nexthop: 'fd00::11' }]);
  });

  it('is idempotent: a second create changes nothing', async () => {
    const { routes, network } = await routesHarness();
    await routes.createRoute(CLUSTER, 'uid-1', route('node-1', '10.244.1.0/24'));
    const calls = network.calls.length;
    await routes.createRoute(CLUSTER, 'uid-1', route('node-1', '10.244.1.0/24'));
    expect(network.calls.slice(calls).filter((call) => !/^(get|list)/.test(call))).toEqual([]);
    expect(network.routers.get(ROUTER_ID)?.routes).toHaveLength(1);
  });

  it('rewrites the whole route list when Neutron has only "extraroute"', async () => {
    const { routes, network } = await routesHarness({ extensions: ['extraroute', 'allowed-address-pairs'] });
    network.routers.get(ROUTER_ID)?.routes.push({ destination: '192.168.0.0/24', nexthop: '10.0.0.250' });
    await Promise.all([routes.createRoute(CLUSTER, 'u1', route('node-1', '10.244.1.0/24')), routes.createRoute(CLUSTER, 'u2', route('node-1', '10.244.9.0/24'))]);
    expect(network.callsOf('addExtraRoutes')).toBe(0);
    expect(network.routers.get(ROUTER_ID)?.routes).toEqual([
      { destination: '192.168.0.0/24', nexthop: '10.0.0.250' },
      { destination: '10.244.1.0/24', nexthop: '10.0.0.11' },
      { destination: '10.244.9.0/24', nexthop: '10.0.0.11' },
    ]);
    await routes.deleteRoute(CLUSTER, { ...route('node-1', '10.244.1.0/24'), name: '10.244.1.0/24' });
    expect(network.routers.get(ROUTER_ID)?.routes).toEqual([
      { destination: '192.168.0.0/24', nexthop: '10.0.0.250' },
      { destination: '10.244.9.0/24', nexthop: '10.0.0.11' },
    ]);
  });

  it('lists a route whose next hop is no node as a blackhole, and deletes it by that next hop', async () => {
    const { routes, network } = await routesHarness();
    network.routers.get(ROUTER_ID)?.routes.push({ destination: '10.244.7.0/24', nexthop: '10.0.0.77' });
    const [listed] = await routes.listRoutes(CLUSTER);
    expect(listed).toEqual({ name: '10.244.7.0/24', targetNode: '10.0.0.77', destinationCidr: '10.244.7.0/24', blackhole: true });
    await routes.deleteRoute(CLUSTER, listed as Route);
    expect(network.routers.get(ROUTER_ID)?.routes).toEqual([]);
    expect(network.callsOf('updatePortAllowedAddressPairs')).toBe(0);
  });

  it('leaves out a node route whose port lacks the address pair, so the controller creates it again', async () => {
    const { routes, network } = await routesHarness();
    network.routers.get(ROUTER_ID)?.routes.push({ destination: '10.244.1.0/24', nexthop: '10.0.0.11' });
    expect(await routes.listRoutes(CLUSTER)).toEqual([]);
    await routes.createRoute(CLUSTER, 'uid-1', route('node-1', '10.244.1.0/24'));
    expect(await routes.listRoutes(CLUSTER)).toHaveLength(1);
  });

  it('a route whose next hop no port holds is listed as it is; the other nodes\' routes are still listed', async () => {
    const { routes, network } = await routesHarness();
    await routes.createRoute(CLUSTER, 'uid-1', route('node-1', '10.244.1.0/24'));
    // node-2 (10.0.0.12) has no Neutron port on the router's networks.
    network.routers.get(ROUTER_ID)?.routes.push({ destination: '10.244.2.0/24', nexthop: '10.0.0.12' });
    expect(await routes.listRoutes(CLUSTER)).toEqual([
      { name: '10.244.1.0/24', targetNode: 'node-1', destinationCidr: '10.244.1.0/24', blackhole: false },
      { name: '10.244.2.0/24', targetNode: 'node-2', destinationCidr: '10.244.2.0/24', blackhole: false },
    ]);
  });

  it('deletes the route and the address pair, keeping the other routes and pairs', async () => {
    const { routes, network } = await routesHarness();
    network.routers.get(ROUTER_ID)?.routes.push({ destination: '0.0.0.0/0', nexthop: '10.0.0.254' });
    await routes.createRoute(CLUSTER, 'u1', route('node-1', '10.244.1.0/24'));
    await routes.createRoute(CLUSTER, 'u1', route('node-1', '10.244.2.0/24'));
    await routes.deleteRoute(CLUSTER, { ...route('node-1', '10.244.1.0/24'), name: '10.244.1.0/24', blackhole: false });
    expect(network.routers.get(ROUTER_ID)?.routes).toEqual([
      { destination: '0.0.0.0/0', nexthop: '10.0.0.254' },
      { destination: '10.244.2.0/24', nexthop: '10.0.0.11' },
    ]);
    expect(network.ports.get('node-1-port')?.allowedAddressPairs).toEqual([{ ipAddress: '10.244.2.0/24' }]);
  });

  it('undoes the route when the address pair update fails', async () => {
    const { routes, network } = await routesHarness();
    network.failNext('updatePortAllowedAddressPairs', fakeError('Invalid', 'network.updatePortAllowedAddressPairs'));
    await expect(routes.createRoute(CLUSTER, 'uid-1', route('node-1', '10.244.1.0/24'))).rejects.toThrow(/fake Invalid/);
    expect(network.routers.get(ROUTER_ID)?.routes).toEqual([]);
    expect(network.callsOf('removeExtraRoutes')).toBe(1);
  });

  it('skips the address pair on a port without port security', async () => {
    const { routes, network } = await routesHarness();
    (network.ports.get('node-1-port') as { portSecurityEnabled: boolean }).portSecurityEnabled = false;
    await routes.createRoute(CLUSTER, 'uid-1', route('node-1', '10.244.1.0/24'));
    expect(network.callsOf('updatePortAllowedAddressPairs')).toBe(0);
    expect(await routes.listRoutes(CLUSTER)).toHaveLength(1);
  });

  it('refuses a node without an InternalIP of the family, before any cloud change', async () => {
    const { routes, network } = await routesHarness();
    await expect(routes.createRoute(CLUSTER, 'uid-2', route('node-2', 'fd00:10:244:2::/64'))).rejects.toThrow(/no IPv6 InternalIP found for node "node-2"/);
    expect(network.calls).toEqual([]);
  });

  it('does not list before the node informer has synced', async () => {
    const { routes } = await routesHarness({ synced: false });
    await expect(routes.listRoutes(CLUSTER)).rejects.toThrow(/not synced/);
  });

  it('reports a Neutron without extra routes as a configuration error', async () => {
    const { routes } = await routesHarness({ extensions: ['allowed-address-pairs'] });
    await expect(routes.listRoutes(CLUSTER)).rejects.toBeInstanceOf(OpenStackConfigurationError);
  });
});
