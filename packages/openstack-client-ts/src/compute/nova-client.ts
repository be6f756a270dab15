/**
 * Nova (catalog type `compute`): servers (get, list and detail with filters and every page,
 * create, delete, os-stop/os-start), flavors, a server's interfaces (os-interface) and the API
 * version document. A microversion, when given, is sent as `OpenStack-API-Version: compute X.Y`
 * and the older `X-OpenStack-Nova-API-Version: X.Y`; `withMicroversion()` gives a client with
 * another one on the same session.
 */
import type { KeystoneSession, Query } from '../identity/keystone-session.js';
import { OpenStackError } from '../openstack-error.js';
import { ServiceClient, type ListOptions } from '../service-client.js';
import type { ComputeVersion, Flavor, FlavorSummary, InterfaceAttachment, Server, ServerCreated, ServerCreateRequest, ServerSummary } from './nova-types.js';

export * from './nova-types.js';

/**
 * `GET /servers[/detail]` filters. Nova's `name` and `ip`/`ip6` are regular expressions (see
 * `exactNameFilter`); `allTenants` needs an admin. Keys not named here are sent as they are.
 */
export interface ServerFilters {
  name?: string;
  status?: string;
  allTenants?: boolean;
  projectId?: string;
  ip?: string;
  ip6?: string;
  flavor?: string;
  image?: string;
  availabilityZone?: string;
  host?: string;
  changesSince?: Date | string;
  reservationId?: string;
  sortKey?: string;
  sortDir?: 'asc' | 'desc';
  [raw: string]: Query[string] | Date;
}

const FILTER_NAMES: Readonly<Record<string, string>> = {
  allTenants: 'all_tenants',
  projectId: 'project_id',
  availabilityZone: 'availability_zone',
  changesSince: 'changes-since',
  reservationId: 'reservation_id',
  sortKey: 'sort_key',
  sortDir: 'sort_dir',
};

/** The query string of server filters (`{ allTenants: true }` -> `all_tenants=True`). */
export function serverFilterQuery(filters: ServerFilters): Query {
  const query: Query = {};
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined) continue;
    const name = FILTER_NAMES[key] ?? key;
    if (value instanceof Date) query[name] = value.toISOString();
    else if (key === 'allTenants') query[name] = value === true ? 'True' : 'False';
    else query[name] = value;
  }
  return query;
}

export class NovaClient {
  readonly service: ServiceClient;
  readonly session: KeystoneSession;
  readonly microversion: string | undefined;
  readonly #serviceType: string;

  constructor(session: KeystoneSession, options: { serviceType?: string; microversion?: string } = {}) {
    if (options.microversion !== undefined && !/^\d+\.\d+$/.test(options.microversion) && options.microversion !== 'latest') {
      throw new OpenStackError(`the compute microversion ${JSON.stringify(options.microversion)} is not X.Y or latest`, { kind: 'InvalidConfiguration', operation: 'Nova client' });
    }
    this.session = session;
    this.microversion = options.microversion;
    this.#serviceType = options.serviceType ?? 'compute';
    const microversion = options.microversion;
    this.service = new ServiceClient(session, this.#serviceType, (): Record<string, string> =>
      microversion === undefined ? {} : { 'OpenStack-API-Version': `compute ${microversion}`, 'X-OpenStack-Nova-API-Version': microversion },
    );
  }

  /** The same session with another microversion (undefined: none, the base API 2.1). */
  withMicroversion(microversion: string | undefined): NovaClient {
    return new NovaClient(this.session, { serviceType: this.#serviceType, ...(microversion === undefined ? {} : { microversion }) });
  }

  /** The version document: `version` is the maximum microversion the cloud serves. */
  async version(signal?: AbortSignal): Promise<ComputeVersion> {
    return this.service.get<ComputeVersion>('/', 'version', signal);
  }

  getServer(id: string, signal?: AbortSignal): Promise<Server> {
    return this.service.get<Server>(`/servers/${encodeURIComponent(id)}`, 'server', signal);
  }

  /** `GET /servers/detail` with filters (`{ name: exactNameFilter('node-1') }`, `{ status: 'ACTIVE' }`), every page. */
  listServersDetail(filters: ServerFilters = {}, options: ListOptions = {}): Promise<Server[]> {
    return this.service.list<Server>('/servers/detail', 'servers', serverFilterQuery(filters), options);
  }

  /** `GET /servers` (IDs and names only), every page. */
  listServers(filters: ServerFilters = {}, options: ListOptions = {}): Promise<ServerSummary[]> {
    return this.service.list<ServerSummary>('/servers', 'servers', serverFilterQuery(filters), options);
  }

  /** `POST /servers`: accepted (202); the server may still be BUILD. */
  createServer(request: ServerCreateRequest, signal?: AbortSignal): Promise<ServerCreated> {
    return this.service.create<ServerCreated>('/servers', 'server', request, signal);
  }

  deleteServer(id: string, signal?: AbortSignal): Promise<void> {
    return this.service.delete(`/servers/${encodeURIComponent(id)}`, undefined, signal);
  }

  /** `os-stop` (SHUTOFF); Nova answers 409 when the server is not ACTIVE. */
  stopServer(id: string, signal?: AbortSignal): Promise<void> {
    return this.#action(id, 'os-stop', signal);
  }

  /** `os-start` (ACTIVE); Nova answers 409 when the server is not SHUTOFF. */
  startServer(id: string, signal?: AbortSignal): Promise<void> {
    return this.#action(id, 'os-start', signal);
  }

  async #action(id: string, action: string, signal: AbortSignal | undefined): Promise<void> {
    await this.service.call({ method: 'POST', path: `/servers/${encodeURIComponent(id)}/action`, body: { [action]: null }, expectedStatuses: [202], ...(signal === undefined ? {} : { signal }) });
  }

  /** The server's ports (`GET /servers/{id}/os-interface`). */
  async listInterfaces(serverId: string, signal?: AbortSignal): Promise<InterfaceAttachment[]> {
    return this.service.get<InterfaceAttachment[]>(`/servers/${encodeURIComponent(serverId)}/os-interface`, 'interfaceAttachments', signal);
  }

  getInterface(serverId: string, portId: string, signal?: AbortSignal): Promise<InterfaceAttachment> {
    return this.service.get<InterfaceAttachment>(`/servers/${encodeURIComponent(serverId)}/os-interface/${encodeURIComponent(portId)}`, 'interfaceAttachment', signal);
  }

  getFlavor(id: string, signal?: AbortSignal): Promise<Flavor> {
    return this.service.get<Flavor>(`/flavors/${encodeURIComponent(id)}`, 'flavor', signal);
  }

  /** `GET /flavors` (IDs and names), every page. */
  listFlavors(query: Query = {}, options: ListOptions = {}): Promise<FlavorSummary[]> {
    return this.service.list<FlavorSummary>('/flavors', 'flavors', query, options);
  }

  /** `GET /flavors/detail`, every page (`{ minRam: 2048 }` filters). */
  listFlavorsDetail(query: Query = {}, options: ListOptions = {}): Promise<Flavor[]> {
    return this.service.list<Flavor>('/flavors/detail', 'flavors', query, options);
  }
}

/** A regular expression matching exactly `name` (Nova's name filter is a regex): `^node\.1$`. */
export function exactNameFilter(name: string): string {
  return `^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;
}
