/**
 * The sandbox cloud's resource model. These are the JSON shapes of its HTTP API as well as the
 * values `SandboxCloudState` hands out (always copies: callers can never change the state by
 * mutating what they got back).
 */

/** `running` and `stopped` instances exist; `terminated` ones are kept visible for a while, like a real cloud. */
export type SandboxInstanceState = 'running' | 'stopped' | 'terminated';

export type SandboxAddressType = 'Hostname' | 'InternalIP' | 'ExternalIP' | 'InternalDNS' | 'ExternalDNS';

export interface SandboxAddress {
  type: SandboxAddressType;
  address: string;
}

export interface SandboxInstance {
  /** `i-` followed by 17 hex digits, unless given on creation. */
  id: string;
  /** The name a kubelet registers its Node with. */
  name: string;
  hostname: string;
  instanceType: string;
  zone: string;
  region: string;
  state: SandboxInstanceState;
  /** In the order the cloud reports them: InternalIP(s), ExternalIP, InternalDNS, ExternalDNS, Hostname. */
  addresses: SandboxAddress[];
  tags: Record<string, string>;
  /** Bumped on every change. */
  generation: number;
}

export type SandboxProtocol = 'TCP' | 'UDP' | 'SCTP';

export interface SandboxListener {
  name?: string;
  protocol: SandboxProtocol;
  /** Frontend port. */
  port: number;
  /** Backend port on every instance. */
  nodePort: number;
}

export interface SandboxIngress {
  ip: string;
  hostname: string;
}

export interface SandboxLoadBalancer {
  name: string;
  listeners: SandboxListener[];
  /** Backend instance ids, sorted. */
  backendInstanceIds: string[];
  /** Allocated from the ingress pool on creation, released on deletion. */
  ingress: SandboxIngress;
  sourceRanges: string[];
  healthCheckNodePort?: number;
  tags: Record<string, string>;
  /** Bumped on every change: a repeated identical request leaves it unchanged. */
  generation: number;
}

export interface SandboxRoute {
  /** `rt-` followed by hex digits, assigned by the cloud. */
  id: string;
  destinationCidr: string;
  /** The instance the traffic goes to. */
  targetInstanceId: string;
  /** The target instance's name, or '' when it is gone. */
  targetInstanceName: string;
  /** True when created as a blackhole or when the target instance is terminated or gone. */
  blackhole: boolean;
  description: string;
  tags: Record<string, string>;
}

// ---- requests --------------------------------------------------------------------------------

export interface CreateInstanceRequest {
  name: string;
  id?: string;
  hostname?: string;
  instanceType?: string;
  zone?: string;
  region?: string;
  /** Start stopped instead of running. */
  state?: 'running' | 'stopped';
  /** Allocated from 10.0.0.0/16 when not given. */
  internalIp?: string;
  /** An extra IPv6 InternalIP; `true` allocates one from fd00:10::/64. */
  internalIpv6?: string | boolean;
  /** `false` for no public address; `true` (default) allocates from 198.51.100.0/24. */
  externalIp?: string | boolean;
  tags?: Record<string, string>;
}

export interface UpdateInstanceRequest {
  /** Replaces the whole address list. */
  addresses?: SandboxAddress[];
  instanceType?: string;
  tags?: Record<string, string>;
}

export interface CreateLoadBalancerRequest {
  name: string;
  listeners: SandboxListener[];
  backendInstanceIds: string[];
  sourceRanges?: string[];
  healthCheckNodePort?: number;
  tags?: Record<string, string>;
}

/** Fields left out stay as they are. */
export interface UpdateLoadBalancerRequest {
  listeners?: SandboxListener[];
  backendInstanceIds?: string[];
  sourceRanges?: string[];
  /** `null` removes it. */
  healthCheckNodePort?: number | null;
  tags?: Record<string, string>;
}

export interface CreateRouteRequest {
  destinationCidr: string;
  targetInstanceId: string;
  description?: string;
  tags?: Record<string, string>;
  /** Only through the admin API: a route that drops traffic. */
  blackhole?: boolean;
}

export interface BatchGetInstancesRequest {
  ids?: string[];
  names?: string[];
}

export interface BatchGetInstancesResult {
  /** Every instance that matched an id or a name, each once, in request order. */
  instances: SandboxInstance[];
  /** Requested ids with no instance. */
  missingIds: string[];
  /** Requested names with no instance. */
  missingNames: string[];
}

/** Equality filter on tags: every key must be present with that value. */
export type TagFilter = Record<string, string>;

export interface SandboxCloudSnapshot {
  instances: SandboxInstance[];
  loadBalancers: SandboxLoadBalancer[];
  routes: SandboxRoute[];
}
