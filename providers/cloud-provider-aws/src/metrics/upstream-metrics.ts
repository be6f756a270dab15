/**
 * The AWS CCM's own cloud API series (kubernetes/cloud-provider-aws), recorded beside the common
 * `cloudprovider_api_*` series by the AWS pipeline's observer (core `upstream-cloud-metrics.ts`).
 *
 * Upstream times five EC2 calls in its SDK wrapper (`aws_ec2.go`), each under a fixed name
 * (`describe_instance`, ...): the duration on success, the errors counter on failure, never both.
 * It counts `RequestLimitExceeded` answers by the AWS operation name, and every response of status
 * 400 or more by service, operation and status.
 */
import { PROMETHEUS_DEFAULT_BUCKETS, defineUpstreamCloudMetrics, methodOf, upstreamCounter, upstreamHistogram, type UpstreamCallOutcome } from '@ccm/core/cloud';
import { AWS_PROVIDER_NAME } from '../provider-id.js';
import { AwsApiError } from '../ports/aws-api-error.js';

/** Upstream's `request` label of the calls it times (aws_ec2.go), by our operation. */
export const AWS_UPSTREAM_REQUESTS: Readonly<Record<string, string>> = {
  'ec2.describeInstances': 'describe_instance',
  'ec2.describeSecurityGroups': 'describe_security_groups',
  'ec2.describeRouteTables': 'describe_route_tables',
  'ec2.createTags': 'create_tags',
  'ec2.deleteTags': 'delete_tags',
};

/** The SDK's ServiceID of each of our services (upstream's `service` label). */
export const AWS_SERVICE_IDS: Readonly<Record<string, string>> = { ec2: 'EC2', elb: 'Elastic Load Balancing', elbv2: 'Elastic Load Balancing v2' };

/** Our methods whose AWS operation is not the method's name capitalized. */
const AWS_OPERATION_NAMES: Readonly<Record<string, string>> = {
  'ec2.modifyInstanceSourceDestCheck': 'ModifyInstanceAttribute',
  'elb.describeLoadBalancer': 'DescribeLoadBalancers',
  'elb.registerInstances': 'RegisterInstancesWithLoadBalancer',
  'elb.deregisterInstances': 'DeregisterInstancesFromLoadBalancer',
  'elb.createListeners': 'CreateLoadBalancerListeners',
  'elb.deleteListeners': 'DeleteLoadBalancerListeners',
  'elb.attachToSubnets': 'AttachLoadBalancerToSubnets',
  'elb.detachFromSubnets': 'DetachLoadBalancerFromSubnets',
  'elb.applySecurityGroups': 'ApplySecurityGroupsToLoadBalancer',
  'elb.describeAttributes': 'DescribeLoadBalancerAttributes',
  'elb.modifyAttributes': 'ModifyLoadBalancerAttributes',
  'elb.describePolicyNames': 'DescribeLoadBalancerPolicies',
  'elb.createPolicy': 'CreateLoadBalancerPolicy',
  'elb.setBackendServerPolicies': 'SetLoadBalancerPoliciesForBackendServer',
  'elb.setListenerPolicies': 'SetLoadBalancerPoliciesOfListener',
  'elbv2.describeLoadBalancerByName': 'DescribeLoadBalancers',
  'elbv2.describeTargetGroupsOfLoadBalancer': 'DescribeTargetGroups',
  'elbv2.describeAllTargetGroups': 'DescribeTargetGroups',
  'elbv2.describeTargetGroupByName': 'DescribeTargetGroups',
  'elbv2.modifyTargetGroupHealthCheck': 'ModifyTargetGroup',
};

/** The AWS API operation of one of our operations (`ec2.describeInstances` -> `DescribeInstances`). */
export function awsOperationName(operation: string): string {
  const method = methodOf(operation);
  return AWS_OPERATION_NAMES[operation] ?? `${method.charAt(0).toUpperCase()}${method.slice(1)}`;
}

function serviceOf(operation: string): string | undefined {
  const dot = operation.indexOf('.');
  return dot === -1 ? undefined : AWS_SERVICE_IDS[operation.slice(0, dot)];
}

const timed = (call: UpstreamCallOutcome): string | undefined => AWS_UPSTREAM_REQUESTS[call.operation];

export const AWS_UPSTREAM_METRICS = defineUpstreamCloudMetrics({
  provider: AWS_PROVIDER_NAME,
  sources: [
    { repository: 'kubernetes/cloud-provider-aws', path: 'pkg/providers/v1/aws_metrics.go', commit: 'baa607a4e2e700b7ab699a19408a94228be2eacf' },
    { repository: 'kubernetes/cloud-provider-aws', path: 'pkg/providers/v1/aws_ec2.go', commit: '5437eb80a5731108525a4e5ca91bb200d0a5ff0f' },
  ],
  series: [
    upstreamHistogram({
      name: 'cloudprovider_aws_api_request_duration_seconds',
      help: '[ALPHA] Latency of AWS API calls',
      labelNames: ['request'],
      buckets: PROMETHEUS_DEFAULT_BUCKETS,
      recordedWhen: 'a timed EC2 call succeeded (`request` below)',
      labelsOf: (call) => {
        const request = call.failed ? undefined : timed(call);
        return request === undefined ? undefined : { request };
      },
    }),
    upstreamCounter({
      name: 'cloudprovider_aws_api_request_errors',
      help: '[ALPHA] AWS API errors',
      labelNames: ['request'],
      recordedWhen: 'a timed EC2 call failed',
      labelsOf: (call) => {
        const request = call.failed ? timed(call) : undefined;
        return request === undefined ? undefined : { request };
      },
    }),
    upstreamCounter({
      name: 'cloudprovider_aws_api_throttled_requests_total',
      help: '[ALPHA] AWS API throttled requests',
      labelNames: ['operation_name'],
      recordedWhen: 'an attempt was answered `RequestLimitExceeded`; `operation_name` is the AWS operation (`DescribeInstances`)',
      labelsOf: (call) => (call.failed && AwsApiError.find(call.error)?.code === 'RequestLimitExceeded' ? { operation_name: awsOperationName(call.operation) } : undefined),
    }),
    upstreamCounter({
      name: 'cloudprovider_aws_api_response_status_total',
      help: '[ALPHA] AWS API response status code counts',
      labelNames: ['service', 'operation', 'status_code'],
      recordedWhen: 'an attempt of any EC2/ELB/ELBv2 call was answered with HTTP status 400 or more',
      labelsOf: (call) => {
        const service = serviceOf(call.operation);
        const status = call.failed ? AwsApiError.find(call.error)?.httpStatus : undefined;
        return service === undefined || status === undefined || status < 400 ? undefined : { service, operation: awsOperationName(call.operation), status_code: String(status) };
      },
    }),
  ],
  notes: [
    `\`request\` values, as upstream names them: ${Object.entries(AWS_UPSTREAM_REQUESTS)
      .map(([operation, request]) => `\`${request}\` (${operation})`)
      .join(', ')}. Upstream times no other call, and neither do these series (the common series time every call).`,
    "Upstream's SDK v2 middleware reads the throttling error from a variable that is still nil at that point, so its throttled counter stays at 0 for SDK v2 clients; ours counts every `RequestLimitExceeded` attempt, as the series intends.",
  ],
});
