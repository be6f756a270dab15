/**
 * The IAM action behind every port method. Typed by the ports, so a new port method does not
 * compile until its action is listed; docs/iam-policy.json is generated from this table.
 */
import type { Ec2Port } from '../ports/ec2-port.js';
import type { ElbPort } from '../ports/elb-port.js';
import type { Elbv2Port } from '../ports/elbv2-port.js';

export const EC2_IAM_ACTIONS: Readonly<Record<keyof Ec2Port, string>> = {
  describeInstances: 'ec2:DescribeInstances',
  describeAvailabilityZones: 'ec2:DescribeAvailabilityZones',
  describeSubnets: 'ec2:DescribeSubnets',
  describeRouteTables: 'ec2:DescribeRouteTables',
  createRoute: 'ec2:CreateRoute',
  replaceRoute: 'ec2:ReplaceRoute',
  deleteRoute: 'ec2:DeleteRoute',
  modifyInstanceSourceDestCheck: 'ec2:ModifyInstanceAttribute',
  describeSecurityGroups: 'ec2:DescribeSecurityGroups',
  createSecurityGroup: 'ec2:CreateSecurityGroup',
  authorizeSecurityGroupIngress: 'ec2:AuthorizeSecurityGroupIngress',
  revokeSecurityGroupIngress: 'ec2:RevokeSecurityGroupIngress',
  deleteSecurityGroup: 'ec2:DeleteSecurityGroup',
  createTags: 'ec2:CreateTags',
  deleteTags: 'ec2:DeleteTags',
  describeInstanceTopology: 'ec2:DescribeInstanceTopology',
};

export const ELB_IAM_ACTIONS: Readonly<Record<keyof ElbPort, string>> = {
  describeLoadBalancer: 'elasticloadbalancing:DescribeLoadBalancers',
  createLoadBalancer: 'elasticloadbalancing:CreateLoadBalancer',
  deleteLoadBalancer: 'elasticloadbalancing:DeleteLoadBalancer',
  describeTags: 'elasticloadbalancing:DescribeTags',
  addTags: 'elasticloadbalancing:AddTags',
  registerInstances: 'elasticloadbalancing:RegisterInstancesWithLoadBalancer',
  deregisterInstances: 'elasticloadbalancing:DeregisterInstancesFromLoadBalancer',
  createListeners: 'elasticloadbalancing:CreateLoadBalancerListeners',
  deleteListeners: 'elasticloadbalancing:DeleteLoadBalancerListeners',
  attachToSubnets: 'elasticloadbalancing:AttachLoadBalancerToSubnets',
  detachFromSubnets: 'elasticloadbalancing:DetachLoadBalancerFromSubnets',
  applySecurityGroups: 'elasticloadbalancing:ApplySecurityGroupsToLoadBalancer',
  configureHealthCheck: 'elasticloadbalancing:ConfigureHealthCheck',
  describeAttributes: 'elasticloadbalancing:DescribeLoadBalancerAttributes',
  modifyAttributes: 'elasticloadbalancing:ModifyLoadBalancerAttributes',
  describePolicyNames: 'elasticloadbalancing:DescribeLoadBalancerPolicies',
  createPolicy: 'elasticloadbalancing:CreateLoadBalancerPolicy',
  setBackendServerPolicies: 'elasticloadbalancing:SetLoadBalancerPoliciesForBackendServer',
  setListenerPolicies: 'elasticloadbalancing:SetLoadBalancerPoliciesOfListener',
};

export const ELBV2_IAM_ACTIONS: Readonly<Record<keyof Elbv2Port, string>> = {
  describeLoadBalancerByName: 'elasticloadbalancing:DescribeLoadBalancers',
  createLoadBalancer: 'elasticloadbalancing:CreateLoadBalancer',
  deleteLoadBalancer: 'elasticloadbalancing:DeleteLoadBalancer',
  setSecurityGroups: 'elasticloadbalancing:SetSecurityGroups',
  describeLoadBalancerAttributes: 'elasticloadbalancing:DescribeLoadBalancerAttributes',
  modifyLoadBalancerAttributes: 'elasticloadbalancing:ModifyLoadBalancerAttributes',
  describeTags: 'elasticloadbalancing:DescribeTags',
  addTags: 'elasticloadbalancing:AddTags',
  createTargetGroup: 'elasticloadbalancing:CreateTargetGroup',
  describeTargetGroupsOfLoadBalancer: 'elasticloadbalancing:DescribeTargetGroups',
  describeTargetGroupByName: 'elasticloadbalancing:DescribeTargetGroups',
  describeAllTargetGroups: 'elasticloadbalancing:DescribeTargetGroups',
  modifyTargetGroupHealthCheck: 'elasticloadbalancing:ModifyTargetGroup',
  deleteTargetGroup: 'elasticloadbalancing:DeleteTargetGroup',
  describeTargetHealth: 'elasticloadbalancing:DescribeTargetHealth',
  registerTargets: 'elasticloadbalancing:RegisterTargets',
  deregisterTargets: 'elasticloadbalancing:DeregisterTargets',
  describeTargetGroupAttributes: 'elasticloadbalancing:DescribeTargetGroupAttributes',
  modifyTargetGroupAttributes: 'elasticloadbalancing:ModifyTargetGroupAttributes',
  createListener: 'elasticloadbalancing:CreateListener',
  describeListeners: 'elasticloadbalancing:DescribeListeners',
  modifyListener: 'elasticloadbalancing:ModifyListener',
  deleteListener: 'elasticloadbalancing:DeleteListener',
};

/** Only with `RoleARN`: the CCM's own identity assumes that role. */
export const ASSUME_ROLE_ACTION = 'sts:AssumeRole';

const sorted = (actions: Iterable<string>): string[] => [...new Set(actions)].sort();

export function renderIamPolicy(): string {
  const policy = {
    Version: '2012-10-17',
    Statement: [
      { Sid: 'AwsCloudControllerManagerEc2', Effect: 'Allow', Action: sorted(Object.values(EC2_IAM_ACTIONS)), Resource: '*' },
      {
        Sid: 'AwsCloudControllerManagerLoadBalancing',
        Effect: 'Allow',
        Action: sorted([...Object.values(ELB_IAM_ACTIONS), ...Object.values(ELBV2_IAM_ACTIONS)]),
        Resource: '*',
      },
    ],
  };
  return `${JSON.stringify(policy, null, 2)}\n`;
}
