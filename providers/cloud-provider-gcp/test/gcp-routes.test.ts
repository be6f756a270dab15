import { describe, expect, it } from 'vitest';
import { createHarness, NETWORK, PROJECT, ZONE } from './helpers.js';

const networkUrl = `https://compute.googleapis.com/compute/v1/projects/${PROJECT}/global/networks/${NETWORK}`;

describe('GCE Routes', () => {
  it('creates one route per pod CIDR named <cluster>-<hint> with nextHopInstance and the k8s-node-route description', async () => {
    const { cloud, compute } = await createHarness();
    const instance = compute.addInstance(ZONE, 'node-1');
    await cloud.routes().createRoute('a-cluster-name-longer-than-26-chars', 'uid-1', { name: '', targetNode: 'node-1', destinationCidr: '10.64.1.0/24' });
    expect([...compute.routes.values()]).toEqual([
      { name: 'a-cluster-name-longer-than-uid-1', network: networkUrl, destRange: '10.64.1.0/24', nextHopInstance: instance.selfLink, priority: 1000, description: 'k8s-node-route' },
    ]);
    await cloud.routes().createRoute('a-cluster-name-longer-than-26-chars', 'uid-1', { name: '', targetNode: 'node-1', destinationCidr: '10.64.1.0/24' });
    expect(compute.routes.size).toBe(1);
  });

  it('lists only the cluster routes of its network and deletes only those', async () => {
    const { cloud, compute } = await createHarness();
    compute.addInstance(ZONE, 'node-1');
    await cloud.routes().createRoute('kubernetes', 'uid-1', { name: '', targetNode: 'node-1', destinationCidr: '10.64.1.0/24' });
    compute.routes.set('other-x', { name: 'other-x', network: networkUrl, destRange: '10.99.0.0/24', description: 'k8s-node-route', nextHopInstance: 'x/instances/a' });
    compute.routes.set('kubernetes-manual', { name: 'kubernetes-manual', network: networkUrl, destRange: '10.98.0.0/24', description: 'made by hand' });
    const routes = await cloud.routes().listRoutes('kubernetes');
    expect(routes).toEqual([{ name: 'kubernetes-uid-1', targetNode: 'node-1', destinationCidr: '10.64.1.0/24' }]);
    await cloud.routes().deleteRoute('kubernetes', routes[0] ?? { name: '', targetNode: '', destinationCidr: '' });
    await expect(cloud.routes().deleteRoute('kubernetes', { name: 'other-x', targetNode: 'a', destinationCidr: '10.99.0.0/24' })).rejects.toThrow(/does not belong/);
    expect([...compute.routes.keys()].sort()).toEqual(['kubernetes-manual', 'other-x']);
    await cloud.routes().deleteRoute('kubernetes', { name: 'kubernetes-uid-1', targetNode: 'node-1', destinationCidr: '10.64.1.0/24' });
  });

  it('dual-stack: one route per pod CIDR with the same hint; the IPv6 one gets its own name', async () => {
    const { cloud, compute } = await createHarness();
    const instance = compute.addInstance(ZONE, 'node-1');
    const uid = '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0';
    const cluster = 'a-cluster-name-longer-than-26-chars';
    await cloud.routes().createRoute(cluster, uid, { name: '', targetNode: 'node-1', destinationCidr: '10.64.1.0/24' });
    await cloud.routes().createRoute(cluster, uid, { name: '', targetNode: 'node-1', destinationCidr: 'fd00:10:64:1::/64' });
    const ipv6Name = 'a-cluster-name-longer-than-0f1e2d3c4b5a69788796a5b4c3d2e1f0-v6';
    expect(ipv6Name.length).toBeLessThanOrEqual(63);
    expect([...compute.routes.values()].map((route) => [route.name, route.destRange, route.nextHopInstance]).sort()).toEqual(
      [
        [`a-cluster-name-longer-than-${uid}`, '10.64.1.0/24', instance.selfLink],
        [ipv6Name, 'fd00:10:64:1::/64', instance.selfLink],
      ].sort(),
    );
    const listed = await cloud.routes().listRoutes(cluster);
    expect(listed.map((route) => route.destinationCidr).sort()).toEqual(['10.64.1.0/24', 'fd00:10:64:1::/64']);
    for (const route of listed) await cloud.routes().deleteRoute(cluster, route);
    expect(compute.routes.size).toBe(0);
  });

  it('puts the route on the network of the instance\'s first interface (upstream)', async () => {
    const { cloud, compute } = await createHarness();
    const nodeNetwork = networkUrl.replace(`/networks/${NETWORK}`, '/networks/node-net');
    compute.networks.add('node-net');
    compute.addInstance(ZONE, 'node-1', { networkInterfaces: [{ network: nodeNetwork, networkIP: '10.0.0.2', accessConfigs: [], ipv6AccessConfigs: [] }] });
    compute.addInstance(ZONE, 'node-2');
    await cloud.routes().createRoute('kubernetes', 'uid-1', { name: '', targetNode: 'node-1', destinationCidr: '10.64.1.0/24' });
    await cloud.routes().createRoute('kubernetes', 'uid-2', { name: '', targetNode: 'node-2', destinationCidr: '10.64.2.0/24' });
    expect(compute.routes.get('kubernetes-uid-1')?.network).toBe(nodeNetwork);
    // An instance that shows no network: the cluster network.
    expect(compute.routes.get('kubernetes-uid-2')?.network).toBe(networkUrl);
  });

  it('fails a route to a node without an instance', async () => {
    const { cloud } = await createHarness();
    await expect(cloud.routes().createRoute('kubernetes', 'uid-2', { name: '', targetNode: 'ghost', destinationCidr: '10.64.2.0/24' })).rejects.toThrow(/no instance found for node ghost/);
  });
});
