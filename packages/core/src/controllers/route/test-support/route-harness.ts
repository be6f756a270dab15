/**
 * Wires a RouteController to an InMemoryKubeAccess and FakeRoutes (upstream TestReconcile's
 * fake clientset + fake cloud).
 */
import { InMemoryKubeAccess } from '@ccm/testing/kube';
import type { V1Node } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { silentLogger } from '../../../logging/logger.js';
import type { Route } from '../../../provider/routes.js';
import { parseCidr } from '../../../net/cidr.js';
import { RouteController, ROUTE_CONTROLLER_EVENT_COMPONENT } from '../route-controller.js';
import { registerRouteControllerMetrics } from '../route-metrics.js';
import { FakeRoutes } from '../../test-support/fake-routes.js';

export const ROUTE_TEST_CLUSTER = 'my-k8s';

export interface RouteHarnessOptions {
  nodes?: V1Node[];
  routes?: Route[];
  dualStack?: boolean;
  reconciliationPeriodMs?: number;
  now?: () => Date;
}

export function createRouteHarness(options: RouteHarnessOptions = {}) {
  const kube = new InMemoryKubeAccess();
  for (const node of options.nodes ?? []) kube.addNode(node);
  const cloud = new FakeRoutes();
  for (const route of options.routes ?? []) cloud.seed(ROUTE_TEST_CLUSTER, route);
  const registry = new Registry();
  const clusterCidrs = [parseCidr('10.120.0.0/16'), ...(options.dualStack ? [parseCidr('ace:cab:deca::/8')] : [])];
  const controller = new RouteController({
    routes: cloud,
    clusterName: ROUTE_TEST_CLUSTER,
    clusterCidrs,
    nodes: kube.nodes,
    nodeInformer: kube.nodeInformer,
    recorder: kube.eventRecorder(ROUTE_CONTROLLER_EVENT_COMPONENT),
    metrics: registerRouteControllerMetrics(registry),
    logger: silentLogger,
    reconciliationPeriodMs: options.reconciliationPeriodMs ?? 10_000,
    ...(options.now !== undefined ? { now: options.now } : {}),
  });
  kube.clearActions();
  return { kube, cloud, controller, registry };
}

/** Sorted `node cidr [addresses]` lines, for order-insensitive route set comparison. */
export function describeRoutes(routes: readonly Route[]): string[] {
  return routes
    .map((route) => `${route.targetNode} ${route.destinationCidr} [${(route.targetNodeAddresses ?? []).map((address) => `${address.type}=${address.address}`).sort().join(',')}]${route.blackhole ? ' blackhole' : ''}`)
    .sort();
}
