import type { V1Node, V1Secret } from '@kubernetes/client-node';
import type { CloudInitializeContext } from '@ccm/core/provider';
import { InMemoryInformer } from '@ccm/testing/kube';
import { describe, expect, it } from 'vitest';
import { addVirtualMachine, CONFIG, createHarness, node, RESOURCE_GROUP, type Harness } from './helpers.js';

/** Hands the cloud a Node informer holding `nodes` (the runtime's `initialize`). */
function initializeWithNodes(harness: Harness, nodes: V1Node[]): void {
  const informer = new InMemoryInformer<V1Node>();
  for (const each of nodes) informer.deliverAdd(each.metadata?.name ?? '', each);
  const context = { informers: { nodes: informer, secrets: () => new InMemoryInformer<V1Secret>() } } as unknown as CloudInitializeContext;
  harness.cloud.initialize(context);
}

describe('Routes', () => {
  it('creates the route table on first use (location, config tags) and one route per pod CIDR with upstream names', async () => {
    const harness = await createHarness();
    addVirtualMachine(harness, 'node-a', '10.0.0.4', { ipv6: 'fd00::4' });
    const routes = harness.cloud.routes();
    if (!routes) throw new Error('routes off');
    await routes.createRoute('kubernetes', 'uid-a', { name: '', targetNode: 'node-a', destinationCidr: '10.244.1.0/24' });
    await routes.createRoute('kubernetes', 'uid-a', { name: '', targetNode: 'node-a', destinationCidr: 'fd10:244:1::/64' });
    const table = harness.network.routeTable(RESOURCE_GROUP, 'cluster-routes');
    expect(table?.location).toBe('eastus');
    expect(table?.tags).toEqual({ team: 'platform' });
    expect(table?.routes).toEqual([
      { name: 'node-a____102441024', addressPrefix: '10.244.1.0/24', nextHopType: 'VirtualAppliance', nextHopIpAddress: '10.0.0.4' },
      { name: 'node-a____fd10244164', addressPrefix: 'fd10:244:1::/64', nextHopType: 'VirtualAppliance', nextHopIpAddress: 'fd00::4' },
    ]);
    expect(await routes.listRoutes('kubernetes')).toEqual([
      { name: 'node-a____102441024', targetNode: 'node-a', destinationCidr: '10.244.1.0/24' },
      { name: 'node-a____fd10244164', targetNode: 'node-a', destinationCidr: 'fd10:244:1::/64' },
    ]);
  });

  it('a second sync changes nothing; a moved next hop is replaced', async () => {
    const harness = await createHarness();
    addVirtualMachine(harness, 'node-a', '10.0.0.4');
    const routes = harness.cloud.routes();
    if (!routes) throw new Error('routes off');
    const route = { name: '', targetNode: 'node-a', destinationCidr: '10.244.1.0/24' };
    await routes.createRoute('kubernetes', 'uid-a', route);
    await routes.createRoute('kubernetes', 'uid-a', route);
    expect(harness.network.log.count('network.putRoute')).toBe(1);
    expect(harness.network.log.count('network.createRouteTable')).toBe(1);
  });

  it('deletes only the route it is given, and a route already gone is no error', async () => {
    const harness = await createHarness();
    addVirtualMachine(harness, 'node-a', '10.0.0.4');
    addVirtualMachine(harness, 'node-b', '10.0.0.5');
    const routes = harness.cloud.routes();
    if (!routes) throw new Error('routes off');
    await routes.createRoute('kubernetes', 'uid-a', { name: '', targetNode: 'node-a', destinationCidr: '10.244.1.0/24' });
    await routes.createRoute('kubernetes', 'uid-b', { name: '', targetNode: 'node-b', destinationCidr: '10.244.2.0/24' });
    const [first] = await routes.listRoutes('kubernetes');
    if (!first) throw new Error('no route');
    await routes.deleteRoute('kubernetes', first);
    await routes.deleteRoute('kubernetes', first);
    expect((await routes.listRoutes('kubernetes')).map((route) => route.targetNode)).toEqual(['node-b']);
  });

  it('lists no routes while the table does not exist, and reads an older single-stack route name as its node', async () => {
    const harness = await createHarness();
    const routes = harness.cloud.routes();
    if (!routes) throw new Error('routes off');
    expect(await routes.listRoutes('kubernetes')).toEqual([]);
    await harness.network.createRouteTable(RESOURCE_GROUP, { name: 'cluster-routes', location: 'eastus', tags: {} });
    await harness.network.putRoute(RESOURCE_GROUP, 'cluster-routes', { name: 'node-old', addressPrefix: '10.244.9.0/24', nextHopType: 'VirtualAppliance', nextHopIpAddress: '10.0.0.9' });
    expect(await routes.listRoutes('kubernetes')).toEqual([{ name: 'node-old', targetNode: 'node-old', destinationCidr: '10.244.9.0/24' }]);
  });

  it('fails clearly when the node has no VM or no IP of the CIDR family', async () => {
    const harness = await createHarness();
    addVirtualMachine(harness, 'node-a', '10.0.0.4');
    const routes = harness.cloud.routes();
    if (!routes) throw new Error('routes off');
    await expect(routes.createRoute('kubernetes', 'u', { name: '', targetNode: 'ghost', destinationCidr: '10.244.1.0/24' })).rejects.toThrow(/node "ghost": its VM was not found/);
    await expect(routes.createRoute('kubernetes', 'u', { name: '', targetNode: 'node-a', destinationCidr: 'fd10::/64' })).rejects.toThrow(/no private IP of the family of fd10::\/64/);
  });

  it("finds the VM of a node in the resource group of its kubernetes.azure.com/resource-group label (upstream GetNodeResourceGroup)", async () => {
    const harness = await createHarness();
    addVirtualMachine(harness, 'node-x', '10.1.0.7', { resourceGroup: 'other-rg' });
    const routes = harness.cloud.routes();
    if (!routes) throw new Error('routes off');
    const route = { name: '', targetNode: 'node-x', destinationCidr: '10.244.7.0/24' };
    await expect(routes.createRoute('kubernetes', 'uid-x', route)).rejects.toThrow(/its VM was not found in resource group/);
    initializeWithNodes(harness, [node('node-x', { labels: { 'kubernetes.azure.com/resource-group': 'other-rg' } })]);
    await routes.createRoute('kubernetes', 'uid-x', route);
    expect(harness.network.routeTable(RESOURCE_GROUP, 'cluster-routes')?.routes).toEqual([
      { name: 'node-x____102447024', addressPrefix: '10.244.7.0/24', nextHopType: 'VirtualAppliance', nextHopIpAddress: '10.1.0.7' },
    ]);
  });

  it('keeps the pod CIDR of an unmanaged node in memory: no route in the table, listed until deleted (upstream routeCIDRs)', async () => {
    const harness = await createHarness();
    initializeWithNodes(harness, [node('on-prem', { labels: { 'kubernetes.azure.com/managed': 'False' } })]);
    const routes = harness.cloud.routes();
    if (!routes) throw new Error('routes off');
    const route = { name: '', targetNode: 'on-prem', destinationCidr: '10.244.9.0/24' };
    await routes.createRoute('kubernetes', 'uid-p', route);
    expect(harness.network.log.count('network.putRoute')).toBe(0);
    expect(await routes.listRoutes('kubernetes')).toEqual([{ name: 'on-prem', targetNode: 'on-prem', destinationCidr: '10.244.9.0/24' }]);
    await routes.deleteRoute('kubernetes', { name: 'on-prem', targetNode: 'on-prem', destinationCidr: '10.244.9.0/24' });
    expect(await routes.listRoutes('kubernetes')).toEqual([]);
    expect(harness.network.log.count('network.deleteRoute')).toBe(0);
  });

  it('is off without routeTableName', async () => {
    const { routeTableName: _unused, ...withoutTable } = CONFIG;
    const harness = await createHarness(withoutTable);
    expect(harness.cloud.routes()).toBeUndefined();
  });
});
