/**
 * Nova (catalog type `compute`): servers (get, list with filters, detail) and flavors. A
 * microversion, when given, is sent as `OpenStack-API-Version: compute X.Y` and the older
 * `X-OpenStack-Nova-API-Version: X.Y`.
 */
import type { KeystoneSession, Query } from '../identity/keystone-session.js';
import { OpenStackError } from '../openstack-error.js';
import { ServiceClient, type ListOptions } from '../service-client.js';

export interface ServerAddress {
  addr: string;
  version: 4 | 6;
  'OS-EXT-IPS:type'?: 'fixed' | 'floating';
  'OS-EXT-IPS-MAC:mac_addr'?: string;
}

export interface Server {
  id: string;
  name: string;
  status: string;
  addresses: Record<string, ServerAddress[]>;
  accessIPv4: string;
  accessIPv6: string;
  metadata: Record<string, string>;
  flavor: { id?: string; original_name?: string; [key: string]: unknown };
  'OS-EXT-AZ:availability_zone'?: string;
  tenant_id: string;
  [key: string]: unknown;
}

export interface ServerSummary {
  id: string;
  name: string;
}

export interface Flavor {
  id: string;
  name: string;
  vcpus: number;
  ram: number;
  disk: number;
}

export class NovaClient {
  readonly service: ServiceClient;
  readonly microversion: string | undefined;

  constructor(session: KeystoneSession, options: { serviceType?: string; microversion?: string } = {}) {
    if (options.microversion !== undefined && !/^\d+\.\d+$/.test(options.microversion) && options.microversion !== 'latest') {
      throw new OpenStackError(`the compute microversion ${JSON.stringify(options.microversion)} is not X.Y or latest`, { kind: 'InvalidConfiguration', operation: 'Nova client' });
    }
    this.microversion = options.microversion;
    const microversion = options.microversion;
    this.service = new ServiceClient(session, options.serviceType ?? 'compute', (): Record<string, string> =>
      microversion === undefined ? {} : { 'OpenStack-API-Version': `compute ${microversion}`, 'X-OpenStack-Nova-API-Version': microversion },
    );
  }

  getServer(id: string, signal?: AbortSignal): Promise<Server> {
    return this.service.get<Server>(`/servers/${encodeURIComponent(id)}`, 'server', signal);
  }

  /** `GET /servers/detail` with filters (`{ name: '^node-1$' }`, `{ status: 'ACTIVE' }`), every page. */
  listServersDetail(filters: Query = {}, options: ListOptions = {}): Promise<Server[]> {
    return this.service.list<Server>('/servers/detail', 'servers', filters, options);
  }

  /** `GET /servers` (IDs and names only), every page. */
  listServers(filters: Query = {}, options: ListOptions = {}): Promise<ServerSummary[]> {
    return this.service.list<ServerSummary>('/servers', 'servers', filters, options);
  }

  getFlavor(id: string, signal?: AbortSignal): Promise<Flavor> {
    return this.service.get<Flavor>(`/flavors/${encodeURIComponent(id)}`, 'flavor', signal);
  }
}

/** A regular expression matching exactly `name` (Nova's name filter is a regex): `^node\.1$`. */
export function exactNameFilter(name: string): string {
  return `^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;
}
