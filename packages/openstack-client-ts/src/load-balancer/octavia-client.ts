/**
 * Octavia (catalog type `load-balancer`, API v2 under `/v2/lbaas`): load balancers (fully
 * populated create, cascade delete, status tree), listeners, pools, members (with the batch
 * update), health monitors, the API version list, and waiting for a provisioning status with
 * backoff (upstream: 1 s, x1.2, 23 steps).
 */
import type { KeystoneSession, Query } from '../identity/keystone-session.js';
import { isOpenStackError, OpenStackError } from '../openstack-error.js';
import { ServiceClient, type Attributes, type ListOptions } from '../service-client.js';
import type { ApiVersion, HealthMonitor, Listener, LoadBalancer, Member, MemberSpec, Pool, ProvisioningStatus, StatusTree } from './octavia-types.js';


export class OctaviaResource<T> {
  protected readonly client: ServiceClient;
  readonly #singular: string;
  readonly #plural: string;
  readonly #path: string;

  constructor(client: ServiceClient, singular: string, plural: string, path: string) {
    this.client = client;
    this.#singular = singular;
    this.#plural = plural;
    this.#path = path;
  }

  list(query: Query = {}, options: ListOptions = {}): Promise<T[]> {
    return this.client.list<T>(this.#path, this.#plural, query, options);
  }

  get(id: string, signal?: AbortSignal): Promise<T> {
    return this.client.get<T>(`${this.#path}/${encodeURIComponent(id)}`, this.#singular, signal);
  }

  create(attributes: Attributes, signal?: AbortSignal): Promise<T> {
    return this.client.create<T>(this.#path, this.#singular, attributes, signal);
  }

  update(id: string, attributes: Attributes, signal?: AbortSignal): Promise<T> {
    return this.client.update<T>(`${this.#path}/${encodeURIComponent(id)}`, this.#singular, attributes, signal);
  }

  delete(id: string, signal?: AbortSignal): Promise<void> {
    return this.client.delete(`${this.#path}/${encodeURIComponent(id)}`, undefined, signal);
  }
}

export interface WaitOptions {
  /** First wait; default 1000 ms. */
  initialDelayMs?: number;
  /** Default 1.2. */
  factor?: number;
  /** Number of polls; default 23 (about 5.4 minutes with the defaults). */
  steps?: number;
  signal?: AbortSignal;
  /** For tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export class LoadBalancers extends OctaviaResource<LoadBalancer> {
  constructor(client: ServiceClient) {
    super(client, 'loadbalancer', 'loadbalancers', '/v2/lbaas/loadbalancers');
  }

  /** `DELETE ...?cascade=true` removes the listeners, pools, members and monitors with it. */
  override delete(id: string, signal?: AbortSignal, options: { cascade?: boolean } = {}): Promise<void> {
    return this.client.delete(`/v2/lbaas/loadbalancers/${encodeURIComponent(id)}`, options.cascade ? { cascade: true } : undefined, signal);
  }

  async statusTree(id: string, signal?: AbortSignal): Promise<StatusTree> {
    return this.client.get<StatusTree>(`/v2/lbaas/loadbalancers/${encodeURIComponent(id)}/status`, 'statuses', signal);
  }

  /**
   * Polls until the load balancer's provisioning status is `target` (default ACTIVE). ERROR is a
   * `ProvisioningFailed` error; running out of steps a `ProvisioningTimeout` (retryable). With
   * target `DELETED`, a 404 is success.
   */
  async waitForStatus(id: string, target: ProvisioningStatus = 'ACTIVE', options: WaitOptions = {}): Promise<LoadBalancer | undefined> {
    const steps = options.steps ?? 23;
    const factor = options.factor ?? 1.2;
    const sleep = options.sleep ?? defaultSleep;
    let wait = options.initialDelayMs ?? 1000;
    let last: ProvisioningStatus | undefined;
    for (let step = 0; step < steps; step++) {
      let loadBalancer: LoadBalancer;
      try {
        loadBalancer = await this.get(id, options.signal);
      } catch (error) {
        if (target === 'DELETED' && isOpenStackError(error, 'NotFound')) return undefined;
        throw error;
      }
      last = loadBalancer.provisioning_status;
      if (last === target) return loadBalancer;
      if (last === 'ERROR') throw new OpenStackError(`load balancer ${id} went to ERROR while waiting for ${target}`, { kind: 'ProvisioningFailed', operation: `wait load balancer ${id}` });
      if (step < steps - 1) {
        await sleep(wait, options.signal);
        wait *= factor;
      }
    }
    throw new OpenStackError(`load balancer ${id} is still ${last ?? 'unknown'} after ${steps} polls (waiting for ${target})`, { kind: 'ProvisioningTimeout', operation: `wait load balancer ${id}` });
  }
}

export class Pools extends OctaviaResource<Pool> {
  constructor(client: ServiceClient) {
    super(client, 'pool', 'pools', '/v2/lbaas/pools');
  }

  listMembers(poolId: string, query: Query = {}, options: ListOptions = {}): Promise<Member[]> {
    return this.client.list<Member>(`/v2/lbaas/pools/${encodeURIComponent(poolId)}/members`, 'members', query, options);
  }

  getMember(poolId: string, memberId: string, signal?: AbortSignal): Promise<Member> {
    return this.client.get<Member>(`/v2/lbaas/pools/${encodeURIComponent(poolId)}/members/${encodeURIComponent(memberId)}`, 'member', signal);
  }

  createMember(poolId: string, member: MemberSpec, signal?: AbortSignal): Promise<Member> {
    return this.client.create<Member>(`/v2/lbaas/pools/${encodeURIComponent(poolId)}/members`, 'member', member, signal);
  }

  deleteMember(poolId: string, memberId: string, signal?: AbortSignal): Promise<void> {
    return this.client.delete(`/v2/lbaas/pools/${encodeURIComponent(poolId)}/members/${encodeURIComponent(memberId)}`, undefined, signal);
  }

  /** Batch update (202): the pool ends with exactly these members (matched by address and port). */
  async replaceMembers(poolId: string, members: readonly MemberSpec[], signal?: AbortSignal): Promise<void> {
    await this.client.call({ method: 'PUT', path: `/v2/lbaas/pools/${encodeURIComponent(poolId)}/members`, body: { members }, expectedStatuses: [202], ...(signal === undefined ? {} : { signal }) });
  }
}

export class OctaviaClient {
  readonly service: ServiceClient;
  readonly loadBalancers: LoadBalancers;
  readonly listeners: OctaviaResource<Listener>;
  readonly pools: Pools;
  readonly healthMonitors: OctaviaResource<HealthMonitor>;

  constructor(session: KeystoneSession, options: { serviceType?: string } = {}) {
    this.service = new ServiceClient(session, options.serviceType ?? 'load-balancer');
    this.loadBalancers = new LoadBalancers(this.service);
    this.listeners = new OctaviaResource(this.service, 'listener', 'listeners', '/v2/lbaas/listeners');
    this.pools = new Pools(this.service);
    this.healthMonitors = new OctaviaResource(this.service, 'healthmonitor', 'healthmonitors', '/v2/lbaas/healthmonitors');
  }

  /** The API versions at the endpoint's root (`v2.0` ... `v2.26`), for feature detection. */
  async versions(signal?: AbortSignal): Promise<ApiVersion[]> {
    const body = await this.service.call<{ versions?: ApiVersion[] }>({ method: 'GET', path: '/', ...(signal === undefined ? {} : { signal }) });
    return body?.versions ?? [];
  }

  /** The highest version as [major, minor], e.g. [2, 26]. */
  async maxVersion(signal?: AbortSignal): Promise<[number, number] | undefined> {
    let best: [number, number] | undefined;
    for (const version of await this.versions(signal)) {
      const match = /^v(\d+)\.(\d+)$/.exec(version.id);
      if (match === null) continue;
      const parsed: [number, number] = [Number(match[1]), Number(match[2])];
      if (best === undefined || parsed[0] > best[0] || (parsed[0] === best[0] && parsed[1] > best[1])) best = parsed;
    }
    return best;
  }
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new OpenStackError('wait aborted', { kind: 'Aborted', operation: 'wait' }));
      return;
    }
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new OpenStackError('wait aborted', { kind: 'Aborted', operation: 'wait' }));
    }, { once: true });
  });
}
