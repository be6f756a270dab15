/**
 * LoadBalancer of the GCE provider (upstream `gce_loadbalancer.go`): the external network load
 * balancer (target pool based) or the internal one (backend-service based), chosen by
 * `spec.loadBalancerClass` (the two `-legacy` classes) or the load-balancer-type annotation. When
 * the forwarding rule has the other scheme, the other kind is deleted first. Services handed to
 * another controller (another `loadBalancerClass`, `cloud.google.com/l4-rbs: enabled` or a
 * backend-service external rule for the NetLB, the v2 finalizer or the `ILBSubsets` gate for new
 * ILBs) are left alone (ImplementedElsewhere), as upstream.
 */
import type { V1Node, V1Service } from '@kubernetes/client-node';
import { ImplementedElsewhereError, defaultLoadBalancerName, type CloudCallOptions, type LoadBalancer, type LoadBalancerStatus } from '@ccm/core/provider';
import { handedToRegionalBackendService, wantsInternalLoadBalancer } from './annotations.js';
import type { ExternalLoadBalancerOperations } from './operations/load-balancer/external-load-balancer.js';
import type { InternalLoadBalancerOperations } from './operations/load-balancer/internal-load-balancer.js';
import { hasFinalizer, type ServiceFinalizerPort } from './kube/service-finalizers.js';
import type { ComputePort, GceForwardingRule } from './ports/compute-port.js';

/** The classes upstream's legacy controller still implements (`networking.gke.io/l4-regional-*-legacy`). */
export const LEGACY_EXTERNAL_CLASS = 'networking.gke.io/l4-regional-external-legacy';
export const LEGACY_INTERNAL_CLASS = 'networking.gke.io/l4-regional-internal-legacy';
/** Finalizers upstream's controllers put on ILB Services: v1 this one, v2 the subsetting controller. */
export const ILB_FINALIZER_V1 = 'gke.networking.io/l4-ilb-v1';
export const ILB_FINALIZER_V2 = 'gke.networking.io/l4-ilb-v2';
/** The finalizer upstream's target-pool NetLB puts on external Services (`NetLBFinalizerV1`). */
export const NETLB_FINALIZER_V1 = 'gke.networking.io/l4-netlb-v1';
/** The finalizers of the backend-service based (RBS) NetLB controller: a Service with one is that controller's. */
export const NETLB_FINALIZER_V2 = 'gke.networking.io/l4-netlb-v2';
export const NETLB_FINALIZER_V3 = 'gke.networking.io/l4-netlb-v3';
/** The finalizer this controller writes for each kind (added before the first cloud write, removed after deletion). */
const FINALIZER_OF: Record<LoadBalancerScheme, string> = { INTERNAL: ILB_FINALIZER_V1, EXTERNAL: NETLB_FINALIZER_V1 };
/** The `alpha-features` gate that leaves new ILBs to the subsetting controller. */
export const ALPHA_FEATURE_ILB_SUBSETS = 'ILBSubsets';

export type LoadBalancerScheme = 'INTERNAL' | 'EXTERNAL';

/** Upstream `getSvcScheme`: the legacy classes first, then the load-balancer-type annotation. */
export function schemeOf(service: V1Service): LoadBalancerScheme {
  const loadBalancerClass = service.spec?.loadBalancerClass;
  if (loadBalancerClass === LEGACY_INTERNAL_CLASS) return 'INTERNAL';
  if (loadBalancerClass === LEGACY_EXTERNAL_CLASS) return 'EXTERNAL';
  return wantsInternalLoadBalancer(service) === undefined ? 'EXTERNAL' : 'INTERNAL';
}

const schemeOfRule = (rule: GceForwardingRule): LoadBalancerScheme => ((rule.loadBalancingScheme ?? 'EXTERNAL').toUpperCase() === 'INTERNAL' ? 'INTERNAL' : 'EXTERNAL');

export interface GcpLoadBalancersParts {
  external: ExternalLoadBalancerOperations;
  internal: InternalLoadBalancerOperations;
  compute: ComputePort;
  region: string;
  alphaFeatures: readonly string[];
  finalizers: ServiceFinalizerPort;
}

export class GcpLoadBalancers implements LoadBalancer {
  readonly #parts: GcpLoadBalancersParts;

  constructor(parts: GcpLoadBalancersParts) {
    this.#parts = parts;
  }

  getLoadBalancerName(_clusterName: string, service: V1Service): string {
    return defaultLoadBalancerName(service);
  }

  async getLoadBalancer(_clusterName: string, service: V1Service, options?: CloudCallOptions): Promise<{ status: LoadBalancerStatus | undefined; exists: boolean }> {
    this.#checkClass(service);
    const status = await this.#parts.external.status(service, options);
    // Upstream reports a load balancer while its finalizer is on the Service, even when the
    // forwarding rule is gone; and without a forwarding rule, what a cut-short sync of an external
    // load balancer left still has to be deleted with the Service.
    const finalized = hasFinalizer(service, NETLB_FINALIZER_V1) || hasFinalizer(service, ILB_FINALIZER_V1);
    return { status, exists: status !== undefined || finalized || (await this.#parts.external.hasRemnants(service, options)) };
  }

  async ensureLoadBalancer(_clusterName: string, service: V1Service, nodes: V1Node[], options?: CloudCallOptions): Promise<LoadBalancerStatus> {
    this.#checkClass(service);
    const scheme = schemeOf(service);
    let rule = await this.#rule(service, options);
    if (scheme === 'EXTERNAL') this.#checkExternalHandledHere(service, rule !== undefined && schemeOfRule(rule) === 'EXTERNAL' ? rule : undefined);
    if (rule !== undefined && schemeOfRule(rule) !== scheme) {
      await this.#deleteKind(schemeOfRule(rule), service, options);
      rule = undefined;
    }
    if (scheme === 'INTERNAL') {
      this.#checkNewInternalHandledHere(service, rule);
      await this.#parts.finalizers.add(service, ILB_FINALIZER_V1);
      return this.#parts.internal.ensure(service, nodes, options);
    }
    await this.#parts.finalizers.add(service, NETLB_FINALIZER_V1);
    return this.#parts.external.ensure(service, nodes, options);
  }

  async updateLoadBalancer(_clusterName: string, service: V1Service, nodes: V1Node[], options?: CloudCallOptions): Promise<void> {
    this.#checkClass(service);
    if (schemeOf(service) === 'INTERNAL') {
      if (this.#ilbSubsets() && !hasFinalizer(service, ILB_FINALIZER_V1) && service.spec?.loadBalancerClass !== LEGACY_INTERNAL_CLASS) {
        const rule = await this.#rule(service, options);
        if (rule === undefined || schemeOfRule(rule) !== 'INTERNAL') throw new ImplementedElsewhereError(`${ALPHA_FEATURE_ILB_SUBSETS} is enabled: new internal load balancers belong to another controller`);
      }
      await this.#parts.internal.update(service, nodes, options);
      return;
    }
    const rule = hasFinalizer(service, NETLB_FINALIZER_V1) ? undefined : await this.#rule(service, options);
    this.#checkExternalHandledHere(service, rule !== undefined && schemeOfRule(rule) === 'EXTERNAL' ? rule : undefined);
    await this.#parts.external.update(service, nodes, options);
  }

  /** Deletes the wanted kind, and the other kind too when the forwarding rule still has the other scheme. */
  async ensureLoadBalancerDeleted(_clusterName: string, service: V1Service, options?: CloudCallOptions): Promise<void> {
    this.#checkClass(service);
    const scheme = schemeOf(service);
    const rule = await this.#rule(service, options);
    if (rule !== undefined && schemeOfRule(rule) !== scheme) await this.#deleteKind(schemeOfRule(rule), service, options);
    if (scheme === 'EXTERNAL' && this.#externalHandledElsewhere(service, rule !== undefined && schemeOfRule(rule) === 'EXTERNAL' ? rule : undefined) !== undefined) return;
    await this.#deleteKind(scheme, service, options);
  }

  #rule(service: V1Service, options?: CloudCallOptions): Promise<GceForwardingRule | undefined> {
    return this.#parts.compute.getForwardingRule(this.#parts.region, defaultLoadBalancerName(service), options);
  }

  /** Deletes one kind, then removes its finalizer (upstream: the last step of each kind's deletion). */
  async #deleteKind(scheme: LoadBalancerScheme, service: V1Service, options?: CloudCallOptions): Promise<void> {
    if (scheme === 'INTERNAL') await this.#parts.internal.delete(service, options);
    else await this.#parts.external.delete(service, options);
    await this.#parts.finalizers.remove(service, FINALIZER_OF[scheme]);
  }

  #ilbSubsets(): boolean {
    return this.#parts.alphaFeatures.includes(ALPHA_FEATURE_ILB_SUBSETS);
  }

  #checkClass(service: V1Service): void {
    const loadBalancerClass = service.spec?.loadBalancerClass;
    if (loadBalancerClass !== undefined && loadBalancerClass !== LEGACY_EXTERNAL_CLASS && loadBalancerClass !== LEGACY_INTERNAL_CLASS) {
      throw new ImplementedElsewhereError(`loadBalancerClass ${loadBalancerClass} is implemented by another controller`);
    }
  }

  #checkExternalHandledHere(service: V1Service, rule: GceForwardingRule | undefined): void {
    const reason = this.#externalHandledElsewhere(service, rule);
    if (reason !== undefined) throw new ImplementedElsewhereError(reason);
  }

  /**
   * Why an external Service is the backend-service based controller's (upstream `shouldProcessNetLB`
   * and `usesL4RBS`), or undefined: our v1 finalizer keeps it here; else the `l4-rbs` annotation, the
   * RBS controller's v2 / v3 finalizers or a backend-service forwarding rule hand it over.
   */
  #externalHandledElsewhere(service: V1Service, rule: GceForwardingRule | undefined): string | undefined {
    if (hasFinalizer(service, NETLB_FINALIZER_V1)) return undefined;
    if (handedToRegionalBackendService(service)) return 'cloud.google.com/l4-rbs: enabled: handled by the backend-service based controller';
    for (const finalizer of [NETLB_FINALIZER_V2, NETLB_FINALIZER_V3]) {
      if (hasFinalizer(service, finalizer)) return `the Service has the ${finalizer} finalizer: the backend-service based controller owns its load balancer`;
    }
    if (rule?.backendService !== undefined) return 'the forwarding rule is backend-service based: another controller owns it';
    return undefined;
  }

  /** Upstream: a new ILB (no rule, no v1 finalizer, not the legacy class) is left to another controller under ILBSubsets or with the v2 finalizer. */
  #checkNewInternalHandledHere(service: V1Service, rule: GceForwardingRule | undefined): void {
    if (rule !== undefined || hasFinalizer(service, ILB_FINALIZER_V1) || service.spec?.loadBalancerClass === LEGACY_INTERNAL_CLASS) return;
    if (this.#ilbSubsets()) throw new ImplementedElsewhereError(`${ALPHA_FEATURE_ILB_SUBSETS} is enabled: new internal load balancers belong to another controller`);
    if (hasFinalizer(service, ILB_FINALIZER_V2)) throw new ImplementedElsewhereError(`the Service has the ${ILB_FINALIZER_V2} finalizer: another controller owns its internal load balancer`);
  }
}
