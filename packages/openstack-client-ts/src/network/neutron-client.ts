/**
 * Neutron (catalog type `network`, API v2.0): networks, subnets, ports, floating IPs, routers
 * with their extra routes, security groups and rules, extensions. List calls take Neutron's
 * filters as a query (`{ device_id: id }`, `{ 'router:external': true }`, `{ tags: 'a,b' }`).
 */
import type { KeystoneSession, Query } from '../identity/keystone-session.js';
import { ServiceClient, type Attributes, type ListOptions } from '../service-client.js';
import type { Extension, FloatingIp, Network, Port, Router, RouterRoute, SecurityGroup, SecurityGroupRule, Subnet } from './neutron-types.js';


export class NeutronResource<T> {
  readonly #client: ServiceClient;
  readonly #singular: string;
  readonly #plural: string;
  readonly #path: string;

  /** `plural` is the collection key; `path` the URL segment when it differs (`security-groups`). */
  constructor(client: ServiceClient, singular: string, plural: string, path = plural) {
    this.#client = client;
    this.#singular = singular;
    this.#plural = plural;
    this.#path = `/v2.0/${path}`;
  }

  list(query: Query = {}, options: ListOptions = {}): Promise<T[]> {
    return this.#client.list<T>(this.#path, this.#plural, query, options);
  }

  get(id: string, signal?: AbortSignal): Promise<T> {
    return this.#client.get<T>(`${this.#path}/${encodeURIComponent(id)}`, this.#singular, signal);
  }

  create(attributes: Attributes, signal?: AbortSignal): Promise<T> {
    return this.#client.create<T>(this.#path, this.#singular, attributes, signal);
  }

  update(id: string, attributes: Attributes, signal?: AbortSignal): Promise<T> {
    return this.#client.update<T>(`${this.#path}/${encodeURIComponent(id)}`, this.#singular, attributes, signal);
  }

  delete(id: string, signal?: AbortSignal): Promise<void> {
    return this.#client.delete(`${this.#path}/${encodeURIComponent(id)}`, undefined, signal);
  }
}

export class Routers extends NeutronResource<Router> {
  readonly #client: ServiceClient;

  constructor(client: ServiceClient) {
    super(client, 'router', 'routers');
    this.#client = client;
  }

  /** `PUT /routers/{id}/add_extraroutes` (extension `extraroute-atomic`): adds routes, keeps the others. */
  async addExtraRoutes(id: string, routes: readonly RouterRoute[], signal?: AbortSignal): Promise<Router> {
    return this.#client.update<Router>(`/v2.0/routers/${encodeURIComponent(id)}/add_extraroutes`, 'router', { routes }, signal);
  }

  /** `PUT /routers/{id}/remove_extraroutes`: removes exactly these routes. */
  async removeExtraRoutes(id: string, routes: readonly RouterRoute[], signal?: AbortSignal): Promise<Router> {
    return this.#client.update<Router>(`/v2.0/routers/${encodeURIComponent(id)}/remove_extraroutes`, 'router', { routes }, signal);
  }

  /** Replaces the whole route list (extension `extraroute`). */
  async setRoutes(id: string, routes: readonly RouterRoute[], signal?: AbortSignal): Promise<Router> {
    return this.update(id, { routes }, signal);
  }

  async addInterface(id: string, target: { subnet_id: string } | { port_id: string }, signal?: AbortSignal): Promise<{ port_id: string; subnet_id: string }> {
    return this.#client.call({ method: 'PUT', path: `/v2.0/routers/${encodeURIComponent(id)}/add_router_interface`, body: target, ...(signal === undefined ? {} : { signal }) });
  }

  async removeInterface(id: string, target: { subnet_id: string } | { port_id: string }, signal?: AbortSignal): Promise<void> {
    await this.#client.call({ method: 'PUT', path: `/v2.0/routers/${encodeURIComponent(id)}/remove_router_interface`, body: target, ...(signal === undefined ? {} : { signal }) });
  }
}

export class NeutronClient {
  readonly service: ServiceClient;
  readonly networks: NeutronResource<Network>;
  readonly subnets: NeutronResource<Subnet>;
  readonly ports: NeutronResource<Port>;
  readonly floatingIps: NeutronResource<FloatingIp>;
  readonly routers: Routers;
  readonly securityGroups: NeutronResource<SecurityGroup>;
  readonly securityGroupRules: NeutronResource<SecurityGroupRule>;

  constructor(session: KeystoneSession, options: { serviceType?: string } = {}) {
    this.service = new ServiceClient(session, options.serviceType ?? 'network');
    this.networks = new NeutronResource(this.service, 'network', 'networks');
    this.subnets = new NeutronResource(this.service, 'subnet', 'subnets');
    this.ports = new NeutronResource(this.service, 'port', 'ports');
    this.floatingIps = new NeutronResource(this.service, 'floatingip', 'floatingips');
    this.routers = new Routers(this.service);
    this.securityGroups = new NeutronResource(this.service, 'security_group', 'security_groups', 'security-groups');
    this.securityGroupRules = new NeutronResource(this.service, 'security_group_rule', 'security_group_rules', 'security-group-rules');
  }

  /** The extensions this Neutron has (`extraroute`, `extraroute-atomic`, `allowed-address-pairs`, ...). */
  extensions(signal?: AbortSignal): Promise<Extension[]> {
    return this.service.list<Extension>('/v2.0/extensions', 'extensions', {}, signal === undefined ? {} : { signal });
  }
}
