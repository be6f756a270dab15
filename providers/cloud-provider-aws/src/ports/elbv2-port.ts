/** The ELBv2 (Network Load Balancer) calls this provider makes, in provider-owned types. */
import type { Tags } from '../tags.js';
import type { CallOptions } from '@ccm/core/cloud';

export interface NetworkLoadBalancer {
  arn: string;
  name: string;
  dnsName?: string;
  /** `network`, `application`, `gateway`. */
  type?: string;
  scheme?: string;
  /** `active`, `provisioning`, `active_impaired`, `failed`. */
  state?: string;
  vpcId?: string;
  securityGroups: string[];
  subnetIds: string[];
}

export interface SubnetMapping {
  subnetId: string;
  allocationId?: string;
  privateIpv4Address?: string;
}

export interface TargetGroupHealthCheck {
  /** `TCP`, `HTTP` or `HTTPS`. */
  protocol: string;
  /** `traffic-port` or a number. */
  port: string;
  path?: string;
  intervalSeconds: number;
  healthyThreshold: number;
  unhealthyThreshold: number;
}

export interface TargetGroup {
  arn: string;
  name: string;
  protocol: string;
  port: number;
  vpcId?: string;
  targetType?: string;
  healthCheck: Partial<TargetGroupHealthCheck>;
  loadBalancerArns: string[];
}

export interface Target {
  id: string;
  port: number;
}

export interface TargetHealth extends Target {
  state?: string;
  reason?: string;
}

export interface ListenerCertificate {
  certificateArn: string;
}

export interface NetworkListener {
  arn: string;
  port: number;
  protocol: string;
  sslPolicy?: string;
  certificates: ListenerCertificate[];
  /** Target group of the default forward action. */
  targetGroupArn?: string;
}

export interface CreateNetworkLoadBalancerRequest {
  name: string;
  internal: boolean;
  subnetMappings: readonly SubnetMapping[];
  /** Undefined: no security groups (AWS can then never add any). */
  securityGroups?: readonly string[];
  tags: Tags;
}

export interface CreateTargetGroupRequest {
  name: string;
  protocol: string;
  port: number;
  vpcId: string;
  healthCheck: TargetGroupHealthCheck;
  tags: Tags;
}

export interface ListenerSpec {
  port: number;
  protocol: string;
  targetGroupArn: string;
  sslPolicy?: string;
  certificateArn?: string;
}

export interface Elbv2Port {
  /** Only load balancers of the given name; undefined when none exists. */
  describeLoadBalancerByName(name: string, options?: CallOptions): Promise<NetworkLoadBalancer | undefined>;
  createLoadBalancer(request: CreateNetworkLoadBalancerRequest, options?: CallOptions): Promise<NetworkLoadBalancer>;
  deleteLoadBalancer(arn: string, options?: CallOptions): Promise<void>;
  setSecurityGroups(arn: string, securityGroups: readonly string[], options?: CallOptions): Promise<void>;
  describeLoadBalancerAttributes(arn: string, options?: CallOptions): Promise<Record<string, string>>;
  modifyLoadBalancerAttributes(arn: string, attributes: Readonly<Record<string, string>>, options?: CallOptions): Promise<void>;
  /** Tags per resource ARN (load balancers, target groups, listeners). */
  describeTags(arns: readonly string[], options?: CallOptions): Promise<Map<string, Tags>>;
  addTags(arns: readonly string[], tags: Tags, options?: CallOptions): Promise<void>;
  createTargetGroup(request: CreateTargetGroupRequest, options?: CallOptions): Promise<TargetGroup>;
  describeTargetGroupsOfLoadBalancer(loadBalancerArn: string, options?: CallOptions): Promise<TargetGroup[]>;
  /** Every target group of the account and region, all pages (found by name prefix when no load balancer links them). */
  describeAllTargetGroups(options?: CallOptions): Promise<TargetGroup[]>;
  /** Undefined when no target group has that name. */
  describeTargetGroupByName(name: string, options?: CallOptions): Promise<TargetGroup | undefined>;
  modifyTargetGroupHealthCheck(arn: string, healthCheck: Partial<TargetGroupHealthCheck>, options?: CallOptions): Promise<void>;
  deleteTargetGroup(arn: string, options?: CallOptions): Promise<void>;
  describeTargetHealth(targetGroupArn: string, options?: CallOptions): Promise<TargetHealth[]>;
  registerTargets(targetGroupArn: string, targets: readonly Target[], options?: CallOptions): Promise<void>;
  deregisterTargets(targetGroupArn: string, targets: readonly Target[], options?: CallOptions): Promise<void>;
  describeTargetGroupAttributes(arn: string, options?: CallOptions): Promise<Record<string, string>>;
  modifyTargetGroupAttributes(arn: string, attributes: Readonly<Record<string, string>>, options?: CallOptions): Promise<void>;
  createListener(loadBalancerArn: string, listener: ListenerSpec, tags: Tags, options?: CallOptions): Promise<NetworkListener>;
  describeListeners(loadBalancerArn: string, options?: CallOptions): Promise<NetworkListener[]>;
  modifyListener(listenerArn: string, listener: ListenerSpec, options?: CallOptions): Promise<void>;
  deleteListener(listenerArn: string, options?: CallOptions): Promise<void>;
}
