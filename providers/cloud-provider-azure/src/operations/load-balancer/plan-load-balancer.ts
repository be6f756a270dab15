/**
 * The load balancer after one Service's reconcile: its own frontends (one per IP family), rules and probes replaced
 * by what it needs now (or removed), every other Service's parts left as they are, the backend
 * pool kept. Pure: `changed` is false when nothing differs, and then nothing is written.
 */
import type { AzureFrontendIpConfiguration, AzureLoadBalancer } from '../../ports/network-port.js';
import { ownedBy } from './load-balancer-names.js';
import type { ServiceLoadBalancerSpec } from './service-load-balancer-spec.js';

export interface LoadBalancerShell {
  name: string;
  location: string;
  tags: Record<string, string>;
  /** The backend pools the Service's rules use (one per family); created when missing. */
  poolNames: readonly string[];
}

export type LoadBalancerPlan =
  | { action: 'none'; loadBalancer: AzureLoadBalancer | undefined }
  | { action: 'put'; loadBalancer: AzureLoadBalancer }
  /** No frontend is left: delete the load balancer (upstream). */
  | { action: 'delete'; loadBalancer: AzureLoadBalancer };

export class RuleCountExceededError extends Error {
  readonly kind = 'RuleCountExceeded' as const;
  constructor(loadBalancerName: string, count: number, maximum: number) {
    super(`load balancer ${loadBalancerName} would have ${count} rules, more than maximumLoadBalancerRuleCount (${maximum})`);
    this.name = 'RuleCountExceededError';
  }
}

/** The frontend a Service wants: the existing dynamic private address is kept (ARM allocated it). */
function sameFrontend(existing: AzureFrontendIpConfiguration, wanted: AzureFrontendIpConfiguration): boolean {
  if (existing.name !== wanted.name) return false;
  if ((existing.publicIpAddressId ?? '').toLowerCase() !== (wanted.publicIpAddressId ?? '').toLowerCase()) return false;
  if ((existing.subnetId ?? '').toLowerCase() !== (wanted.subnetId ?? '').toLowerCase()) return false;
  if ((existing.privateIpAddressVersion ?? 'IPv4') !== (wanted.privateIpAddressVersion ?? 'IPv4') && wanted.subnetId !== undefined) return false;
  if (wanted.privateIpAllocationMethod === 'Static') return existing.privateIpAllocationMethod === 'Static' && existing.privateIpAddress === wanted.privateIpAddress;
  return wanted.subnetId === undefined || existing.privateIpAllocationMethod !== 'Static';
}

const byName = <T extends { name: string }>(items: T[]): T[] => [...items].sort((left, right) => left.name.localeCompare(right.name));

/** What a write would change: names and settings, not ARM's read-only IDs and members. */
function canonical(balancer: AzureLoadBalancer): string {
  return JSON.stringify({
    frontends: byName(balancer.frontendIpConfigurations).map((frontend) => [
      frontend.name,
      (frontend.publicIpAddressId ?? '').toLowerCase(),
      (frontend.subnetId ?? '').toLowerCase(),
      frontend.privateIpAllocationMethod === 'Static' ? frontend.privateIpAddress : '',
      frontend.subnetId === undefined ? '' : (frontend.privateIpAddressVersion ?? 'IPv4'),
    ]),
    pools: byName(balancer.backendAddressPools).map((pool) => pool.name),
    rules: byName(balancer.loadBalancingRules).map((rule) => [
      rule.name,
      rule.frontendIpConfigurationName,
      rule.backendAddressPoolName,
      rule.probeName ?? '',
      rule.protocol,
      rule.frontendPort,
      rule.backendPort,
      rule.enableFloatingIp,
      rule.idleTimeoutInMinutes,
      rule.enableTcpReset,
      rule.loadDistribution,
      rule.disableOutboundSnat,
    ]),
    probes: byName(balancer.probes).map((probe) => [probe.name, probe.protocol, probe.port, probe.requestPath ?? '', probe.intervalInSeconds, probe.probeThreshold]),
  });
}

/**
 * `existing` with the Service of `spec` reconciled: its `frontends` (none removes the Service's
 * parts). `maximumRules` bounds the rule count of the result.
 */
export function planLoadBalancer(
  existing: AzureLoadBalancer | undefined,
  shell: LoadBalancerShell,
  spec: Pick<ServiceLoadBalancerSpec, 'base' | 'rules' | 'probes'>,
  wantedFrontends: readonly AzureFrontendIpConfiguration[],
  maximumRules: number,
): LoadBalancerPlan {
  const removing = wantedFrontends.length === 0;
  if (existing === undefined && removing) return { action: 'none', loadBalancer: undefined };
  const current: AzureLoadBalancer = existing ?? {
    name: shell.name,
    location: shell.location,
    sku: 'Standard',
    tags: { ...shell.tags },
    frontendIpConfigurations: [],
    backendAddressPools: [],
    probes: [],
    loadBalancingRules: [],
  };
  const mine = <T extends { name: string }>(item: T): boolean => ownedBy(spec.base, item.name);
  const oldFrontends = current.frontendIpConfigurations.filter(mine);
  const kept = wantedFrontends.map((frontend) => oldFrontends.find((candidate) => sameFrontend(candidate, frontend)) ?? frontend);
  const frontends = [...current.frontendIpConfigurations.filter((item) => !mine(item)), ...kept];
  if (frontends.length === 0) return existing === undefined ? { action: 'none', loadBalancer: undefined } : { action: 'delete', loadBalancer: existing };

  const rules = [...current.loadBalancingRules.filter((item) => !mine(item)), ...(removing ? [] : spec.rules)];
  const probes = [...current.probes.filter((item) => !mine(item)), ...(removing ? [] : spec.probes)];
  const missingPools = (removing ? [] : shell.poolNames).filter((name) => !current.backendAddressPools.some((pool) => pool.name === name));
  const pools = [...current.backendAddressPools, ...missingPools.map((name) => ({ name }))];
  if (rules.length > maximumRules && rules.length > current.loadBalancingRules.length) throw new RuleCountExceededError(shell.name, rules.length, maximumRules);

  const next: AzureLoadBalancer = { ...current, frontendIpConfigurations: frontends, backendAddressPools: pools, loadBalancingRules: rules, probes };
  if (existing !== undefined && canonical(existing) === canonical(next)) return { action: 'none', loadBalancer: existing };
  return { action: 'put', loadBalancer: next };
}
