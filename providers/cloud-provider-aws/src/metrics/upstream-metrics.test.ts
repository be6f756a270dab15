import { createMetricsRegistry } from '@ccm/core/app';
import { PROMETHEUS_DEFAULT_BUCKETS, type UpstreamCallOutcome } from '@ccm/core/cloud';
import { describe, expect, it } from 'vitest';
import { awsError } from '../../test/fakes/fake-errors.js';
import { AWS_PIPELINE } from '../ports/aws-port-pipeline.js';
import { AWS_UPSTREAM_METRICS, awsOperationName } from './upstream-metrics.js';

const series = (name: string) => {
  const found = AWS_UPSTREAM_METRICS.series.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`no series ${name}`);
  return found;
};
const call = (operation: string, error?: unknown): UpstreamCallOutcome => (error === undefined ? { operation, args: [], seconds: 0.2, failed: false } : { operation, args: [], seconds: 0.2, failed: true, error });

describe('AWS upstream metric series', () => {
  it('declares upstream names, types, label names and the default buckets', () => {
    expect(AWS_UPSTREAM_METRICS.series.map(({ name, type, labelNames }) => ({ name, type, labelNames }))).toEqual([
      { name: 'cloudprovider_aws_api_request_duration_seconds', type: 'histogram', labelNames: ['request'] },
      { name: 'cloudprovider_aws_api_request_errors', type: 'counter', labelNames: ['request'] },
      { name: 'cloudprovider_aws_api_throttled_requests_total', type: 'counter', labelNames: ['operation_name'] },
      { name: 'cloudprovider_aws_api_response_status_total', type: 'counter', labelNames: ['service', 'operation', 'status_code'] },
    ]);
    const duration = series('cloudprovider_aws_api_request_duration_seconds');
    expect(duration.type === 'histogram' ? duration.buckets : undefined).toEqual([0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]);
    expect(PROMETHEUS_DEFAULT_BUCKETS).toEqual([0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]);
  });

  it.each([
    ['ec2.describeInstances', 'describe_instance'],
    ['ec2.describeSecurityGroups', 'describe_security_groups'],
    ['ec2.describeRouteTables', 'describe_route_tables'],
    ['ec2.createTags', 'create_tags'],
    ['ec2.deleteTags', 'delete_tags'],
  ])('times %s as request="%s": the duration on success, the errors counter on failure (never both)', (operation, request) => {
    expect(series('cloudprovider_aws_api_request_duration_seconds').labelsOf(call(operation))).toEqual({ request });
    expect(series('cloudprovider_aws_api_request_errors').labelsOf(call(operation))).toBeUndefined();
    const failure = awsError(operation, 'InvalidInstanceID.NotFound');
    expect(series('cloudprovider_aws_api_request_duration_seconds').labelsOf(call(operation, failure))).toBeUndefined();
    expect(series('cloudprovider_aws_api_request_errors').labelsOf(call(operation, failure))).toEqual({ request });
  });

  it.each(['ec2.createRoute', 'ec2.describeSubnets', 'elbv2.createLoadBalancer', 'elb.describeLoadBalancer'])('does not time %s (upstream does not)', (operation) => {
    expect(series('cloudprovider_aws_api_request_duration_seconds').labelsOf(call(operation))).toBeUndefined();
    expect(series('cloudprovider_aws_api_request_errors').labelsOf(call(operation, awsError(operation, 'Boom')))).toBeUndefined();
  });

  it('counts RequestLimitExceeded answers by AWS operation name, and nothing else', () => {
    const throttled = series('cloudprovider_aws_api_throttled_requests_total');
    expect(throttled.labelsOf(call('ec2.describeInstances', awsError('ec2.describeInstances', 'RequestLimitExceeded', 'slow', 503)))).toEqual({ operation_name: 'DescribeInstances' });
    expect(throttled.labelsOf(call('ec2.modifyInstanceSourceDestCheck', awsError('ec2.modifyInstanceSourceDestCheck', 'RequestLimitExceeded')))).toEqual({ operation_name: 'ModifyInstanceAttribute' });
    expect(throttled.labelsOf(call('elb.describeLoadBalancer', awsError('elb.describeLoadBalancer', 'Throttling')))).toBeUndefined();
    expect(throttled.labelsOf(call('ec2.describeInstances'))).toBeUndefined();
  });

  it('counts answers of status 400 and more by service ID, AWS operation and status', () => {
    const status = series('cloudprovider_aws_api_response_status_total');
    expect(status.labelsOf(call('elbv2.describeLoadBalancerByName', awsError('elbv2.describeLoadBalancerByName', 'LoadBalancerNotFound', 'x', 400)))).toEqual({
      service: 'Elastic Load Balancing v2',
      operation: 'DescribeLoadBalancers',
      status_code: '400',
    });
    expect(status.labelsOf(call('ec2.describeInstances', awsError('ec2.describeInstances', 'InternalError', 'x', 500)))).toEqual({ service: 'EC2', operation: 'DescribeInstances', status_code: '500' });
    expect(status.labelsOf(call('elb.registerInstances', awsError('elb.registerInstances', 'Invalid', 'x', 400)))).toMatchObject({ service: 'Elastic Load Balancing', operation: 'RegisterInstancesWithLoadBalancer' });
    expect(status.labelsOf(call('ec2.describeInstances', new Error('socket hang up')))).toBeUndefined();
    expect(status.labelsOf(call('ec2.describeInstances'))).toBeUndefined();
  });

  it.each([
    ['ec2.describeInstanceTopology', 'DescribeInstanceTopology'],
    ['elb.applySecurityGroups', 'ApplySecurityGroupsToLoadBalancer'],
    ['elbv2.describeAllTargetGroups', 'DescribeTargetGroups'],
    ['elbv2.registerTargets', 'RegisterTargets'],
  ])('the AWS operation of %s is %s', (operation, expected) => {
    expect(awsOperationName(operation)).toBe(expected);
  });

  it('is recorded by the AWS pipeline observer beside the common series', async () => {
    const metrics = createMetricsRegistry();
    const observer = AWS_PIPELINE.createObserver(metrics);
    await observer.observe('ec2.describeInstances', async () => []);
    await expect(observer.observe('ec2.createTags', async () => Promise.reject(awsError('ec2.createTags', 'RequestLimitExceeded', 'slow', 503)))).rejects.toThrow();
    const text = await metrics.metrics();
    expect(text).toContain('cloudprovider_api_request_duration_seconds_count{provider="aws",request="ec2.describeInstances"} 1');
    expect(text).toContain('cloudprovider_aws_api_request_duration_seconds_count{request="describe_instance"} 1');
    expect(text).toContain('cloudprovider_aws_api_request_errors{request="create_tags"} 1');
    expect(text).toContain('cloudprovider_aws_api_throttled_requests_total{operation_name="CreateTags"} 1');
    expect(text).toContain('cloudprovider_aws_api_response_status_total{service="EC2",operation="CreateTags",status_code="503"} 1');
    expect(text).toContain('# HELP cloudprovider_aws_api_request_duration_seconds [ALPHA] Latency of AWS API calls');
  });
});
