/**
 * Ports of upstream controllers/route/route_controller_test.go (TestReconcile,
 * TestUpdateNetworkingCondition, the Calico scenario) plus the concurrency, ordering, event and
 * start-condition rules, over InMemoryKubeAccess and FakeRoutes.
 */
import { InMemoryKubeAccess } from '@ccm/testing/kube';
import type { V1Node } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { Route } from '../../provider/routes.js';
import { createTestControllerContext } from '../service/test-support/controller-context.js';
import { fakeCloudProvider } from '../test-support/fake-cloud.js';
import { metricValue } from '../service/test-support/service-harness.js';
import { createRouteController, MAX_CONCURRENT_ROUTE_OPERATIONS, parseClusterCidrs, RouteController } from './route-controller.js';
import { FakeRoutes } from '../test-support/fake-routes.js';
import { createRouteHarness, describeRoutes, ROUTE_TEST_CLUSTER } from './test-support/route-harness.js';

const cluster = ROUTE_TEST_CLUSTER;
const internal = (address: string) => [{ type: 'InternalIP' as const, address }];
const makeRouteNode = (name: string, uid: string, podCIDRs: string[], address: string): V1Node => ({
  metadata: { name, uid },
  spec: podCIDRs.length > 0 ? { podCIDR: podCIDRs[0], podCIDRs } : {},
  status: { addresses: internal(address) },
});
const node1 = makeRouteNode('node-1', '01', ['10.120.0.0/24'], '10.0.1.1');
const node2 = makeRouteNode('node-2', '02', ['10.120.1.0/24'], '10.0.2.1');
const nodeNoCidr = makeRouteNode('node-2', '02', [], '10.0.5.1');
const node3 = makeRouteNode('node-3', '03', ['10.120.0.0/24', 'a00:100::/24'], '10.0.3.1');
const node4 = makeRouteNode('node-4', '04', ['10.120.1.0/24', 'a00:200::/24'], '10.0.4.1');
const nodeDuplicateCidr = makeRouteNode('node-4', '04', ['10.120.1.0/24', '10.120.1.0/24'], '10.0.4.1');

const r = (name: string, targetNode: string, destinationCidr: string, address: string | undefined, extra: Partial<Route> = {}): Route => ({
  name: `${cluster}-${name}`,
  targetNode,
  destinationCidr,
  ...(address !== undefined ? { targetNodeAddresses: internal(address) } : {}),
  ...extra,
});
const withAddresses = { enableNodeAddresses: true };

const dualStackAllRoutes = [
  r('01', 'node-3', '10.120.0.0/24', '10.0.3.1'),
  r('02', 'node-4', '10.120.1.0/24', '10.0.4.1'),
  r('03', 'node-3', 'a00:100::/24', '10.0.3.1'),
  r('04', 'node-4', 'a00:200::/24', '10.0.4.1'),
];
const singleStackRoutes = [r('01', 'node-1', '10.120.0.0/24', '10.0.1.1'), r('02', 'node-2', '10.120.1.0/24', '10.0.2.1')];

interface ReconcileCase {
  description: string;
  nodes: V1Node[];
  initialRoutes: Route[];
  expectedRoutes: Route[];
  /** NetworkUnavailable status per node name after the reconcile (absent: no condition written). */
  expectedNetworkUnavailable: Record<string, 'True' | 'False' | undefined>;
  dualStack?: boolean;
  expectFailedCreate?: boolean;
}

const cases: ReconcileCase[] = [
  {
    description: 'routes have no TargetNodeAddresses at the beginning',
    dualStack: true,
    nodes: [node3, node4],
    initialRoutes: [
      r('01', 'node-3', '10.120.0.0/24', undefined, withAddresses),
      r('02', 'node-4', '10.120.1.0/24', undefined, withAddresses),
      r('03', 'node-3', 'a00:100::/24', undefined, withAddresses),
      r('04', 'node-4', 'a00:200::/24', undefined, withAddresses),
    ],
    expectedRoutes: dualStackAllRoutes,
    expectedNetworkUnavailable: { 'node-3': 'False', 'node-4': 'False' },
  },
  {
    description: "routes' TargetNodeAddresses changed",
    dualStack: true,
    nodes: [node3, node4],
    initialRoutes: [
      r('01', 'node-3', '10.120.0.0/24', '10.0.13.1', withAddresses),
      r('02', 'node-4', '10.120.1.0/24', '10.0.14.1', withAddresses),
      r('03', 'node-3', 'a00:100::/24', '10.0.13.1', withAddresses),
      r('04', 'node-4', 'a00:200::/24', '10.0.14.1', withAddresses),
    ],
    expectedRoutes: dualStackAllRoutes,
    expectedNetworkUnavailable: { 'node-3': 'False', 'node-4': 'False' },
  },
  { description: 'multicidr 2 nodes and no routes', dualStack: true, nodes: [node3, node4], initialRoutes: [], expectedRoutes: dualStackAllRoutes, expectedNetworkUnavailable: { 'node-3': 'False', 'node-4': 'False' } },
  {
    description: 'multicidr 2 nodes and all routes created',
    dualStack: true,
    nodes: [node3, node4],
    initialRoutes: dualStackAllRoutes,
    expectedRoutes: dualStackAllRoutes,
    expectedNetworkUnavailable: { 'node-3': 'False', 'node-4': 'False' },
  },
  {
    description: 'multicidr 2 nodes and few wrong routes',
    dualStack: true,
    nodes: [node3, node4],
    initialRoutes: [
      r('01', 'node-3', '10.120.1.0/24', '10.0.3.1'),
      r('02', 'node-4', '10.120.0.0/24', '10.0.4.1'),
      r('03', 'node-3', 'a00:200::/24', '10.0.3.1'),
      r('04', 'node-4', 'a00:100::/24', '10.0.4.1'),
    ],
    expectedRoutes: dualStackAllRoutes,
    expectedNetworkUnavailable: { 'node-3': 'False', 'node-4': 'False' },
  },
  {
    description: 'multicidr 2 nodes and some routes created',
    dualStack: true,
    nodes: [node3, node4],
    initialRoutes: [r('01', 'node-3', '10.120.0.0/24', '10.0.3.1'), r('04', 'node-4', 'a00:200::/24', '10.0.4.1')],
    expectedRoutes: dualStackAllRoutes,
    expectedNetworkUnavailable: { 'node-3': 'False', 'node-4': 'False' },
  },
  {
    description: 'multicidr 2 nodes and too many routes',
    dualStack: true,
    nodes: [node3, node4],
    initialRoutes: [
      r('01', 'node-3', '10.120.0.0/24', '10.0.3.1'),
      r('02', 'node-4', '10.120.1.0/24', '10.0.4.1'),
      r('001', 'node-x', '10.120.2.0/24', '10.0.5.1'),
      r('03', 'node-3', 'a00:100::/24', '10.0.3.1'),
      r('04', 'node-4', 'a00:200::/24', '10.0.4.1'),
      r('0002', 'node-y', 'a00:300::/24', '10.0.6.1'),
    ],
    expectedRoutes: dualStackAllRoutes,
    expectedNetworkUnavailable: { 'node-3': 'False', 'node-4': 'False' },
  },
  { description: 'single cidr 2 nodes and routes created', nodes: [node1, node2], initialRoutes: singleStackRoutes, expectedRoutes: singleStackRoutes, expectedNetworkUnavailable: { 'node-1': 'False', 'node-2': 'False' } },
  {
    description: 'single cidr node ips changed so routes should be updated',
    nodes: [node1, node2],
    initialRoutes: [r('01', 'node-1', '10.120.0.0/24', '10.0.1.2', withAddresses), r('02', 'node-2', '10.120.1.0/24', '10.0.2.2', withAddresses)],
    expectedRoutes: singleStackRoutes,
    expectedNetworkUnavailable: { 'node-1': 'False', 'node-2': 'False' },
  },
  {
    description: 'single cidr 2 nodes and one route created',
    nodes: [node1, node2],
    initialRoutes: [r('01', 'node-1', '10.120.0.0/24', '10.0.1.1')],
    expectedRoutes: singleStackRoutes,
    expectedNetworkUnavailable: { 'node-1': 'False', 'node-2': 'False' },
  },
  { description: 'single cidr 2 nodes and no routes', nodes: [node1, node2], initialRoutes: [], expectedRoutes: singleStackRoutes, expectedNetworkUnavailable: { 'node-1': 'False', 'node-2': 'False' } },
  {
    description: 'single cidr 2 nodes and too many routes',
    nodes: [node1, node2],
    initialRoutes: [...singleStackRoutes, r('03', 'node-3', '10.120.2.0/24', '10.0.3.1'), r('04', 'node-4', '10.120.3.0/24', '10.0.4.1')],
    expectedRoutes: singleStackRoutes,
    expectedNetworkUnavailable: { 'node-1': 'False', 'node-2': 'False' },
  },
  {
    description: 'single cidr 2 nodes and 2 routes with 1 incorrect',
    nodes: [node1, node2],
    initialRoutes: [r('01', 'node-1', '10.120.0.0/24', '10.0.1.1'), r('03', 'node-3', '10.120.2.0/24', '10.0.2.1')],
    expectedRoutes: singleStackRoutes,
    expectedNetworkUnavailable: { 'node-1': 'False', 'node-2': 'False' },
  },
  {
    description: 'single cidr 2 nodes and one node without cidr assigned',
    nodes: [node1, nodeNoCidr],
    initialRoutes: [],
    expectedRoutes: [r('01', 'node-1', '10.120.0.0/24', '10.0.1.1')],
    expectedNetworkUnavailable: { 'node-1': 'False', 'node-2': undefined },
  },
  {
    description: 'single cidr 2 nodes and an extra blackhole route in our range',
    nodes: [node1, node2],
    initialRoutes: [...singleStackRoutes, r('03', '', '10.120.2.0/24', '10.0.100.1', { blackhole: true })],
    expectedRoutes: singleStackRoutes,
    expectedNetworkUnavailable: { 'node-1': 'False', 'node-2': 'False' },
  },
  {
    description: 'single cidr 2 nodes and an extra blackhole route not in our range',
    nodes: [node1, node2],
    initialRoutes: [...singleStackRoutes, r('03', '', '10.1.2.0/24', '10.0.100.1', { blackhole: true })],
    expectedRoutes: [...singleStackRoutes, r('03', '', '10.1.2.0/24', '10.0.100.1', { blackhole: true })],
    expectedNetworkUnavailable: { 'node-1': 'False', 'node-2': 'False' },
  },
  {
    description: 'duplicate pod cidr',
    nodes: [nodeDuplicateCidr],
    initialRoutes: [],
    expectedRoutes: [r('x', 'node-4', '10.120.1.0/24', '10.0.4.1')],
    expectedNetworkUnavailable: { 'node-4': 'False' },
    expectFailedCreate: true,
  },
];

describe('TestReconcile', () => {
  it.each(cases)('$description', async (testCase) => {
    const { kube, cloud, controller } = createRouteHarness({ nodes: testCase.nodes, routes: testCase.initialRoutes, dualStack: testCase.dualStack ?? false });
    await controller.reconcile(kube.listNodes(), cloud.snapshot(cluster));

    expect(describeRoutes(cloud.snapshot(cluster))).toEqual(describeRoutes(testCase.expectedRoutes));
    for (const [name, status] of Object.entries(testCase.expectedNetworkUnavailable)) {
      const condition = kube.getNode(name)?.status?.conditions?.find((candidate) => candidate.type === 'NetworkUnavailable');
      if (status === undefined) {
        expect(condition, name).toBeUndefined();
        continue;
      }
      expect(condition, name).toMatchObject({
        status,
        reason: status === 'False' ? 'RouteCreated' : 'NoRouteCreated',
        message: status === 'False' ? 'RouteController created a route' : 'RouteController failed to create a route',
      });
    }
    const failures = kube.eventLog.find({ reason: 'FailedToCreateRoute' });
    expect(failures.length > 0).toBe(testCase.expectFailedCreate ?? false);
    for (const event of kube.eventLog.events) {
      expect(event.involvedObject.apiVersion).toBe('v1');
      expect(event.component).toBe('route_controller');
    }
    // Name hints are node UIDs; only nodes with CIDRs get creates.
    for (const hint of cloud.nameHints) expect(testCase.nodes.map((node) => node.metadata?.uid)).toContain(hint);
  });

  it('a failed create leaves NetworkUnavailable True/NoRouteCreated and emits FailedToCreateRoute on the Node', async () => {
    const { kube, cloud, controller } = createRouteHarness({ nodes: [node1, node2] });
    cloud.createError = (route) => (route.targetNode === 'node-2' ? new Error('quota exceeded') : undefined);
    await controller.reconcile(kube.listNodes(), []);
    const conditionOf = (name: string) => kube.getNode(name)?.status?.conditions?.find((candidate) => candidate.type === 'NetworkUnavailable');
    expect(conditionOf('node-1')).toMatchObject({ status: 'False', reason: 'RouteCreated' });
    expect(conditionOf('node-2')).toMatchObject({ status: 'True', reason: 'NoRouteCreated' });
    const [event] = kube.eventLog.find({ reason: 'FailedToCreateRoute' });
    expect(event?.type).toBe('Warning');
    expect(event?.involvedObject).toEqual({ apiVersion: 'v1', kind: 'Node', name: 'node-2', uid: 'node-2' });
    expect(event?.message).toMatch(/^Could not create route 02 10\.120\.1\.0\/24 for node node-2 after [0-9.]+(ns|µs|ms|s): quota exceeded$/);
  });

  it('a node with routes but no pod CIDR gets NetworkUnavailable True and its route deleted', async () => {
    const { kube, cloud, controller } = createRouteHarness({ nodes: [nodeNoCidr], routes: [r('02', 'node-2', '10.120.1.0/24', '10.0.2.1')] });
    await controller.reconcile(kube.listNodes(), cloud.snapshot(cluster));
    expect(cloud.snapshot(cluster)).toEqual([]);
    expect(kube.getNode('node-2')?.status?.conditions?.find((candidate) => candidate.type === 'NetworkUnavailable')).toMatchObject({ status: 'True', reason: 'NoRouteCreated' });
  });

  it('never deletes routes outside the cluster CIDRs, even for unknown nodes', async () => {
    const foreign = [r('f1', 'other-node', '192.168.0.0/24', '1.1.1.1'), r('f2', '', '10.121.0.0/24', undefined)];
    const { kube, cloud, controller } = createRouteHarness({ nodes: [node1], routes: foreign });
    await controller.reconcile(kube.listNodes(), cloud.snapshot(cluster));
    expect(cloud.calls.filter((call) => call === 'delete-route')).toEqual([]);
    expect(describeRoutes(cloud.snapshot(cluster))).toEqual(describeRoutes([...foreign, r('01', 'node-1', '10.120.0.0/24', '10.0.1.1')]));
  });

  it('runs every delete before any create when the provider reports node addresses', async () => {
    const { kube, cloud, controller } = createRouteHarness({
      nodes: [node1, node2],
      routes: [r('01', 'node-1', '10.120.0.0/24', '10.0.1.9', withAddresses), r('02', 'node-2', '10.120.1.0/24', '10.0.2.9', withAddresses)],
    });
    cloud.operationDelayMs = 2;
    await controller.reconcile(kube.listNodes(), cloud.snapshot(cluster));
    expect(cloud.calls).toEqual(['delete-route', 'delete-route', 'create-route', 'create-route']);
  });

  it(`keeps at most ${MAX_CONCURRENT_ROUTE_OPERATIONS} route operations in flight`, async () => {
    const nodes = Array.from({ length: 450 }, (_unused, index) => makeRouteNode(`n${index}`, `uid-${index}`, [`10.120.${index % 250}.${index < 250 ? 0 : 128}/25`], `10.0.${Math.floor(index / 250)}.${index % 250}`));
    const { kube, cloud, controller } = createRouteHarness({ nodes });
    cloud.operationDelayMs = 1;
    await controller.reconcile(kube.listNodes(), []);
    expect(cloud.snapshot(cluster)).toHaveLength(450);
    expect(cloud.maxInFlight).toBe(MAX_CONCURRENT_ROUTE_OPERATIONS);
  });

  it('reconcileNodeRoutes counts syncs and fails only when listing routes fails', async () => {
    const { kube, cloud, controller, registry } = createRouteHarness({ nodes: [node1] });
    await controller.reconcileNodeRoutes();
    expect(cloud.snapshot(cluster)).toHaveLength(1);
    cloud.listError = new Error('throttled');
    await expect(controller.reconcileNodeRoutes()).rejects.toThrow('error listing routes: throttled');
    expect(await metricValue(registry, 'route_controller_route_sync_total')).toBe(2);
    expect(kube.eventLog.events).toEqual([]);
  });

  it('logs and survives failed deletes', async () => {
    const { kube, cloud, controller } = createRouteHarness({ nodes: [node1], routes: [r('x', 'gone', '10.120.7.0/24', undefined)] });
    cloud.deleteError = () => new Error('cannot delete');
    await expect(controller.reconcile(kube.listNodes(), cloud.snapshot(cluster))).resolves.toBeUndefined();
    expect(cloud.snapshot(cluster)).toHaveLength(2);
  });
});

describe('TestUpdateNetworkingCondition', () => {
  const now = () => new Date('2026-03-04T05:06:07Z');
  const nodeWithCondition = (condition?: { status: string; reason: string }): V1Node => ({
    ...node1,
    status: { ...node1.status, conditions: condition === undefined ? [] : [{ type: 'NetworkUnavailable', ...condition }, { type: 'Ready', status: 'True' }] },
  });

  it.each([
    ['no condition, routes created: patched', undefined, true, true, 'False', 'RouteCreated'],
    ['no condition, routes not created: patched', undefined, false, true, 'True', 'NoRouteCreated'],
    ['same status and reason (created): skipped', { status: 'False', reason: 'RouteCreated' }, true, false, 'False', 'RouteCreated'],
    ['same status and reason (not created): skipped', { status: 'True', reason: 'NoRouteCreated' }, false, false, 'True', 'NoRouteCreated'],
    ['same status but reason CalicoIsUp: patched', { status: 'False', reason: 'CalicoIsUp' }, true, true, 'False', 'RouteCreated'],
    ['transition False -> True', { status: 'False', reason: 'RouteCreated' }, false, true, 'True', 'NoRouteCreated'],
    ['transition True -> False', { status: 'True', reason: 'NoRouteCreated' }, true, true, 'False', 'RouteCreated'],
  ])('%s', async (_name, condition, routesCreated, expectPatch, status, reason) => {
    const { kube, controller } = createRouteHarness({ nodes: [nodeWithCondition(condition)], now });
    await controller.updateNetworkingCondition(kube.getNode('node-1')!, routesCreated);
    const patches = kube.actions.filter((action) => action.verb === 'patch');
    expect(patches.length).toBe(expectPatch ? 1 : 0);
    if (expectPatch) expect(patches[0]).toMatchObject({ resource: 'nodes', subresource: 'status', patchType: 'strategic' });
    const conditions = kube.getNode('node-1')?.status?.conditions ?? [];
    expect(conditions.find((candidate) => candidate.type === 'NetworkUnavailable')).toMatchObject({ status, reason });
    if (expectPatch) {
      expect(conditions.find((candidate) => candidate.type === 'NetworkUnavailable')?.lastTransitionTime).toEqual(now());
      // Other conditions survive the strategic merge by type.
      if (condition !== undefined) expect(conditions.find((candidate) => candidate.type === 'Ready')).toMatchObject({ status: 'True' });
    }
  });

  it('retries the patch on conflict', async () => {
    const { kube, controller } = createRouteHarness({ nodes: [node1] });
    const { KubeApiError } = await import('../../kube/kube-api-error.js');
    kube.failNext({ verb: 'patch', resource: 'nodes' }, new KubeApiError('conflict', 409, 'Conflict'), 2);
    await controller.updateNetworkingCondition(kube.getNode('node-1')!, true);
    expect(kube.actions.filter((action) => action.verb === 'patch')).toHaveLength(3);
    expect(kube.getNode('node-1')?.status?.conditions?.[0]).toMatchObject({ type: 'NetworkUnavailable', status: 'False' });
  });
});

describe('TestUpdateNetworkingConditionWithCalicoScenario', () => {
  it("overwrites Calico's False/CalicoIsUp once with RouteCreated, then leaves it alone", async () => {
    const calicoNode: V1Node = { ...node1, status: { ...node1.status, conditions: [{ type: 'NetworkUnavailable', status: 'False', reason: 'CalicoIsUp', message: 'Calico is running on this node' }] } };
    const { kube, cloud, controller } = createRouteHarness({ nodes: [calicoNode], routes: [r('01', 'node-1', '10.120.0.0/24', '10.0.1.1')] });
    await controller.reconcile(kube.listNodes(), cloud.snapshot(cluster));
    expect(kube.getNode('node-1')?.status?.conditions).toEqual([
      expect.objectContaining({ type: 'NetworkUnavailable', status: 'False', reason: 'RouteCreated', message: 'RouteController created a route' }),
    ]);
    expect(kube.actions.filter((action) => action.verb === 'patch')).toHaveLength(1);

    kube.clearActions();
    await controller.reconcile(kube.listNodes(), cloud.snapshot(cluster));
    expect(kube.actions.filter((action) => action.verb === 'patch')).toHaveLength(0);

    // Calico writes its condition again: the next reconcile takes it back.
    await kube.nodes.patchStatus('node-1', { status: { conditions: [{ type: 'NetworkUnavailable', status: 'False', reason: 'CalicoIsUp' }] } }, 'strategic');
    kube.clearActions();
    await controller.reconcile(kube.listNodes(), cloud.snapshot(cluster));
    expect(kube.actions.filter((action) => action.verb === 'patch')).toHaveLength(1);
    expect(kube.getNode('node-1')?.status?.conditions?.[0]?.reason).toBe('RouteCreated');
  });
});

describe('createRouteController', () => {
  const start = (config: Parameters<typeof createTestControllerContext>[2], routes: FakeRoutes | null = new FakeRoutes()) =>
    createRouteController(createTestControllerContext(fakeCloudProvider(routes === null ? {} : { routes }), new InMemoryKubeAccess(), config));

  it('is skipped when --configure-cloud-routes is false', () => {
    expect(start({ configureCloudRoutes: false, clusterCidrs: ['10.0.0.0/8'] })).toEqual({ skipped: 'Will not configure cloud provider routes, --configure-cloud-routes: false' });
  });

  it('is skipped when the provider has no Routes', () => {
    expect(start({ clusterCidrs: ['10.0.0.0/8'] }, null)).toEqual({
      skipped: 'configure-cloud-routes is set, but cloud provider does not support routes. Will not configure cloud provider routes.',
    });
  });

  it('does not depend on --allocate-node-cidrs (upstream since v1.21)', () => {
    expect(start({ allocateNodeCidrs: false, clusterCidrs: ['10.0.0.0/8'] })).toBeInstanceOf(RouteController);
  });

  it('fails (fatal) without cluster CIDRs or with invalid ones', () => {
    expect(() => start({ clusterCidrs: [] })).toThrow('RouteController: Must specify clusterCIDR.');
    expect(() => start({ clusterCidrs: ['10.0.0.0/33'] })).toThrow('invalid CIDR address: 10.0.0.0/33');
  });

  it('validates dual-stack pairs like processCIDRs', () => {
    expect(parseClusterCidrs(['10.0.0.0/8', 'fd00::/48'])).toHaveLength(2);
    expect(() => parseClusterCidrs(['10.0.0.0/8', '11.0.0.0/8'])).toThrow('not configured as dual stack');
    expect(() => parseClusterCidrs(['10.0.0.0/8', 'fd00::/48', '11.0.0.0/8'])).toThrow('length of clusterCIDRs is:3 more than max allowed of 2');
  });
});
