import type { AddressPool } from './address-pool.js';
import type { InstanceStore } from './instance-store.js';
import { SandboxCloudError } from './sandbox-cloud-error.js';
import type { CreateLoadBalancerRequest, SandboxLoadBalancer, TagFilter, UpdateLoadBalancerRequest } from './sandbox-types.js';
import {
  matchesTags,
  requireResourceName,
  validateCidr,
  validateListeners,
  validatePortOrUndefined,
  validateStringList,
  validateTags,
} from './sandbox-validation.js';

const clone = <T>(value: T): T => structuredClone(value);

/** The load balancers of the sandbox cloud; ingress IPs come from a pool. */
export class LoadBalancerStore {
  readonly #instances: InstanceStore;
  readonly #ingressPool: AddressPool;
  readonly #hostnameSuffix: string;
  readonly #loadBalancers = new Map<string, SandboxLoadBalancer>();

  /** Ingress hostnames are `<name>.<hostnameSuffix>`. */
  constructor(instances: InstanceStore, ingressPool: AddressPool, hostnameSuffix: string) {
    this.#instances = instances;
    this.#ingressPool = ingressPool;
    this.#hostnameSuffix = hostnameSuffix;
  }

  create(request: CreateLoadBalancerRequest): SandboxLoadBalancer {
    const name = requireResourceName('load balancer', request.name);
    if (this.#loadBalancers.has(name)) throw new SandboxCloudError('AlreadyExists', `load balancer ${name} already exists`);
    const listeners = validateListeners(request.listeners);
    const backendInstanceIds = this.#validateBackends(request.backendInstanceIds);
    const sourceRanges = request.sourceRanges === undefined ? [] : validateSourceRanges(request.sourceRanges);
    const healthCheckNodePort = validatePortOrUndefined('healthCheckNodePort', request.healthCheckNodePort);
    const tags = validateTags(request.tags);
    const ip = this.#ingressPool.allocate();
    const loadBalancer: SandboxLoadBalancer = {
      name,
      listeners,
      backendInstanceIds,
      ingress: { ip, hostname: `${name}.${this.#hostnameSuffix}` },
      sourceRanges,
      tags,
      generation: 1,
    };
    if (healthCheckNodePort !== undefined) loadBalancer.healthCheckNodePort = healthCheckNodePort;
    this.#loadBalancers.set(name, loadBalancer);
    return clone(loadBalancer);
  }

  get(name: string): SandboxLoadBalancer {
    return clone(this.#record(name));
  }

  list(filter: { tags?: TagFilter } = {}): SandboxLoadBalancer[] {
    return [...this.#loadBalancers.values()].filter((loadBalancer) => matchesTags(loadBalancer.tags, filter.tags)).map(clone);
  }

  /** Applies the given fields; the generation only moves when something really changed. */
  update(name: string, update: UpdateLoadBalancerRequest): SandboxLoadBalancer {
    const current = this.#record(name);
    const next: SandboxLoadBalancer = clone(current);
    if (update.listeners !== undefined) next.listeners = validateListeners(update.listeners);
    if (update.backendInstanceIds !== undefined) next.backendInstanceIds = this.#validateBackends(update.backendInstanceIds);
    if (update.sourceRanges !== undefined) next.sourceRanges = validateSourceRanges(update.sourceRanges);
    if (update.healthCheckNodePort === null) delete next.healthCheckNodePort;
    else if (update.healthCheckNodePort !== undefined) next.healthCheckNodePort = validatePortOrUndefined('healthCheckNodePort', update.healthCheckNodePort)!;
    if (update.tags !== undefined) next.tags = validateTags(update.tags);
    if (JSON.stringify(next) !== JSON.stringify(current)) {
      next.generation = current.generation + 1;
      this.#loadBalancers.set(name, next);
    }
    return clone(this.#record(name));
  }

  delete(name: string): void {
    const loadBalancer = this.#record(name);
    this.#ingressPool.release(loadBalancer.ingress.ip);
    this.#loadBalancers.delete(name);
  }

  clear(): void {
    this.#loadBalancers.clear();
  }

  #record(name: string): SandboxLoadBalancer {
    const loadBalancer = this.#loadBalancers.get(name);
    if (loadBalancer === undefined) throw new SandboxCloudError('NotFound', `load balancer ${name} not found`);
    return loadBalancer;
  }

  #validateBackends(value: unknown): string[] {
    const ids = validateStringList('backendInstanceIds', value);
    for (const id of ids) {
      const instance = this.#instances.find(id);
      if (instance === undefined || instance.state === 'terminated') throw new SandboxCloudError('InvalidArgument', `backend instance ${id} does not exist`);
    }
    return [...new Set(ids)].sort();
  }
}

function validateSourceRanges(value: unknown): string[] {
  const ranges = validateStringList('sourceRanges', value);
  ranges.forEach((range, index) => validateCidr(`sourceRanges[${index}]`, range));
  return ranges;
}
