/** Nova's resources as the compute API shows them (2.1, with what later microversions add). */
export interface ServerAddress {
  addr: string;
  version: 4 | 6;
  'OS-EXT-IPS:type'?: 'fixed' | 'floating';
  'OS-EXT-IPS-MAC:mac_addr'?: string;
}

export interface Link {
  href: string;
  rel: string;
  type?: string;
}

/** Before 2.47 `{id, links}`; from 2.47 the flavor itself (`original_name`, sizes, `extra_specs` for admins). */
export interface ServerFlavor {
  id?: string;
  links?: Link[];
  original_name?: string;
  vcpus?: number;
  ram?: number;
  disk?: number;
  ephemeral?: number;
  swap?: number;
  extra_specs?: Record<string, string>;
  [key: string]: unknown;
}

export type ServerStatus = 'ACTIVE' | 'BUILD' | 'DELETED' | 'ERROR' | 'HARD_REBOOT' | 'MIGRATING' | 'PASSWORD' | 'PAUSED' | 'REBOOT' | 'REBUILD' | 'RESCUE' | 'RESIZE' | 'REVERT_RESIZE' | 'SHELVED' | 'SHELVED_OFFLOADED' | 'SHUTOFF' | 'SOFT_DELETED' | 'SUSPENDED' | 'UNKNOWN' | 'VERIFY_RESIZE';

export interface Server {
  id: string;
  name: string;
  /** A ServerStatus; kept a string for statuses newer than this client. */
  status: string;
  addresses: Record<string, ServerAddress[]>;
  accessIPv4: string;
  accessIPv6: string;
  metadata: Record<string, string>;
  flavor: ServerFlavor;
  /** '' when the server booted from a volume. */
  image: { id: string; links?: Link[] } | '';
  hostId: string;
  created: string;
  updated: string;
  links: Link[];
  'OS-EXT-AZ:availability_zone'?: string;
  'OS-EXT-STS:vm_state'?: string;
  'OS-EXT-STS:power_state'?: number;
  'OS-EXT-SRV-ATTR:host'?: string | null;
  tenant_id: string;
  user_id?: string;
  /** From 2.19. */
  description?: string | null;
  /** From 2.26. */
  tags?: string[];
  [key: string]: unknown;
}

export interface ServerSummary {
  id: string;
  name: string;
  links?: Link[];
}

export interface Flavor {
  id: string;
  name: string;
  vcpus: number;
  ram: number;
  disk: number;
  /** Nova shows "" for no swap before 2.75. */
  swap?: number | '';
  'OS-FLV-EXT-DATA:ephemeral'?: number;
  'OS-FLV-DISABLED:disabled'?: boolean;
  'os-flavor-access:is_public'?: boolean;
  rxtx_factor?: number;
  links?: Link[];
  [key: string]: unknown;
}

export interface FlavorSummary {
  id: string;
  name: string;
  links?: Link[];
}

/** `GET /servers/{id}/os-interface`: a port attached to the server. */
export interface InterfaceAttachment {
  port_id: string;
  net_id: string;
  mac_addr: string;
  port_state: string;
  fixed_ips: { ip_address: string; subnet_id: string }[];
  /** From 2.70. */
  tag?: string | null;
}

/** A network of `POST /servers`: a network (a port is made on it) or an existing port. */
export type ServerNetworkRequest = { uuid: string; fixed_ip?: string; tag?: string } | { port: string; tag?: string };

export interface ServerCreateRequest {
  name: string;
  flavorRef: string;
  imageRef?: string;
  /** From 2.37 required: a list, or 'auto' / 'none'. */
  networks?: ServerNetworkRequest[] | 'auto' | 'none';
  availability_zone?: string;
  metadata?: Record<string, string>;
  security_groups?: { name: string }[];
  key_name?: string;
  user_data?: string;
  /** From 2.19. */
  description?: string;
  [key: string]: unknown;
}

/** The answer to `POST /servers` (202): the server is still being built. */
export interface ServerCreated {
  id: string;
  links: Link[];
  adminPass?: string;
  security_groups?: { name: string }[];
  'OS-DCF:diskConfig'?: string;
}

/** The compute API's version document (`GET /v2.1/`). */
export interface ComputeVersion {
  id: string;
  status: string;
  /** The maximum microversion, '' for a server without microversions. */
  version: string;
  min_version: string;
}
