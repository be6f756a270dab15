/**
 * LoadBalancer of the GCE provider: the external network load balancer (target pool based).
 * Services asking for an internal load balancer get a Warning (this provider does not implement
 * it) and nothing is changed; Services handed to another controller (`cloud.google.com/l4-rbs:
 * enabled`, a `loadBalancerClass` other than the legacy ones, a backend-service forwarding rule)
 * are left alone (ImplementedElsewhere), as upstream.
 */
import type { V1Node, V1Service } from '@kubernetes/client-node';
import {
  ImplementedElsewhereError,
  PermanentInvalidServiceConfigurationError,
  defaultLoadBalancerName,
  type CloudCallOptions,
  type LoadBalancer,
  type LoadBalancerStatus,
} from '@ccm/core/provider';
import { handedToRegionalBackendService, wantsInternalLoadBalancer } from './annotations.js';
import type { ExternalLoadBalancerOperations } from './operations/load-balancer/external-load-balancer.js';

/** The classes upstream's legacy controller still implements (`networking.gke.io/l4-regional-*-legacy`). */
export const LEGACY_EXTERNAL_CLASS = 'networking.gke.io/l4-regional-external-legacy';
export const LEGACY_INTERNAL_CLASS = 'networking.gke.io/l4-regional-internal-legacy';

export class GcpLoadBalancers implements LoadBalancer {
  readonly #external: ExternalLoadBalancerOperations;

  constructor(external: ExternalLoadBalancerOperations) {
    this.#external = external;
  }

  getLoadBalancerName(_clusterName: string, service: V1Service): string {
    return defaultLoadBalancerName(service);
  }

  async getLoadBalancer(_clusterName: string, service: V1Service, options?: CloudCallOptions): Promise<{ status: LoadBalancerStatus | undefined; exists: boolean }> {
    this.#checkImplementedHere(service);
    const status = await this.#external.status(service, options);
    // Without a forwarding rule, what a cut-short sync left still has to be deleted with the Service.
    return { status, exists: status !== undefined || (await this.#external.hasRemnants(service, options)) };
  }

  async ensureLoadBalancer(_clusterName: string, service: V1Service, nodes: V1Node[], options?: CloudCallOptions): Promise<LoadBalancerStatus> {
    this.#checkImplementedHere(service);
    this.#refuseInternal(service);
    if (await this.#external.managedElsewhere(service, options)) throw new ImplementedElsewhereError('the forwarding rule is backend-service based: another controller owns it');
    return this.#external.ensure(service, nodes, options);
  }

  async updateLoadBalancer(_clusterName: string, service: V1Service, nodes: V1Node[], options?: CloudCallOptions): Promise<void> {
    this.#checkImplementedHere(service);
    this.#refuseInternal(service);
    await this.#external.update(service, nodes, options);
  }

  async ensureLoadBalancerDeleted(_clusterName: string, service: V1Service, options?: CloudCallOptions): Promise<void> {
    this.#checkImplementedHere(service);
    if (wantsInternalLoadBalancer(service) !== undefined) return;
    if (await this.#external.managedElsewhere(service, options)) return;
    await this.#external.delete(service, options);
  }

  #checkImplementedHere(service: V1Service): void {
    const loadBalancerClass = service.spec?.loadBalancerClass;
    if (loadBalancerClass !== undefined && loadBalancerClass !== LEGACY_EXTERNAL_CLASS && loadBalancerClass !== LEGACY_INTERNAL_CLASS) {
      throw new ImplementedElsewhereError(`loadBalancerClass ${loadBalancerClass} is implemented by another controller`);
    }
    if (handedToRegionalBackendService(service)) throw new ImplementedElsewhereError('cloud.google.com/l4-rbs: enabled: handled by the backend-service based controller');
  }

  #refuseInternal(service: V1Service): void {
    const internal = wantsInternalLoadBalancer(service);
    const classInternal = service.spec?.loadBalancerClass === LEGACY_INTERNAL_CLASS;
    if (internal !== undefined || classInternal) {
      const annotation = internal?.key ?? 'spec.loadBalancerClass';
      const value = internal?.value ?? LEGACY_INTERNAL_CLASS;
      throw new PermanentInvalidServiceConfigurationError(`${annotation}=${JSON.stringify(value)}: internal load balancers are not implemented by this provider`, { annotation, value });
    }
  }
}
