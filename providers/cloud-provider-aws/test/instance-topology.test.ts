/** Network topology labels (`topology.k8s.aws/network-node-layer-N`) over the fake EC2 port (moto lacks DescribeInstanceTopology). */
import { describe, expect, it, vi } from 'vitest';
import {
  InstanceTopologyOperations,
  INSTANCE_TOPOLOGY_CACHE_MS,
  MAX_TOPOLOGY_INSTANCE_IDS_PER_CALL,
  topologyAnswers,
} from '../src/operations/instance-topology.js';
import type { Ec2InstanceTopology } from '../src/ports/ec2-port.js';
import { DEFAULT_TOPOLOGY_INSTANCE_TYPE_PATTERN } from '../src/config/cloud-config-schema.js';
import { awsError } from './fakes/fake-errors.js';
import { FakeEc2 } from './fakes/fake-ec2.js';
import { createHarness, defined, makeNode, OFF_AWS_CONFIG, RecordingLogger } from './helpers.js';

const NODES = ['nn-aaa', 'nn-bbb', 'nn-ccc'];

async function harnessWith(instanceType: string, config = OFF_AWS_CONFIG) {
  const harness = await createHarness(config);
  harness.ec2.addInstance({ instanceId: 'i-0top', instanceType, availabilityZone: 'us-west-2a', privateDnsName: 'ip-10-0-1-9.us-west-2.compute.internal' });
  const node = makeNode('ip-10-0-1-9.us-west-2.compute.internal', { providerId: 'aws:///us-west-2a/i-0top' });
  return { ...harness, node };
}

describe('network topology labels', () => {
  it('labels the node with each network node, top layer first', async () => {
    const { cloud, ec2, node } = await harnessWith('p5.48xlarge');
    ec2.topologies.set('i-0top', NODES);
    const metadata = defined(await cloud.instancesV2().instanceMetadata(node));
    expect(metadata.additionalLabels).toMatchObject({
      'topology.k8s.aws/network-node-layer-1': 'nn-aaa',
      'topology.k8s.aws/network-node-layer-2': 'nn-bbb',
      'topology.k8s.aws/network-node-layer-3': 'nn-ccc',
    });
    expect(ec2.log.inputs('ec2.describeInstanceTopology')).toEqual([{ instanceIds: ['i-0top'] }]);
  });

  it('does not ask again for a node labeled already', async () => {
    const { cloud, ec2 } = await harnessWith('p5.48xlarge');
    ec2.topologies.set('i-0top', NODES);
    const labeled = makeNode('ip-10-0-1-9.us-west-2.compute.internal', { providerId: 'aws:///us-west-2a/i-0top', labels: { 'topology.k8s.aws/network-node-layer-1': 'nn-aaa' } });
    const metadata = defined(await cloud.instancesV2().instanceMetadata(labeled));
    expect(Object.keys(metadata.additionalLabels ?? {}).filter((key) => key.includes('network-node'))).toEqual([]);
    expect(ec2.log.count('ec2.describeInstanceTopology')).toBe(0);
  });

  it('an instance type outside the pattern with no topology is not asked again; one matching it is asked again for another instance', async () => {
    const ec2 = new FakeEc2();
    const logger = new RecordingLogger();
    const topology = new InstanceTopologyOperations(ec2, DEFAULT_TOPOLOGY_INSTANCE_TYPE_PATTERN, logger);
    expect(topology.requiresResponse('p5.48xlarge')).toBe(true);
    expect(topology.requiresResponse('trn1.32xlarge')).toBe(true);
    expect(topology.requiresResponse('t3.medium')).toBe(false);

    expect(await topology.networkNodes('i-01', 't3.medium', 'us-west-2')).toBeUndefined();
    expect(await topology.networkNodes('i-02', 't3.medium', 'us-west-2')).toBeUndefined();
    expect(ec2.log.count('ec2.describeInstanceTopology')).toBe(1);

    expect(await topology.networkNodes('i-03', 'p5.48xlarge', 'us-west-2')).toBeUndefined();
    expect(await topology.networkNodes('i-03', 'p5.48xlarge', 'us-west-2')).toBeUndefined();
    ec2.topologies.set('i-04', ['nn-1']);
    expect(await topology.networkNodes('i-04', 'p5.48xlarge', 'us-west-2')).toEqual(['nn-1']);
    expect(ec2.log.count('ec2.describeInstanceTopology')).toBe(3);
    expect(logger.warnings()).toEqual(['instance has no network topology listed but its type may support it']);
    expect(await topology.networkNodes('i-05', '', 'us-west-2')).toBeUndefined();
    expect(ec2.log.count('ec2.describeInstanceTopology')).toBe(3);
  });

  it('honours SupportedTopologyInstanceTypePattern from the cloud config', () => {
    const topology = new InstanceTopologyOperations(new FakeEc2(), 't3.large', new RecordingLogger());
    expect(topology.requiresResponse('t3.large')).toBe(true);
    expect(topology.requiresResponse('trn2.48xlarge')).toBe(false);
  });

  it.each([
    { code: 'UnsupportedOperation', status: 400, level: 'info' },
    { code: 'UnauthorizedOperation', status: 403, level: 'warn' },
    { code: 'InternalError', status: 500, level: 'warn' },
  ])('$code: one log line, the node still gets its metadata, and the region is not asked again for 24 h', async ({ code, status, level }) => {
    let now = 1_000_000;
    const ec2 = new FakeEc2();
    const logger = new RecordingLogger();
    const topology = new InstanceTopologyOperations(ec2, DEFAULT_TOPOLOGY_INSTANCE_TYPE_PATTERN, logger, () => now);
    ec2.log.failNext('ec2.describeInstanceTopology', awsError('ec2.describeInstanceTopology', code, code, status));
    expect(await topology.networkNodes('i-01', 'p5.48xlarge', 'us-west-2')).toBeUndefined();
    expect(await topology.networkNodes('i-02', 'p5.48xlarge', 'us-west-2')).toBeUndefined();
    expect(ec2.log.count('ec2.describeInstanceTopology')).toBe(1);
    expect(logger.lines.filter((line) => line.level === level && line.message.includes('DescribeInstanceTopology'))).toHaveLength(1);
    now += INSTANCE_TOPOLOGY_CACHE_MS + 1;
    ec2.topologies.set('i-02', ['nn-1']);
    expect(await topology.networkNodes('i-02', 'p5.48xlarge', 'us-west-2')).toEqual(['nn-1']);
  });

  it('throttling is thrown (the node is synced again later), and is not remembered', async () => {
    const ec2 = new FakeEc2();
    const topology = new InstanceTopologyOperations(ec2, DEFAULT_TOPOLOGY_INSTANCE_TYPE_PATTERN, new RecordingLogger());
    ec2.log.failNext('ec2.describeInstanceTopology', awsError('ec2.describeInstanceTopology', 'RequestLimitExceeded'));
    await expect(topology.networkNodes('i-01', 'p5.48xlarge', 'us-west-2')).rejects.toThrow('RequestLimitExceeded');
    ec2.topologies.set('i-01', ['nn-1']);
    expect(await topology.networkNodes('i-01', 'p5.48xlarge', 'us-west-2')).toEqual(['nn-1']);
  });

  it('through the provider, a 5xx answer is not retried by the pipeline and the node still gets its metadata', async () => {
    const { cloud, ec2, node, logger } = await harnessWith('p5.48xlarge');
    ec2.log.failNext('ec2.describeInstanceTopology', awsError('ec2.describeInstanceTopology', 'InternalFailure', 'not implemented', 500), 10);
    const metadata = defined(await cloud.instancesV2().instanceMetadata(node));
    expect(metadata.providerId).toBe('aws:///us-west-2a/i-0top');
    expect(ec2.log.count('ec2.describeInstanceTopology')).toBe(1);
    expect(logger.warnings()).toContain('ec2:DescribeInstanceTopology failed; no network topology labels in this region for 24h');
    await cloud.instancesV2().instanceMetadata(node);
    expect(ec2.log.count('ec2.describeInstanceTopology')).toBe(1);
  });
});

/** A FakeEc2 whose topology calls wait until the test opens the gate (so lookups can pile up behind the first call). */
class GatedEc2 extends FakeEc2 {
  #open: () => void = () => undefined;
  readonly #gate = new Promise<void>((resolve) => {
    this.#open = resolve;
  });

  open(): void {
    this.#open();
  }

  override async describeInstanceTopology(request: { instanceIds: readonly string[] }): Promise<Ec2InstanceTopology[]> {
    this.log.record('ec2.describeInstanceTopology.sent', request);
    await this.#gate;
    return super.describeInstanceTopology(request);
  }
}

const ids = (count: number, prefix = 'i-') => Array.from({ length: count }, (_, index) => `${prefix}${String(index).padStart(4, '0')}`);

describe('batched topology lookups', () => {
  it.each([
    { name: 'listed with nodes', asked: ['i-1'], topologies: [{ instanceId: 'i-1', networkNodes: ['a', 'b'] }], expected: { 'i-1': { kind: 'Listed', networkNodes: ['a', 'b'] } } },
    { name: 'absent from the answer', asked: ['i-1'], topologies: [], expected: { 'i-1': { kind: 'NotListed' } } },
    { name: 'listed without nodes', asked: ['i-1'], topologies: [{ instanceId: 'i-1', networkNodes: [] }], expected: { 'i-1': { kind: 'NotListed' } } },
    {
      name: 'several, one unasked in the answer',
      asked: ['i-1', 'i-2'],
      topologies: [
        { instanceId: 'i-2', networkNodes: ['x'] },
        { instanceId: 'i-9', networkNodes: ['y'] },
      ],
      expected: { 'i-1': { kind: 'NotListed' }, 'i-2': { kind: 'Listed', networkNodes: ['x'] } },
    },
  ])('topologyAnswers: $name', ({ asked, topologies, expected }) => {
    expect(Object.fromEntries(topologyAnswers(asked, topologies))).toEqual(expected);
  });

  it(`N concurrent lookups make ceil(N/${MAX_TOPOLOGY_INSTANCE_IDS_PER_CALL}) calls, and each instance gets its own nodes`, async () => {
    const ec2 = new FakeEc2();
    const topology = new InstanceTopologyOperations(ec2, DEFAULT_TOPOLOGY_INSTANCE_TYPE_PATTERN, new RecordingLogger());
    const instanceIds = ids(250);
    for (const instanceId of instanceIds) ec2.topologies.set(instanceId, [`nn-top`, `nn-${instanceId}`]);
    const answers = await Promise.all(instanceIds.map((instanceId) => topology.networkNodes(instanceId, 'p5.48xlarge', 'us-west-2')));
    expect(answers).toEqual(instanceIds.map((instanceId) => ['nn-top', `nn-${instanceId}`]));
    const calls = ec2.log.inputs('ec2.describeInstanceTopology') as Array<{ instanceIds: string[] }>;
    expect(calls).toHaveLength(Math.ceil(instanceIds.length / MAX_TOPOLOGY_INSTANCE_IDS_PER_CALL));
    for (const call of calls) expect(call.instanceIds.length).toBeLessThanOrEqual(MAX_TOPOLOGY_INSTANCE_IDS_PER_CALL);
    expect(calls.flatMap((call) => call.instanceIds).sort()).toEqual(instanceIds);
  });

  it('a batch mixing types keeps the per-instance rules: listed nodes, a remembered type, a remembered instance', async () => {
    const ec2 = new FakeEc2();
    const logger = new RecordingLogger();
    const topology = new InstanceTopologyOperations(ec2, DEFAULT_TOPOLOGY_INSTANCE_TYPE_PATTERN, logger);
    ec2.topologies.set('i-listed', ['nn-1']);
    const answers = await Promise.all([
      topology.networkNodes('i-listed', 'p5.48xlarge', 'us-west-2'),
      topology.networkNodes('i-small-1', 't3.medium', 'us-west-2'),
      topology.networkNodes('i-small-2', 't3.medium', 'us-west-2'),
      topology.networkNodes('i-starting', 'p5.48xlarge', 'us-west-2'),
    ]);
    expect(answers).toEqual([['nn-1'], undefined, undefined, undefined]);
    expect(ec2.log.count('ec2.describeInstanceTopology')).toBe(1);
    expect(logger.warnings()).toEqual(['instance has no network topology listed but its type may support it']);
    // The type is remembered; the instance of a type that must have a topology is asked again only for another instance.
    expect(await topology.networkNodes('i-small-3', 't3.medium', 'us-west-2')).toBeUndefined();
    expect(await topology.networkNodes('i-starting', 'p5.48xlarge', 'us-west-2')).toBeUndefined();
    expect(ec2.log.count('ec2.describeInstanceTopology')).toBe(1);
    ec2.topologies.set('i-other', ['nn-2']);
    expect(await topology.networkNodes('i-other', 'p5.48xlarge', 'us-west-2')).toEqual(['nn-2']);
    expect(ec2.log.count('ec2.describeInstanceTopology')).toBe(2);
  });

  it('lookups arriving while the first call is out wait for it; an unsupported answer makes it the only call, with one log line', async () => {
    const ec2 = new GatedEc2();
    const logger = new RecordingLogger();
    const topology = new InstanceTopologyOperations(ec2, DEFAULT_TOPOLOGY_INSTANCE_TYPE_PATTERN, logger);
    ec2.log.failNext('ec2.describeInstanceTopology', awsError('ec2.describeInstanceTopology', 'UnsupportedOperation', 'not in this region'));
    const first = topology.networkNodes('i-first', 'p5.48xlarge', 'us-west-2');
    await vi.waitFor(() => expect(ec2.log.count('ec2.describeInstanceTopology.sent')).toBe(1));
    const later = ids(150).map((instanceId) => topology.networkNodes(instanceId, 'p5.48xlarge', 'us-west-2'));
    ec2.open();
    expect(await Promise.all([first, ...later])).toEqual(Array.from({ length: 151 }, () => undefined));
    expect(ec2.log.count('ec2.describeInstanceTopology.sent')).toBe(1);
    expect(logger.lines.filter((line) => line.message.includes('DescribeInstanceTopology'))).toEqual([
      expect.objectContaining({ level: 'info', message: 'ec2:DescribeInstanceTopology is not available in this region; no network topology labels for 24h' }),
    ]);
    expect(logger.warnings()).toEqual([]);
    expect(await topology.networkNodes('i-after', 'p5.48xlarge', 'us-west-2')).toBeUndefined();
    expect(ec2.log.count('ec2.describeInstanceTopology.sent')).toBe(1);
  });

  it('a throttled batch rejects every lookup in it with the throttling error and remembers nothing', async () => {
    const ec2 = new FakeEc2();
    const topology = new InstanceTopologyOperations(ec2, DEFAULT_TOPOLOGY_INSTANCE_TYPE_PATTERN, new RecordingLogger());
    ec2.log.failNext('ec2.describeInstanceTopology', awsError('ec2.describeInstanceTopology', 'RequestLimitExceeded'));
    const outcomes = await Promise.allSettled(['i-01', 'i-02', 'i-03'].map((instanceId) => topology.networkNodes(instanceId, 'p5.48xlarge', 'us-west-2')));
    expect(ec2.log.count('ec2.describeInstanceTopology')).toBe(1);
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({ kind: 'Throttled', code: 'RequestLimitExceeded' });
    }
    ec2.topologies.set('i-02', ['nn-1']);
    expect(await topology.networkNodes('i-02', 'p5.48xlarge', 'us-west-2')).toEqual(['nn-1']);
  });

  it('a caller that gives up is rejected with its reason; the others still get their answer', async () => {
    const ec2 = new GatedEc2();
    const topology = new InstanceTopologyOperations(ec2, DEFAULT_TOPOLOGY_INSTANCE_TYPE_PATTERN, new RecordingLogger());
    ec2.topologies.set('i-02', ['nn-1']);
    const controller = new AbortController();
    const leaving = topology.networkNodes('i-01', 'p5.48xlarge', 'us-west-2', { signal: controller.signal });
    const staying = topology.networkNodes('i-02', 'p5.48xlarge', 'us-west-2');
    await vi.waitFor(() => expect(ec2.log.count('ec2.describeInstanceTopology.sent')).toBe(1));
    controller.abort(new Error('node deleted'));
    await expect(leaving).rejects.toThrow('node deleted');
    ec2.open();
    expect(await staying).toEqual(['nn-1']);
  });
});
