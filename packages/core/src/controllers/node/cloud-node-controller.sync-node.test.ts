/**
 * Port of upstream `Test_syncNode` (controllers/node/node_controller_test.go): a fake cloud plus
 * an in-memory API server; the resulting node (labels, annotations, spec, addresses) is compared.
 */
import type { V1Node, V1NodeAddress } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { ANNOTATION_PROVIDED_NODE_IP } from '../../api/well-known.js';
import { InstanceNotFoundError, NotImplementedError } from '../../provider/cloud-errors.js';
import type { NodeAddress } from '../../provider/node-address.js';
import { CloudNodeController } from './cloud-node-controller.js';
import { FakeCloud, type FakeCloudOptions } from '../test-support/fake-cloud.js';
import { createNodeTestContext, makeNode, UNINITIALIZED_TAINT, type NodeSpecification } from './test-support/node-test-context.js';

const noSleep = { sleep: async () => {} };
const created = new Date('2012-01-01T00:00:00Z');
const cloudAddresses: NodeAddress[] = [
  { type: 'Hostname', address: 'node0.cloud.internal' },
  { type: 'InternalIP', address: '10.0.0.1' },
  { type: 'ExternalIP', address: '132.143.154.163' },
];
const otherTaint = { key: 'ImproveCoverageTaint', value: 'true', effect: 'NoSchedule' };

interface NodeView {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  providerId: string | undefined;
  taints: Array<{ key?: string; value?: string; effect?: string }>;
  addresses: V1NodeAddress[];
}

const view = (node: V1Node | undefined): NodeView => ({
  labels: node?.metadata?.labels ?? {},
  annotations: node?.metadata?.annotations ?? {},
  providerId: node?.spec?.providerID,
  taints: node?.spec?.taints ?? [],
  addresses: node?.status?.addresses ?? [],
});

interface SyncCase {
  name: string;
  cloud: FakeCloudOptions;
  node: NodeSpecification;
  expected: Partial<NodeView>;
  /** The sync fails (requeue) with this message. */
  error?: string;
}

async function runSync(testCase: SyncCase) {
  const cloud = new FakeCloud(testCase.cloud);
  const harness = createNodeTestContext({ cloud });
  harness.kube.addNode(makeNode('node0', { creationTimestamp: created, ...testCase.node }));
  const before = view(harness.kube.getNode('node0'));
  const controller = new CloudNodeController(harness.context, { retry: noSleep, now: () => created.getTime() + 3_000 });
  let error: unknown;
  try {
    await controller.syncNode('node0');
  } catch (caught) {
    error = caught;
  }
  return { harness, cloud, before, after: view(harness.kube.getNode('node0')), error };
}

async function expectSync(testCase: SyncCase) {
  const { harness, before, after, error } = await runSync(testCase);
  if (testCase.error === undefined) expect(error).toBeUndefined();
  else expect((error as Error | undefined)?.message).toContain(testCase.error);
  expect(after).toEqual({ ...before, ...testCase.expected });
  return harness;
}

const initialized = (extra: Partial<NodeView> = {}): Partial<NodeView> => ({ taints: [otherTaint], ...extra });

describe('Test_syncNode (upstream): Instances v1', () => {
  const cases: SyncCase[] = [
    {
      name: 'node initialized with hostname',
      cloud: { instanceIds: { node0: '12345' }, instanceTypes: { 'fake://12345': 't1.micro' }, addresses: cloudAddresses, enableZones: false },
      node: { taints: [UNINITIALIZED_TAINT, otherTaint], addresses: [{ type: 'Hostname', address: 'node0.local' }] },
      expected: initialized({
        providerId: 'fake://12345',
        labels: { 'beta.kubernetes.io/instance-type': 't1.micro', 'node.kubernetes.io/instance-type': 't1.micro' },
        addresses: cloudAddresses,
      }),
    },
    {
      name: 'node initialized with hostname missing from the cloud: the kubelet hostname is kept',
      cloud: { instanceIds: { node0: '12345' }, addresses: cloudAddresses.slice(1), enableZones: false },
      node: { taints: [UNINITIALIZED_TAINT, otherTaint], addresses: [{ type: 'Hostname', address: 'node0.local' }] },
      expected: initialized({
        providerId: 'fake://12345',
        addresses: [...cloudAddresses.slice(1), { type: 'Hostname', address: 'node0.local' }],
      }),
    },
    {
      name: 'node initialized with provider ID',
      cloud: { instanceIds: { node0: '12345' }, instanceTypes: { 'fake://12345': 't1.micro' }, enableZones: false },
      node: { taints: [UNINITIALIZED_TAINT, otherTaint] },
      expected: initialized({
        providerId: 'fake://12345',
        labels: { 'beta.kubernetes.io/instance-type': 't1.micro', 'node.kubernetes.io/instance-type': 't1.micro' },
      }),
    },
    {
      name: 'node ignored (no uninitialized taint)',
      cloud: { instanceIds: { node0: '12345' }, instanceTypes: { 'fake://12345': 't1.micro' }, addresses: cloudAddresses, zone: { failureDomain: 'z', region: 'r' } },
      node: { taints: [otherTaint] },
      expected: {},
    },
    {
      name: 'zone/region topology labels added (beta and GA)',
      cloud: { instanceIds: { node0: '12345' }, zone: { failureDomain: 'us-west-1a', region: 'us-west' } },
      node: { taints: [UNINITIALIZED_TAINT, otherTaint] },
      expected: initialized({
        providerId: 'fake://12345',
        labels: {
          'failure-domain.beta.kubernetes.io/zone': 'us-west-1a',
          'topology.kubernetes.io/zone': 'us-west-1a',
          'failure-domain.beta.kubernetes.io/region': 'us-west',
          'topology.kubernetes.io/region': 'us-west',
        },
      }),
    },
    {
      name: 'node addresses replace the kubelet ones',
      cloud: { instanceIds: { node0: '12345' }, addresses: cloudAddresses, enableZones: false },
      node: {
        taints: [UNINITIALIZED_TAINT, otherTaint],
        addresses: [
          { type: 'Hostname', address: 'node0.local' },
          { type: 'InternalIP', address: '192.168.0.1' },
          { type: 'InternalDNS', address: 'stale.internal' },
        ],
      },
      expected: initialized({ providerId: 'fake://12345', addresses: cloudAddresses }),
    },
    {
      name: 'provided node IP address reorders and filters the addresses',
      cloud: {
        instanceIds: { node0: '12345' },
        addresses: [
          { type: 'InternalIP', address: '10.0.0.2' },
          { type: 'ExternalIP', address: '132.143.154.163' },
          { type: 'InternalIP', address: '10.0.0.1' },
        ],
        enableZones: false,
      },
      node: {
        taints: [UNINITIALIZED_TAINT, otherTaint],
        annotations: { [ANNOTATION_PROVIDED_NODE_IP]: '10.0.0.1' },
        addresses: [{ type: 'Hostname', address: 'node0.local' }],
      },
      expected: initialized({
        providerId: 'fake://12345',
        addresses: [
          { type: 'InternalIP', address: '10.0.0.1' },
          { type: 'ExternalIP', address: '132.143.154.163' },
          { type: 'Hostname', address: 'node0.local' },
        ],
      }),
    },
    {
      name: 'provided node IP address is not valid: error, taint kept',
      cloud: { instanceIds: { node0: '12345' }, addresses: cloudAddresses, enableZones: false },
      node: { taints: [UNINITIALIZED_TAINT, otherTaint], annotations: { [ANNOTATION_PROVIDED_NODE_IP]: '10.0.0.x' } },
      expected: {},
      error: 'provided node ip for node "node0" is not valid: failed to parse node IP "10.0.0.x"',
    },
    {
      name: 'provided node IP address is not present in the cloud: error, taint kept',
      cloud: { instanceIds: { node0: '12345' }, addresses: cloudAddresses, enableZones: false },
      node: { taints: [UNINITIALIZED_TAINT, otherTaint], annotations: { [ANNOTATION_PROVIDED_NODE_IP]: '10.0.0.9' } },
      expected: {},
      error: 'failed to get node address from cloud provider that matches ip: 10.0.0.9',
    },
    {
      name: 'provider ID already set is not overwritten',
      cloud: { instanceIds: { node0: '12345' }, instanceTypes: { 'test-provider-id': 't1.micro' }, enableZones: false },
      node: { taints: [UNINITIALIZED_TAINT, otherTaint], providerId: 'test-provider-id' },
      expected: initialized({
        providerId: 'test-provider-id',
        labels: { 'beta.kubernetes.io/instance-type': 't1.micro', 'node.kubernetes.io/instance-type': 't1.micro' },
      }),
    },
    {
      name: 'provider ID not implemented: taint removed without a provider ID',
      cloud: { instanceIdErrors: { node0: new NotImplementedError() }, addresses: cloudAddresses, enableZones: false },
      node: { taints: [UNINITIALIZED_TAINT, otherTaint] },
      expected: initialized({ addresses: cloudAddresses }),
    },
    {
      name: 'instance not found: error, taint kept',
      cloud: { instanceIdErrors: { node0: new InstanceNotFoundError() }, addresses: cloudAddresses },
      node: { taints: [UNINITIALIZED_TAINT, otherTaint] },
      expected: {},
      error: 'failed to get instance metadata for node node0: instance not found',
    },
  ];
  it.each(cases)('$name', async (testCase) => {
    await expectSync(testCase);
  });
});

describe('Test_syncNode (upstream): InstancesV2', () => {
  const v2 = (options: FakeCloudOptions): FakeCloudOptions => ({ enableInstancesV2: true, ...options });
  const cases: SyncCase[] = [
    {
      name: '[instancesV2] node initialized with provider ID',
      cloud: v2({ providerIds: { node0: 'fake://12345' }, instanceTypes: { node0: 't1.micro' } }),
      node: { taints: [UNINITIALIZED_TAINT, otherTaint] },
      expected: initialized({
        providerId: 'fake://12345',
        labels: { 'beta.kubernetes.io/instance-type': 't1.micro', 'node.kubernetes.io/instance-type': 't1.micro' },
      }),
    },
    {
      name: '[instancesV2] node ignored',
      cloud: v2({ providerIds: { node0: 'fake://12345' }, instanceTypes: { node0: 't1.micro' }, addresses: cloudAddresses }),
      node: { taints: [otherTaint] },
      expected: {},
    },
    {
      name: '[instancesV2] zone/region topology labels added',
      cloud: v2({ providerIds: { node0: 'fake://12345' }, zone: { failureDomain: 'us-west-1a', region: 'us-west' } }),
      node: { taints: [UNINITIALIZED_TAINT, otherTaint] },
      expected: initialized({
        providerId: 'fake://12345',
        labels: {
          'failure-domain.beta.kubernetes.io/zone': 'us-west-1a',
          'topology.kubernetes.io/zone': 'us-west-1a',
          'failure-domain.beta.kubernetes.io/region': 'us-west',
          'topology.kubernetes.io/region': 'us-west',
        },
      }),
    },
    {
      name: '[instancesV2] node addresses',
      cloud: v2({ providerIds: { node0: 'fake://12345' }, addresses: cloudAddresses }),
      node: { taints: [UNINITIALIZED_TAINT, otherTaint], addresses: [{ type: 'InternalIP', address: '192.168.0.1' }] },
      expected: initialized({ providerId: 'fake://12345', addresses: cloudAddresses }),
    },
    {
      name: '[instancesV2] provided node IP address',
      cloud: v2({
        providerIds: { node0: 'fake://12345' },
        addresses: [
          { type: 'InternalIP', address: '10.0.0.1' },
          { type: 'ExternalIP', address: '132.143.154.163' },
          { type: 'InternalIP', address: 'fd00::2' },
          { type: 'InternalIP', address: 'fd00::1' },
        ],
      }),
      node: {
        taints: [UNINITIALIZED_TAINT, otherTaint],
        annotations: { [ANNOTATION_PROVIDED_NODE_IP]: 'fd00:0::1,10.0.0.1' },
        addresses: [{ type: 'Hostname', address: 'node0.local' }],
      },
      expected: initialized({
        providerId: 'fake://12345',
        addresses: [
          { type: 'InternalIP', address: 'fd00::1' },
          { type: 'InternalIP', address: '10.0.0.1' },
          { type: 'ExternalIP', address: '132.143.154.163' },
          { type: 'Hostname', address: 'node0.local' },
        ],
      }),
    },
    {
      name: '[instancesV2] additional labels',
      cloud: v2({ providerIds: { node0: 'fake://12345' }, additionalLabels: { 'topology.example.com/rack': 'rack-1', 'example.com/pool': 'blue' } }),
      node: { taints: [UNINITIALIZED_TAINT, otherTaint], labels: { existing: 'yes' } },
      expected: initialized({
        providerId: 'fake://12345',
        labels: { existing: 'yes', 'topology.example.com/rack': 'rack-1', 'example.com/pool': 'blue' },
      }),
    },
    {
      name: '[instancesV2] additional labels with discards',
      cloud: v2({
        providerIds: { node0: 'fake://12345' },
        instanceTypes: { node0: 't1.micro' },
        additionalLabels: {
          'k8s.io/foo': 'bar',
          'kubernetes.io/foo': 'bar',
          'node.kubernetes.io/instance-type': 'override',
          'sub.k8s.io/foo': 'bar',
          existing: 'override',
          'k8snio/bar': 'kept',
          'app.k8snio/bar': 'kept',
          'example.com/kept': 'kept',
        },
      }),
      node: { taints: [UNINITIALIZED_TAINT, otherTaint], labels: { existing: 'original' } },
      expected: initialized({
        providerId: 'fake://12345',
        labels: {
          existing: 'original',
          'beta.kubernetes.io/instance-type': 't1.micro',
          'node.kubernetes.io/instance-type': 't1.micro',
          'k8snio/bar': 'kept',
          'app.k8snio/bar': 'kept',
          'example.com/kept': 'kept',
        },
      }),
    },
    {
      name: '[instancesV2] provider ID already set is not overwritten',
      cloud: v2({ providerIds: { node0: 'fake://other' } }),
      node: { taints: [UNINITIALIZED_TAINT, otherTaint], providerId: 'fake://12345' },
      expected: initialized({ providerId: 'fake://12345' }),
    },
    {
      name: '[instancesV2] provider ID not set by the cloud nor the node: error, taint kept',
      cloud: v2({ instanceIdErrors: { node0: new NotImplementedError() }, addresses: cloudAddresses }),
      node: { taints: [UNINITIALIZED_TAINT, otherTaint] },
      expected: {},
      error: 'cloud provider does not set node provider ID for node node0',
    },
    {
      name: '[instancesV2] provider ID set on the node only: used',
      cloud: v2({ addresses: cloudAddresses }),
      node: { taints: [UNINITIALIZED_TAINT, otherTaint], providerId: 'fake://12345' },
      expected: initialized({ providerId: 'fake://12345', addresses: cloudAddresses }),
    },
    {
      name: '[instancesV2] InstanceMetadata error: taint kept',
      cloud: v2({ metadataError: new Error('metadata unavailable') }),
      node: { taints: [UNINITIALIZED_TAINT, otherTaint] },
      expected: {},
      error: 'failed to get instance metadata for node node0: metadata unavailable',
    },
    {
      name: '[instancesV2] nil instanceMetadata: node unchanged, no error (no requeue)',
      cloud: v2({ overrideInstanceMetadata: () => undefined }),
      node: { taints: [UNINITIALIZED_TAINT, otherTaint] },
      expected: {},
    },
  ];
  it.each(cases)('$name', async (testCase) => {
    await expectSync(testCase);
  });
});

describe('Test_syncNode (upstream): writes, events and metrics', () => {
  const v2Cloud: FakeCloudOptions = { enableInstancesV2: true, providerIds: { node0: 'fake://12345' }, addresses: cloudAddresses };

  it('writes the node with one Update (taint removed in it), then one status patch replacing the addresses', async () => {
    const { harness } = await runSync({ name: '', cloud: v2Cloud, node: { taints: [UNINITIALIZED_TAINT], addresses: [{ type: 'InternalIP', address: '1.2.3.4' }] }, expected: {} });
    const writes = harness.kube.actions.filter((action) => action.verb !== 'get');
    expect(writes.map((action) => [action.verb, action.subresource])).toEqual([
      ['update', undefined],
      ['patch', 'status'],
    ]);
    expect((writes[0]?.body as V1Node).spec?.taints).toBeUndefined();
    expect(writes[1]).toMatchObject({ patchType: 'strategic', body: { status: { addresses: [{ $patch: 'replace' }, ...cloudAddresses] } } });
  });

  it('emits Normal Synced "Node synced successfully" on a v1 Node reference', async () => {
    const { harness } = await runSync({ name: '', cloud: v2Cloud, node: { taints: [UNINITIALIZED_TAINT] }, expected: {} });
    const events = harness.kube.eventLog.find({ reason: 'Synced' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      component: 'cloud-node-controller',
      type: 'Normal',
      message: 'Node synced successfully',
      involvedObject: { apiVersion: 'v1', kind: 'Node', name: 'node0', uid: expect.any(String) },
    });
  });

  it('observes the taint-removal and initial-sync delay histograms (seconds since creation)', async () => {
    const { harness } = await runSync({ name: '', cloud: v2Cloud, node: { taints: [UNINITIALIZED_TAINT] }, expected: {} });
    const text = await harness.metrics.metrics();
    for (const name of ['node_controller_cloud_provider_taint_removal_delay_seconds', 'node_controller_initial_node_sync_delay_seconds']) {
      expect(text).toContain(`${name}_count 1`);
      expect(text).toContain(`${name}_sum 3`);
      expect(text).toContain(`${name}_bucket{le="1"} 0`);
      expect(text).toContain(`${name}_bucket{le="4"} 1`);
      expect(text).toContain(`${name}_bucket{le="1024"} 1`);
    }
  });

  it('a provided node IP that cannot be satisfied leaves a Warning event and makes no write', async () => {
    const { harness } = await runSync({
      name: '',
      cloud: v2Cloud,
      node: { taints: [UNINITIALIZED_TAINT], annotations: { [ANNOTATION_PROVIDED_NODE_IP]: '10.9.9.9' } },
      expected: {},
    });
    expect(harness.kube.actions.filter((action) => action.verb !== 'get')).toEqual([]);
    expect(harness.kube.eventLog.find({ type: 'Warning' })).toMatchObject([
      {
        reason: 'InvalidProvidedNodeIP',
        involvedObject: { apiVersion: 'v1', kind: 'Node', name: 'node0' },
        message: 'provided node ip for node "node0" is not valid: failed to get node address from cloud provider that matches ip: 10.9.9.9',
      },
    ]);
  });

  it('retries a conflicting Update with a fresh GET and re-applies the changes to it', async () => {
    const cloud = new FakeCloud({ ...v2Cloud, instanceTypes: { node0: 't1' } });
    const harness = createNodeTestContext({ cloud });
    harness.kube.addNode(makeNode('node0', { taints: [UNINITIALIZED_TAINT] }));
    const controller = new CloudNodeController(harness.context, { retry: noSleep });
    // Someone else labels the node between our read and our write.
    const realUpdate = harness.kube.nodes.update.bind(harness.kube.nodes);
    let first = true;
    harness.kube.nodes.update = async (node) => {
      if (first) {
        first = false;
        await harness.kube.nodes.patch('node0', { metadata: { labels: { concurrent: 'writer' } } }, 'merge');
      }
      return realUpdate(node);
    };
    await controller.syncNode('node0');
    const verbs = harness.kube.actions.map((action) => `${action.verb}${action.subresource ? '/status' : ''}`);
    expect(verbs).toEqual(['patch', 'update', 'get', 'update', 'patch/status']);
    const node = harness.kube.getNode('node0');
    expect(node?.metadata?.labels).toEqual({ concurrent: 'writer', 'beta.kubernetes.io/instance-type': 't1', 'node.kubernetes.io/instance-type': 't1' });
    expect(node?.spec?.taints ?? []).toEqual([]);
    expect(node?.spec?.providerID).toBe('fake://12345');
  });

  it('stops without writing when the fresh GET after a conflict shows the node already initialized (a sync from a stale cache)', async () => {
    const cloud = new FakeCloud({ ...v2Cloud, instanceTypes: { node0: 't1' } });
    const harness = createNodeTestContext({ cloud });
    harness.kube.addNode(makeNode('node0', { taints: [UNINITIALIZED_TAINT] }));
    const controller = new CloudNodeController(harness.context, { retry: noSleep });
    // The cached copy still has the taint, but the node was initialized and then relabelled by
    // an operator before our write.
    const realUpdate = harness.kube.nodes.update.bind(harness.kube.nodes);
    let first = true;
    harness.kube.nodes.update = async (node) => {
      if (first) {
        first = false;
        await harness.kube.nodes.patch(
          'node0',
          { metadata: { labels: { 'beta.kubernetes.io/instance-type': 'custom', 'node.kubernetes.io/instance-type': 'custom' } }, spec: { taints: [] } },
          'merge',
        );
      }
      return realUpdate(node);
    };
    await controller.syncNode('node0');
    const verbs = harness.kube.actions.map((action) => `${action.verb}${action.subresource ? '/status' : ''}`);
    expect(verbs).toEqual(['patch', 'update', 'get']);
    expect(harness.kube.getNode('node0')?.metadata?.labels).toEqual({ 'beta.kubernetes.io/instance-type': 'custom', 'node.kubernetes.io/instance-type': 'custom' });
    expect(harness.kube.eventLog.find({ reason: 'Synced' })).toEqual([]);
  });

  it('a node that is gone from the cache is skipped without error', async () => {
    const cloud = new FakeCloud(v2Cloud);
    const harness = createNodeTestContext({ cloud });
    const controller = new CloudNodeController(harness.context, { retry: noSleep });
    await expect(controller.syncNode('missing')).resolves.toBeUndefined();
    expect(cloud.calls).toEqual([]);
  });
});
