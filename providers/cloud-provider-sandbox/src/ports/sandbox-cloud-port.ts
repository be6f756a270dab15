/**
 * The port the sandbox provider talks to the sandbox cloud through: only the calls the provider
 * makes, in the provider's own types (the HTTP adapter maps the wire format onto them).
 */

export type CloudInstanceState = 'running' | 'stopped' | 'terminated';

export interface CloudAddress {
  type: 'Hostname' | 'InternalIP' | 'ExternalIP' | 'InternalDNS' | 'ExternalDNS';
  address: string;
}

export interface CloudInstance {
  id: string;
  name: string;
  state: CloudInstanceState;
  instanceType: string;
  zone: string;
  region: string;
  addresses: CloudAddress[];
}

export interface CloudListener {
  name?: string;
  protocol: 'TCP' | 'UDP' | 'SCTP';
  port: number;
  nodePort: number;
}

export interface CloudLoadBalancer {
  name: string;
  listeners: CloudListener[];
  backendInstanceIds: string[];
  ingress: { ip: string; hostname: string };
  sourceRanges: string[];
  healthCheckNodePort?: number;
  tags: Record<string, string>;
}

export interface CloudLoadBalancerSpec {
  name: string;
  listeners: CloudListener[];
  backendInstanceIds: string[];
  sourceRanges: string[];
  healthCheckNodePort?: number;
  tags: Record<string, string>;
}

/** Only the fields to change; `healthCheckNodePort: null` removes it. */
export interface CloudLoadBalancerChanges {
  listeners?: CloudListener[];
  backendInstanceIds?: string[];
  sourceRanges?: string[];
  healthCheckNodePort?: number | null;
  tags?: Record<string, string>;
}

export interface CloudRoute {
  id: string;
  destinationCidr: string;
  targetInstanceId: string;
  /** '' when the target instance is gone. */
  targetInstanceName: string;
  blackhole: boolean;
  tags: Record<string, string>;
}

export interface CloudRouteSpec {
  destinationCidr: string;
  targetInstanceId: string;
  description: string;
  tags: Record<string, string>;
}

export interface CallOptions {
  signal?: AbortSignal;
}

/**
 * Failures are `SandboxApiError`s. Lookups of one thing by id or name answer `undefined` when it
 * does not exist; changes to something missing throw a `NotFound` error.
 */
export interface SandboxCloudPort {
  getInstance(id: string, options?: CallOptions): Promise<CloudInstance | undefined>;
  /** Every instance with this name, terminated ones included. */
  findInstancesByName(name: string, options?: CallOptions): Promise<CloudInstance[]>;
  /** One call for many ids and names; every instance that matched, each once. */
  batchGetInstances(lookup: { ids: string[]; names: string[] }, options?: CallOptions): Promise<CloudInstance[]>;
  getLoadBalancer(name: string, options?: CallOptions): Promise<CloudLoadBalancer | undefined>;
  createLoadBalancer(spec: CloudLoadBalancerSpec, options?: CallOptions): Promise<CloudLoadBalancer>;
  updateLoadBalancer(name: string, changes: CloudLoadBalancerChanges, options?: CallOptions): Promise<CloudLoadBalancer>;
  setLoadBalancerBackends(name: string, instanceIds: string[], options?: CallOptions): Promise<CloudLoadBalancer>;
  deleteLoadBalancer(name: string, options?: CallOptions): Promise<void>;
  /** Routes carrying every tag in `tags`. */
  listRoutes(tags: Record<string, string>, options?: CallOptions): Promise<CloudRoute[]>;
  createRoute(spec: CloudRouteSpec, options?: CallOptions): Promise<CloudRoute>;
  /** Deletes the route only if it carries every tag in `requireTags` (else an InvalidState error). */
  deleteRoute(id: string, requireTags: Record<string, string>, options?: CallOptions): Promise<void>;
}

/** The port's operations, used as metric labels and error prefixes (derived, never hand-typed). */
export const SANDBOX_CLOUD_PORT_OPERATIONS = [
  'getInstance',
  'findInstancesByName',
  'batchGetInstances',
  'getLoadBalancer',
  'createLoadBalancer',
  'updateLoadBalancer',
  'setLoadBalancerBackends',
  'deleteLoadBalancer',
  'listRoutes',
  'createRoute',
  'deleteRoute',
] as const satisfies ReadonlyArray<keyof SandboxCloudPort>;

export type SandboxCloudPortOperation = (typeof SANDBOX_CLOUD_PORT_OPERATIONS)[number];
