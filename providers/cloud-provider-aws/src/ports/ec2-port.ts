/**
 * The EC2 calls this provider makes, in provider-owned types (no SDK type crosses this line).
 * Adapters page through results; callers always get complete lists.
 */
import type { Tags } from '../tags.js';
import type { CallOptions } from '@ccm/core/cloud';

export interface Ec2Filter {
  name: string;
  values: readonly string[];
}

export interface Ec2NetworkInterface {
  networkInterfaceId: string;
  /** `in-use`, `available`, ... */
  status?: string;
  /** `Attachment.DeviceIndex`; undefined when the interface has no attachment. */
  deviceIndex?: number;
  /** In the order EC2 returns them (primary first). */
  privateIpAddresses: string[];
  ipv6Addresses: string[];
}

export interface Ec2GroupIdentifier {
  groupId: string;
  groupName?: string;
}

export type Ec2InstanceState = 'pending' | 'running' | 'shutting-down' | 'terminated' | 'stopping' | 'stopped' | (string & {});

export interface Ec2Instance {
  instanceId: string;
  instanceType?: string;
  state?: Ec2InstanceState;
  availabilityZone?: string;
  privateDnsName?: string;
  privateIpAddress?: string;
  publicDnsName?: string;
  publicIpAddress?: string;
  vpcId?: string;
  subnetId?: string;
  sourceDestCheck?: boolean;
  securityGroups: Ec2GroupIdentifier[];
  networkInterfaces: Ec2NetworkInterface[];
  tags: Tags;
}

export interface Ec2AvailabilityZone {
  zoneName: string;
  zoneId?: string;
  /** `availability-zone`, `local-zone`, `wavelength-zone`. */
  zoneType?: string;
}

export interface Ec2Subnet {
  subnetId: string;
  vpcId?: string;
  availabilityZone?: string;
  cidrBlock?: string;
  ipv6CidrBlocks: string[];
  tags: Tags;
}

export interface Ec2Route {
  destinationCidrBlock?: string;
  destinationIpv6CidrBlock?: string;
  gatewayId?: string;
  instanceId?: string;
  networkInterfaceId?: string;
  /** `active` or `blackhole`. */
  state?: string;
  origin?: string;
}

export interface Ec2RouteTableAssociation {
  subnetId?: string;
  main: boolean;
}

export interface Ec2RouteTable {
  routeTableId: string;
  vpcId?: string;
  associations: Ec2RouteTableAssociation[];
  routes: Ec2Route[];
  tags: Tags;
}

export interface Ec2IpRange {
  cidr: string;
  description?: string;
}

export interface Ec2GroupPair {
  groupId: string;
  description?: string;
}

/** One ingress permission as EC2 groups it: a protocol/port range with several sources. */
export interface Ec2IpPermission {
  /** `tcp`, `udp`, `icmp`, `icmpv6` or `-1` (all). */
  protocol: string;
  fromPort?: number;
  toPort?: number;
  ipv4Ranges: Ec2IpRange[];
  ipv6Ranges: Ec2IpRange[];
  groupPairs: Ec2GroupPair[];
}

export interface Ec2SecurityGroup {
  groupId: string;
  groupName: string;
  description?: string;
  vpcId?: string;
  ingress: Ec2IpPermission[];
  tags: Tags;
}

export interface DescribeInstancesRequest {
  instanceIds?: readonly string[];
  filters?: readonly Ec2Filter[];
}

/** One instance's place in the network (DescribeInstanceTopology): network nodes from the top layer down. */
export interface Ec2InstanceTopology {
  instanceId: string;
  instanceType?: string;
  availabilityZone?: string;
  networkNodes: string[];
}

export interface Ec2Port {
  describeInstances(request: DescribeInstancesRequest, options?: CallOptions): Promise<Ec2Instance[]>;
  describeAvailabilityZones(options?: CallOptions): Promise<Ec2AvailabilityZone[]>;
  describeSubnets(request: { subnetIds?: readonly string[]; filters?: readonly Ec2Filter[] }, options?: CallOptions): Promise<Ec2Subnet[]>;
  describeRouteTables(request: { filters?: readonly Ec2Filter[] }, options?: CallOptions): Promise<Ec2RouteTable[]>;
  createRoute(request: { routeTableId: string; destinationCidrBlock: string; instanceId: string }, options?: CallOptions): Promise<void>;
  replaceRoute(request: { routeTableId: string; destinationCidrBlock: string; instanceId: string }, options?: CallOptions): Promise<void>;
  deleteRoute(request: { routeTableId: string; destinationCidrBlock: string }, options?: CallOptions): Promise<void>;
  modifyInstanceSourceDestCheck(request: { instanceId: string; enabled: boolean }, options?: CallOptions): Promise<void>;
  describeSecurityGroups(request: { groupIds?: readonly string[]; filters?: readonly Ec2Filter[] }, options?: CallOptions): Promise<Ec2SecurityGroup[]>;
  /** Returns the new group ID. Tags are applied at creation (TagSpecifications). */
  createSecurityGroup(
    request: { groupName: string; description: string; vpcId: string; tags: Tags },
    options?: CallOptions,
  ): Promise<string>;
  authorizeSecurityGroupIngress(request: { groupId: string; permissions: readonly Ec2IpPermission[] }, options?: CallOptions): Promise<void>;
  revokeSecurityGroupIngress(request: { groupId: string; permissions: readonly Ec2IpPermission[] }, options?: CallOptions): Promise<void>;
  deleteSecurityGroup(request: { groupId: string }, options?: CallOptions): Promise<void>;
  createTags(request: { resourceIds: readonly string[]; tags: Tags }, options?: CallOptions): Promise<void>;
  /** Removes tags whose key and value both match (a tag whose value changed since is kept, as EC2 does). */
  deleteTags(request: { resourceIds: readonly string[]; tags: Tags }, options?: CallOptions): Promise<void>;
  describeInstanceTopology(request: { instanceIds: readonly string[] }, options?: CallOptions): Promise<Ec2InstanceTopology[]>;
}

export function ec2Filter(name: string, ...values: string[]): Ec2Filter {
  return { name, values };
}
