/** What a Service asks for, after every annotation has been parsed and validated. */
import type { ClassicAttributes, ClassicHealthCheck, ClassicListener } from '../../ports/elb-port.js';

export interface ServiceIdentity {
  namespace: string;
  name: string;
  uid: string;
}

export interface FrontendPort {
  port: number;
  /** Lower case: `tcp` or `udp`. */
  protocol: string;
}

export interface CommonLoadBalancerSpec {
  service: ServiceIdentity;
  loadBalancerName: string;
  internal: boolean;
  /** Subnet IDs and/or Name tags from the annotation; empty means auto-discovery. */
  subnetNamesOrIds: string[];
  /** Security groups from the annotation (replace the managed group). */
  securityGroups: string[];
  additionalTags: Record<string, string>;
  /** Normalised CIDRs allowed to reach the load balancer. */
  sourceRanges: string[];
  targetNodeLabels: Record<string, string>;
  /** Every Service port, for the load balancer's own security group rules. */
  frontendPorts: FrontendPort[];
}

export interface ClassicLoadBalancerSpec extends CommonLoadBalancerSpec {
  kind: 'classic';
  listeners: ClassicListener[];
  extraSecurityGroups: string[];
  attributes: ClassicAttributes;
  proxyProtocol: boolean;
  /** Predefined policy name from the annotation (the created policy is prefixed). */
  sslNegotiationPolicy: string | undefined;
  healthCheck: ClassicHealthCheck;
}

export interface NetworkHealthCheck {
  /** `TCP`, `HTTP` or `HTTPS`. */
  protocol: string;
  /** `traffic-port` or a number. */
  port: string;
  path: string;
  interval: number;
  /** Parsed like upstream but never sent to ELBv2. */
  timeout: number;
  healthyThreshold: number;
  unhealthyThreshold: number;
}

export interface NetworkPortMapping {
  frontendPort: number;
  /** `TCP`, `UDP` or `TLS`. */
  frontendProtocol: string;
  /** The NodePort. */
  trafficPort: number;
  trafficProtocol: string;
  healthCheck: NetworkHealthCheck;
  sslCertificateArn?: string;
  sslPolicy?: string;
}

export interface NetworkLoadBalancerSpec extends CommonLoadBalancerSpec {
  kind: 'network';
  mappings: NetworkPortMapping[];
  /** Desired load balancer attributes (ELBv2 keys). */
  attributes: Record<string, string>;
  /** Desired target group attributes; undefined when the annotation is absent. */
  targetGroupAttributes: Record<string, string> | undefined;
  eipAllocations: string[] | undefined;
  privateIpv4Addresses: string[] | undefined;
}

export type LoadBalancerSpec = ClassicLoadBalancerSpec | NetworkLoadBalancerSpec;

/** Provider-wide load balancer settings from the cloud config. */
export interface LoadBalancerSettings {
  /** `ServiceNodePort` (default) or `Shared`: probe kube-proxy for externalTrafficPolicy Cluster. */
  healthProbeMode: 'ServiceNodePort' | 'Shared';
  sharedHealthProbePort: number;
  sharedHealthProbePath: string;
  /** `Managed`: NLBs get a managed security group and honour the security-groups annotation. */
  nlbSecurityGroupMode: '' | 'Managed';
  /** One shared security group for every Classic ELB (never modified or deleted). */
  elbSecurityGroup: string;
  disableSecurityGroupIngress: boolean;
}

export const DEFAULT_LOAD_BALANCER_SETTINGS: LoadBalancerSettings = {
  healthProbeMode: 'ServiceNodePort',
  sharedHealthProbePort: 10256,
  sharedHealthProbePath: '/healthz',
  nlbSecurityGroupMode: '',
  elbSecurityGroup: '',
  disableSecurityGroupIngress: false,
};
