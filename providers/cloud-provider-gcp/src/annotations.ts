/**
 * Every GCP Service annotation (upstream `gce_annotations.go`), declared once with where it
 * applies, its default, its status and a description. Typed getters parse the values and throw
 * `PermanentInvalidServiceConfigurationError` naming the annotation and the value, before any
 * cloud change. docs/cloud-controller-manager.md is generated from this registry.
 */
import type { V1Service } from '@kubernetes/client-node';
import { tryParseCidr } from '@ccm/core/net';
import { PermanentInvalidServiceConfigurationError } from '@ccm/core/provider';

export interface AnnotationDefinition {
  key: string;
  /** Which load balancer reads it. */
  appliesTo: 'both' | 'external' | 'internal';
  defaultValue: string;
  status: 'supported' | 'not supported';
  /** Why it is not supported. */
  reason?: string;
  description: string;
}

export const ANNOTATIONS = {
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
    key: 'networking.gke.io/internal-load-balancer-allow-global-access',
    appliesTo: 'internal',
    defaultValue: 'false',
    status: 'supported',
    description: '`true`: the internal forwarding rule is reachable from every region (`allowGlobalAccess`); the rule is recreated when it changes. Values other than `true`/`false` are an error (upstream reads them as false).',
  },
  internalSubnet: {
    key: 'networking.gke.io/internal-load-balancer-subnet',
    appliesTo: 'internal',
    defaultValue: 'the cluster subnetwork',
    status: 'supported',
    description: 'Subnetwork (name, in the network project and region) of the internal VIP, default `subnetwork-name`. Changing it recreates the forwarding rule with a new IP from that subnetwork. A value that is not a GCE name is an error.',
  },
  backendShare: {
    key: 'alpha.cloud.google.com/load-balancer-backend-share',
    appliesTo: 'internal',
    defaultValue: 'false',
    status: 'supported',
    description: '`true` with externalTrafficPolicy Cluster: a shared regional backend service `k8s-<cluster ID>-internal-<protocol>-nmv1-<hash>`.',
  },
  legacyBackendShare: {
    key: 'cloud.google.com/load-balancer-backend-share',
    appliesTo: 'internal',
    defaultValue: 'false',
    status: 'supported',
    description: 'Deprecated spelling of `alpha.cloud.google.com/load-balancer-backend-share` (either one set to `true` shares).',
  },
  networkTier: {
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
} as const satisfies Record<string, AnnotationDefinition>;

export const ALL_ANNOTATIONS: readonly AnnotationDefinition[] = Object.values(ANNOTATIONS);

export type NetworkTier = 'PREMIUM' | 'STANDARD';

function annotation(service: V1Service, key: string): string | undefined {
  return service.metadata?.annotations?.[key];
}

function invalid(key: string, value: string, why: string): PermanentInvalidServiceConfigurationError {
  return new PermanentInvalidServiceConfigurationError(`annotation ${key}=${JSON.stringify(value)}: ${why}`, { annotation: key, value });
}

/** `Internal` when either load-balancer-type annotation asks for it (upstream `GetLoadBalancerAnnotationType`). */
export function wantsInternalLoadBalancer(service: V1Service): { key: string; value: string } | undefined {
  for (const key of [ANNOTATIONS.loadBalancerType.key, ANNOTATIONS.legacyLoadBalancerType.key]) {
    const value = annotation(service, key);
    if (value !== undefined) return value === 'Internal' || value === 'internal' ? { key, value } : undefined;
  }
  return undefined;
}

function booleanAnnotation(service: V1Service, key: string): boolean {
  const value = annotation(service, key);
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw invalid(key, value, 'must be true or false');
}

/** `networking.gke.io/internal-load-balancer-allow-global-access: true` (upstream `GetLoadBalancerAnnotationAllowGlobalAccess`). */
export function allowGlobalAccessOf(service: V1Service): boolean {
  return booleanAnnotation(service, ANNOTATIONS.allowGlobalAccess.key);
}

/** Either backend-share annotation `true` (upstream `GetLoadBalancerAnnotationBackendShare`, the new key first). */
export function backendShareOf(service: V1Service): boolean {
  return booleanAnnotation(service, ANNOTATIONS.backendShare.key) || booleanAnnotation(service, ANNOTATIONS.legacyBackendShare.key);
}

const GCE_NAME = /^[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?$/;

/** The subnetwork name of the internal VIP, when annotated (upstream `GetLoadBalancerAnnotationSubnet`). */
export function internalSubnetOf(service: V1Service): string | undefined {
  const value = annotation(service, ANNOTATIONS.internalSubnet.key)?.trim();
  if (value === undefined || value === '') return undefined;
  if (!GCE_NAME.test(value)) throw invalid(ANNOTATIONS.internalSubnet.key, value, 'must be a subnetwork name (lowercase letters, digits and dashes, starting with a letter)');
  return value;
}

/** The network tier: the annotation's (case-insensitive `Standard`/`Premium`), else Premium; `explicit` when annotated. */
export function networkTierOf(service: V1Service): { tier: NetworkTier; explicit: boolean } {
  const value = annotation(service, ANNOTATIONS.networkTier.key);
  if (value === undefined) return { tier: 'PREMIUM', explicit: false };
  const upper = value.toUpperCase();
  if (upper !== 'PREMIUM' && upper !== 'STANDARD') throw invalid(ANNOTATIONS.networkTier.key, value, 'must be Standard or Premium');
  return { tier: upper, explicit: true };
}

export function handedToRegionalBackendService(service: V1Service): boolean {
  return annotation(service, ANNOTATIONS.regionalBackendService.key) === 'enabled';
}

/**
 * `spec.loadBalancerSourceRanges`, else the annotation, else `0.0.0.0/0` (upstream `GetLoadBalancerSourceRanges`).
 * Every range must parse as upstream's `utilnet.ParseIPNets` does (octets <= 255, prefix <= 32/128).
 */
export function sourceRangesOf(service: V1Service): string[] {
  const fromSpec = (service.spec?.loadBalancerSourceRanges ?? []).map((range) => range.trim()).filter((range) => range !== '');
  const key = fromSpec.length > 0 ? 'spec.loadBalancerSourceRanges' : ANNOTATIONS.sourceRanges.key;
  const raw = fromSpec.length > 0 ? fromSpec : (annotation(service, ANNOTATIONS.sourceRanges.key) ?? '').split(',').map((range) => range.trim()).filter((range) => range !== '');
  for (const range of raw) {
    if (tryParseCidr(range) === undefined) throw invalid(key, raw.join(','), `${JSON.stringify(range)} is not a CIDR`);
  }
  return raw.length === 0 ? ['0.0.0.0/0'] : [...new Set(raw)].sort();
}
