/**
 * An in-memory ComputePort with the Compute API's semantics the operations rely on: exact-name
 * list filters, `undefined` for missing resources on get, NotFound on deleting a missing one,
 * AlreadyExists on inserting a duplicate, InUse when a health check is used by a target pool or
 * a target pool by a forwarding rule, NotFound for a forwarding rule whose target pool is missing;
 * regional addresses get an IP when none is given (INTERNAL ones from 10.128.0.0/20); for the
 * internal load balancer: InUse when a health check is used by a backend service, a backend
 * service by a forwarding rule or an instance group by a backend service, NotFound for references
 * to missing ones, PreconditionFailed for a backend service update with a stale fingerprint.
 * Like Compute (checked by test/support/compute-port-contract.ts on this fake and on the SDK adapter
 * against the GCE simulator) it refuses as Invalid what Compute refuses: names that are not RFC 1035
 * labels of at most 63 characters, health check timings and ports out of range, a second health
 * check on a target pool or backend service, a forwarding rule with both or neither of target and
 * backendService, firewalls without allowed rules or with bad protocols, ports or ranges, bad or
 * taken addresses, members already in an instance group or in another zone; and NotFound for a
 * route's or firewall's network (`networks`), a route's next-hop instance, a target pool's
 * instances and health checks that do not exist. It logs every call and lets a test inject failures.
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

/** RFC 1035 label of at most 63 characters: what Compute accepts as a resource name. */
const NAME_PATTERN = /^[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?$/;
const HEALTH_CHECK_TYPES = ['TCP', 'SSL', 'HTTP', 'HTTPS', 'HTTP2', 'GRPC'];
const TARGET_POOL_SESSION_AFFINITIES = ['NONE', 'CLIENT_IP', 'CLIENT_IP_PROTO'];
const FORWARDING_PROTOCOLS = ['TCP', 'UDP', 'ESP', 'AH', 'SCTP', 'ICMP', 'L3_DEFAULT'];
const FIREWALL_PROTOCOLS = /^(tcp|udp|icmp|esp|ah|sctp|ipip|all|\d{1,3})$/;

function isIpv4(text: string): boolean {
  const parts = text.split('.');
  return parts.length === 4 && parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255);
}

/** An IPv4 CIDR (`10.0.0.0/8`) or, with `bareAddress`, an address; IPv6 ranges are taken as written, as Compute's simulator does. */
function isRange(text: string, bareAddress: boolean): boolean {
  if (text.includes(':')) return true;
  const [address = '', bits, ...rest] = text.split('/');
  if (rest.length > 0 || !isIpv4(address)) return false;
  if (bits === undefined) return bareAddress;
  return /^\d{1,2}$/.test(bits) && Number(bits) <= 32;
}

/** `80`, `8000-9000` within [low, 65535]. */
function isPortRange(text: string, low: number): boolean {
  const match = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(text);
  if (match === null) return false;
  const first = Number(match[1]);
  const last = match[2] === undefined ? first : Number(match[2]);
  return first >= low && last <= 65535 && first <= last;
}

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
  /** Names of the VPC networks routes and firewalls may name (in any project: the fake has one). */
  readonly networks = new Set<string>(['default']);
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

  /** Compute: a route's or firewall's network must exist (NotFound). */
  #checkNetwork(network: string, method: string): void {
    const name = /\/global\/networks\/([^/]+)$/.exec(resourcePath(network))?.[1];
    if (name === undefined || !this.networks.has(name)) throw fakeError('NotFound', method);
  }

  #checkName(name: string, method: string): void {
    if (!NAME_PATTERN.test(name)) throw fakeError('Invalid', method);
  }

  /** The stored instance an instance URL names, or undefined. */
  #instanceAt(url: string): GceInstance | undefined {
    const match = /\/zones\/([^/]+)\/instances\/([^/]+)$/.exec(url);
    return match === null ? undefined : this.instances.get(`${match[1]}/${match[2]}`);
  }

  #checkTimings(check: { checkIntervalSec: number; timeoutSec: number; healthyThreshold: number; unhealthyThreshold: number; port?: number }, method: string): void {
    const counts = [check.checkIntervalSec, check.timeoutSec, check.healthyThreshold, check.unhealthyThreshold];
    if (counts.some((count) => !Number.isInteger(count) || count < 1) || check.timeoutSec > check.checkIntervalSec) throw fakeError('Invalid', method);
    if (check.port !== undefined && (!Number.isInteger(check.port) || check.port < 1 || check.port > 65535)) throw fakeError('Invalid', method);
  }

  #checkFirewall(firewall: GceFirewall, method: string): void {
    this.#checkName(firewall.name, method);
    if (firewall.allowed.length === 0) throw fakeError('Invalid', method);
    for (const rule of firewall.allowed) {
      const ports = rule.ports ?? [];
      if (!FIREWALL_PROTOCOLS.test(rule.IPProtocol) || ports.some((port) => !isPortRange(port, 0))) throw fakeError('Invalid', method);
      if (ports.length > 0 && !['tcp', 'udp', 'sctp'].includes(rule.IPProtocol)) throw fakeError('Invalid', method);
    }
    if ([...firewall.sourceRanges, ...firewall.destinationRanges].some((range) => !isRange(range, true))) throw fakeError('Invalid', method);
    if (firewall.priority !== undefined && (!Number.isInteger(firewall.priority) || firewall.priority < 0 || firewall.priority > 65535)) throw fakeError('Invalid', method);
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
    this.#checkName(route.name, 'insertRoute');
    if (this.routes.has(route.name)) throw fakeError('AlreadyExists', 'insertRoute');
    this.#checkNetwork(route.network, 'insertRoute');
    if (!route.destRange.includes(':') && !isRange(route.destRange, false)) throw fakeError('Invalid', 'insertRoute');
    if (route.nextHopInstance === undefined) throw fakeError('Invalid', 'insertRoute');
    if (this.#instanceAt(route.nextHopInstance) === undefined) throw fakeError('NotFound', 'insertRoute');
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
    this.#checkName(address.name, 'insertAddress');
    if (this.addresses.has(`${region}/${address.name}`)) throw fakeError('AlreadyExists', 'insertAddress');
    if (address.address !== undefined && !isIpv4(address.address)) throw fakeError('Invalid', 'insertAddress');
    if (address.address !== undefined && [...this.addresses.entries()].some(([key, taken]) => key.startsWith(`${region}/`) && taken.address === address.address)) {
      throw fakeError('Invalid', 'insertAddress');
    }
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
    this.#checkName(rule.name, 'insertForwardingRule');
    if (this.forwardingRules.has(`${region}/${rule.name}`)) throw fakeError('AlreadyExists', 'insertForwardingRule');
    if (!FORWARDING_PROTOCOLS.includes(rule.IPProtocol ?? 'TCP') || (rule.target === undefined) === (rule.backendService === undefined)) throw fakeError('Invalid', 'insertForwardingRule');
    if (rule.portRange !== undefined && !isPortRange(rule.portRange, 1)) throw fakeError('Invalid', 'insertForwardingRule');
    if ((rule.ports ?? []).length > 5 || (rule.ports ?? []).some((port) => !isPortRange(port, 1))) throw fakeError('Invalid', 'insertForwardingRule');
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
    this.#checkName(check.name, 'insertHealthCheck');
    if (this.globalHealthChecks.has(check.name)) throw fakeError('AlreadyExists', 'insertHealthCheck');
    this.#checkHealthCheck(check, 'insertHealthCheck');
    this.globalHealthChecks.set(check.name, { ...clone(check), selfLink: `${FAKE_BASE_URL}projects/${this.project}/global/healthChecks/${check.name}` });
  }

  async updateHealthCheck(check: GceHealthCheck): Promise<void> {
    this.#enter('updateHealthCheck');
    const found = this.globalHealthChecks.get(check.name);
    if (found === undefined) throw this.#missing('updateHealthCheck');
    this.#checkHealthCheck(check, 'updateHealthCheck');
    this.globalHealthChecks.set(check.name, { ...clone(check), ...(found.selfLink === undefined ? {} : { selfLink: found.selfLink }) });
  }

  #checkHealthCheck(check: GceHealthCheck, method: string): void {
    if (!HEALTH_CHECK_TYPES.includes(check.type)) throw fakeError('Invalid', method);
    this.#checkTimings(check, method);
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
    if (service.healthChecks.length > 1) throw fakeError('Invalid', method);
  }

  async insertRegionBackendService(region: string, service: GceBackendService): Promise<void> {
    this.#enter('insertRegionBackendService');
    this.#checkName(service.name, 'insertRegionBackendService');
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
    this.#checkName(group.name, 'insertInstanceGroup');
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
    for (const url of instanceUrls) {
      const instance = this.#instanceAt(url);
      if (instance === undefined) throw fakeError('NotFound', 'addInstanceGroupInstances');
      // Compute: the instance must be in the group's zone; a member already there fails the operation (MEMBER_ALREADY_EXISTS, HTTP 400).
      if (instance.zone !== zone || found.members.includes(url)) throw fakeError('Invalid', 'addInstanceGroupInstances');
    }
    found.members = [...found.members, ...instanceUrls.filter((url, index) => instanceUrls.indexOf(url) === index)];
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
    this.#checkName(pool.name, 'insertTargetPool');
    if (this.targetPools.has(`${region}/${pool.name}`)) throw fakeError('AlreadyExists', 'insertTargetPool');
    this.#checkPoolInstances(region, pool.instances, 'insertTargetPool');
    if (pool.healthChecks.some((url) => !this.healthChecks.has(url.split('/').at(-1) ?? ''))) throw fakeError('NotFound', 'insertTargetPool');
    if (pool.healthChecks.length > 1 || !TARGET_POOL_SESSION_AFFINITIES.includes(pool.sessionAffinity ?? 'NONE')) throw fakeError('Invalid', 'insertTargetPool');
    this.targetPools.set(`${region}/${pool.name}`, { ...clone(pool), sessionAffinity: pool.sessionAffinity ?? 'NONE', selfLink: `${FAKE_BASE_URL}projects/${this.project}/regions/${region}/targetPools/${pool.name}` });
  }

  /** Compute: a target pool's instances exist (NotFound) in a zone of its region (Invalid). */
  #checkPoolInstances(region: string, instanceUrls: readonly string[], method: string): void {
    for (const url of instanceUrls) {
      const instance = this.#instanceAt(url);
      if (instance === undefined) throw fakeError('NotFound', method);
      if (!instance.zone.startsWith(`${region}-`)) throw fakeError('Invalid', method);
    }
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
    this.#checkPoolInstances(region, instanceUrls, 'addTargetPoolInstances');
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
    this.#checkName(check.name, 'insertHttpHealthCheck');
    if (this.healthChecks.has(check.name)) throw fakeError('AlreadyExists', 'insertHttpHealthCheck');
    this.#checkTimings(check, 'insertHttpHealthCheck');
    this.healthChecks.set(check.name, { ...clone(check), selfLink: `${FAKE_BASE_URL}projects/${this.project}/global/httpHealthChecks/${check.name}` });
  }

  async updateHttpHealthCheck(check: GceHttpHealthCheck): Promise<void> {
    this.#enter('updateHttpHealthCheck');
    const found = this.healthChecks.get(check.name);
    if (found === undefined) throw this.#missing('updateHttpHealthCheck');
    this.#checkTimings(check, 'updateHttpHealthCheck');
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
    this.#checkNetwork(firewall.network, 'insertFirewall');
    this.#checkFirewall(firewall, 'insertFirewall');
    this.firewalls.set(firewall.name, clone(firewall));
  }

  async patchFirewall(firewall: GceFirewall): Promise<void> {
    this.#enter('patchFirewall');
    const stored = this.firewalls.get(firewall.name);
    if (stored === undefined) throw this.#missing('patchFirewall');
    // Compute merges a patch into the stored rule, and an empty list is not sent at all (proto3 JSON): the stored list stays.
    const merged: GceFirewall = {
      ...clone(firewall),
      sourceRanges: firewall.sourceRanges.length > 0 ? [...firewall.sourceRanges] : stored.sourceRanges,
      destinationRanges: firewall.destinationRanges.length > 0 ? [...firewall.destinationRanges] : stored.destinationRanges,
      targetTags: firewall.targetTags.length > 0 ? [...firewall.targetTags] : stored.targetTags,
      allowed: firewall.allowed.length > 0 ? clone(firewall.allowed) : stored.allowed,
    };
    this.#checkFirewall(merged, 'patchFirewall');
    this.firewalls.set(firewall.name, merged);
  }

  async deleteFirewall(name: string): Promise<void> {
    this.#enter('deleteFirewall');
    if (!this.firewalls.delete(name)) throw this.#missing('deleteFirewall');
  }
}
