/**
 * An in-memory ComputePort with the Compute API's semantics the operations rely on: exact-name
 * list filters, `undefined` for missing resources on get, NotFound on deleting a missing one,
 * AlreadyExists on inserting a duplicate, InUse when a health check is used by a target pool or
 * a target pool by a forwarding rule, NotFound for a forwarding rule whose target pool is missing;
 * regional addresses get an IP when none is given (INTERNAL ones from 10.128.0.0/20); for the
 * internal load balancer: InUse when a health check is used by a backend service, a backend
 * service by a forwarding rule or an instance group by a backend service, NotFound for references
 * to missing ones, PreconditionFailed for a backend service update with a stale fingerprint. It
 * logs every call and lets a test inject failures.
 */
import { GceApiError, type GceApiErrorKind } from '../../src/errors.js';
import type {
  ComputePort,
  GceAddress,
  GceBackendService,
  GceFirewall,
  GceHealthCheck,
  GceInstanceGroup,
  GceForwardingRule,
  GceHttpHealthCheck,
  GceInstance,
  GceRoute,
  GceTargetPool,
  ListInstancesRequest,
} from '../../src/ports/compute-port.js';
import { resourcePath } from '../../src/operations/resource-links.js';

export const FAKE_BASE_URL = 'https://compute.googleapis.com/compute/v1/';

export function fakeError(kind: GceApiErrorKind, operation: string, retryable = kind === 'Unavailable' || kind === 'Throttled'): GceApiError {
  return new GceApiError(`fake ${kind}`, { kind, reason: kind, operation: `compute.${operation}`, retryable });
}

const clone = <T>(value: T): T => structuredClone(value);

export class FakeCompute implements ComputePort {
  readonly project: string;
  readonly calls: string[] = [];
  readonly instances = new Map<string, GceInstance>();
  readonly routes = new Map<string, GceRoute>();
  readonly addresses = new Map<string, GceAddress>();
  readonly forwardingRules = new Map<string, GceForwardingRule>();
  readonly targetPools = new Map<string, GceTargetPool>();
  readonly healthChecks = new Map<string, GceHttpHealthCheck>();
  readonly firewalls = new Map<string, GceFirewall>();
  /** Global `healthChecks` (the legacy `httpHealthChecks` are in `healthChecks`). */
  readonly globalHealthChecks = new Map<string, GceHealthCheck>();
  /** `<region>/<name>`. */
  readonly backendServices = new Map<string, GceBackendService>();
  /** `<zone>/<name>`, with the member instance URLs. */
  readonly instanceGroups = new Map<string, GceInstanceGroup & { members: string[] }>();
  zones: string[] = ['us-central1-a', 'us-central1-b', 'us-central1-c', 'us-central1-f'];
  #fingerprint = 1;
  #nextInternalIp = 10;
  readonly #failures = new Map<string, unknown[]>();
  #nextIp = 10;

  constructor(project = 'test-project') {
    this.project = project;
  }

  /** The next `count` calls of `method` fail with `error`. */
  failNext(method: keyof ComputePort, error: unknown, count = 1): void {
    this.#failures.set(method, [...(this.#failures.get(method) ?? []), ...Array.from({ length: count }, () => error)]);
  }

  callsOf(method: keyof ComputePort): number {
    return this.calls.filter((call) => call === method).length;
  }

  /** Mutating calls only (inserts, deletes, patches, updates, membership changes). */
  mutations(): string[] {
    return this.calls.filter((call) => !/^(get|list|find)/.test(call));
  }

  addInstance(zone: string, name: string, fields: Partial<GceInstance> = {}): GceInstance {
    const instance: GceInstance = {
      name,
      zone,
      selfLink: `${FAKE_BASE_URL}projects/${this.project}/zones/${zone}/instances/${name}`,
      machineType: 'e2-medium',
      status: 'RUNNING',
      tags: [],
      networkInterfaces: [{ networkIP: `10.0.0.${this.instances.size + 2}`, accessConfigs: [], ipv6AccessConfigs: [] }],
      ...fields,
    };
    this.instances.set(`${zone}/${name}`, instance);
    return instance;
  }

  #enter(method: keyof ComputePort): void {
    this.calls.push(method);
    const queued = this.#failures.get(method);
    if (queued !== undefined && queued.length > 0) throw queued.shift();
  }

  #missing(method: string): GceApiError {
    return fakeError('NotFound', method);
  }

  async listInstances(request: ListInstancesRequest): Promise<GceInstance[]> {
    this.#enter('listInstances');
    const names = new Set(request.names);
    return [...this.instances.values()].filter((instance) => names.has(instance.name) && (request.zone === undefined || instance.zone === request.zone)).map(clone);
  }

  async getInstance(zone: string, name: string): Promise<GceInstance | undefined> {
    this.#enter('getInstance');
    const found = this.instances.get(`${zone}/${name}`);
    return found === undefined ? undefined : clone(found);
  }

  async listRoutes(request: { namePrefix: string; network: string; description: string }): Promise<GceRoute[]> {
    this.#enter('listRoutes');
    return [...this.routes.values()]
      .filter((route) => route.name.startsWith(request.namePrefix) && route.description === request.description && resourcePath(route.network) === resourcePath(request.network))
      .map(clone);
  }

  async insertRoute(route: GceRoute): Promise<void> {
    this.#enter('insertRoute');
    if (this.routes.has(route.name)) throw fakeError('AlreadyExists', 'insertRoute');
    this.routes.set(route.name, clone(route));
  }

  async deleteRoute(name: string): Promise<void> {
    this.#enter('deleteRoute');
    if (!this.routes.delete(name)) throw this.#missing('deleteRoute');
  }

  async getAddress(region: string, name: string): Promise<GceAddress | undefined> {
    this.#enter('getAddress');
    const found = this.addresses.get(`${region}/${name}`);
    return found === undefined ? undefined : clone(found);
  }

  async findAddressByIp(region: string, ip: string): Promise<GceAddress | undefined> {
    this.#enter('findAddressByIp');
    const found = [...this.addresses.entries()].find(([key, address]) => key.startsWith(`${region}/`) && address.address === ip)?.[1];
    return found === undefined ? undefined : clone(found);
  }

  async insertAddress(region: string, address: GceAddress): Promise<void> {
    this.#enter('insertAddress');
    if (this.addresses.has(`${region}/${address.name}`)) throw fakeError('AlreadyExists', 'insertAddress');
    const ip = address.address ?? (address.addressType === 'INTERNAL' ? `10.128.0.${this.#nextInternalIp++}` : `203.0.113.${this.#nextIp++}`);
    this.addresses.set(`${region}/${address.name}`, { networkTier: 'PREMIUM', ...clone(address), address: ip });
  }

  async deleteAddress(region: string, name: string): Promise<void> {
    this.#enter('deleteAddress');
    if (!this.addresses.delete(`${region}/${name}`)) throw this.#missing('deleteAddress');
  }

  async getForwardingRule(region: string, name: string): Promise<GceForwardingRule | undefined> {
    this.#enter('getForwardingRule');
    const found = this.forwardingRules.get(`${region}/${name}`);
    return found === undefined ? undefined : clone(found);
  }

  async insertForwardingRule(region: string, rule: GceForwardingRule): Promise<void> {
    this.#enter('insertForwardingRule');
    if (this.forwardingRules.has(`${region}/${rule.name}`)) throw fakeError('AlreadyExists', 'insertForwardingRule');
    if (rule.target !== undefined && ![...this.targetPools.keys()].some((key) => resourcePath(rule.target ?? '').endsWith(`regions/${key.replace('/', '/targetPools/')}`))) {
      throw fakeError('NotFound', 'insertForwardingRule');
    }
    if (rule.backendService !== undefined && !this.backendServices.has(this.#regional(rule.backendService, 'backendServices'))) throw fakeError('NotFound', 'insertForwardingRule');
    const ip = rule.IPAddress ?? (rule.loadBalancingScheme === 'INTERNAL' ? `10.128.0.${this.#nextInternalIp++}` : `198.51.100.${this.#nextIp++}`);
    this.forwardingRules.set(`${region}/${rule.name}`, { networkTier: 'PREMIUM', ...clone(rule), IPAddress: ip });
  }

  async deleteForwardingRule(region: string, name: string): Promise<void> {
    this.#enter('deleteForwardingRule');
    if (!this.forwardingRules.delete(`${region}/${name}`)) throw this.#missing('deleteForwardingRule');
  }

  /** `https://.../regions/r/backendServices/n` -> `r/n` (zones alike). */
  #regional(url: string, collection: string): string {
    const match = new RegExp(`/(?:regions|zones)/([^/]+)/${collection}/([^/]+)$`).exec(url);
    return match === null ? url : `${match[1]}/${match[2]}`;
  }

  async getHealthCheck(name: string): Promise<GceHealthCheck | undefined> {
    this.#enter('getHealthCheck');
    const found = this.globalHealthChecks.get(name);
    return found === undefined ? undefined : clone(found);
  }

  async insertHealthCheck(check: GceHealthCheck): Promise<void> {
    this.#enter('insertHealthCheck');
    if (this.globalHealthChecks.has(check.name)) throw fakeError('AlreadyExists', 'insertHealthCheck');
    this.globalHealthChecks.set(check.name, { ...clone(check), selfLink: `${FAKE_BASE_URL}projects/${this.project}/global/healthChecks/${check.name}` });
  }

  async updateHealthCheck(check: GceHealthCheck): Promise<void> {
    this.#enter('updateHealthCheck');
    const found = this.globalHealthChecks.get(check.name);
    if (found === undefined) throw this.#missing('updateHealthCheck');
    this.globalHealthChecks.set(check.name, { ...clone(check), ...(found.selfLink === undefined ? {} : { selfLink: found.selfLink }) });
  }

  async deleteHealthCheck(name: string): Promise<void> {
    this.#enter('deleteHealthCheck');
    if (!this.globalHealthChecks.has(name)) throw this.#missing('deleteHealthCheck');
    if ([...this.backendServices.values()].some((service) => service.healthChecks.some((url) => url.endsWith(`/global/healthChecks/${name}`)))) throw fakeError('InUse', 'deleteHealthCheck');
    this.globalHealthChecks.delete(name);
  }

  async getRegionBackendService(region: string, name: string): Promise<GceBackendService | undefined> {
    this.#enter('getRegionBackendService');
    const found = this.backendServices.get(`${region}/${name}`);
    return found === undefined ? undefined : clone(found);
  }

  #checkBackendReferences(service: GceBackendService, method: string): void {
    if (service.healthChecks.some((url) => !this.globalHealthChecks.has(url.split('/').at(-1) ?? ''))) throw fakeError('NotFound', method);
    if (service.backends.some((backend) => !this.instanceGroups.has(this.#regional(backend.group, 'instanceGroups')))) throw fakeError('NotFound', method);
  }

  async insertRegionBackendService(region: string, service: GceBackendService): Promise<void> {
    this.#enter('insertRegionBackendService');
    if (this.backendServices.has(`${region}/${service.name}`)) throw fakeError('AlreadyExists', 'insertRegionBackendService');
    this.#checkBackendReferences(service, 'insertRegionBackendService');
    this.backendServices.set(`${region}/${service.name}`, {
      ...clone(service),
      selfLink: `${FAKE_BASE_URL}projects/${this.project}/regions/${region}/backendServices/${service.name}`,
      fingerprint: `fp-${this.#fingerprint++}`,
    });
  }

  async updateRegionBackendService(region: string, service: GceBackendService): Promise<void> {
    this.#enter('updateRegionBackendService');
    const found = this.backendServices.get(`${region}/${service.name}`);
    if (found === undefined) throw this.#missing('updateRegionBackendService');
    if (service.fingerprint !== found.fingerprint) throw fakeError('PreconditionFailed', 'updateRegionBackendService');
    this.#checkBackendReferences(service, 'updateRegionBackendService');
    this.backendServices.set(`${region}/${service.name}`, { ...clone(service), ...(found.selfLink === undefined ? {} : { selfLink: found.selfLink }), fingerprint: `fp-${this.#fingerprint++}` });
  }

  async deleteRegionBackendService(region: string, name: string): Promise<void> {
    this.#enter('deleteRegionBackendService');
    if (!this.backendServices.has(`${region}/${name}`)) throw this.#missing('deleteRegionBackendService');
    if ([...this.forwardingRules.values()].some((rule) => rule.backendService !== undefined && this.#regional(rule.backendService, 'backendServices') === `${region}/${name}`)) {
      throw fakeError('InUse', 'deleteRegionBackendService');
    }
    this.backendServices.delete(`${region}/${name}`);
  }

  async getInstanceGroup(zone: string, name: string): Promise<GceInstanceGroup | undefined> {
    this.#enter('getInstanceGroup');
    const found = this.instanceGroups.get(`${zone}/${name}`);
    if (found === undefined) return undefined;
    const { members: _members, ...group } = clone(found);
    return group;
  }

  async insertInstanceGroup(group: GceInstanceGroup): Promise<void> {
    this.#enter('insertInstanceGroup');
    if (this.instanceGroups.has(`${group.zone}/${group.name}`)) throw fakeError('AlreadyExists', 'insertInstanceGroup');
    this.instanceGroups.set(`${group.zone}/${group.name}`, { ...clone(group), selfLink: `${FAKE_BASE_URL}projects/${this.project}/zones/${group.zone}/instanceGroups/${group.name}`, members: [] });
  }

  async deleteInstanceGroup(zone: string, name: string): Promise<void> {
    this.#enter('deleteInstanceGroup');
    if (!this.instanceGroups.has(`${zone}/${name}`)) throw this.#missing('deleteInstanceGroup');
    if ([...this.backendServices.values()].some((service) => service.backends.some((backend) => this.#regional(backend.group, 'instanceGroups') === `${zone}/${name}`))) {
      throw fakeError('InUse', 'deleteInstanceGroup');
    }
    this.instanceGroups.delete(`${zone}/${name}`);
  }

  async listInstanceGroupInstances(zone: string, name: string): Promise<string[]> {
    this.#enter('listInstanceGroupInstances');
    const found = this.instanceGroups.get(`${zone}/${name}`);
    if (found === undefined) throw this.#missing('listInstanceGroupInstances');
    return [...found.members];
  }

  async addInstanceGroupInstances(zone: string, name: string, instanceUrls: readonly string[]): Promise<void> {
    this.#enter('addInstanceGroupInstances');
    const found = this.instanceGroups.get(`${zone}/${name}`);
    if (found === undefined) throw this.#missing('addInstanceGroupInstances');
    found.members = [...found.members, ...instanceUrls.filter((url) => !found.members.includes(url))];
  }

  async removeInstanceGroupInstances(zone: string, name: string, instanceUrls: readonly string[]): Promise<void> {
    this.#enter('removeInstanceGroupInstances');
    const found = this.instanceGroups.get(`${zone}/${name}`);
    if (found === undefined) throw this.#missing('removeInstanceGroupInstances');
    found.members = found.members.filter((url) => !instanceUrls.includes(url));
  }

  async listZones(region: string): Promise<string[]> {
    this.#enter('listZones');
    return this.zones.filter((zone) => zone.startsWith(`${region}-`));
  }

  async getTargetPool(region: string, name: string): Promise<GceTargetPool | undefined> {
    this.#enter('getTargetPool');
    const found = this.targetPools.get(`${region}/${name}`);
    return found === undefined ? undefined : clone(found);
  }

  async insertTargetPool(region: string, pool: GceTargetPool): Promise<void> {
    this.#enter('insertTargetPool');
    if (this.targetPools.has(`${region}/${pool.name}`)) throw fakeError('AlreadyExists', 'insertTargetPool');
    this.targetPools.set(`${region}/${pool.name}`, { ...clone(pool), selfLink: `${FAKE_BASE_URL}projects/${this.project}/regions/${region}/targetPools/${pool.name}` });
  }

  async deleteTargetPool(region: string, name: string): Promise<void> {
    this.#enter('deleteTargetPool');
    const pool = this.targetPools.get(`${region}/${name}`);
    if (pool === undefined) throw this.#missing('deleteTargetPool');
    if ([...this.forwardingRules.values()].some((rule) => rule.target !== undefined && resourcePath(rule.target) === resourcePath(pool.selfLink ?? ''))) throw fakeError('InUse', 'deleteTargetPool');
    this.targetPools.delete(`${region}/${name}`);
  }

  async addTargetPoolInstances(region: string, name: string, instanceUrls: readonly string[]): Promise<void> {
    this.#enter('addTargetPoolInstances');
    const pool = this.targetPools.get(`${region}/${name}`);
    if (pool === undefined) throw this.#missing('addTargetPoolInstances');
    pool.instances = [...pool.instances, ...instanceUrls.filter((url) => !pool.instances.includes(url))];
  }

  async removeTargetPoolInstances(region: string, name: string, instanceUrls: readonly string[]): Promise<void> {
    this.#enter('removeTargetPoolInstances');
    const pool = this.targetPools.get(`${region}/${name}`);
    if (pool === undefined) throw this.#missing('removeTargetPoolInstances');
    pool.instances = pool.instances.filter((url) => !instanceUrls.includes(url));
  }

  async getHttpHealthCheck(name: string): Promise<GceHttpHealthCheck | undefined> {
    this.#enter('getHttpHealthCheck');
    const found = this.healthChecks.get(name);
    return found === undefined ? undefined : clone(found);
  }

  async insertHttpHealthCheck(check: GceHttpHealthCheck): Promise<void> {
    this.#enter('insertHttpHealthCheck');
    if (this.healthChecks.has(check.name)) throw fakeError('AlreadyExists', 'insertHttpHealthCheck');
    this.healthChecks.set(check.name, { ...clone(check), selfLink: `${FAKE_BASE_URL}projects/${this.project}/global/httpHealthChecks/${check.name}` });
  }

  async updateHttpHealthCheck(check: GceHttpHealthCheck): Promise<void> {
    this.#enter('updateHttpHealthCheck');
    const found = this.healthChecks.get(check.name);
    if (found === undefined) throw this.#missing('updateHttpHealthCheck');
    this.healthChecks.set(check.name, { ...clone(check), ...(found.selfLink === undefined ? {} : { selfLink: found.selfLink }) });
  }

  async deleteHttpHealthCheck(name: string): Promise<void> {
    this.#enter('deleteHttpHealthCheck');
    const check = this.healthChecks.get(name);
    if (check === undefined) throw this.#missing('deleteHttpHealthCheck');
    if ([...this.targetPools.values()].some((pool) => pool.healthChecks.some((url) => resourcePath(url) === resourcePath(check.selfLink ?? '')))) throw fakeError('InUse', 'deleteHttpHealthCheck');
    this.healthChecks.delete(name);
  }

  async getFirewall(name: string): Promise<GceFirewall | undefined> {
    this.#enter('getFirewall');
    const found = this.firewalls.get(name);
    return found === undefined ? undefined : clone(found);
  }

  async insertFirewall(firewall: GceFirewall): Promise<void> {
    this.#enter('insertFirewall');
    if (this.firewalls.has(firewall.name)) throw fakeError('AlreadyExists', 'insertFirewall');
    this.firewalls.set(firewall.name, clone(firewall));
  }

  async patchFirewall(firewall: GceFirewall): Promise<void> {
    this.#enter('patchFirewall');
    if (!this.firewalls.has(firewall.name)) throw this.#missing('patchFirewall');
    this.firewalls.set(firewall.name, clone(firewall));
  }

  async deleteFirewall(name: string): Promise<void> {
    this.#enter('deleteFirewall');
    if (!this.firewalls.delete(name)) throw this.#missing('deleteFirewall');
  }
}
