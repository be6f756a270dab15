import { createMetricsRegistry } from '@ccm/core/app';
import { CloudConfigError } from '@ccm/core/config';
import { cloudProviders, CloudProviderRegistry, type CloudProvider } from '@ccm/core/provider';
import { describe, expect, it } from 'vitest';
import { createAwsCloud, registerAwsCloudProvider } from '../src/aws-cloud.js';
import { FakeEc2 } from './fakes/fake-ec2.js';
import { FakeElb } from './fakes/fake-elb.js';
import { FakeElbv2 } from './fakes/fake-elbv2.js';
import { AWS_API_BUDGET_DEFAULTS } from '../src/ports/aws-port-pipeline.js';
import { awsError } from './fakes/fake-errors.js';
import { FakeMetadata } from './fakes/fake-metadata.js';
import { makeService, OFF_AWS_CONFIG, RecordingLogger } from './helpers.js';

function ports(metadata = new FakeMetadata()) {
  return { ec2: new FakeEc2(), elb: new FakeElb(), elbv2: new FakeElbv2(), metadata };
}

const context = () => ({ logger: new RecordingLogger(), metrics: createMetricsRegistry() });

describe('createAwsCloud', () => {
  it('runs off AWS without the metadata service when VPC, SubnetID and the cluster ID are configured', async () => {
    const fakes = ports();
    const cloud = await createAwsCloud(OFF_AWS_CONFIG, context(), { ports: fakes });
    expect(cloud.identity).toEqual({ region: 'us-west-2', vpcId: 'vpc-1', subnetId: 'subnet-a1', clusterId: 'c1', usesLegacyTags: false, offAws: true });
    expect(fakes.metadata.calls).toEqual([]);
    expect(cloud.providerName).toBe('aws');
    expect(cloud.hasClusterId()).toBe(true);
    expect(cloud.instancesV2()).toBeDefined();
    expect(cloud.loadBalancer()).toBeDefined();
    expect(cloud.routes()).toBeDefined();
    // Optional capabilities the provider does not offer are absent.
    const provider: CloudProvider = cloud;
    expect(provider.instances?.()).toBeUndefined();
    expect(provider.zones?.()).toBeUndefined();
    expect(provider.clusters?.()).toBeUndefined();
  });

  it('reads the region, VPC, subnet and cluster ID of its own instance on EC2', async () => {
    const fakes = ports(new FakeMetadata({ region: 'eu-west-1', instanceId: 'i-self' }));
    fakes.ec2.addInstance({ instanceId: 'i-self', vpcId: 'vpc-9', subnetId: 'subnet-9', tags: { 'kubernetes.io/cluster/prod': 'owned' } });
    const cloud = await createAwsCloud(undefined, context(), { ports: fakes });
    expect(cloud.identity).toEqual({ region: 'eu-west-1', vpcId: 'vpc-9', subnetId: 'subnet-9', clusterId: 'prod', usesLegacyTags: false, offAws: false });
    expect(fakes.metadata.calls).toEqual(['region', 'instanceId']);
  });

  it('derives the region from Zone and uses legacy tags from KubernetesClusterTag', async () => {
    const fakes = ports(new FakeMetadata({ instanceId: 'i-self' }));
    fakes.ec2.addInstance({ instanceId: 'i-self', vpcId: 'vpc-9', subnetId: 'subnet-9' });
    const cloud = await createAwsCloud('[Global]\nZone = ap-southeast-2b\nKubernetesClusterTag = old\n', context(), { ports: fakes });
    expect(cloud.identity).toMatchObject({ region: 'ap-southeast-2', clusterId: 'old', usesLegacyTags: true, offAws: false });
    expect(fakes.metadata.calls).toEqual(['instanceId']);
  });

  it('finds a legacy cluster tag on its own instance', async () => {
    const fakes = ports(new FakeMetadata({ instanceId: 'i-self' }));
    fakes.ec2.addInstance({ instanceId: 'i-self', vpcId: 'vpc-9', tags: { KubernetesCluster: 'legacy' } });
    const cloud = await createAwsCloud('[Global]\nRegion = us-east-1\n', context(), { ports: fakes });
    expect(cloud.identity).toMatchObject({ clusterId: 'legacy', usesLegacyTags: true });
  });

  it('reports no cluster ID when none is configured or tagged', async () => {
    const fakes = ports(new FakeMetadata({ instanceId: 'i-self' }));
    fakes.ec2.addInstance({ instanceId: 'i-self', vpcId: 'vpc-9' });
    const logger = new RecordingLogger();
    const cloud = await createAwsCloud('[Global]\nRegion = us-east-1\n', { logger, metrics: createMetricsRegistry() }, { ports: fakes });
    expect(cloud.hasClusterId()).toBe(false);
    expect(logger.warnings()).toEqual([expect.stringMatching(/^no cluster ID configured or tagged on this instance; no cluster filtering is applied to shared resources, and load balancers/)]);
  });

  it('explains how to run off AWS when the metadata service is unreachable', async () => {
    await expect(createAwsCloud('[Global]\nRegion = us-east-1\n', context(), { ports: ports() })).rejects.toThrow(
      /could not read the instance ID from the instance metadata service \(.*instance metadata service at http:\/\/169\.254\.169\.254 is not reachable: Error: connect ECONNREFUSED.*\); when not running on EC2, set VPC, SubnetID \(or RoleARN\) and KubernetesClusterID/,
    );
    await expect(createAwsCloud(undefined, context(), { ports: ports() })).rejects.toThrow(/could not determine the AWS region.*set Region in \[Global\]/);
  });

  it('throws a CloudConfigError naming the file for bad config and conflicting cluster IDs', async () => {
    const bad = await createAwsCloud('[Global]\nDisableSecurityGroupIngress = perhaps\n', { ...context(), configPath: '/etc/aws/cloud.conf' }, { ports: ports() }).catch((error: unknown) => error);
    expect(bad).toBeInstanceOf(CloudConfigError);
    expect((bad as CloudConfigError).message).toMatch(/^\/etc\/aws\/cloud\.conf:2: /);
    const conflicting = await createAwsCloud(`${OFF_AWS_CONFIG}KubernetesClusterTag = other\n`, context(), { ports: ports() }).catch((error: unknown) => error);
    expect(conflicting).toBeInstanceOf(CloudConfigError);
    expect((conflicting as Error).message).toMatch(/clusterID tags did not match/);
  });

  it('logs config warnings', async () => {
    const logger = new RecordingLogger();
    await createAwsCloud(`${OFF_AWS_CONFIG}Mystery = 1\n`, { logger, metrics: createMetricsRegistry() }, { ports: ports() });
    expect(logger.warnings()).toContain('cloud-config:6: unknown key "Mystery" in section [Global]');
  });

  it('records cloud API metrics for every call, once per attempt', async () => {
    const metrics = createMetricsRegistry();
    const fakes = ports();
    const cloud = await createAwsCloud(OFF_AWS_CONFIG, { logger: new RecordingLogger(), metrics }, { ports: fakes });
    // A lone unknown ID: one DescribeInstances call answers it (no single-ID retry of a batch of one).
    expect(await cloud.instancesV2().instanceExists({ metadata: { name: 'n' }, spec: { providerID: 'aws:///us-west-2a/i-0123456789abcdef0' } })).toBe(false);
    const text = await metrics.metrics();
    expect(text).toContain('cloudprovider_api_request_duration_seconds_count{provider="aws",request="ec2.describeInstances"} 1');
    expect(text).toContain('cloudprovider_api_request_errors_total{provider="aws",request="ec2.describeInstances",code="InvalidInstanceID.NotFound"} 1');
    expect(text).toContain('cloudprovider_api_requests_total{provider="aws",operation="ec2.describeInstances"} 1');
    expect(text).toContain(`cloudprovider_api_current_rate{provider="aws"} ${AWS_API_BUDGET_DEFAULTS.qps}`);
  });

  it('sends every call of every port through one budget: throttling is retried there, 5xx by the retry policy', async () => {
    const metrics = createMetricsRegistry();
    const fakes = ports();
    fakes.ec2.addInstance({ instanceId: 'i-0123456789abcdef0', privateDnsName: 'ip-10-0-1-5.us-west-2.compute.internal', availabilityZone: 'us-west-2a', tags: { 'kubernetes.io/cluster/c1': 'owned' } });
    const cloud = await createAwsCloud(OFF_AWS_CONFIG, { logger: new RecordingLogger(), metrics }, {
      ports: fakes,
      apiBudget: { initialBackoffMs: 1 },
      retry: { sleep: async () => {} },
    });
    fakes.ec2.log.failNext('ec2.describeInstances', awsError('ec2.describeInstances', 'RequestLimitExceeded', 'Request limit exceeded.', 503), 2);
    fakes.ec2.log.failNext('ec2.describeInstances', awsError('ec2.describeInstances', 'InternalError', 'boom', 500), 1);
    fakes.elb.log.failNext('elb.describeLoadBalancer', awsError('elb.describeLoadBalancer', 'Throttling', 'Rate exceeded', 400), 1);
    const node = { metadata: { name: 'n' }, spec: { providerID: 'aws:///us-west-2a/i-0123456789abcdef0' } };
    expect(await cloud.instancesV2().instanceExists(node)).toBe(true);
    expect(await cloud.loadBalancer().getLoadBalancer('c1', makeService())).toMatchObject({ exists: false });
    expect(fakes.ec2.log.count('ec2.describeInstances')).toBe(4);
    const attempts = fakes.ec2.log.calls.length + fakes.elb.log.calls.length + fakes.elbv2.log.calls.length;
    expect(cloud.apiBudget.stats()).toMatchObject({ requests: attempts, throttled: 3, exhausted: 0 });
    const text = await metrics.metrics();
    expect(text).toContain('cloudprovider_api_throttled_total{provider="aws",operation="ec2.describeInstances"} 2');
    expect(text).toContain('cloudprovider_api_throttled_total{provider="aws",operation="elb.describeLoadBalancer"} 1');
    expect(text).toContain('cloudprovider_api_requests_total{provider="aws",operation="ec2.describeInstances"} 4');
    expect(text).toContain('cloudprovider_api_request_duration_seconds_count{provider="aws",request="ec2.describeInstances"} 4');
  });

  it('registers as "aws"', async () => {
    const registry = registerAwsCloudProvider(new CloudProviderRegistry());
    expect(registry.names()).toEqual(['aws']);
    expect(registerAwsCloudProvider(registry).names()).toEqual(['aws']);
    expect(cloudProviders).toBeInstanceOf(CloudProviderRegistry);
  });
});
