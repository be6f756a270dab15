import type { V1Service } from '@kubernetes/client-node';
import type { LoadBalancer, Routes } from '@ccm/core/provider';
import { describe, expect, it } from 'vitest';
import { armError } from './fakes/fake-errors.js';
import { addVirtualMachine, createHarness, node, RESOURCE_GROUP, SUBSCRIPTION, type Harness } from './helpers.js';

const SERVICE: V1Service = {
  metadata: { name: 'web', namespace: 'shop', uid: '1b4e28ba-2fa1-11d2-883f-0016d3cca427' },
  spec: { type: 'LoadBalancer', ports: [{ name: 'http', port: 80, nodePort: 30080, protocol: 'TCP' }] },
};
const ROUTE = { name: '', targetNode: 'node-a', destinationCidr: '10.244.1.0/24' };
const forbidden = (operation: string) => armError(operation, 'Unauthorized', 'AuthorizationFailed', { httpStatus: 403 });

/** upstream's labels of an operation: the cluster resource group (lower case), the subscription, the source. */
const labels = (request: string, source: string) => `request="${request}",resource_group="cluster-rg",subscription_id="${SUBSCRIPTION}",source="${source}"`;

async function sample(harness: Harness, series: string, request: string, source: string): Promise<number | undefined> {
  const line = (await harness.metrics.metrics()).split('\n').find((text) => text.startsWith(`${series}{${labels(request, source)}} `));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

async function observed(harness: Harness, request: string, source: string): Promise<{ timed: number | undefined; failed: number | undefined }> {
  return {
    timed: await sample(harness, 'cloudprovider_azure_op_duration_seconds_count', request, source),
    failed: await sample(harness, 'cloudprovider_azure_op_failure_count', request, source),
  };
}

async function loadBalancerCluster(): Promise<{ harness: Harness; lb: LoadBalancer }> {
  const harness = await createHarness();
  harness.network.addSecurityGroup(RESOURCE_GROUP, 'cluster-nsg', []);
  addVirtualMachine(harness, 'node-a', '10.0.0.4');
  return { harness, lb: harness.cloud.loadBalancer() };
}

async function routeCluster(): Promise<{ harness: Harness; routes: Routes }> {
  const harness = await createHarness();
  addVirtualMachine(harness, 'node-a', '10.0.0.4');
  const routes = harness.cloud.routes();
  if (routes === undefined) throw new Error('routes off');
  return { harness, routes };
}

describe("upstream's whole-operation series (cloudprovider_azure_op_*)", () => {
  it.each([
    ['ensureLoadBalancer', 'services_ensure_loadbalancer', (lb: LoadBalancer) => lb.ensureLoadBalancer('kubernetes', SERVICE, [node('node-a')])],
    ['updateLoadBalancer', 'services_update_loadbalancer', (lb: LoadBalancer) => lb.updateLoadBalancer('kubernetes', SERVICE, [node('node-a')])],
    ['ensureLoadBalancerDeleted', 'services_ensure_loadbalancer_deleted', (lb: LoadBalancer) => lb.ensureLoadBalancerDeleted('kubernetes', SERVICE)],
  ] as const)('%s: %s of <namespace>/<name>, timed on success and counted as failed on failure', async (_method, request, run) => {
    const { harness, lb } = await loadBalancerCluster();
    await lb.ensureLoadBalancer('kubernetes', SERVICE, [node('node-a')]);
    const before = request === 'services_ensure_loadbalancer' ? 1 : 0;
    await run(lb);
    expect(await observed(harness, request, 'shop/web')).toEqual({ timed: before + 1, failed: undefined });
    harness.network.log.failNext('network.getLoadBalancer', forbidden('network.getLoadBalancer'));
    await expect(run(lb)).rejects.toThrow('AuthorizationFailed');
    expect(await observed(harness, request, 'shop/web')).toEqual({ timed: before + 2, failed: 1 });
  });

  it('createRoute: routes_create_route of the target node, timed on success and counted as failed on failure', async () => {
    const { harness, routes } = await routeCluster();
    await routes.createRoute('kubernetes', 'uid-a', ROUTE);
    expect(await observed(harness, 'routes_create_route', 'node-a')).toEqual({ timed: 1, failed: undefined });
    await expect(routes.createRoute('kubernetes', 'uid-b', { ...ROUTE, targetNode: 'node-gone' })).rejects.toThrow('was not found');
    expect(await observed(harness, 'routes_create_route', 'node-gone')).toEqual({ timed: 1, failed: 1 });
  });

  it('deleteRoute: routes_delete_route of the target node, timed on success and counted as failed on failure', async () => {
    const { harness, routes } = await routeCluster();
    await routes.createRoute('kubernetes', 'uid-a', ROUTE);
    const [created] = await routes.listRoutes('kubernetes');
    if (created === undefined) throw new Error('no route');
    harness.network.log.failNext('network.deleteRoute', forbidden('network.deleteRoute'));
    await expect(routes.deleteRoute('kubernetes', created)).rejects.toThrow('AuthorizationFailed');
    expect(await observed(harness, 'routes_delete_route', 'node-a')).toEqual({ timed: 1, failed: 1 });
    await routes.deleteRoute('kubernetes', created);
    expect(await observed(harness, 'routes_delete_route', 'node-a')).toEqual({ timed: 2, failed: 1 });
  });

  it('listing routes and reading a load balancer are no upstream operation', async () => {
    const { harness, routes } = await routeCluster();
    await routes.listRoutes('kubernetes');
    await harness.cloud.loadBalancer().getLoadBalancer('kubernetes', SERVICE);
    expect(await harness.metrics.metrics()).not.toContain('cloudprovider_azure_op_duration_seconds_count');
  });
});
