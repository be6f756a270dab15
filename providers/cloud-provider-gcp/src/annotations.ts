/**
 * Every GCP Service annotation (upstream `gce_annotations.go`), declared once with where it
 * applies, its type, default, status and description (core's Service-input kit). Typed getters
 * parse the values with core's one parse and throw InvalidAnnotationError naming the annotation
 * and the value, before any cloud change. docs/cloud-controller-manager.md is generated from
 * this registry.
 */
import type { V1Service } from '@kubernetes/client-node';
import { annotationText, defineAnnotations, InvalidAnnotationError, readAnnotation, serviceSourceRanges, type AnnotationDefinition } from '@ccm/core/service-input';

export type { AnnotationDefinition };

/** The docs column GCP adds: which load balancer reads the annotation. */
export const ANNOTATION_COLUMNS = ['Applies to'] as const;

/** A GCP annotation: core's definition plus which load balancer reads it. */
export type GcpAnnotationDefinition = AnnotationDefinition & { appliesTo: 'both' | 'external' | 'internal' };

/** Fills the docs column from `appliesTo`. */
function withColumns<const Registry extends Readonly<Record<string, Omit<GcpAnnotationDefinition, 'columns'>>>>(registry: Registry): { [Name in keyof Registry]: Registry[Name] & { columns: Readonly<Record<string, string>> } } {
  return Object.fromEntries(Object.entries(registry).map(([name, definition]) => [name, { ...definition, columns: { 'Applies to': definition.appliesTo } }])) as unknown as {
    [Name in keyof Registry]: Registry[Name] & { columns: Readonly<Record<string, string>> };
  };
}

export const ANNOTATIONS = defineAnnotations(withColumns({
  loadBalancerType: {
    key: 'networking.gke.io/load-balancer-type',
    appliesTo: 'both',
    defaultValue: 'external',
    status: 'supported',
    description: '`Internal` (or `internal`) asks for the internal load balancer (instance groups per zone, a regional backend service, a health check, an INTERNAL forwarding rule, firewalls). Anything else: the external network load balancer. `spec.loadBalancerClass` `networking.gke.io/l4-regional-internal-legacy` / `-external-legacy` take precedence. Switching kinds deletes the other kind\'s resources.',
  },
  legacyLoadBalancerType: {
    key: 'cloud.google.com/load-balancer-type',
    appliesTo: 'both',
    defaultValue: 'external',
    status: 'supported',
    description: 'Deprecated spelling of `networking.gke.io/load-balancer-type` (read when the new one is absent).',
  },
  allowGlobalAccess: {
    type: { kind: 'boolean', syntax: 'true-false', trim: false, empty: 'invalid' },
    key: 'networking.gke.io/internal-load-balancer-allow-global-access',
    appliesTo: 'internal',
    defaultValue: 'false',
    status: 'supported',
    description: '`true`: the internal forwarding rule is reachable from every region (`allowGlobalAccess`); the rule is recreated when it changes. Values other than `true`/`false` are an error (upstream reads them as false).',
  },
  internalSubnet: {
    type: { kind: 'string' },
    key: 'networking.gke.io/internal-load-balancer-subnet',
    appliesTo: 'internal',
    defaultValue: 'the cluster subnetwork',
    status: 'supported',
    description: 'Subnetwork (name, in the network project and region) of the internal VIP, default `subnetwork-name`. Changing it recreates the forwarding rule with a new IP from that subnetwork. A value that is not a GCE name is an error.',
  },
  backendShare: {
    type: { kind: 'boolean', syntax: 'true-false', trim: false, empty: 'invalid' },
    key: 'alpha.cloud.google.com/load-balancer-backend-share',
    appliesTo: 'internal',
    defaultValue: 'false',
    status: 'supported',
    description: '`true` with externalTrafficPolicy Cluster: a shared regional backend service `k8s-<cluster ID>-internal-<protocol>-nmv1-<hash>`.',
  },
  legacyBackendShare: {
    type: { kind: 'boolean', syntax: 'true-false', trim: false, empty: 'invalid' },
    key: 'cloud.google.com/load-balancer-backend-share',
    appliesTo: 'internal',
    defaultValue: 'false',
    status: 'supported',
    description: 'Deprecated spelling of `alpha.cloud.google.com/load-balancer-backend-share` (either one set to `true` shares).',
  },
  networkTier: {
    type: { kind: 'enum', values: ['Standard', 'Premium'], caseInsensitive: true, trim: false, empty: 'invalid' },
    key: 'cloud.google.com/network-tier',
    appliesTo: 'external',
    defaultValue: 'Premium',
    status: 'supported',
    description: '`Standard` or `Premium`. When present, a forwarding rule or address of another tier is deleted and recreated. Any other value is an error.',
  },
  regionalBackendService: {
    key: 'cloud.google.com/l4-rbs',
    appliesTo: 'external',
    defaultValue: '',
    status: 'supported',
    description: '`enabled`: the Service is handed over to another controller (backend-service based NetLB); this CCM leaves it alone (ImplementedElsewhere).',
  },
  sourceRanges: {
    key: 'service.beta.kubernetes.io/load-balancer-source-ranges',
    appliesTo: 'both',
    defaultValue: '0.0.0.0/0',
    status: 'supported',
    description: 'Comma-separated client CIDRs allowed by the `k8s-fw-` firewall, used when `spec.loadBalancerSourceRanges` is empty.',
  },
}));

export const ALL_ANNOTATIONS: readonly GcpAnnotationDefinition[] = Object.values(ANNOTATIONS);

export type NetworkTier = 'PREMIUM' | 'STANDARD';

/** `Internal` when either load-balancer-type annotation asks for it (upstream `GetLoadBalancerAnnotationType`). */
export function wantsInternalLoadBalancer(service: V1Service): { key: string; value: string } | undefined {
  for (const key of [ANNOTATIONS.loadBalancerType.key, ANNOTATIONS.legacyLoadBalancerType.key]) {
    const value = annotationText(service, key);
    if (value !== undefined) return value === 'Internal' || value === 'internal' ? { key, value } : undefined;
  }
  return undefined;
}

/** `networking.gke.io/internal-load-balancer-allow-global-access: true` (upstream `GetLoadBalancerAnnotationAllowGlobalAccess`). */
export function allowGlobalAccessOf(service: V1Service): boolean {
  return readAnnotation(service, ANNOTATIONS.allowGlobalAccess) ?? false;
}

/** Either backend-share annotation `true` (upstream `GetLoadBalancerAnnotationBackendShare`, the new key first). */
export function backendShareOf(service: V1Service): boolean {
  return (readAnnotation(service, ANNOTATIONS.backendShare) ?? false) || (readAnnotation(service, ANNOTATIONS.legacyBackendShare) ?? false);
}

const GCE_NAME = /^[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?$/;

/** The subnetwork name of the internal VIP, when annotated (upstream `GetLoadBalancerAnnotationSubnet`). */
export function internalSubnetOf(service: V1Service): string | undefined {
  const value = readAnnotation(service, ANNOTATIONS.internalSubnet);
  if (value !== undefined && !GCE_NAME.test(value)) throw new InvalidAnnotationError(ANNOTATIONS.internalSubnet.key, value, 'must be a subnetwork name (lowercase letters, digits and dashes, starting with a letter)');
  return value;
}

/** The network tier: the annotation's (case-insensitive `Standard`/`Premium`), else Premium; `explicit` when annotated. */
export function networkTierOf(service: V1Service): { tier: NetworkTier; explicit: boolean } {
  const tier = readAnnotation(service, ANNOTATIONS.networkTier);
  if (tier === undefined) return { tier: 'PREMIUM', explicit: false };
  return { tier: tier === 'Standard' ? 'STANDARD' : 'PREMIUM', explicit: true };
}

export function handedToRegionalBackendService(service: V1Service): boolean {
  return annotationText(service, ANNOTATIONS.regionalBackendService.key) === 'enabled';
}

/**
 * Upstream `GetLoadBalancerSourceRanges` (core's `serviceSourceRanges`), default `0.0.0.0/0`:
 * upstream cloud-provider-gcp passes `servicehelpers.GetLoadBalancerSourceRanges(svc)` to the
 * `k8s-fw-` firewalls of both load balancers (`providers/gce/gce_loadbalancer_external.go`,
 * `gce_loadbalancer_internal.go`), whose default is `0.0.0.0/0`.
 */
export function sourceRangesOf(service: V1Service): string[] {
  return serviceSourceRanges(service, { whenAbsent: 'allow-all' });
}
