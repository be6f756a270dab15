/**
 * Ports of upstream `Test_NodesDeleted`, `Test_NodesShutdown` and `Test_GetProviderID`
 * (controllers/nodelifecycle/node_lifecycle_controller_test.go), plus events, concurrency and the
 * run loop. The fake cloud keeps upstream's defaults: `exists` and `shutdown` answer false.
 */
import type { V1Node } from '@kubernetes/client-node';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TAINT_SHUTDOWN } from '../../api/well-known.js';
import { KubeApiError } from '../../kube/kube-api-error.js';
import { InstanceNotFoundError, NotImplementedError } from '../../provider/cloud-errors.js';
import { FakeCloud, type FakeCloudOptions } from '../test-support/fake-cloud.js';
import { createNodeTestContext, makeNode, type NodeSpecification } from '../node/test-support/node-test-context.js';
import {
  CloudNodeLifecycleController,
  createCloudNodeLifecycleController,
  NODE_LIFECYCLE_CHECK_CONCURRENCY,
} from './cloud-node-lifecycle-controller.js';

const noSleep = { sleep: async () => {} };
const shutdownTaint = { key: TAINT_SHUTDOWN, effect: 'NoSchedule' };

interface MonitorCase {
  name: string;
  cloud: FakeCloudOptions;
  node: NodeSpecification;
  expectedDeleted: boolean;
  /** Taints after the pass when the node is kept (default: unchanged). */
  expectedTaints?: Array<{ key: string; effect: string }>;
}

const view = (node: V1Node | undefined) => ({ labels: node?.metadata?.labels, spec: node?.spec, status: node?.status });

async function monitorOnce(testCase: MonitorCase) {
  const cloud = new FakeCloud(testCase.cloud);
  const harness = createNodeTestContext({ cloud });
  harness.kube.addNode(makeNode('node0', { creationTimestamp: new Date('2012-01-01T00:00:00Z'), ...testCase.node }));
  const before = view(harness.kube.getNode('node0'));
  const controller = new CloudNodeLifecycleController(harness.context, { retry: noSleep });
  await controller.monitorNodes();
  const after = harness.kube.getNode('node0');
  expect(after === undefined).toBe(testCase.expectedDeleted);
  if (!testCase.expectedDeleted) {
    const { spec: beforeSpec, ...beforeRest } = before;
    const { spec: afterSpec, ...afterRest } = view(after);
    expect(afterRest).toEqual(beforeRest);
    expect(afterSpec?.providerID).toEqual(beforeSpec?.providerID);
    expect(afterSpec?.taints ?? []).toEqual(testCase.expectedTaints ?? beforeSpec?.taints ?? []);
  }
  for (const event of harness.kube.eventLog.events) expect(event.involvedObject.apiVersion).toBe('v1');
  return { harness, cloud };
}

describe('Test_NodesDeleted (upstream)', () => {
  const v2 = (options: FakeCloudOptions): FakeCloudOptions => ({ enableInstancesV2: true, ...options });
  const cases: MonitorCase[] = [
    { name: 'node is not ready and does not exist', cloud: { exists: false }, node: { ready: 'False' }, expectedDeleted: true },
    {
      name: 'node is not ready and provider returns err',
      cloud: { exists: false, existsError: new Error('err!') },
      node: { ready: 'False', providerId: 'node0' },
      expectedDeleted: false,
    },
    { name: 'node is not ready but still exists', cloud: { exists: true }, node: { ready: 'False', providerId: 'node0' }, expectedDeleted: false },
    { name: "node ready condition is unknown, node doesn't exist", cloud: { exists: false }, node: { ready: 'Unknown' }, expectedDeleted: true },
    {
      name: 'node ready condition is unknown, node exists',
      cloud: { shutdown: false, exists: true, instanceIds: { node0: 'foo://12345' } },
      node: { ready: 'Unknown' },
      expectedDeleted: false,
    },
    {
      name: 'node is ready, but provider said it is deleted (maybe a bug in provider)',
      cloud: { exists: false },
      node: { ready: 'True', providerId: 'node0' },
      expectedDeleted: false,
    },
    { name: '[instancev2] node is not ready and does not exist', cloud: v2({ exists: false }), node: { ready: 'False' }, expectedDeleted: true },
    {
      name: '[instancev2] node is not ready and provider returns err',
      cloud: v2({ exists: false, existsError: new Error('err!') }),
      node: { ready: 'False', providerId: 'node0' },
      expectedDeleted: false,
    },
    { name: '[instancev2] node is not ready but still exists', cloud: v2({ exists: true }), node: { ready: 'False', providerId: 'node0' }, expectedDeleted: false },
    { name: "[instancev2] node ready condition is unknown, node doesn't exist", cloud: v2({ exists: false }), node: { ready: 'Unknown' }, expectedDeleted: true },
    {
      name: '[instancev2] node ready condition is unknown, node exists',
      cloud: v2({ shutdown: false, exists: true, instanceIds: { node0: 'foo://12345' } }),
      node: { ready: 'Unknown' },
      expectedDeleted: false,
    },
    {
      name: '[instancev2] node is ready, but provider said it is deleted (maybe a bug in provider)',
      cloud: v2({ exists: false }),
      node: { ready: 'True', providerId: 'node0' },
      expectedDeleted: false,
    },
    // Checklist additions.
    { name: 'node without a Ready condition counts as Unknown', cloud: { exists: false }, node: {}, expectedDeleted: true },
    {
      name: '[instancev2] InstanceNotFound returned as an error is an error, not "gone" (kubernetes/kubernetes#141364)',
      cloud: v2({ existsError: new InstanceNotFoundError() }),
      node: { ready: 'False', providerId: 'fake://1' },
      expectedDeleted: false,
    },
    {
      name: 'control-plane nodes are not excluded',
      cloud: { exists: false },
      node: { ready: 'False', labels: { 'node-role.kubernetes.io/control-plane': '' } },
      expectedDeleted: true,
    },
  ];
  it.each(cases)('$name', async (testCase) => {
    await monitorOnce(testCase);
  });
});

describe('Test_NodesShutdown (upstream)', () => {
  const cases: MonitorCase[] = [
    {
      name: 'node is not ready and was shutdown, but exists',
      cloud: { shutdown: true, exists: true },
      node: { ready: 'False', providerId: 'node0' },
      expectedDeleted: false,
      expectedTaints: [shutdownTaint],
    },
    {
      name: 'node with empty spec providerID is not ready and was shutdown, but exists',
      cloud: { shutdown: true, exists: true, instanceIds: { node0: 'foo://12345' } },
      node: { ready: 'False' },
      expectedDeleted: false,
      expectedTaints: [shutdownTaint],
    },
    {
      name: 'node with non-existing providerID (missing in cloud provider) gets deleted',
      cloud: { instanceIds: { node0: '' } },
      node: { ready: 'False' },
      expectedDeleted: true,
    },
    {
      name: 'node with error when getting providerID does not have shutdown taint',
      cloud: { instanceIdErrors: { node0: new Error('err!') } },
      node: { ready: 'False' },
      expectedDeleted: false,
      expectedTaints: [],
    },
    {
      name: 'node with InstanceID returning InstanceNotFound gets deleted',
      cloud: { instanceIdErrors: { node0: new InstanceNotFoundError() } },
      node: { ready: 'False' },
      expectedDeleted: true,
    },
    {
      // As upstream: the fake's exists defaults to false, so the node is deleted before the shutdown check.
      name: 'node is not ready, but there is error checking if node is shutdown',
      cloud: { shutdown: false, shutdownError: new Error('err!') },
      node: { ready: 'False' },
      expectedDeleted: true,
    },
    {
      name: 'node is not ready and is not shutdown',
      cloud: { shutdown: false },
      node: { ready: 'False' },
      expectedDeleted: true,
    },
    {
      name: "node is ready but provider says it's shutdown (maybe a bug by provider)",
      cloud: { shutdown: true },
      node: { ready: 'True' },
      expectedDeleted: false,
      expectedTaints: [],
    },
    {
      name: 'node is shutdown but provider says it does not exist',
      cloud: { shutdown: true, exists: false },
      node: { ready: 'Unknown' },
      expectedDeleted: true,
    },
    // The same scenarios with an instance that exists, so the shutdown check itself decides.
    {
      name: 'existing node, error checking if it is shutdown: no taint',
      cloud: { exists: true, shutdownError: new Error('err!') },
      node: { ready: 'False' },
      expectedDeleted: false,
      expectedTaints: [],
    },
    {
      name: 'existing node that is not shutdown: no taint',
      cloud: { exists: true, shutdown: false },
      node: { ready: 'False' },
      expectedDeleted: false,
      expectedTaints: [],
    },
    {
      name: 'existing node, InstanceShutdownByProviderID not implemented: not shut down',
      cloud: { exists: true, shutdownError: new NotImplementedError() },
      node: { ready: 'False', providerId: 'fake://1' },
      expectedDeleted: false,
      expectedTaints: [],
    },
    {
      name: '[instancev2] existing node that is shut down gets the taint',
      cloud: { enableInstancesV2: true, exists: true, shutdown: true },
      node: { ready: 'Unknown' },
      expectedDeleted: false,
      expectedTaints: [shutdownTaint],
    },
    {
      name: 'shutdown taint already present: kept as is',
      cloud: { exists: true, shutdown: true },
      node: { ready: 'False', providerId: 'fake://1', taints: [{ key: 'other', effect: 'NoExecute' }, shutdownTaint] },
      expectedDeleted: false,
    },
    {
      name: 'ready node: the shutdown taint is removed, other taints kept',
      cloud: { exists: true, shutdown: true },
      node: { ready: 'True', taints: [{ key: 'other', effect: 'NoExecute' }, shutdownTaint] },
      expectedDeleted: false,
      expectedTaints: [{ key: 'other', effect: 'NoExecute' }],
    },
    {
      // Upstream removes the taint only once the node is Ready again.
      name: 'not-ready node that is no longer shut down keeps the taint until Ready',
      cloud: { exists: true, shutdown: false },
      node: { ready: 'False', providerId: 'fake://1', taints: [shutdownTaint] },
      expectedDeleted: false,
    },
  ];
  it.each(cases)('$name', async (testCase) => {
    await monitorOnce(testCase);
  });

  it('makes no cloud call and no write for a Ready node without the taint', async () => {
    const { harness, cloud } = await monitorOnce({ name: '', cloud: { exists: false }, node: { ready: 'True' }, expectedDeleted: false });
    expect(cloud.calls).toEqual([]);
    expect(harness.kube.actions).toEqual([]);
  });
});

describe('Test_GetProviderID (upstream)', () => {
  const cases: Array<{ name: string; cloud: FakeCloudOptions; providerId?: string; expected: string; error?: string }> = [
    { name: 'node initialized with provider ID', cloud: {}, providerId: 'fake://12345', expected: 'fake://12345' },
    { name: 'node initialized with provider ID with InstancesV2', cloud: { enableInstancesV2: true }, providerId: 'fake://12345', expected: 'fake://12345' },
    { name: 'cloud implemented with Instances', cloud: { instanceIds: { node0: '12345' } }, expected: 'fake://12345' },
    { name: 'cloud implemented with InstancesV2', cloud: { enableInstancesV2: true, providerIds: { node0: 'fake://12345' } }, expected: 'fake://12345' },
    { name: 'cloud implemented with InstancesV2 (without providerID)', cloud: { enableInstancesV2: true }, expected: '' },
    {
      name: 'cloud implemented with Instances with instance missing',
      cloud: { instanceIdErrors: { node0: new InstanceNotFoundError() } },
      expected: '',
      error: 'instance not found',
    },
    {
      name: 'cloud implemented with Instances with unknown error',
      cloud: { instanceIdErrors: { node0: new Error('unknown error') } },
      expected: '',
      error: 'failed to get instance ID from cloud provider: unknown error',
    },
  ];
  it.each(cases)('$name', async ({ cloud: cloudOptions, providerId, expected, error }) => {
    const harness = createNodeTestContext({ cloud: new FakeCloud(cloudOptions) });
    const controller = new CloudNodeLifecycleController(harness.context);
    const result = controller.getProviderId(makeNode('node0', providerId === undefined ? {} : { providerId }));
    if (error === undefined) expect(await result).toBe(expected);
    else await expect(result).rejects.toThrow(error);
  });

  it('passes InstanceNotFound through by kind', async () => {
    const harness = createNodeTestContext({ cloud: new FakeCloud({ instanceIdErrors: { node0: new InstanceNotFoundError() } }) });
    const controller = new CloudNodeLifecycleController(harness.context);
    await expect(controller.getProviderId(makeNode('node0'))).rejects.toBeInstanceOf(InstanceNotFoundError);
  });
});

describe('CloudNodeLifecycleController events', () => {
  it('records Normal DeletingNode on a v1 Node reference before deleting', async () => {
    const { harness } = await monitorOnce({ name: '', cloud: { exists: false }, node: { ready: 'False' }, expectedDeleted: true });
    expect(harness.kube.eventLog.events).toMatchObject([
      {
        component: 'cloud-node-lifecycle-controller',
        type: 'Normal',
        reason: 'DeletingNode',
        message: 'Deleting node node0 because it does not exist in the cloud provider',
        involvedObject: { apiVersion: 'v1', kind: 'Node', name: 'node0', uid: expect.any(String) },
      },
    ]);
  });

  it('records Warning DeletingNodeFailed when the delete fails', async () => {
    const cloud = new FakeCloud({ exists: false });
    const harness = createNodeTestContext({ cloud });
    harness.kube.addNode(makeNode('node0', { ready: 'False' }));
    harness.kube.failNext({ verb: 'delete' }, new KubeApiError('nodes "node0" is forbidden', 403, 'Forbidden'));
    await new CloudNodeLifecycleController(harness.context).monitorNodes();
    expect(harness.kube.getNode('node0')).toBeDefined();
    expect(harness.kube.eventLog.events.map((event) => [event.type, event.reason, event.message])).toEqual([
      ['Normal', 'DeletingNode', 'Deleting node node0 because it does not exist in the cloud provider'],
      ['Warning', 'DeletingNodeFailed', 'Failed deleting node node0: nodes "node0" is forbidden'],
    ]);
  });
});

describe('CloudNodeLifecycleController concurrency and loop', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it(`checks not-ready nodes concurrently, at most NODE_LIFECYCLE_CHECK_CONCURRENCY (${NODE_LIFECYCLE_CHECK_CONCURRENCY}) at once`, async () => {
    vi.useFakeTimers();
    const cloud = new FakeCloud({ enableInstancesV2: true, exists: true, shutdown: true, requestDelayMs: 10 });
    const harness = createNodeTestContext({ cloud });
    for (let index = 0; index < 35; index++) harness.kube.addNode(makeNode(`node${index}`, { ready: 'False' }));
    const pass = new CloudNodeLifecycleController(harness.context, { retry: noSleep }).monitorNodes();
    await vi.runAllTimersAsync();
    await pass;
    expect(cloud.maxInFlight).toBe(NODE_LIFECYCLE_CHECK_CONCURRENCY);
    expect(cloud.callCount('instance-exists')).toBe(35);
    expect(cloud.callCount('instance-shutdown')).toBe(35);
    expect(harness.kube.listNodes().every((node) => node.spec?.taints?.some((taint) => taint.key === TAINT_SHUTDOWN))).toBe(true);
  });

  it('one failing node does not stop the others', async () => {
    const cloud = new FakeCloud({ exists: false, instanceIdErrors: { bad: new Error('boom') } });
    const harness = createNodeTestContext({ cloud });
    harness.kube.addNode(makeNode('bad', { ready: 'False' }));
    harness.kube.addNode(makeNode('gone', { ready: 'False' }));
    await new CloudNodeLifecycleController(harness.context).monitorNodes();
    expect(harness.kube.getNode('bad')).toBeDefined();
    expect(harness.kube.getNode('gone')).toBeUndefined();
    expect(harness.logger.messages('error')).toContain('error checking if node bad exists: failed to get instance ID from cloud provider: boom');
  });

  it('runs every --node-monitor-period until aborted', async () => {
    const cloud = new FakeCloud({ enableInstancesV2: true, exists: true });
    const harness = createNodeTestContext({ cloud, config: { nodeMonitorPeriodMs: 5 } });
    harness.kube.addNode(makeNode('node0', { ready: 'False' }));
    const controller = createCloudNodeLifecycleController(harness.context) as CloudNodeLifecycleController;
    expect(controller.name).toBe('cloud-node-lifecycle-controller');
    const abort = new AbortController();
    const running = controller.run(abort.signal);
    const deadline = Date.now() + 2_000;
    while (cloud.callCount('instance-exists') < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 2));
    expect(cloud.callCount('instance-exists')).toBeGreaterThanOrEqual(3);
    abort.abort();
    await running;
    const calls = cloud.callCount('instance-exists');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(cloud.callCount('instance-exists')).toBe(calls);
  });

  it('is skipped when the cloud supports neither Instances nor InstancesV2', () => {
    const harness = createNodeTestContext({ cloud: new FakeCloud({ enableInstances: false }) });
    expect(createCloudNodeLifecycleController(harness.context)).toEqual({ skipped: 'cloud provider does not support instances' });
  });
});
