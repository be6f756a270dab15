/**
 * What the instance operations ask of Nova, in the provider's own types (no SDK type here). The
 * adapter is `sdk/sdk-compute-port.ts`; the fake `test/fakes/fake-compute.ts`.
 */
import type { CallOptions } from '@ccm/core/cloud';

/** One address of a server on one network (`server.addresses[<network name>][]`). */
export interface OpenStackServerAddress {
  address: string;
  version: 4 | 6;
  /** `OS-EXT-IPS:type`: `fixed`, `floating`, or '' when Nova does not say. */
  type: 'fixed' | 'floating' | '';
}

export interface OpenStackServer {
  id: string;
  name: string;
  /** `ACTIVE`, `SHUTOFF`, `BUILD`, `ERROR`, ... */
  status: string;
  /** `OS-EXT-AZ:availability_zone`, '' when not shown. */
  availabilityZone: string;
  /** The flavor's ID (base API) and, from microversion 2.47, its `original_name`. */
  flavor: { id: string; originalName: string };
  /** By network name. */
  addresses: Readonly<Record<string, readonly OpenStackServerAddress[]>>;
  accessIPv4: string;
  accessIPv6: string;
  metadata: Readonly<Record<string, string>>;
}

export interface OpenStackFlavor {
  id: string;
  name: string;
}

export interface ComputePort {
  /** `GET /servers/{id}`; a missing server is an `OpenStackApiError` of kind `NotFound`. */
  getServer(serverId: string, options?: CallOptions): Promise<OpenStackServer>;
  /** `GET /servers/detail` with the name filter `^(name1|name2|...)$`: the servers named exactly so. */
  listServersByName(names: readonly string[], options?: CallOptions): Promise<OpenStackServer[]>;
  /**
   * Every server named exactly `name` (Nova allows duplicates): `listServersByName([name])`, which
   * the port's coalesce stage turns into one list for many names (`openstack-lookup-coalescing.ts`).
   */
  serversNamed(name: string, options?: CallOptions): Promise<OpenStackServer[]>;
  /** `GET /flavors/{id}`. */
  getFlavor(flavorId: string, options?: CallOptions): Promise<OpenStackFlavor>;
  /** `GET /flavors`, every page: the flavors the project may use (public ones and those shared with it). */
  listFlavors(options?: CallOptions): Promise<OpenStackFlavor[]>;
}
