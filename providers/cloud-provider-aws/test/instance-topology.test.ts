/** Network topology labels (`topology.k8s.aws/network-node-layer-N`) over the fake EC2 port (moto lacks DescribeInstanceTopology). */
import { describe, expect, it } from 'vitest';
import { InstanceTopologyOperations, INSTANCE_TOPOLOGY_CACHE_MS } from '../src/operations/instance-topology.js';
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
