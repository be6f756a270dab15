/**
 * What the instance and route operations ask of Neutron, in the provider's own types (no SDK type
 * here). The adapter is `sdk/sdk-network-port.ts`; the fake `test/fakes/fake-network.ts`.
 */
import type { CallOptions } from '@ccm/core/cloud';

export interface NeutronFixedIp {
  subnetId: string;
  ipAddress: string;
}

export interface NeutronAllowedAddressPair {
  ipAddress: string;
  macAddress?: string;
}

export interface NeutronPort {
  id: string;
  networkId: string;
  deviceId: string;
  /** `ACTIVE`, `DOWN`, `BUILD`. */
  status: string;
  macAddress: string;
  fixedIps: readonly NeutronFixedIp[];
  allowedAddressPairs: readonly NeutronAllowedAddressPair[];
  /** False when port security is off (no allowed address pairs can be set). */
  portSecurityEnabled: boolean;
}

export interface NeutronRoute {
  destination: string;
  nexthop: string;
}

export interface NeutronRouter {
  id: string;
  routes: readonly NeutronRoute[];
}

/** Filters of `GET /v2.0/ports` (values of one field are ORed, fields ANDed). */
export interface PortFilter {
  deviceIds?: readonly string[];
  networkIds?: readonly string[];
  /** `fixed_ips=ip_address=<ip>`. */
  ipAddresses?: readonly string[];
}

export interface NetworkPort {
  listPorts(filter: PortFilter, options?: CallOptions): Promise<NeutronPort[]>;
  /**
   * The ports whose `device_id` is `deviceId`: `listPorts({ deviceIds: [deviceId] })`, which the
   * port's coalesce stage turns into one list for many devices (`openstack-lookup-coalescing.ts`).
   */
  portsOfDevice(deviceId: string, options?: CallOptions): Promise<NeutronPort[]>;
  /** Replaces the allowed address pairs of a port. */
  updatePortAllowedAddressPairs(portId: string, pairs: readonly NeutronAllowedAddressPair[], options?: CallOptions): Promise<NeutronPort>;
  getRouter(routerId: string, options?: CallOptions): Promise<NeutronRouter>;
  /** `PUT /routers/{id}/add_extraroutes` (extension `extraroute-atomic`). */
  addExtraRoutes(routerId: string, routes: readonly NeutronRoute[], options?: CallOptions): Promise<NeutronRouter>;
  /** `PUT /routers/{id}/remove_extraroutes` (extension `extraroute-atomic`). */
  removeExtraRoutes(routerId: string, routes: readonly NeutronRoute[], options?: CallOptions): Promise<NeutronRouter>;
  /** `PUT /routers/{id}` with the whole route list (extension `extraroute`). */
  setRouterRoutes(routerId: string, routes: readonly NeutronRoute[], options?: CallOptions): Promise<NeutronRouter>;
  /** The aliases of Neutron's extensions (`extraroute`, `extraroute-atomic`, `allowed-address-pairs`). */
  listExtensionAliases(options?: CallOptions): Promise<string[]>;
}
