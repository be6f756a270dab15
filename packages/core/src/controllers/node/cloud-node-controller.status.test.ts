/**
 * Ports of upstream `Test_reconcileNodeLabels`, `TestNodeAddressesNotUpdate(V2)` and
 * `TestUpdateNodeStatus`, plus the periodic address refresh rules.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ANNOTATION_PROVIDED_NODE_IP } from '../../api/well-known.js';
import type { NodeAddress } from '../../provider/node-address.js';
import { CloudNodeController, statusUpdateWorkerCount } from './cloud-node-controller.js';
import { FakeCloud, type FakeCloudOptions } from '../test-support/fake-cloud.js';
import { createNodeTestContext, makeNode, UNINITIALIZED_TAINT, type NodeSpecification } from './test-support/node-test-context.js';

const noSleep = { sleep: async () => {} };
const cloudAddresses: NodeAddress[] = [
  { type: 'InternalIP', address: '10.0.0.1' },
  { type: 'ExternalIP', address: '132.143.154.163' },
];

function setup(cloudOptions: FakeCloudOptions, nodes: Record<string, NodeSpecification>, config: Parameters<typeof createNodeTestContext>[0]['config'] = {}) {
  const cloud = new FakeCloud(cloudOptions);
  const harness = createNodeTestContext({ cloud, config });
  for (const [name, specification] of Object.entries(nodes)) harness.kube.addNode(makeNode(name, specification));
  harness.kube.clearActions();
  const controller = new CloudNodeController(harness.context, { retry: noSleep });
  return { cloud, harness, controller };
}

describe('Test_reconcileNodeLabels (upstream)', () => {
  const cases: Array<{ name: string; labels: Record<string, string>; expected: Record<string, string>; writes: number }> = [
    {
      name: 'requires reconcile',
      labels: { 'failure-domain.beta.kubernetes.io/zone': 'foo', 'failure-domain.beta.kubernetes.io/region': 'bar', 'beta.kubernetes.io/instance-type': 'the-best-type' },
      expected: {
        'failure-domain.beta.kubernetes.io/zone': 'foo',
        'failure-domain.beta.kubernetes.io/region': 'bar',
        'beta.kubernetes.io/instance-type': 'the-best-type',
        'topology.kubernetes.io/zone': 'foo',
        'topology.kubernetes.io/region': 'bar',
        'node.kubernetes.io/instance-type': 'the-best-type',
      },
      writes: 1,
    },
    {
      name: "doesn't require reconcile",
      labels: {
        'failure-domain.beta.kubernetes.io/zone': 'foo',
        'topology.kubernetes.io/zone': 'foo',
        'failure-domain.beta.kubernetes.io/region': 'bar',
        'topology.kubernetes.io/region': 'bar',
        'beta.kubernetes.io/instance-type': 'the-best-type',
        'node.kubernetes.io/instance-type': 'the-best-type',
      },
      expected: {
        'failure-domain.beta.kubernetes.io/zone': 'foo',
        'topology.kubernetes.io/zone': 'foo',
        'failure-domain.beta.kubernetes.io/region': 'bar',
        'topology.kubernetes.io/region': 'bar',
        'beta.kubernetes.io/instance-type': 'the-best-type',
        'node.kubernetes.io/instance-type': 'the-best-type',
      },
      writes: 0,
    },
    {
      name: 'require reconcile -- secondary labels are different from primary',
      labels: {
        'failure-domain.beta.kubernetes.io/zone': 'foo',
        'topology.kubernetes.io/zone': 'wrongfoo',
        'failure-domain.beta.kubernetes.io/region': 'bar',
        'topology.kubernetes.io/region': 'wrongbar',
        'beta.kubernetes.io/instance-type': 'the-best-type',
        'node.kubernetes.io/instance-type': 'the-wrong-type',
      },
      expected: {
        'failure-domain.beta.kubernetes.io/zone': 'foo',
        'topology.kubernetes.io/zone': 'foo',
        'failure-domain.beta.kubernetes.io/region': 'bar',
        'topology.kubernetes.io/region': 'bar',
        'beta.kubernetes.io/instance-type': 'the-best-type',
        'node.kubernetes.io/instance-type': 'the-best-type',
      },
      writes: 1,
    },
  ];
  it.each(cases)('$name', async ({ labels, expected, writes }) => {
    const { harness, controller, cloud } = setup({ enableInstancesV2: true }, { node01: { labels } });
    await controller.syncNode('node01');
    expect(harness.kube.getNode('node01')?.metadata?.labels).toEqual(expected);
    expect(harness.kube.actions.filter((action) => action.verb === 'patch')).toHaveLength(writes);
    expect(cloud.calls).toEqual([]);
  });

  it('enqueues initialized nodes only when their labels need reconciling', () => {
    const { harness } = setup({ enableInstancesV2: true }, {
      consistent: { labels: { 'beta.kubernetes.io/instance-type': 'a', 'node.kubernetes.io/instance-type': 'a' } },
      inconsistent: { labels: { 'beta.kubernetes.io/instance-type': 'a' } },
      tainted: { taints: [UNINITIALIZED_TAINT] },
    });
    expect(harness.queues[0]?.name).toBe('Nodes');
    expect([...(harness.queues[0]?.added ?? [])].sort()).toEqual(['inconsistent', 'tainted']);
  });
});

describe.each([
  ['TestNodeAddressesNotUpdate (upstream): Instances v1', { addresses: cloudAddresses }],
  ['TestNodeAddressesNotUpdateV2 (upstream): InstancesV2', { enableInstancesV2: true, addresses: cloudAddresses }],
])('%s', (_name, cloudOptions: FakeCloudOptions) => {
  it("never patches a tainted node's addresses from the refresh loop", async () => {
    const kubeletAddresses = [{ type: 'InternalIP', address: '10.0.0.9' }];
    const { harness, controller, cloud } = setup(cloudOptions, { node0: { taints: [UNINITIALIZED_TAINT], addresses: kubeletAddresses } });
    await controller.updateNodeStatus();
    expect(harness.kube.getNode('node0')?.status?.addresses).toEqual(kubeletAddresses);
    expect(harness.kube.actions).toEqual([]);
    expect(cloud.calls).toEqual([]);
  });
});

describe('TestUpdateNodeStatus (upstream)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([1, 5, 10, 30])('100 nodes, %i workers, 10 ms cloud latency: exactly one cloud call per node', async (workers) => {
    vi.useFakeTimers();
    const nodes: Record<string, NodeSpecification> = {};
    for (let index = 0; index < 100; index++) nodes[`node${index}`] = { providerId: `fake://${index}` };
    const { controller, cloud, harness } = setup({ enableInstancesV2: true, addresses: cloudAddresses, requestDelayMs: 10 }, nodes, {
      concurrentNodeSyncs: workers,
    });
    const done = controller.updateNodeStatus();
    await vi.runAllTimersAsync();
    await done;
    for (let index = 0; index < 100; index++) expect(cloud.callCount('instance-metadata', `node${index}`)).toBe(1);
    expect(cloud.calls).toHaveLength(100);
    expect(cloud.maxInFlight).toBe(workers);
    expect(harness.kube.getNode('node42')?.status?.addresses).toEqual(cloudAddresses);
  });

  it('Instances v1 makes one address call per node and never fetches the instance type', async () => {
    const nodes: Record<string, NodeSpecification> = {};
    for (let index = 0; index < 20; index++) nodes[`node${index}`] = { providerId: `fake://${index}` };
    const { controller, cloud } = setup({ addresses: cloudAddresses }, nodes, { concurrentNodeSyncs: 4 });
    await controller.updateNodeStatus();
    expect(cloud.calls).toHaveLength(20);
    expect(cloud.calls.every((call) => call.method === 'node-addresses-by-provider-id')).toBe(true);
  });

  it('--concurrent-node-status-updates overrides --concurrent-node-syncs', async () => {
    expect(statusUpdateWorkerCount({ concurrentNodeStatusUpdates: 0, concurrentNodeSyncs: 3 })).toBe(3);
    expect(statusUpdateWorkerCount({ concurrentNodeStatusUpdates: 7, concurrentNodeSyncs: 3 })).toBe(7);
    const nodes: Record<string, NodeSpecification> = {};
    for (let index = 0; index < 20; index++) nodes[`node${index}`] = {};
    const { controller, cloud } = setup({ enableInstancesV2: true, addresses: cloudAddresses, requestDelayMs: 1 }, nodes, {
      concurrentNodeSyncs: 1,
      concurrentNodeStatusUpdates: 6,
    });
    await controller.updateNodeStatus();
    expect(cloud.maxInFlight).toBe(6);
  });
});

describe('periodic address refresh (updateNodeAddress rules)', () => {
  it('replaces the whole list so stale addresses vanish', async () => {
    const { harness, controller } = setup({ enableInstancesV2: true, addresses: [{ type: 'InternalIP', address: '10.0.0.2' }] }, {
      node0: {
        addresses: [
          { type: 'InternalIP', address: '10.0.0.1' },
          { type: 'ExternalIP', address: '1.1.1.1' },
          { type: 'InternalDNS', address: 'old.internal' },
        ],
      },
    });
    await controller.updateNodeStatus();
    expect(harness.kube.getNode('node0')?.status?.addresses).toEqual([{ type: 'InternalIP', address: '10.0.0.2' }]);
  });

  it('keeps the kubelet hostname and only patches when something changed', async () => {
    const { harness, controller } = setup({ enableInstancesV2: true, addresses: cloudAddresses }, {
      node0: { addresses: [{ type: 'Hostname', address: 'node0.local' }] },
    });
    await controller.updateNodeStatus();
    expect(harness.kube.getNode('node0')?.status?.addresses).toEqual([...cloudAddresses, { type: 'Hostname', address: 'node0.local' }]);
    expect(harness.kube.actions.filter((action) => action.subresource === 'status')).toHaveLength(1);
    await controller.updateNodeStatus();
    expect(harness.kube.actions.filter((action) => action.subresource === 'status')).toHaveLength(1);
  });

  it('dual-stack node (two InternalIPs): no patch while the list is unchanged, a replacing patch when it changes', async () => {
    const dualStack: NodeAddress[] = [
      { type: 'InternalIP', address: '10.0.0.1' },
      { type: 'InternalIP', address: 'fd00::1' },
    ];
    const { harness, controller } = setup({ enableInstancesV2: true, addresses: dualStack }, { node0: { addresses: dualStack.map((address) => ({ ...address })) } });
    await controller.updateNodeStatus();
    await controller.updateNodeStatus();
    expect(harness.kube.actions.filter((action) => action.subresource === 'status')).toEqual([]);

    const changed: NodeAddress[] = [
      { type: 'InternalIP', address: '10.0.0.2' },
      { type: 'InternalIP', address: 'fd00::2' },
    ];
    const second = setup({ enableInstancesV2: true, addresses: changed }, { node0: { addresses: dualStack.map((address) => ({ ...address })) } });
    await second.controller.updateNodeStatus();
    expect(second.harness.kube.actions.filter((action) => action.subresource === 'status')).toHaveLength(1);
    expect(second.harness.kube.getNode('node0')?.status?.addresses).toEqual(changed);
  });

  it('skips empty cloud answers, cloud errors, nil metadata and unsatisfiable provided node IPs', async () => {
    const kubelet = [{ type: 'InternalIP', address: '10.0.0.9' }];
    for (const [cloudOptions, specification] of [
      [{ enableInstancesV2: true, addresses: [] }, { addresses: kubelet }],
      [{ enableInstancesV2: true, metadataError: new Error('cloud down') }, { addresses: kubelet }],
      [{ enableInstancesV2: true, overrideInstanceMetadata: () => undefined }, { addresses: kubelet }],
      [{ addressesByProviderIdError: new Error('a'), addressesByNameError: new Error('b') }, { addresses: kubelet }],
      [{ enableInstancesV2: true, addresses: cloudAddresses }, { addresses: kubelet, annotations: { [ANNOTATION_PROVIDED_NODE_IP]: '10.0.0.7' } }],
    ] as Array<[FakeCloudOptions, NodeSpecification]>) {
      const { harness, controller } = setup(cloudOptions, { node0: specification });
      await controller.updateNodeStatus();
      expect(harness.kube.getNode('node0')?.status?.addresses).toEqual(kubelet);
      expect(harness.kube.actions.filter((action) => action.subresource === 'status')).toEqual([]);
    }
  });

  it('applies the provided node IP when refreshing', async () => {
    const { harness, controller } = setup(
      { enableInstancesV2: true, addresses: [{ type: 'InternalIP', address: '10.0.0.2' }, ...cloudAddresses] },
      { node0: { annotations: { [ANNOTATION_PROVIDED_NODE_IP]: '10.0.0.1' } } },
    );
    await controller.updateNodeStatus();
    expect(harness.kube.getNode('node0')?.status?.addresses).toEqual(cloudAddresses);
  });

  it('a failing patch is logged and does not stop the other nodes', async () => {
    const { harness, controller } = setup({ enableInstancesV2: true, addresses: cloudAddresses }, { node0: {}, node1: {} });
    harness.kube.failNext({ verb: 'patch', subresource: 'status', name: 'node0' }, new Error('apiserver unavailable'));
    await controller.updateNodeStatus();
    expect(harness.kube.getNode('node1')?.status?.addresses).toEqual(cloudAddresses);
    expect(harness.logger.messages('error')).toContain('Error patching node with cloud ip addresses = [apiserver unavailable]');
  });

  it('reconciles beta/GA labels of initialized nodes', async () => {
    const { harness, controller } = setup({ enableInstancesV2: true, addresses: cloudAddresses }, {
      node0: { labels: { 'failure-domain.beta.kubernetes.io/zone': 'a', 'topology.kubernetes.io/zone': 'b' } },
    });
    await controller.updateNodeStatus();
    expect(harness.kube.getNode('node0')?.metadata?.labels).toEqual({ 'failure-domain.beta.kubernetes.io/zone': 'a', 'topology.kubernetes.io/zone': 'a' });
  });
});
