/**
 * The Neutron calls of the load balancer operations (floating IPs, the VIP port, subnets), in the
 * provider's own types. Failures are the provider's typed API errors (see `errors.ts`).
 */
import type { CallOptions } from '@ccm/core/cloud';

export interface NeutronFloatingIp {
  id: string;
  address: string;
  floatingNetworkId: string;
  portId: string | undefined;
  description: string;
}

export interface NeutronPortSummary {
  id: string;
  name: string;
  description: string;
  networkId: string;
  fixedIps: Array<{ subnetId: string; address: string }>;
}

export interface NeutronSubnetSummary {
  id: string;
  networkId: string;
  cidr: string;
  ipVersion: 4 | 6;
}

export interface FloatingIpCreateSpec {
  floatingNetworkId: string;
  floatingSubnetId?: string;
  /** A requested address (`loadBalancerIP`). */
  address?: string;
  portId: string;
  description: string;
}

export interface LoadBalancerNetworkPort {
  floatingIpsOfPort(portId: string, options?: CallOptions): Promise<NeutronFloatingIp[]>;
  floatingIpsByAddress(address: string, options?: CallOptions): Promise<NeutronFloatingIp[]>;
  createFloatingIp(spec: FloatingIpCreateSpec, options?: CallOptions): Promise<NeutronFloatingIp>;
  /** `portId` undefined detaches it. */
  attachFloatingIp(id: string, portId: string | undefined, options?: CallOptions): Promise<NeutronFloatingIp>;
  deleteFloatingIp(id: string, options?: CallOptions): Promise<void>;

  getPort(id: string, options?: CallOptions): Promise<NeutronPortSummary | undefined>;
  findPortsByName(name: string, options?: CallOptions): Promise<NeutronPortSummary[]>;
  /** Ports holding `address` (on any network). */
  portsWithAddress(address: string, options?: CallOptions): Promise<NeutronPortSummary[]>;
  createPort(spec: { name: string; description: string; networkId: string; subnetId: string; address?: string }, options?: CallOptions): Promise<NeutronPortSummary>;
  deletePort(id: string, options?: CallOptions): Promise<void>;

  getSubnet(id: string, options?: CallOptions): Promise<NeutronSubnetSummary | undefined>;
  subnetsOfNetwork(networkId: string, options?: CallOptions): Promise<NeutronSubnetSummary[]>;
}
