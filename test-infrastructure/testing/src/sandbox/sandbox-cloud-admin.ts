import type { InjectedErrorRule, RateLimit, SandboxCallCounts } from './sandbox-request-gate.js';
import type {
  CreateInstanceRequest,
  CreateLoadBalancerRequest,
  CreateRouteRequest,
  SandboxCloudSnapshot,
  SandboxInstance,
  SandboxLoadBalancer,
  SandboxRoute,
  UpdateInstanceRequest,
} from './sandbox-types.js';

export interface SandboxCloudSettings {
  latencyMs: number;
  rateLimit: RateLimit | undefined;
  errorRate: number;
}

/**
 * What tests and drivers do to the sandbox cloud behind the CCM's back. Implemented in process by
 * `SandboxCloud` (from `startSandboxCloud`) and over HTTP by `SandboxCloudAdminClient`; both
 * behave the same. Admin calls are never throttled, delayed, failed on purpose or counted.
 */
export interface SandboxCloudAdmin {
  createInstance(request: CreateInstanceRequest): Promise<SandboxInstance>;
  getInstance(id: string): Promise<SandboxInstance>;
  /** Every instance, terminated ones included. */
  listInstances(): Promise<SandboxInstance[]>;
  updateInstance(id: string, update: UpdateInstanceRequest): Promise<SandboxInstance>;
  stopInstance(id: string): Promise<SandboxInstance>;
  startInstance(id: string): Promise<SandboxInstance>;
  /** Terminates (still listed, state `terminated`); with `purge` it is gone for good. */
  deleteInstance(id: string, options?: { purge?: boolean }): Promise<void>;

  listLoadBalancers(): Promise<SandboxLoadBalancer[]>;
  /** Creates a load balancer directly, e.g. one the CCM does not own. */
  createLoadBalancer(request: CreateLoadBalancerRequest): Promise<SandboxLoadBalancer>;
  deleteLoadBalancer(name: string): Promise<void>;

  listRoutes(): Promise<SandboxRoute[]>;
  /** Creates a route directly; `blackhole: true` is allowed here. */
  createRoute(request: CreateRouteRequest): Promise<SandboxRoute>;
  deleteRoute(id: string): Promise<void>;

  snapshot(): Promise<SandboxCloudSnapshot>;

  calls(): Promise<SandboxCallCounts>;
  resetCalls(): Promise<void>;

  settings(): Promise<SandboxCloudSettings>;
  setLatency(latencyMs: number): Promise<void>;
  /** `undefined` removes the limit. */
  setRateLimit(rateLimit: RateLimit | undefined): Promise<void>;
  setErrorRate(errorRate: number, seed?: number): Promise<void>;
  injectErrors(rule: InjectedErrorRule): Promise<void>;
  clearInjectedErrors(): Promise<void>;

  /** Deletes every resource, clears counters and faults, keeps latency, rate limit and error rate. */
  reset(): Promise<void>;
}
