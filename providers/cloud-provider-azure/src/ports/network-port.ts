/**
 * The Network calls the Azure operations make, in the provider's own types (declared by their
 * consumers, `operations/node-addresses.ts`, `operations/route-table.ts` and
 * `operations/load-balancer/`). Writes carry the etag read (If-Match): a stale one fails with
 * kind PreconditionFailed, and the caller re-reads and plans again.
 */
import type { CloudCallOptions } from '@ccm/core/provider';

export interface AzureIpConfiguration {
  name: string;
  primary: boolean;
  privateIpAddress?: string;
  privateIpVersion: 'IPv4' | 'IPv6';
  /** The public IP address resource attached to this IP configuration. */
  publicIpAddressId?: string;
  /** Backend pools (ARM IDs) this IP configuration is a member of. */
  loadBalancerBackendAddressPoolIds?: string[];
}

export interface AzureNetworkInterface {
  id: string;
  name: string;
  etag?: string;
  ipConfigurations: AzureIpConfiguration[];
}

/** A frontend IP configuration: a public IP (external) or a private address in a subnet (internal). */
export interface AzureFrontendIpConfiguration {
  name: string;
  /** ARM ID (set by ARM). */
  id?: string;
  publicIpAddressId?: string;
  subnetId?: string;
  privateIpAddress?: string;
  privateIpAllocationMethod?: 'Static' | 'Dynamic';
  privateIpAddressVersion?: 'IPv4' | 'IPv6';
}

/** One member of an IP-based backend pool (`loadBalancerBackendPoolConfigurationType: nodeIP`): a node's private IP. */
export interface AzureBackendAddress {
  /** The node's name (upstream names each address after its node). */
  name: string;
  ipAddress: string;
}

export interface AzureBackendAddressPool {
  name: string;
  id?: string;
  /** Read-only: the NIC and scale-set VM IP configurations (ARM IDs) in the pool. */
  backendIpConfigurationIds?: string[];
  /** IP-based pools: the virtual network (ARM ID) of the addresses, set on the pool. */
  virtualNetworkId?: string;
  /** IP-based pools: the addresses in the pool (`loadBalancerBackendAddresses`). */
  backendAddresses?: AzureBackendAddress[];
}

export type AzureProbeProtocol = 'Tcp' | 'Http' | 'Https';

export interface AzureProbe {
  name: string;
  protocol: AzureProbeProtocol;
  port: number;
  /** Http and Https probes only. */
  requestPath?: string;
  intervalInSeconds: number;
  /** `probeThreshold` (ARM's `numberOfProbes` is ignored by Standard load balancers). */
  probeThreshold: number;
}

export type AzureTransportProtocol = 'Tcp' | 'Udp' | 'All';

export interface AzureLoadBalancingRule {
  name: string;
  /** Names of the parts of the same load balancer. */
  frontendIpConfigurationName: string;
  backendAddressPoolName: string;
  probeName?: string;
  protocol: AzureTransportProtocol;
  frontendPort: number;
  backendPort: number;
  enableFloatingIp: boolean;
  idleTimeoutInMinutes: number;
  enableTcpReset: boolean;
  loadDistribution: 'Default' | 'SourceIP' | 'SourceIPProtocol';
  disableOutboundSnat: boolean;
}

/** A load balancer with the parts this provider manages (outbound and NAT rules are kept as ARM has them). */
export interface AzureLoadBalancer {
  name: string;
  id?: string;
  location: string;
  etag?: string;
  sku: 'Standard' | 'Basic';
  tags: Record<string, string>;
  frontendIpConfigurations: AzureFrontendIpConfiguration[];
  backendAddressPools: AzureBackendAddressPool[];
  probes: AzureProbe[];
  loadBalancingRules: AzureLoadBalancingRule[];
  /** What the SDK adapter read and this provider does not model (outbound and inbound NAT rules); written back unchanged. */
  preserved?: unknown;
}

export interface AzurePublicIp {
  name: string;
  id?: string;
  location: string;
  etag?: string;
  tags: Record<string, string>;
  version: 'IPv4' | 'IPv6';
  /** The allocated address ('' while none). */
  ipAddress: string;
  domainNameLabel?: string;
  /** `{ ipTagType, tag }` pairs (e.g. RoutingPreference=Internet). */
  ipTags: Array<{ ipTagType: string; tag: string }>;
  /** The IP configuration (NIC or LB frontend) it is attached to. */
  ipConfigurationId?: string;
}

export interface AzureSecurityRule {
  name: string;
  priority: number;
  direction: 'Inbound' | 'Outbound';
  access: 'Allow' | 'Deny';
  protocol: 'Tcp' | 'Udp' | '*';
  sourcePortRange: string;
  sourceAddressPrefixes: string[];
  destinationAddressPrefixes: string[];
  destinationPortRanges: string[];
}

export interface AzureSecurityGroup {
  name: string;
  location: string;
  etag?: string;
  tags: Record<string, string>;
  securityRules: AzureSecurityRule[];
}

/** The etag a write must match (`If-Match`), when the resource was read. */
export interface WriteCondition {
  ifMatch?: string;
}

export interface AzureRoute {
  name: string;
  addressPrefix: string;
  nextHopType: string;
  nextHopIpAddress?: string;
}

export interface AzureRouteTable {
  name: string;
  location: string;
  etag?: string;
  tags: Record<string, string>;
  routes: AzureRoute[];
}

export interface NetworkPort {
  /** A NIC by its ARM ID: a standalone NIC or one of a uniform scale-set VM. Throws NotFound. */
  getNetworkInterface(networkInterfaceId: string, options?: CloudCallOptions): Promise<AzureNetworkInterface>;
  /** Every NIC of a resource group (standalone and flexible-scale-set VMs). */
  listNetworkInterfaces(resourceGroup: string, options?: CloudCallOptions): Promise<AzureNetworkInterface[]>;
  /** Every NIC of the instances of a uniform scale set. */
  listScaleSetNetworkInterfaces(resourceGroup: string, scaleSetName: string, options?: CloudCallOptions): Promise<AzureNetworkInterface[]>;
  /** Every public IP of a resource group: ARM ID and address ('' when none is allocated). */
  listPublicIpAddresses(resourceGroup: string, options?: CloudCallOptions): Promise<Array<{ id: string; ipAddress: string }>>;
  /** The IP address of a public IP resource, '' when none is allocated. Throws NotFound. */
  getPublicIpAddress(publicIpAddressId: string, options?: CloudCallOptions): Promise<string>;
  /** Throws NotFound when the table does not exist. */
  getRouteTable(resourceGroup: string, name: string, options?: CloudCallOptions): Promise<AzureRouteTable>;
  /** Creates the (empty) table; waits for the long-running operation. */
  createRouteTable(resourceGroup: string, table: { name: string; location: string; tags: Record<string, string> }, options?: CloudCallOptions): Promise<AzureRouteTable>;
  /** Creates or replaces one route; waits for the long-running operation. */
  putRoute(resourceGroup: string, tableName: string, route: AzureRoute, options?: CloudCallOptions): Promise<void>;
  /** Deletes one route; resolves when it is already gone. */
  deleteRoute(resourceGroup: string, tableName: string, routeName: string, options?: CloudCallOptions): Promise<void>;
  /** Sets the backend pools of one IP configuration of a standalone NIC (If-Match `condition`); waits for the long-running operation. */
  setNetworkInterfaceBackendPools(networkInterfaceId: string, ipConfigurationName: string, poolIds: readonly string[], condition: WriteCondition, options?: CloudCallOptions): Promise<void>;
  /** Throws NotFound. */
  getLoadBalancer(resourceGroup: string, name: string, options?: CloudCallOptions): Promise<AzureLoadBalancer>;
  /** Creates or replaces the load balancer (If-Match `condition`); waits for the long-running operation. */
  putLoadBalancer(resourceGroup: string, loadBalancer: AzureLoadBalancer, condition: WriteCondition, options?: CloudCallOptions): Promise<AzureLoadBalancer>;
  /** Creates or replaces one backend pool of load balancer `loadBalancerName` (If-Match `condition`: the load balancer's etag); waits for the long-running operation. */
  putBackendAddressPool(resourceGroup: string, loadBalancerName: string, pool: AzureBackendAddressPool, condition: WriteCondition, options?: CloudCallOptions): Promise<AzureBackendAddressPool>;
  /** Resolves when it is already gone. */
  deleteLoadBalancer(resourceGroup: string, name: string, options?: CloudCallOptions): Promise<void>;
  /** Throws NotFound. */
  getPublicIp(resourceGroup: string, name: string, options?: CloudCallOptions): Promise<AzurePublicIp>;
  /** Every public IP of a resource group, with tags. */
  listPublicIps(resourceGroup: string, options?: CloudCallOptions): Promise<AzurePublicIp[]>;
  /** Creates or updates a Standard static public IP (If-Match `condition`); waits for the long-running operation. */
  putPublicIp(resourceGroup: string, publicIp: AzurePublicIp, condition: WriteCondition, options?: CloudCallOptions): Promise<AzurePublicIp>;
  /** Resolves when it is already gone. */
  deletePublicIp(resourceGroup: string, name: string, options?: CloudCallOptions): Promise<void>;
  /** Throws NotFound. */
  getSecurityGroup(resourceGroup: string, name: string, options?: CloudCallOptions): Promise<AzureSecurityGroup>;
  /** Replaces the security group's rules (If-Match `condition`); waits for the long-running operation. */
  putSecurityGroup(resourceGroup: string, securityGroup: AzureSecurityGroup, condition: WriteCondition, options?: CloudCallOptions): Promise<AzureSecurityGroup>;
}
