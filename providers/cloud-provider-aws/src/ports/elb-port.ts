/** The Classic ELB calls this provider makes, in provider-owned types. */
import type { Tags } from '../tags.js';
import type { CallOptions } from '@ccm/core/cloud';

export interface ClassicListener {
  /** `HTTP`, `HTTPS`, `TCP` or `SSL` (AWS compares case-insensitively). */
  protocol: string;
  loadBalancerPort: number;
  instanceProtocol: string;
  instancePort: number;
  sslCertificateId?: string;
}

export interface ClassicListenerDescription {
  listener: ClassicListener;
  policyNames: string[];
}

export interface ClassicHealthCheck {
  /** `PROTOCOL:port[path]`. */
  target: string;
  interval: number;
  timeout: number;
  unhealthyThreshold: number;
  healthyThreshold: number;
}

export interface ClassicBackendServer {
  instancePort: number;
  policyNames: string[];
}

export interface ClassicLoadBalancer {
  name: string;
  dnsName?: string;
  /** `internet-facing` or `internal`. */
  scheme?: string;
  vpcId?: string;
  listeners: ClassicListenerDescription[];
  subnets: string[];
  securityGroups: string[];
  instanceIds: string[];
  /** Absent on simulators that only return it after ConfigureHealthCheck. */
  healthCheck?: ClassicHealthCheck;
  backendServers: ClassicBackendServer[];
}

export interface ClassicAttributes {
  accessLog: { enabled: boolean; emitInterval?: number; s3BucketName?: string; s3BucketPrefix?: string };
  connectionDraining: { enabled: boolean; timeout?: number };
  connectionSettings: { idleTimeout?: number };
  crossZoneLoadBalancing: { enabled: boolean };
}

export interface ClassicPolicyAttribute {
  name: string;
  value: string;
}

export interface CreateClassicLoadBalancerRequest {
  name: string;
  listeners: readonly ClassicListener[];
  subnets: readonly string[];
  securityGroups: readonly string[];
  internal: boolean;
  tags: Tags;
}

export interface ElbPort {
  /** Undefined when no load balancer has that name. */
  describeLoadBalancer(name: string, options?: CallOptions): Promise<ClassicLoadBalancer | undefined>;
  /** Returns the DNS name. */
  createLoadBalancer(request: CreateClassicLoadBalancerRequest, options?: CallOptions): Promise<string>;
  deleteLoadBalancer(name: string, options?: CallOptions): Promise<void>;
  describeTags(name: string, options?: CallOptions): Promise<Tags>;
  addTags(name: string, tags: Tags, options?: CallOptions): Promise<void>;
  registerInstances(name: string, instanceIds: readonly string[], options?: CallOptions): Promise<void>;
  deregisterInstances(name: string, instanceIds: readonly string[], options?: CallOptions): Promise<void>;
  createListeners(name: string, listeners: readonly ClassicListener[], options?: CallOptions): Promise<void>;
  deleteListeners(name: string, loadBalancerPorts: readonly number[], options?: CallOptions): Promise<void>;
  attachToSubnets(name: string, subnets: readonly string[], options?: CallOptions): Promise<void>;
  detachFromSubnets(name: string, subnets: readonly string[], options?: CallOptions): Promise<void>;
  applySecurityGroups(name: string, securityGroups: readonly string[], options?: CallOptions): Promise<void>;
  configureHealthCheck(name: string, healthCheck: ClassicHealthCheck, options?: CallOptions): Promise<void>;
  describeAttributes(name: string, options?: CallOptions): Promise<ClassicAttributes>;
  modifyAttributes(name: string, attributes: ClassicAttributes, options?: CallOptions): Promise<void>;
  /** Names of the given policies that exist on the load balancer. */
  describePolicyNames(name: string, policyNames: readonly string[], options?: CallOptions): Promise<string[]>;
  createPolicy(
    name: string,
    policy: { policyName: string; policyTypeName: string; attributes: readonly ClassicPolicyAttribute[] },
    options?: CallOptions,
  ): Promise<void>;
  setBackendServerPolicies(name: string, instancePort: number, policyNames: readonly string[], options?: CallOptions): Promise<void>;
  setListenerPolicies(name: string, loadBalancerPort: number, policyNames: readonly string[], options?: CallOptions): Promise<void>;
}
