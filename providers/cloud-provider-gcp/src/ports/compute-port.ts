/**
 * The Compute Engine API as the provider's operations use it, in the provider's own types. Every
 * mutating call resolves once its Operation is DONE (polled by the adapter) and rejects with a
 * `GceApiError` when the operation failed. Gets answer `undefined` for a resource that does not exist.
 * Firewalls and routes live in the network project; everything else in the cluster project.
 */
import type { CallOptions } from '@ccm/core/cloud';

export interface GceAccessConfig {
  natIP?: string;
  externalIpv6?: string;
}

export interface GceNetworkInterface {
  network?: string;
  subnetwork?: string;
  networkIP?: string;
  ipv6Address?: string;
  stackType?: string;
  ipv6AccessType?: string;
  accessConfigs: GceAccessConfig[];
  ipv6AccessConfigs: GceAccessConfig[];
}

export interface GceInstance {
  name: string;
  /** Short zone name (`us-central1-b`). */
  zone: string;
  selfLink: string;
  /** Short machine type (`e2-medium`). */
  machineType: string;
  /** PROVISIONING, STAGING, RUNNING, STOPPING, STOPPED, SUSPENDING, SUSPENDED, REPAIRING, TERMINATED. */
  status: string;
  tags: string[];
  networkInterfaces: GceNetworkInterface[];
}

export interface GceRoute {
  name: string;
  network: string;
  destRange: string;
  nextHopInstance?: string;
  description?: string;
  priority?: number;
}

export interface GceAddress {
  name: string;
  address?: string;
  description?: string;
  networkTier?: string;
  addressType?: string;
  /** INTERNAL addresses: the subnetwork URL the IP comes from. */
  subnetwork?: string;
}

export interface GceForwardingRule {
  name: string;
  IPAddress?: string;
  IPProtocol?: string;
  portRange?: string;
  target?: string;
  backendService?: string;
  networkTier?: string;
  loadBalancingScheme?: string;
  description?: string;
  /** INTERNAL rules: at most 5 ports, else `allPorts`. */
  ports?: string[];
  allPorts?: boolean;
  network?: string;
  subnetwork?: string;
  allowGlobalAccess?: boolean;
}

export interface GceTargetPool {
  name: string;
  selfLink?: string;
  instances: string[];
  healthChecks: string[];
  sessionAffinity?: string;
  description?: string;
}

export interface GceHttpHealthCheck {
  name: string;
  selfLink?: string;
  port: number;
  requestPath: string;
  checkIntervalSec: number;
  timeoutSec: number;
  healthyThreshold: number;
  unhealthyThreshold: number;
  description?: string;
}

/** A global `healthChecks` resource of type HTTP (what regional backend services take). */
export interface GceHealthCheck {
  name: string;
  selfLink?: string;
  type: string;
  /** `httpHealthCheck.port` and `.requestPath`; undefined when the check is not HTTP. */
  port?: number;
  requestPath?: string;
  checkIntervalSec: number;
  timeoutSec: number;
  healthyThreshold: number;
  unhealthyThreshold: number;
  description?: string;
}

export interface GceBackend {
  /** Instance group URL. */
  group: string;
}

export interface GceBackendService {
  name: string;
  selfLink?: string;
  protocol?: string;
  description?: string;
  healthChecks: string[];
  backends: GceBackend[];
  sessionAffinity?: string;
  loadBalancingScheme?: string;
  /** Optimistic lock: an update with a stale one fails with PreconditionFailed (412). */
  fingerprint?: string;
}

export interface GceInstanceGroup {
  name: string;
  zone: string;
  selfLink?: string;
  description?: string;
}

export interface GceFirewallAllowed {
  IPProtocol: string;
  ports?: string[];
}

export interface GceFirewall {
  name: string;
  network: string;
  description?: string;
  sourceRanges: string[];
  destinationRanges: string[];
  targetTags: string[];
  allowed: GceFirewallAllowed[];
  priority?: number;
}

/** Which instances to list: exact names, in one zone or (without `zone`) in every zone. */
export interface ListInstancesRequest {
  zone?: string;
  names: readonly string[];
}

export interface ComputePort {
  listInstances(request: ListInstancesRequest, options?: CallOptions): Promise<GceInstance[]>;
  getInstance(zone: string, name: string, options?: CallOptions): Promise<GceInstance | undefined>;

  /** Routes whose name starts with `namePrefix`, on `network` (a URL), with `description`. */
  listRoutes(request: { namePrefix: string; network: string; description: string }, options?: CallOptions): Promise<GceRoute[]>;
  insertRoute(route: GceRoute, options?: CallOptions): Promise<void>;
  deleteRoute(name: string, options?: CallOptions): Promise<void>;

  getAddress(region: string, name: string, options?: CallOptions): Promise<GceAddress | undefined>;
  findAddressByIp(region: string, ip: string, options?: CallOptions): Promise<GceAddress | undefined>;
  insertAddress(region: string, address: GceAddress, options?: CallOptions): Promise<void>;
  deleteAddress(region: string, name: string, options?: CallOptions): Promise<void>;

  getForwardingRule(region: string, name: string, options?: CallOptions): Promise<GceForwardingRule | undefined>;
  insertForwardingRule(region: string, rule: GceForwardingRule, options?: CallOptions): Promise<void>;
  deleteForwardingRule(region: string, name: string, options?: CallOptions): Promise<void>;

  getTargetPool(region: string, name: string, options?: CallOptions): Promise<GceTargetPool | undefined>;
  insertTargetPool(region: string, pool: GceTargetPool, options?: CallOptions): Promise<void>;
  deleteTargetPool(region: string, name: string, options?: CallOptions): Promise<void>;
  addTargetPoolInstances(region: string, name: string, instanceUrls: readonly string[], options?: CallOptions): Promise<void>;
  removeTargetPoolInstances(region: string, name: string, instanceUrls: readonly string[], options?: CallOptions): Promise<void>;

  getHttpHealthCheck(name: string, options?: CallOptions): Promise<GceHttpHealthCheck | undefined>;
  insertHttpHealthCheck(check: GceHttpHealthCheck, options?: CallOptions): Promise<void>;
  updateHttpHealthCheck(check: GceHttpHealthCheck, options?: CallOptions): Promise<void>;
  deleteHttpHealthCheck(name: string, options?: CallOptions): Promise<void>;

  getHealthCheck(name: string, options?: CallOptions): Promise<GceHealthCheck | undefined>;
  insertHealthCheck(check: GceHealthCheck, options?: CallOptions): Promise<void>;
  updateHealthCheck(check: GceHealthCheck, options?: CallOptions): Promise<void>;
  deleteHealthCheck(name: string, options?: CallOptions): Promise<void>;

  getRegionBackendService(region: string, name: string, options?: CallOptions): Promise<GceBackendService | undefined>;
  insertRegionBackendService(region: string, service: GceBackendService, options?: CallOptions): Promise<void>;
  /** A full update carrying the fingerprint read before. */
  updateRegionBackendService(region: string, service: GceBackendService, options?: CallOptions): Promise<void>;
  deleteRegionBackendService(region: string, name: string, options?: CallOptions): Promise<void>;

  getInstanceGroup(zone: string, name: string, options?: CallOptions): Promise<GceInstanceGroup | undefined>;
  insertInstanceGroup(group: GceInstanceGroup, options?: CallOptions): Promise<void>;
  deleteInstanceGroup(zone: string, name: string, options?: CallOptions): Promise<void>;
  /** Instance URLs of the members, in every state (`instanceState: ALL`). */
  listInstanceGroupInstances(zone: string, name: string, options?: CallOptions): Promise<string[]>;
  addInstanceGroupInstances(zone: string, name: string, instanceUrls: readonly string[], options?: CallOptions): Promise<void>;
  removeInstanceGroupInstances(zone: string, name: string, instanceUrls: readonly string[], options?: CallOptions): Promise<void>;

  /** Names of the zones of `region`. */
  listZones(region: string, options?: CallOptions): Promise<string[]>;

  getFirewall(name: string, options?: CallOptions): Promise<GceFirewall | undefined>;
  insertFirewall(firewall: GceFirewall, options?: CallOptions): Promise<void>;
  patchFirewall(firewall: GceFirewall, options?: CallOptions): Promise<void>;
  deleteFirewall(name: string, options?: CallOptions): Promise<void>;
}
