/**
 * The names upstream gives the Azure objects of a Service (`azure_standard.go`,
 * `azure_loadbalancer.go`, `securitygroup/`): the base name `a<uid without dashes>` (32
 * characters), frontends `<base>[-<subnet>]`, rules and probes `<base>[-<subnet>]-<PROTOCOL>-<port>`,
 * the backend pool `<cluster>` (`<cluster>-IPv6` for IPv6), public IPs `<cluster>-<base>`, security
 * rules `k8s-azure-lb_allow_<family>_<md5>` and `k8s-azure-lb_deny-all_<family>`. A dual-stack
 * Service's IPv6 frontend, rules, probes and public IP carry the suffix `-IPv6` (upstream
 * `azure_utils.go` `getResourceByIPFamily`).
 */
import { createHash } from 'node:crypto';
import type { V1Service } from '@kubernetes/client-node';
import { defaultLoadBalancerName } from '@ccm/core/provider';

export const INTERNAL_LOAD_BALANCER_SUFFIX = '-internal';
/**
 * Upstream (`consts.FrontendIPConfigNameMaxLength`, `LoadBalancerRuleNameMaxLength`,
 * `PIPPrefixNameMaxLength`, all 80) keeps room for the IP family suffix (`IPFamilySuffixLength`,
 * 5: `-IPv6`) in every one of these names, so each is cut at 75, dual-stack or not.
 */
const ARM_NAME_MAX = 80;
const IP_FAMILY_SUFFIX_LENGTH = 5;
export const FRONTEND_NAME_MAX = ARM_NAME_MAX - IP_FAMILY_SUFFIX_LENGTH;
export const RULE_NAME_MAX = ARM_NAME_MAX - IP_FAMILY_SUFFIX_LENGTH;
export const PUBLIC_IP_NAME_MAX = ARM_NAME_MAX - IP_FAMILY_SUFFIX_LENGTH;
export const SECURITY_RULE_PREFIX = 'k8s-azure-lb_';
export type IpFamily = 'IPv4' | 'IPv6';
/** The IPv4 deny-all rule (the IPv6 one: `denyAllRuleNameOf('IPv6')`). */
export const DENY_ALL_RULE_NAME = denyAllRuleNameOf('IPv4');
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

/**
 * `name` of the IPv6 half of a dual-stack Service: `<name>-IPv6`; any other keeps its name
 * (upstream `azure_utils.go` `getResourceByIPFamily`: a single-stack IPv6 Service has no suffix).
 */
export function nameForFamily(name: string, dualStack: boolean, family: IpFamily): string {
  return dualStack && family === 'IPv6' ? `${name}-IPv6` : name;
}

/** The cluster backend pool of a family: `<cluster>`, `<cluster>-IPv6` (upstream `azure_loadbalancer.go` `getBackendPoolName`; single-stack IPv6 too). */
export function backendPoolNameOf(clusterName: string, family: IpFamily): string {
  return family === 'IPv6' ? `${clusterName}-IPv6` : clusterName;
}

export function serviceBaseName(service: V1Service): string {
  return defaultLoadBalancerName(service);
}

export function serviceKey(service: V1Service): string {
  return `${service.metadata?.namespace ?? 'default'}/${service.metadata?.name ?? ''}`;
}

export function loadBalancerNameOf(clusterLoadBalancerName: string, internal: boolean): string {
  return internal ? `${clusterLoadBalancerName}${INTERNAL_LOAD_BALANCER_SUFFIX}` : clusterLoadBalancerName;
}

/**
 * `<base>-<subnet>` cut at 75 (upstream `getDefaultFrontendIPConfigName`); when cut, a last
 * character that is not a letter or `_` becomes `_` (a cut may end the name on `-`; upstream
 * replaces digits too, and adoption needs its exact name).
 */
export function frontendNameOf(base: string, subnet: string | undefined): string {
  if (subnet === undefined) return base;
  const name = `${base}-${subnet}`;
  if (name.length <= FRONTEND_NAME_MAX) return name;
  const cut = name.slice(0, FRONTEND_NAME_MAX);
  const last = cut.slice(-1);
  return /\p{L}/u.test(last) || last === '_' ? cut : `${cut.slice(0, -1)}_`;
}

/**
 * `<base>-<PROTOCOL>-<port>`, or with a subnet `<base>-<subnet>-<PROTOCOL>-<port>` where only the
 * subnet is cut so that the whole name stays within 75 (upstream `getLoadBalancerRuleName`; no
 * end-character fix there).
 */
export function ruleNameOf(base: string, subnet: string | undefined, protocol: string, port: number): string {
  const ruleName = `${base}-${protocol}-${port}`;
  if (subnet === undefined) return ruleName;
  const subnetSegment = ruleName.length + subnet.length + 1 > RULE_NAME_MAX ? subnet.slice(0, Math.max(0, RULE_NAME_MAX - ruleName.length - 1)) : subnet;
  return `${base}-${subnetSegment}-${protocol}-${port}`;
}

/** `<cluster>-<base>` cut at 75 (upstream `getPublicIPName`; no end-character fix there). */
export function publicIpNameOf(clusterName: string, base: string): string {
  return `${clusterName}-${base}`.slice(0, PUBLIC_IP_NAME_MAX);
}

/** Whether a frontend, rule or probe name belongs to the Service of `base`. */
export function ownedBy(base: string, name: string): boolean {
  return name === base || name.startsWith(`${base}-`);
}

/**
 * `k8s-azure-lb_allow_<family>_<md5 of protocol, sorted sources and sorted destination ports>`
 * (upstream `securitygroup` `GenerateAllowSecurityRuleName`).
 */
export function allowRuleNameOf(protocol: string, family: IpFamily, sources: readonly string[], ports: readonly string[]): string {
  const identity = `${protocol}_${[...sources].sort().join(',')}_${[...ports].sort().join(',')}`;
  return `${SECURITY_RULE_PREFIX}allow_${family}_${createHash('md5').update(identity).digest('hex')}`;
}

/** `k8s-azure-lb_deny-all_<family>` (upstream `securitygroup` `GenerateDenyAllSecurityRuleName`). */
export function denyAllRuleNameOf(family: IpFamily): string {
  return `${SECURITY_RULE_PREFIX}deny-all_${family}`;
}
