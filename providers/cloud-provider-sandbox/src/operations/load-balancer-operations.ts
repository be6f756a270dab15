import type { Logger } from '@ccm/core/logging';
import { defaultLoadBalancerName } from '@ccm/core/provider';
import type { V1Node, V1Service } from '@kubernetes/client-node';
import { isSandboxApiError } from '../ports/sandbox-api-error.js';
import type { CallOptions, CloudLoadBalancer, SandboxCloudPort } from '../ports/sandbox-cloud-port.js';
import { SANDBOX_TAGS, isOwnedBy } from '../tags.js';
import type { InstanceOperations } from './instance-operations.js';
import { LoadBalancerSpecError, desiredLoadBalancer, planLoadBalancer } from './plan-load-balancer.js';

/** A load balancer with the Service's name exists but belongs to someone else: we leave it alone. */
export class LoadBalancerNotOwnedError extends Error {
  constructor(name: string, clusterIdentity: string) {
    super(`load balancer ${name} exists but is not owned by cluster ${JSON.stringify(clusterIdentity)} (tag ${SANDBOX_TAGS.cluster}); refusing to change it`);
    this.name = 'LoadBalancerNotOwnedError';
  }
}

export class LoadBalancerMissingError extends Error {
  constructor(name: string) {
    super(`load balancer ${name} does not exist`);
    this.name = 'LoadBalancerMissingError';
  }
}

function isOwnedFor(loadBalancer: CloudLoadBalancer, service: V1Service, clusterIdentity: string): boolean {
  const uid = loadBalancer.tags[SANDBOX_TAGS.serviceUid];
  return isOwnedBy(loadBalancer.tags, clusterIdentity) && (uid === undefined || uid === service.metadata?.uid);
}

/** Load balancer logic against the cloud: idempotent steps, never touching what we do not own. */
export class LoadBalancerOperations {
  readonly #client: SandboxCloudPort;
  readonly #instances: InstanceOperations;
  readonly #logger: Logger;

  constructor(client: SandboxCloudPort, instances: InstanceOperations, logger: Logger) {
    this.#client = client;
    this.#instances = instances;
    this.#logger = logger;
  }

  nameFor(service: V1Service): string {
    if ((service.metadata?.uid ?? '') === '') throw new LoadBalancerSpecError(service, 'the Service has no UID');
    return defaultLoadBalancerName(service);
  }

  /** Our load balancer for the Service, or `undefined` (missing or not ours). */
  async get(clusterIdentity: string, service: V1Service, options?: CallOptions): Promise<CloudLoadBalancer | undefined> {
    const loadBalancer = await this.#client.getLoadBalancer(this.nameFor(service), options);
    return loadBalancer !== undefined && isOwnedFor(loadBalancer, service, clusterIdentity) ? loadBalancer : undefined;
  }

  /** Creates the load balancer or brings it to the Service's spec; returns it as it now is. */
  async ensure(clusterIdentity: string, service: V1Service, nodes: readonly V1Node[], options?: CallOptions): Promise<CloudLoadBalancer> {
    const name = this.nameFor(service);
    const desired = desiredLoadBalancer(name, service, clusterIdentity, await this.#backendIds(service, nodes, options));
    let observed = await this.#client.getLoadBalancer(name, options);
    if (observed !== undefined && !isOwnedFor(observed, service, clusterIdentity)) throw new LoadBalancerNotOwnedError(name, clusterIdentity);
    let plan = planLoadBalancer(desired, observed);
    if (plan.action === 'create') {
      try {
        return await this.#client.createLoadBalancer(plan.spec, options);
      } catch (error) {
        // Created meanwhile (or by a retried request whose answer got lost): converge instead.
        if (!isSandboxApiError(error, 'AlreadyExists')) throw error;
        observed = await this.#client.getLoadBalancer(name, options);
        if (observed === undefined) throw error;
        if (!isOwnedFor(observed, service, clusterIdentity)) throw new LoadBalancerNotOwnedError(name, clusterIdentity);
        plan = planLoadBalancer(desired, observed);
      }
    }
    if (plan.action === 'update') return this.#client.updateLoadBalancer(name, plan.changes, options);
    return observed!;
  }

  /** Sets the backends only; the rest of the load balancer stays as it is. */
  async updateBackends(clusterIdentity: string, service: V1Service, nodes: readonly V1Node[], options?: CallOptions): Promise<void> {
    const name = this.nameFor(service);
    const observed = await this.#client.getLoadBalancer(name, options);
    if (observed === undefined) throw new LoadBalancerMissingError(name);
    if (!isOwnedFor(observed, service, clusterIdentity)) throw new LoadBalancerNotOwnedError(name, clusterIdentity);
    const backendIds = [...new Set(await this.#backendIds(service, nodes, options))].sort();
    const current = [...observed.backendInstanceIds].sort();
    if (backendIds.length === current.length && backendIds.every((id, index) => id === current[index])) return;
    await this.#client.setLoadBalancerBackends(name, backendIds, options);
  }

  /** Deletes our load balancer; nothing to do when it is gone, and never one we do not own. */
  async delete(clusterIdentity: string, service: V1Service, options?: CallOptions): Promise<void> {
    const name = this.nameFor(service);
    const observed = await this.#client.getLoadBalancer(name, options);
    if (observed === undefined) return;
    if (!isOwnedFor(observed, service, clusterIdentity)) {
      this.#logger.warn('not deleting a load balancer this cluster does not own', { loadBalancer: name, clusterIdentity, tags: observed.tags });
      return;
    }
    try {
      await this.#client.deleteLoadBalancer(name, options);
    } catch (error) {
      if (!isSandboxApiError(error, 'NotFound')) throw error;
    }
  }

  async #backendIds(service: V1Service, nodes: readonly V1Node[], options?: CallOptions): Promise<string[]> {
    const found = await this.#instances.findLiveForNodes(nodes, options);
    const missing = nodes.map((node) => node.metadata?.name ?? '').filter((nodeName) => !found.has(nodeName));
    if (missing.length > 0) {
      this.#logger.verbose(2, 'nodes without a live instance are left out of the load balancer', {
        service: `${service.metadata?.namespace ?? ''}/${service.metadata?.name ?? ''}`,
        nodes: missing,
      });
    }
    return [...found.values()].map((instance) => instance.id);
  }
}
