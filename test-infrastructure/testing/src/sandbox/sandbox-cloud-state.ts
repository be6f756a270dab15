import { Ipv4AddressPool, Ipv6AddressPool, type AddressPool } from './address-pool.js';
import { InstanceStore } from './instance-store.js';
import { LoadBalancerStore } from './load-balancer-store.js';
import { RouteStore } from './route-store.js';
import type {
  BatchGetInstancesRequest,
  BatchGetInstancesResult,
  CreateInstanceRequest,
  CreateLoadBalancerRequest,
  CreateRouteRequest,
  SandboxCloudSnapshot,
  SandboxInstance,
  SandboxLoadBalancer,
  SandboxRoute,
  TagFilter,
  UpdateInstanceRequest,
  UpdateLoadBalancerRequest,
} from './sandbox-types.js';

export interface SandboxCloudStateOptions {
  /** Default `sandbox-1`. */
  region?: string;
  /** Zones instances are spread over when none is given. Default `<region>a`, `<region>b`, `<region>c`. */
  zones?: string[];
  /** Default `m1.small`. */
  defaultInstanceType?: string;
  /** Private addresses. Default `10.0.0.0/16`. */
  internalCidr?: string;
  /** Public instance addresses. Default `198.51.100.0/24`. */
  externalCidr?: string;
  /** Load balancer ingress addresses. Default `203.0.113.0/24`. */
  ingressCidr?: string;
  /** IPv6 prefix for instances. Default `fd00:10::`. */
  ipv6Prefix?: string;
  /** DNS suffix of private names. Default `sandbox.internal`. */
  internalDomain?: string;
  /** DNS suffix of public and load balancer names. Default `sandbox.example`. */
  externalDomain?: string;
}

/**
 * The sandbox cloud's state, in process and without HTTP: instances, load balancers and routes.
 * Every method validates its input and throws `SandboxCloudError` (NotFound, AlreadyExists,
 * InvalidArgument, InvalidState, AddressPoolExhausted). Results are copies.
 */
export class SandboxCloudState {
  readonly region: string;
  readonly #pools: AddressPool[];
  readonly #instances: InstanceStore;
  readonly #loadBalancers: LoadBalancerStore;
  readonly #routes: RouteStore;

  constructor(options: SandboxCloudStateOptions = {}) {
    this.region = options.region ?? 'sandbox-1';
    const externalDomain = options.externalDomain ?? 'sandbox.example';
    const internalPool = new Ipv4AddressPool(options.internalCidr ?? '10.0.0.0/16', 'internal');
    const externalPool = new Ipv4AddressPool(options.externalCidr ?? '198.51.100.0/24', 'external');
    const ingressPool = new Ipv4AddressPool(options.ingressCidr ?? '203.0.113.0/24', 'load balancer ingress');
    const ipv6Pool = new Ipv6AddressPool(options.ipv6Prefix ?? 'fd00:10::');
    this.#pools = [internalPool, externalPool, ingressPool, ipv6Pool];
    this.#instances = new InstanceStore({
      region: this.region,
      zones: options.zones ?? ['a', 'b', 'c'].map((suffix) => `${this.region}${suffix}`),
      defaultInstanceType: options.defaultInstanceType ?? 'm1.small',
      internalDomain: options.internalDomain ?? 'sandbox.internal',
      externalDomain,
      internalPool,
      externalPool,
      ipv6Pool,
    });
    this.#loadBalancers = new LoadBalancerStore(this.#instances, ingressPool, `lb.${this.region}.${externalDomain}`);
    this.#routes = new RouteStore(this.#instances);
  }

  // ---- instances

  createInstance(request: CreateInstanceRequest): SandboxInstance {
    return this.#instances.create(request);
  }
  getInstance(id: string): SandboxInstance {
    return this.#instances.get(id);
  }
  /** All instances, terminated ones included; optionally only those with `name` or tags. */
  listInstances(filter: { name?: string; tags?: TagFilter } = {}): SandboxInstance[] {
    return this.#instances.list(filter);
  }
  /** Many instances by ids and names in one call; each instance once. */
  batchGetInstances(request: BatchGetInstancesRequest): BatchGetInstancesResult {
    return this.#instances.batchGet(request);
  }
  stopInstance(id: string): SandboxInstance {
    return this.#instances.setPower(id, 'stopped');
  }
  startInstance(id: string): SandboxInstance {
    return this.#instances.setPower(id, 'running');
  }
  /** Changes addresses, type or tags (to simulate a re-IP or a resize); the pools are not touched. */
  updateInstance(id: string, update: UpdateInstanceRequest): SandboxInstance {
    return this.#instances.update(id, update);
  }
  /**
   * Terminates an instance: it stays visible with state `terminated` and no addresses, like a
   * real cloud shortly after termination. With `purge` it disappears entirely (lookups give NotFound).
   */
  deleteInstance(id: string, options: { purge?: boolean } = {}): void {
    this.#instances.delete(id, options);
  }

  // ---- load balancers

  createLoadBalancer(request: CreateLoadBalancerRequest): SandboxLoadBalancer {
    return this.#loadBalancers.create(request);
  }
  getLoadBalancer(name: string): SandboxLoadBalancer {
    return this.#loadBalancers.get(name);
  }
  listLoadBalancers(filter: { tags?: TagFilter } = {}): SandboxLoadBalancer[] {
    return this.#loadBalancers.list(filter);
  }
  /** Applies the given fields; the generation only moves when something really changed. */
  updateLoadBalancer(name: string, update: UpdateLoadBalancerRequest): SandboxLoadBalancer {
    return this.#loadBalancers.update(name, update);
  }
  deleteLoadBalancer(name: string): void {
    this.#loadBalancers.delete(name);
  }

  // ---- routes

  /** Fails with AlreadyExists when the route table already has a route for the destination. */
  createRoute(request: CreateRouteRequest): SandboxRoute {
    return this.#routes.create(request);
  }
  listRoutes(filter: { tags?: TagFilter } = {}): SandboxRoute[] {
    return this.#routes.list(filter);
  }
  getRoute(id: string): SandboxRoute {
    return this.#routes.get(id);
  }
  /** With `requireTags`, refuses (InvalidState) to delete a route that does not carry them. */
  deleteRoute(id: string, options: { requireTags?: TagFilter } = {}): void {
    this.#routes.delete(id, options);
  }

  // ---- whole state

  snapshot(): SandboxCloudSnapshot {
    return { instances: this.listInstances(), loadBalancers: this.listLoadBalancers(), routes: this.listRoutes() };
  }

  /** Forgets every resource, frees every address and restarts the ids. */
  clear(): void {
    this.#routes.clear();
    this.#loadBalancers.clear();
    this.#instances.clear();
    for (const pool of this.#pools) pool.clear();
  }
}
