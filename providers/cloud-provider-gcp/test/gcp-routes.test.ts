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

  it('fails a route to a node without an instance', async () => {
    const { cloud } = await createHarness();
    await expect(cloud.routes().createRoute('kubernetes', 'uid-2', { name: '', targetNode: 'ghost', destinationCidr: '10.64.2.0/24' })).rejects.toThrow(/no instance found for node ghost/);
  });
});
