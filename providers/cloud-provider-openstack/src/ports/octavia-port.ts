/**
 * The Octavia calls the load balancer operations make, in the provider's own types. Failures are
 * the provider's typed API errors (see `errors.ts`): `NotFound`, `Conflict` (409: the load
 * balancer is immutable while PENDING_*), `NotImplemented` (501: the provider refuses an option).
 */
import type { CallOptions } from '@ccm/core/cloud';

export type OctaviaProvisioningStatus = 'ACTIVE' | 'DELETED' | 'ERROR' | 'PENDING_CREATE' | 'PENDING_UPDATE' | 'PENDING_DELETE';

export interface OctaviaLoadBalancer {
  id: string;
  name: string;
  description: string;
  provisioningStatus: OctaviaProvisioningStatus;
  vipAddress: string;
  vipPortId: string;
  vipSubnetId: string;
  provider: string;
  tags: string[];
}

export interface OctaviaListener {
  id: string;
  name: string;
  protocol: string;
  port: number;
  connectionLimit: number;
  defaultPoolId: string | undefined;
  allowedCidrs: string[];
  timeoutClientData: number;
  timeoutMemberConnect: number;
  timeoutMemberData: number;
  timeoutTcpInspect: number;
  insertHeaders: Record<string, string>;
  tags: string[];
}

export interface OctaviaSessionPersistence {
  type: string;
}

export interface OctaviaPool {
  id: string;
  name: string;
  protocol: string;
  method: string;
  sessionPersistence: OctaviaSessionPersistence | undefined;
  listenerIds: string[];
  healthMonitorId: string | undefined;
}

export interface OctaviaMember {
  /** Set on members read from Octavia. */
  id?: string;
  name: string;
  address: string;
  port: number;
  subnetId?: string;
  monitorPort?: number;
}

export interface OctaviaHealthMonitor {
  id: string;
  name: string;
  type: string;
  delaySeconds: number;
  timeoutSeconds: number;
  maxRetries: number;
  maxRetriesDown: number;
  httpMethod?: string;
  urlPath?: string;
  expectedCodes?: string;
}

/** What a new health monitor is (no ID, no pool). */
export type HealthMonitorSpec = Omit<OctaviaHealthMonitor, 'id'>;

/** Listener fields the CCM sets (create and update). */
export interface ListenerSettings {
  name: string;
  connectionLimit: number;
  allowedCidrs: string[];
  timeoutClientData?: number;
  timeoutMemberConnect?: number;
  timeoutMemberData?: number;
  timeoutTcpInspect?: number;
  insertHeaders: Record<string, string>;
  tags: string[];
}

export interface ListenerSpec extends ListenerSettings {
  protocol: string;
  port: number;
}

export interface PoolSpec {
  name: string;
  protocol: string;
  method: string;
  sessionPersistence: OctaviaSessionPersistence | undefined;
}

/** One listener of a fully populated create: its default pool, the pool's members and monitor. */
export interface PopulatedListenerSpec extends ListenerSpec {
  pool: PoolSpec & { members: OctaviaMember[]; healthMonitor: HealthMonitorSpec | undefined };
}

export interface LoadBalancerCreateSpec {
  name: string;
  description: string;
  vipSubnetId?: string;
  vipNetworkId?: string;
  vipPortId?: string;
  vipAddress?: string;
  provider: string;
  flavorId?: string;
  availabilityZone?: string;
  tags: string[];
  listeners: PopulatedListenerSpec[];
}

export interface OctaviaPort {
  findLoadBalancersByName(name: string, options?: CallOptions): Promise<OctaviaLoadBalancer[]>;
  /** Undefined when it does not exist. */
  getLoadBalancer(id: string, options?: CallOptions): Promise<OctaviaLoadBalancer | undefined>;
  /** One fully populated POST: listeners, default pools, members and monitors. */
  createLoadBalancer(spec: LoadBalancerCreateSpec, options?: CallOptions): Promise<OctaviaLoadBalancer>;
  updateLoadBalancerTags(id: string, tags: string[], options?: CallOptions): Promise<void>;
  /** A new name and tags (a load balancer made under another cluster name). */
  renameLoadBalancer(id: string, name: string, tags: string[], options?: CallOptions): Promise<void>;
  /** `cascade`: removes listeners, pools, members and monitors with it. */
  deleteLoadBalancer(id: string, cascade: boolean, options?: CallOptions): Promise<void>;

  listListeners(loadBalancerId: string, options?: CallOptions): Promise<OctaviaListener[]>;
  createListener(loadBalancerId: string, spec: ListenerSpec, options?: CallOptions): Promise<OctaviaListener>;
  updateListener(id: string, settings: ListenerSettings, options?: CallOptions): Promise<void>;
  renameListener(id: string, name: string, tags: string[], options?: CallOptions): Promise<void>;
  deleteListener(id: string, options?: CallOptions): Promise<void>;

  listPools(loadBalancerId: string, options?: CallOptions): Promise<OctaviaPool[]>;
  createPool(listenerId: string, spec: PoolSpec, options?: CallOptions): Promise<OctaviaPool>;
  updatePoolMethod(id: string, method: string, options?: CallOptions): Promise<void>;
  renamePool(id: string, name: string, options?: CallOptions): Promise<void>;
  deletePool(id: string, options?: CallOptions): Promise<void>;

  listMembers(poolId: string, options?: CallOptions): Promise<OctaviaMember[]>;
  /** Batch update: the pool ends with exactly these members. */
  replaceMembers(poolId: string, members: OctaviaMember[], options?: CallOptions): Promise<void>;
  /** One member (`provider-requires-serial-api-calls`). */
  createMember(poolId: string, member: OctaviaMember, options?: CallOptions): Promise<void>;
  deleteMember(poolId: string, memberId: string, options?: CallOptions): Promise<void>;

  getHealthMonitor(id: string, options?: CallOptions): Promise<OctaviaHealthMonitor | undefined>;
  createHealthMonitor(poolId: string, spec: HealthMonitorSpec, options?: CallOptions): Promise<OctaviaHealthMonitor>;
  updateHealthMonitor(id: string, spec: Pick<HealthMonitorSpec, 'name' | 'delaySeconds' | 'timeoutSeconds' | 'maxRetries' | 'maxRetriesDown'>, options?: CallOptions): Promise<void>;
  deleteHealthMonitor(id: string, options?: CallOptions): Promise<void>;
}
