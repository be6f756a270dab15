/**
 * The names upstream gives the Azure objects of a Service (`azure_standard.go`,
 * `azure_loadbalancer.go`, `securitygroup/`): the base name `a<uid without dashes>` (32
 * characters), frontends `<base>[-<subnet>]`, rules and probes `<base>[-<subnet>]-<PROTOCOL>-<port>`,
 * the backend pool `<cluster>`, public IPs `<cluster>-<base>`, security rules
 * `k8s-azure-lb_allow_IPv4_<md5>` and `k8s-azure-lb_deny-all_IPv4`.
 */
import { createHash } from 'node:crypto';
import type { V1Service } from '@kubernetes/client-node';
import { defaultLoadBalancerName } from '@ccm/core/provider';

export const INTERNAL_LOAD_BALANCER_SUFFIX = '-internal';
export const FRONTEND_NAME_MAX = 75;
export const RULE_NAME_MAX = 80;
export const PUBLIC_IP_NAME_MAX = 80;
export const SECURITY_RULE_PREFIX = 'k8s-azure-lb_';
export const DENY_ALL_RULE_NAME = `${SECURITY_RULE_PREFIX}deny-all_IPv4`;
/** Managed security rule priorities (upstream `consts.LoadBalancerMinimumPriority`/`Maximum`). */
export const SECURITY_RULE_PRIORITY_MIN = 500;
export const SECURITY_RULE_PRIORITY_MAX = 4096;

/** Public IP tags (upstream `consts.ServiceTagKey`, `ClusterNameKey`, `ServiceUsingDNSKey`). */
export const TAG_SERVICE = 'k8s-azure-service';
export const TAG_CLUSTER_NAME = 'k8s-azure-cluster-name';
export const TAG_DNS_LABEL_SERVICE = 'k8s-azure-dns-label-service';
/** Legacy spellings upstream still reads. */
export const LEGACY_TAG_SERVICE = 'service';
export const LEGACY_TAG_CLUSTER_NAME = 'kubernetes-cluster-name';

export function serviceBaseName(service: V1Service): string {
  return defaultLoadBalancerName(service);
}

export function serviceKey(service: V1Service): string {
  return `${service.metadata?.namespace ?? 'default'}/${service.metadata?.name ?? ''}`;
}

export function loadBalancerNameOf(clusterLoadBalancerName: string, internal: boolean): string {
  return internal ? `${clusterLoadBalancerName}${INTERNAL_LOAD_BALANCER_SUFFIX}` : clusterLoadBalancerName;
}

/** Cut to `max` characters without ending on a character ARM refuses at the end of a name. */
function fitName(name: string, max: number): string {
  return name.slice(0, max).replace(/[-.]+$/, '');
}

export function frontendNameOf(base: string, subnet: string | undefined): string {
  return subnet === undefined ? base : fitName(`${base}-${subnet}`, FRONTEND_NAME_MAX);
}

export function ruleNameOf(base: string, subnet: string | undefined, protocol: string, port: number): string {
  const name = subnet === undefined ? `${base}-${protocol}-${port}` : `${base}-${subnet}-${protocol}-${port}`;
  return name.length <= RULE_NAME_MAX ? name : `${fitName(`${base}-${subnet ?? ''}`, RULE_NAME_MAX - `-${protocol}-${port}`.length)}-${protocol}-${port}`;
}

export function publicIpNameOf(clusterName: string, base: string): string {
  return fitName(`${clusterName}-${base}`, PUBLIC_IP_NAME_MAX);
}

/** Whether a frontend, rule or probe name belongs to the Service of `base`. */
export function ownedBy(base: string, name: string): boolean {
  return name === base || name.startsWith(`${base}-`);
}

/** `k8s-azure-lb_allow_IPv4_<md5 of protocol, sorted sources and sorted destination ports>`. */
export function allowRuleNameOf(protocol: string, sources: readonly string[], ports: readonly string[]): string {
  const identity = `${protocol}_${[...sources].sort().join(',')}_${[...ports].sort().join(',')}`;
  return `${SECURITY_RULE_PREFIX}allow_IPv4_${createHash('md5').update(identity).digest('hex')}`;
}
