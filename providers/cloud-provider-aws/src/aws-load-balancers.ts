/**
 * LoadBalancer for AWS: picks Classic ELB or NLB from `aws-load-balancer-type`, validates the
 * whole Service before any cloud call, and cleans up the other kind when the type changes
 * (upstream refuses type changes and leaks the old load balancer on delete).
 */
import type { V1Node, V1Service } from '@ccm/core/kube';
import type { Logger } from '@ccm/core/logging';
import { defaultLoadBalancerName, ImplementedElsewhereError, type CloudCallOptions, type LoadBalancer, type LoadBalancerStatus } from '@ccm/core/provider';
import { ANNOTATIONS, annotationsOf, readTyped } from './annotations.js';
import { buildLoadBalancerSpec, loadBalancerKind } from './operations/load-balancer/build-load-balancer-spec.js';
import { classicStatus, type ClassicLoadBalancerOperations } from './operations/load-balancer/classic/classic-load-balancer.js';
import type { DeletionTarget } from './operations/load-balancer/load-balancer-context.js';
import type { LoadBalancerSettings } from './operations/load-balancer/load-balancer-spec.js';
import { networkStatus, type NetworkLoadBalancerOperations } from './operations/load-balancer/network/network-load-balancer.js';

export interface AwsLoadBalancersDependencies {
  classic: ClassicLoadBalancerOperations;
  network: NetworkLoadBalancerOperations;
  settings: LoadBalancerSettings;
  logger: Logger;
}

function deletionTarget(service: V1Service): DeletionTarget {
  const annotations = annotationsOf(service);
  return {
    loadBalancerName: defaultLoadBalancerName(service),
    service: { namespace: service.metadata?.namespace ?? '', name: service.metadata?.name ?? '', uid: service.metadata?.uid ?? '' },
    annotatedSecurityGroups: [...(readTyped(annotations, ANNOTATIONS.securityGroups) ?? []), ...(readTyped(annotations, ANNOTATIONS.extraSecurityGroups) ?? [])],
  };
}

export class AwsLoadBalancers implements LoadBalancer {
  readonly #dependencies: AwsLoadBalancersDependencies;

  constructor(dependencies: AwsLoadBalancersDependencies) {
    this.#dependencies = dependencies;
  }

  getLoadBalancerName(_clusterName: string, service: V1Service): string {
    return defaultLoadBalancerName(service);
  }

  async getLoadBalancer(clusterName: string, service: V1Service, options?: CloudCallOptions): Promise<{ status: LoadBalancerStatus | undefined; exists: boolean }> {
    const kind = loadBalancerKind(service);
    if (kind === 'elsewhere') return { status: undefined, exists: false };
    const name = defaultLoadBalancerName(service);
    const lookups = kind === 'network' ? [() => this.#networkStatus(name, options), () => this.#classicStatus(name, options)] : [() => this.#classicStatus(name, options), () => this.#networkStatus(name, options)];
    for (const lookup of lookups) {
      const status = await lookup();
      if (status) return { status, exists: true };
    }
    // Without a load balancer, what a cut-short sync or deletion left (security groups, target
    // groups) still has to be deleted with the Service: it exists until they are gone.
    const remnants = await this.remnants(clusterName, service, options);
    if (remnants.length > 0) this.#dependencies.logger.verbose(2, 'no load balancer, but resources of it remain', { loadBalancer: name, remnants });
    return { status: undefined, exists: remnants.length > 0 };
  }

  /** Resources of ours left under the Service without its load balancer. */
  async remnants(clusterName: string, service: V1Service, options?: CloudCallOptions): Promise<string[]> {
    const { classic, network } = this.#dependencies;
    const target = deletionTarget(service);
    return [...(await classic.remnants(target, options)), ...(await network.remnants(clusterName, target, options))];
  }

  async ensureLoadBalancer(clusterName: string, service: V1Service, nodes: V1Node[], options?: CloudCallOptions): Promise<LoadBalancerStatus> {
    const { classic, network, settings, logger } = this.#dependencies;
    if (loadBalancerKind(service) === 'elsewhere') throw new ImplementedElsewhereError();
    const spec = buildLoadBalancerSpec(service, settings, logger);
    const status = spec.kind === 'network' ? await network.ensure(clusterName, spec, nodes, options) : await classic.ensure(spec, nodes, options);
    const target = deletionTarget(service);
    const movedFrom = spec.kind === 'network' ? await this.#deleteClassicIfPresent(target, options) : await this.#deleteNetworkIfPresent(clusterName, target, options);
    if (movedFrom) logger.info('deleted the previous load balancer after a type change', { loadBalancer: spec.loadBalancerName, previous: spec.kind === 'network' ? 'classic' : 'network' });
    return status;
  }

  async updateLoadBalancer(clusterName: string, service: V1Service, nodes: V1Node[], options?: CloudCallOptions): Promise<void> {
    const { classic, network, settings, logger } = this.#dependencies;
    if (loadBalancerKind(service) === 'elsewhere') throw new ImplementedElsewhereError();
    const spec = buildLoadBalancerSpec(service, settings, logger);
    if (spec.kind === 'network') {
      if (!(await network.describe(spec.loadBalancerName, options))) throw new Error('Load balancer not found');
      await network.ensure(clusterName, spec, nodes, options);
      return;
    }
    await classic.updateHosts(spec, nodes, options);
  }

  /** Deletes whatever we own under the Service's name, whatever the annotation says now. */
  async ensureLoadBalancerDeleted(clusterName: string, service: V1Service, options?: CloudCallOptions): Promise<void> {
    const { classic, network } = this.#dependencies;
    const target = deletionTarget(service);
    await classic.delete(target, options);
    await network.delete(clusterName, target, options);
  }

  async #classicStatus(name: string, options?: CloudCallOptions): Promise<LoadBalancerStatus | undefined> {
    const { classic } = this.#dependencies;
    const loadBalancer = await classic.describe(name, options);
    if (!loadBalancer) return undefined;
    return (await classic.ownershipProblem(name, options)) === undefined ? classicStatus(loadBalancer) : undefined;
  }

  async #networkStatus(name: string, options?: CloudCallOptions): Promise<LoadBalancerStatus | undefined> {
    const { network } = this.#dependencies;
    const loadBalancer = await network.describe(name, options);
    if (!loadBalancer) return undefined;
    return (await network.ownershipProblem(loadBalancer, options)) === undefined ? networkStatus(loadBalancer) : undefined;
  }

  async #deleteClassicIfPresent(target: DeletionTarget, options?: CloudCallOptions): Promise<boolean> {
    const { classic } = this.#dependencies;
    if (!(await classic.describe(target.loadBalancerName, options))) return false;
    return classic.delete(target, options);
  }

  async #deleteNetworkIfPresent(clusterName: string, target: DeletionTarget, options?: CloudCallOptions): Promise<boolean> {
    const { network } = this.#dependencies;
    if (!(await network.describe(target.loadBalancerName, options))) return false;
    return network.delete(clusterName, target, options);
  }
}
