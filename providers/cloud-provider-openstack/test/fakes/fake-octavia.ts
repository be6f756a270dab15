/**
 * In-memory Octavia behind the provider's `OctaviaPort` (with `FakeLoadBalancerNetwork` for the
 * VIP ports a real network driver makes). It behaves as the real
 * services measured here do: a new or changed load balancer is PENDING_* for a few reads, every
 * change while PENDING_* is a 409 Conflict ("immutable"), the amphora provider answers 501 to
 * SOURCE_IP_PORT, a cascade delete removes the children, and names over 255 and a load balancer
 * without a VIP subnet, network or port are refused (400). Every call is recorded.
 */
import { OpenStackApiError } from '../../src/errors.js';
import type {
  HealthMonitorSpec,
  ListenerSettings,
  ListenerSpec,
  LoadBalancerCreateSpec,
  OctaviaHealthMonitor,
  OctaviaListener,
  OctaviaLoadBalancer,
  OctaviaMember,
  OctaviaPool,
  OctaviaPort,
  PoolSpec,
} from '../../src/ports/octavia-port.js';
import { MAX_NAME_LENGTH } from './fake-errors.js';
import { notFound, type FakeLoadBalancerNetwork } from './fake-load-balancer-network.js';

interface StoredPool extends OctaviaPool {
  loadBalancerId: string;
  members: OctaviaMember[];
}

interface StoredListener extends OctaviaListener {
  loadBalancerId: string;
}


export class FakeOctavia implements OctaviaPort {
  readonly loadBalancers = new Map<string, OctaviaLoadBalancer>();
  readonly listeners = new Map<string, StoredListener>();
  readonly pools = new Map<string, StoredPool>();
  readonly monitors = new Map<string, OctaviaHealthMonitor & { poolId: string }>();
  readonly calls: string[] = [];
  /** Reads of a PENDING_* load balancer before it turns ACTIVE. */
  pendingReads = 1;
  /** Provider answer to methods it does not implement (amphora: SOURCE_IP_PORT). */
  unsupportedMethods = new Set(['SOURCE_IP_PORT']);
  /**
   * The gap measured on the real services (amphora provider, noop drivers): after a fully
   * populated create the load balancer turns ACTIVE but its listeners, pools, members and
   * monitors stay PENDING_CREATE, and every later change of them is a 409 "immutable".
   */
  populatedChildrenStayPending = false;
  readonly #pendingChildren = new Set<string>();
  /** The next create ends in ERROR instead of ACTIVE. */
  failNextCreate = false;
  /** The fake VIP address the noop network driver reports when no address is given. */
  noopVipAddress = '198.51.100.1';
  /**
   * `neutron`: VIP ports are created in (and deleted from) `network`, as a real deployment does.
   * `noop`: Octavia's noop network driver measured here: `vip_port_id` refused, a fake VIP port.
   */
  networkDriver: 'neutron' | 'noop';
  readonly #network: FakeLoadBalancerNetwork | undefined;

  constructor(options: { networkDriver?: 'neutron' | 'noop'; network?: FakeLoadBalancerNetwork } = {}) {
    this.networkDriver = options.networkDriver ?? 'noop';
    this.#network = options.network;
  }
  /** VIP ports Octavia created (deleted with their load balancer). */
  readonly #octaviaPorts = new Set<string>();
  readonly #pending = new Map<string, { reads: number; final: 'ACTIVE' | 'ERROR' | 'DELETED' }>();
  #next = 1;

  #id(prefix: string): string {
    return `${prefix}-${this.#next++}`;
  }

  #record(call: string): void {
    this.calls.push(call);
  }

  /** Calls that changed something (not list/get). */
  mutations(): string[] {
    return this.calls.filter((call) => !/^(find|get|list)/.test(call));
  }

  #settle(id: string): void {
    const loadBalancer = this.loadBalancers.get(id);
    const pending = this.#pending.get(id);
    if (loadBalancer === undefined || pending === undefined) return;
    if (pending.reads > 0) {
      pending.reads--;
      return;
    }
    this.#pending.delete(id);
    if (pending.final === 'DELETED') {
      this.#removeLoadBalancer(id);
      return;
    }
    loadBalancer.provisioningStatus = pending.final;
  }

  #removeLoadBalancer(id: string): void {
    const portId = this.loadBalancers.get(id)?.vipPortId;
    if (portId !== undefined && this.#octaviaPorts.delete(portId)) this.#network?.ports.delete(portId);
    this.loadBalancers.delete(id);
    for (const [poolId, pool] of this.pools) {
      if (pool.loadBalancerId !== id) continue;
      this.pools.delete(poolId);
      for (const [monitorId, monitor] of this.monitors) if (monitor.poolId === poolId) this.monitors.delete(monitorId);
    }
    for (const [listenerId, listener] of this.listeners) if (listener.loadBalancerId === id) this.listeners.delete(listenerId);
  }

  /** A change of load balancer `id`: 409 unless ACTIVE, then PENDING_UPDATE. */
  #mutate(id: string, operation: string): void {
    const loadBalancer = this.loadBalancers.get(id);
    if (loadBalancer === undefined) throw notFound(`load balancer ${id}`, operation);
    if (loadBalancer.provisioningStatus !== 'ACTIVE') {
      throw new OpenStackApiError(`Invalid state ${loadBalancer.provisioningStatus} of loadbalancer resource ${id}`, { kind: 'Conflict', operation, retryable: false, httpStatus: 409 });
    }
    loadBalancer.provisioningStatus = 'PENDING_UPDATE';
    this.#pending.set(id, { reads: this.pendingReads, final: 'ACTIVE' });
  }

  /** Octavia's API validation (400): a name over 255. */
  #checkName(name: string, operation: string): void {
    if (name.length > MAX_NAME_LENGTH) throw new OpenStackApiError(`Invalid input for field/attribute name. Value: '${name}'. Value should have a maximum character requirement of 255`, { kind: 'Invalid', operation, retryable: false, httpStatus: 400 });
  }

  #checkChild(id: string, operation: string): void {
    if (this.#pendingChildren.has(id)) throw new OpenStackApiError(`${id} is immutable and cannot be updated.`, { kind: 'Conflict', operation, retryable: false, httpStatus: 409 });
  }

  /** Puts a load balancer in PENDING_UPDATE as another writer would. */
  makeBusy(id: string, reads: number): void {
    const loadBalancer = this.loadBalancers.get(id);
    if (loadBalancer === undefined) return;
    loadBalancer.provisioningStatus = 'PENDING_UPDATE';
    this.#pending.set(id, { reads, final: 'ACTIVE' });
  }

  async findLoadBalancersByName(name: string): Promise<OctaviaLoadBalancer[]> {
    this.#record(`findLoadBalancersByName ${name}`);
    return [...this.loadBalancers.values()].filter((candidate) => candidate.name === name).map((candidate) => ({ ...candidate, tags: [...candidate.tags] }));
  }

  async getLoadBalancer(id: string): Promise<OctaviaLoadBalancer | undefined> {
    this.#record(`getLoadBalancer ${id}`);
    this.#settle(id);
    const found = this.loadBalancers.get(id);
    return found === undefined ? undefined : { ...found, tags: [...found.tags] };
  }

  async createLoadBalancer(spec: LoadBalancerCreateSpec): Promise<OctaviaLoadBalancer> {
    this.#record(`createLoadBalancer ${spec.name}`);
    for (const name of [spec.name, ...spec.listeners.flatMap((listener) => [listener.name, listener.pool.name, listener.pool.healthMonitor?.name ?? ''])]) this.#checkName(name, 'loadbalancer.createLoadBalancer');
    if (spec.vipSubnetId === undefined && spec.vipNetworkId === undefined && spec.vipPortId === undefined) {
      throw new OpenStackApiError('Validation failure: VIP must contain one of: vip_port_id, vip_network_id, vip_subnet_id.', { kind: 'Invalid', operation: 'loadbalancer.createLoadBalancer', retryable: false, httpStatus: 400 });
    }
    if (spec.vipPortId !== undefined && spec.vipAddress !== undefined) throw new OpenStackApiError('vip_port_id and vip_address are exclusive', { kind: 'Invalid', operation: 'loadbalancer.createLoadBalancer', retryable: false, httpStatus: 400 });
    for (const listener of spec.listeners) {
      if (this.unsupportedMethods.has(listener.pool.method)) {
        throw new OpenStackApiError(`Provider 'amphora' does not support a requested option: ${listener.pool.method}`, { kind: 'Unknown', operation: 'loadbalancer.createLoadBalancer', retryable: false, httpStatus: 501 });
      }
    }
    const id = this.#id('lb');
    let vip = { address: spec.vipAddress ?? this.noopVipAddress, portId: `octavia-vip-port-${id}`, subnetId: spec.vipSubnetId ?? '' };
    if (this.networkDriver === 'noop' && spec.vipPortId !== undefined) {
      throw new OpenStackApiError('Validation failure: the noop network driver cannot use vip_port_id', { kind: 'Invalid', operation: 'loadbalancer.createLoadBalancer', retryable: false, httpStatus: 400 });
    }
    if (this.networkDriver === 'neutron' && this.#network !== undefined) {
      const port = spec.vipPortId !== undefined ? await this.#network.getPort(spec.vipPortId) : await this.#network.createPort({ name: `octavia-lb-${id}`, description: '', networkId: '', subnetId: spec.vipSubnetId ?? '', ...(spec.vipAddress === undefined ? {} : { address: spec.vipAddress }) });
      const fixed = port?.fixedIps[0];
      if (port === undefined || fixed === undefined) throw notFound(`port ${spec.vipPortId ?? ''}`, 'loadbalancer.createLoadBalancer');
      vip = { address: fixed.address, portId: port.id, subnetId: fixed.subnetId };
      if (spec.vipPortId === undefined) this.#octaviaPorts.add(port.id);
    }
    const loadBalancer: OctaviaLoadBalancer = {
      id,
      name: spec.name,
      description: spec.description,
      provisioningStatus: 'PENDING_CREATE',
      vipAddress: vip.address,
      vipPortId: vip.portId,
      vipSubnetId: vip.subnetId,
      provider: spec.provider,
      tags: [...spec.tags],
    };
    this.loadBalancers.set(id, loadBalancer);
    for (const listenerSpec of spec.listeners) {
      const listener = this.#storeListener(id, listenerSpec);
      const pool = this.#storePool(id, listener, listenerSpec.pool);
      pool.members = listenerSpec.pool.members.map((member) => ({ ...member, id: this.#id('member') }));
      const monitor = listenerSpec.pool.healthMonitor === undefined ? undefined : this.#storeMonitor(pool, listenerSpec.pool.healthMonitor);
      if (this.populatedChildrenStayPending) for (const child of [listener.id, pool.id, monitor?.id]) if (child !== undefined) this.#pendingChildren.add(child);
    }
    this.#pending.set(id, { reads: this.pendingReads, final: this.failNextCreate ? 'ERROR' : 'ACTIVE' });
    this.failNextCreate = false;
    return { ...loadBalancer, tags: [...loadBalancer.tags] };
  }

  async updateLoadBalancerTags(id: string, tags: string[]): Promise<void> {
    this.#record(`updateLoadBalancerTags ${id} ${tags.join(',')}`);
    this.#mutate(id, 'loadbalancer.updateLoadBalancer');
    this.loadBalancers.get(id)!.tags = [...tags];
  }

  async renameLoadBalancer(id: string, name: string, tags: string[]): Promise<void> {
    this.#record(`renameLoadBalancer ${id} ${name} ${tags.join(',')}`);
    this.#checkName(name, 'loadbalancer.updateLoadBalancer');
    const loadBalancer = this.loadBalancers.get(id);
    if (loadBalancer === undefined) throw notFound(`load balancer ${id}`, 'loadbalancer.updateLoadBalancer');
    this.#mutate(id, 'loadbalancer.updateLoadBalancer');
    loadBalancer.name = name;
    loadBalancer.tags = [...tags];
  }

  async deleteLoadBalancer(id: string, cascade: boolean): Promise<void> {
    this.#record(`deleteLoadBalancer ${id}${cascade ? ' cascade' : ''}`);
    const loadBalancer = this.loadBalancers.get(id);
    if (loadBalancer === undefined) throw notFound(`load balancer ${id}`, 'loadbalancer.deleteLoadBalancer');
    if (loadBalancer.provisioningStatus !== 'ACTIVE' && loadBalancer.provisioningStatus !== 'ERROR') {
      throw new OpenStackApiError(`Invalid state ${loadBalancer.provisioningStatus}`, { kind: 'Conflict', operation: 'loadbalancer.deleteLoadBalancer', retryable: false, httpStatus: 409 });
    }
    if (!cascade && [...this.listeners.values()].some((listener) => listener.loadBalancerId === id)) {
      throw new OpenStackApiError('Cannot delete Load Balancer - it has children', { kind: 'Invalid', operation: 'loadbalancer.deleteLoadBalancer', retryable: false, httpStatus: 400 });
    }
    loadBalancer.provisioningStatus = 'PENDING_DELETE';
    this.#pending.set(id, { reads: this.pendingReads, final: 'DELETED' });
  }

  #storeListener(loadBalancerId: string, spec: ListenerSpec): StoredListener {
    const listener: StoredListener = {
      id: this.#id('listener'),
      loadBalancerId,
      name: spec.name,
      protocol: spec.protocol,
      port: spec.port,
      connectionLimit: spec.connectionLimit,
      defaultPoolId: undefined,
      allowedCidrs: [...spec.allowedCidrs],
      timeoutClientData: spec.timeoutClientData ?? 50000,
      timeoutMemberConnect: spec.timeoutMemberConnect ?? 5000,
      timeoutMemberData: spec.timeoutMemberData ?? 50000,
      timeoutTcpInspect: spec.timeoutTcpInspect ?? 0,
      insertHeaders: { ...spec.insertHeaders },
      tags: [...spec.tags],
    };
    this.listeners.set(listener.id, listener);
    return listener;
  }

  #storePool(loadBalancerId: string, listener: StoredListener, spec: PoolSpec): StoredPool {
    if (this.unsupportedMethods.has(spec.method)) {
      throw new OpenStackApiError(`Provider 'amphora' does not support a requested option: ${spec.method}`, { kind: 'Unknown', operation: 'loadbalancer.createPool', retryable: false, httpStatus: 501 });
    }
    const pool: StoredPool = {
      id: this.#id('pool'),
      loadBalancerId,
      name: spec.name,
      protocol: spec.protocol,
      method: spec.method,
      sessionPersistence: spec.sessionPersistence === undefined ? undefined : { ...spec.sessionPersistence },
      listenerIds: [listener.id],
      healthMonitorId: undefined,
      members: [],
    };
    this.pools.set(pool.id, pool);
    listener.defaultPoolId = pool.id;
    return pool;
  }

  #storeMonitor(pool: StoredPool, spec: HealthMonitorSpec): OctaviaHealthMonitor {
    const monitor = { ...spec, id: this.#id('monitor'), poolId: pool.id };
    this.monitors.set(monitor.id, monitor);
    pool.healthMonitorId = monitor.id;
    const { poolId: _poolId, ...view } = monitor;
    return view;
  }

  async listListeners(loadBalancerId: string): Promise<OctaviaListener[]> {
    this.#record(`listListeners ${loadBalancerId}`);
    return [...this.listeners.values()].filter((listener) => listener.loadBalancerId === loadBalancerId).map(({ loadBalancerId: _id, ...listener }) => structuredClone(listener));
  }

  async createListener(loadBalancerId: string, spec: ListenerSpec): Promise<OctaviaListener> {
    this.#record(`createListener ${spec.name}`);
    this.#checkName(spec.name, 'loadbalancer.createListener');
    this.#mutate(loadBalancerId, 'loadbalancer.createListener');
    if ([...this.listeners.values()].some((listener) => listener.loadBalancerId === loadBalancerId && listener.port === spec.port && listener.protocol === spec.protocol)) {
      throw new OpenStackApiError('Duplicate listener', { kind: 'Conflict', operation: 'loadbalancer.createListener', retryable: false, httpStatus: 409 });
    }
    const { loadBalancerId: _id, ...listener } = this.#storeListener(loadBalancerId, spec);
    return structuredClone(listener);
  }

  async renameListener(id: string, name: string, tags: string[]): Promise<void> {
    this.#record(`renameListener ${id} ${name}`);
    this.#checkName(name, 'loadbalancer.updateListener');
    const listener = this.listeners.get(id);
    if (listener === undefined) throw notFound(`listener ${id}`, 'loadbalancer.updateListener');
    this.#checkChild(id, 'loadbalancer.updateListener');
    this.#mutate(listener.loadBalancerId, 'loadbalancer.updateListener');
    listener.name = name;
    listener.tags = [...tags];
  }

  async updateListener(id: string, settings: ListenerSettings): Promise<void> {
    this.#record(`updateListener ${settings.name}`);
    this.#checkName(settings.name, 'loadbalancer.updateListener');
    const listener = this.listeners.get(id);
    if (listener === undefined) throw notFound(`listener ${id}`, 'loadbalancer.updateListener');
    this.#checkChild(id, 'loadbalancer.updateListener');
    this.#mutate(listener.loadBalancerId, 'loadbalancer.updateListener');
    Object.assign(listener, {
      name: settings.name,
      connectionLimit: settings.connectionLimit,
      allowedCidrs: [...settings.allowedCidrs],
      insertHeaders: { ...settings.insertHeaders },
      tags: [...settings.tags],
      ...(settings.timeoutClientData === undefined ? {} : { timeoutClientData: settings.timeoutClientData }),
      ...(settings.timeoutMemberConnect === undefined ? {} : { timeoutMemberConnect: settings.timeoutMemberConnect }),
      ...(settings.timeoutMemberData === undefined ? {} : { timeoutMemberData: settings.timeoutMemberData }),
      ...(settings.timeoutTcpInspect === undefined ? {} : { timeoutTcpInspect: settings.timeoutTcpInspect }),
    });
  }

  async deleteListener(id: string): Promise<void> {
    this.#record(`deleteListener ${id}`);
    const listener = this.listeners.get(id);
    if (listener === undefined) throw notFound(`listener ${id}`, 'loadbalancer.deleteListener');
    this.#checkChild(id, 'loadbalancer.deleteListener');
    this.#mutate(listener.loadBalancerId, 'loadbalancer.deleteListener');
    this.listeners.delete(id);
  }

  async listPools(loadBalancerId: string): Promise<OctaviaPool[]> {
    this.#record(`listPools ${loadBalancerId}`);
    return [...this.pools.values()].filter((pool) => pool.loadBalancerId === loadBalancerId).map(({ loadBalancerId: _id, members: _members, ...pool }) => structuredClone(pool));
  }

  async createPool(listenerId: string, spec: PoolSpec): Promise<OctaviaPool> {
    this.#record(`createPool ${spec.name}`);
    this.#checkName(spec.name, 'loadbalancer.createPool');
    const listener = this.listeners.get(listenerId);
    if (listener === undefined) throw notFound(`listener ${listenerId}`, 'loadbalancer.createPool');
    this.#mutate(listener.loadBalancerId, 'loadbalancer.createPool');
    const { loadBalancerId: _id, members: _members, ...pool } = this.#storePool(listener.loadBalancerId, listener, spec);
    return structuredClone(pool);
  }

  async renamePool(id: string, name: string): Promise<void> {
    this.#record(`renamePool ${id} ${name}`);
    this.#checkName(name, 'loadbalancer.updatePool');
    const pool = this.pools.get(id);
    if (pool === undefined) throw notFound(`pool ${id}`, 'loadbalancer.updatePool');
    this.#checkChild(id, 'loadbalancer.updatePool');
    this.#mutate(pool.loadBalancerId, 'loadbalancer.updatePool');
    pool.name = name;
  }

  async updatePoolMethod(id: string, method: string): Promise<void> {
    this.#record(`updatePoolMethod ${id} ${method}`);
    const pool = this.pools.get(id);
    if (pool === undefined) throw notFound(`pool ${id}`, 'loadbalancer.updatePool');
    this.#checkChild(id, 'loadbalancer.updatePool');
    if (this.unsupportedMethods.has(method)) {
      throw new OpenStackApiError(`Provider 'amphora' does not support a requested option: ${method}`, { kind: 'Unknown', operation: 'loadbalancer.updatePool', retryable: false, httpStatus: 501 });
    }
    this.#mutate(pool.loadBalancerId, 'loadbalancer.updatePool');
    pool.method = method;
  }

  async deletePool(id: string): Promise<void> {
    this.#record(`deletePool ${id}`);
    const pool = this.pools.get(id);
    if (pool === undefined) throw notFound(`pool ${id}`, 'loadbalancer.deletePool');
    this.#checkChild(id, 'loadbalancer.deletePool');
    this.#mutate(pool.loadBalancerId, 'loadbalancer.deletePool');
    this.pools.delete(id);
    for (const [monitorId, monitor] of this.monitors) if (monitor.poolId === id) this.monitors.delete(monitorId);
    for (const listener of this.listeners.values()) if (listener.defaultPoolId === id) listener.defaultPoolId = undefined;
  }

  async listMembers(poolId: string): Promise<OctaviaMember[]> {
    this.#record(`listMembers ${poolId}`);
    const pool = this.pools.get(poolId);
    if (pool === undefined) throw notFound(`pool ${poolId}`, 'loadbalancer.listMembers');
    return pool.members.map((member) => ({ ...member }));
  }

  async replaceMembers(poolId: string, members: OctaviaMember[]): Promise<void> {
    this.#record(`replaceMembers ${poolId} ${members.map((member) => member.name).join(',')}`);
    const pool = this.pools.get(poolId);
    if (pool === undefined) throw notFound(`pool ${poolId}`, 'loadbalancer.replaceMembers');
    this.#checkChild(poolId, 'loadbalancer.replaceMembers');
    this.#mutate(pool.loadBalancerId, 'loadbalancer.replaceMembers');
    pool.members = members.map((member) => ({ ...member, id: this.#id('member') }));
  }

  async createMember(poolId: string, member: OctaviaMember): Promise<void> {
    this.#record(`createMember ${poolId} ${member.name}`);
    const pool = this.pools.get(poolId);
    if (pool === undefined) throw notFound(`pool ${poolId}`, 'loadbalancer.createMember');
    this.#checkChild(poolId, 'loadbalancer.createMember');
    if (pool.members.some((candidate) => candidate.address === member.address && candidate.port === member.port)) {
      throw new OpenStackApiError('Duplicate member', { kind: 'Conflict', operation: 'loadbalancer.createMember', retryable: false, httpStatus: 409 });
    }
    this.#mutate(pool.loadBalancerId, 'loadbalancer.createMember');
    pool.members.push({ ...member, id: this.#id('member') });
  }

  async deleteMember(poolId: string, memberId: string): Promise<void> {
    this.#record(`deleteMember ${poolId} ${memberId}`);
    const pool = this.pools.get(poolId);
    if (pool === undefined || !pool.members.some((member) => member.id === memberId)) throw notFound(`member ${memberId}`, 'loadbalancer.deleteMember');
    this.#checkChild(poolId, 'loadbalancer.deleteMember');
    this.#mutate(pool.loadBalancerId, 'loadbalancer.deleteMember');
    pool.members = pool.members.filter((member) => member.id !== memberId);
  }

  async getHealthMonitor(id: string): Promise<OctaviaHealthMonitor | undefined> {
    this.#record(`getHealthMonitor ${id}`);
    const found = this.monitors.get(id);
    if (found === undefined) return undefined;
    const { poolId: _poolId, ...monitor } = found;
    return { ...monitor };
  }

  async createHealthMonitor(poolId: string, spec: HealthMonitorSpec): Promise<OctaviaHealthMonitor> {
    this.#record(`createHealthMonitor ${spec.name} ${spec.type}`);
    this.#checkName(spec.name, 'loadbalancer.createHealthMonitor');
    const pool = this.pools.get(poolId);
    if (pool === undefined) throw notFound(`pool ${poolId}`, 'loadbalancer.createHealthMonitor');
    this.#checkChild(poolId, 'loadbalancer.createHealthMonitor');
    if (pool.healthMonitorId !== undefined) throw new OpenStackApiError('pool already has a monitor', { kind: 'Conflict', operation: 'loadbalancer.createHealthMonitor', retryable: false, httpStatus: 409 });
    this.#mutate(pool.loadBalancerId, 'loadbalancer.createHealthMonitor');
    return this.#storeMonitor(pool, spec);
  }

  async updateHealthMonitor(id: string, spec: Pick<HealthMonitorSpec, 'name' | 'delaySeconds' | 'timeoutSeconds' | 'maxRetries' | 'maxRetriesDown'>): Promise<void> {
    this.#record(`updateHealthMonitor ${spec.name}`);
    this.#checkName(spec.name, 'loadbalancer.updateHealthMonitor');
    const monitor = this.monitors.get(id);
    if (monitor === undefined) throw notFound(`monitor ${id}`, 'loadbalancer.updateHealthMonitor');
    this.#checkChild(id, 'loadbalancer.updateHealthMonitor');
    this.#mutate(this.pools.get(monitor.poolId)!.loadBalancerId, 'loadbalancer.updateHealthMonitor');
    Object.assign(monitor, spec);
  }

  async deleteHealthMonitor(id: string): Promise<void> {
    this.#record(`deleteHealthMonitor ${id}`);
    const monitor = this.monitors.get(id);
    if (monitor === undefined) throw notFound(`monitor ${id}`, 'loadbalancer.deleteHealthMonitor');
    this.#checkChild(id, 'loadbalancer.deleteHealthMonitor');
    const pool = this.pools.get(monitor.poolId)!;
    this.#mutate(pool.loadBalancerId, 'loadbalancer.deleteHealthMonitor');
    this.monitors.delete(id);
    pool.healthMonitorId = undefined;
  }

  /** The members of the pool of `listener port` on the load balancer named `name`. */
  membersOf(name: string, port: number): OctaviaMember[] {
    const loadBalancer = [...this.loadBalancers.values()].find((candidate) => candidate.name === name);
    const listener = [...this.listeners.values()].find((candidate) => candidate.loadBalancerId === loadBalancer?.id && candidate.port === port);
    const members = listener?.defaultPoolId === undefined ? [] : (this.pools.get(listener.defaultPoolId)?.members ?? []);
    return members.map(({ id: _id, ...member }) => member);
  }
}
