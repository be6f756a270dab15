/**
 * The cluster security group's rules after one Service's reconcile. Rules are shared: one allow
 * rule per (protocol, sources, ports), named after their hash, listing every Service address that
 * needs it as a destination. A Service's addresses are taken out of every managed rule, then
 * added to the rules it needs now; a managed rule left without a destination goes. Rules not
 * named `k8s-azure-lb_...` are never touched. Pure.
 */
import type { AzureSecurityRule } from '../../ports/network-port.js';
import { allowRuleNameOf, denyAllRuleNameOf, SECURITY_RULE_PREFIX, SECURITY_RULE_PRIORITY_MAX, SECURITY_RULE_PRIORITY_MIN, type IpFamily } from './load-balancer-names.js';
import type { SecurityRuleSpec } from './service-load-balancer-spec.js';

export class SecurityRulePrioritiesExhaustedError extends Error {
  readonly kind = 'SecurityRulePrioritiesExhausted' as const;
  constructor() {
    super(`no free security rule priority between ${SECURITY_RULE_PRIORITY_MIN} and ${SECURITY_RULE_PRIORITY_MAX}`);
    this.name = 'SecurityRulePrioritiesExhaustedError';
  }
}

const sortedUnique = (values: Iterable<string>): string[] => [...new Set(values)].sort();

function freePriority(rules: AzureSecurityRule[], fromTop: boolean): number {
  const used = new Set(rules.filter((rule) => rule.direction === 'Inbound').map((rule) => rule.priority));
  if (fromTop) {
    for (let priority = SECURITY_RULE_PRIORITY_MAX; priority >= SECURITY_RULE_PRIORITY_MIN; priority--) if (!used.has(priority)) return priority;
  } else {
    for (let priority = SECURITY_RULE_PRIORITY_MIN; priority <= SECURITY_RULE_PRIORITY_MAX; priority++) if (!used.has(priority)) return priority;
  }
  throw new SecurityRulePrioritiesExhaustedError();
}

/** One address of a Service (one per family) and the rules it needs. */
export interface SecurityTarget {
  address: string;
  family: IpFamily;
  specs: readonly SecurityRuleSpec[];
  denyAll: boolean;
}

/**
 * `rules` with `removeAddresses` taken out of the managed rules and each target's address added
 * to the rules of its family and specs (and to its family's deny-all rule with `denyAll`).
 */
export function planSecurityRules(rules: readonly AzureSecurityRule[], removeAddresses: readonly string[], targets: readonly SecurityTarget[]): { rules: AzureSecurityRule[]; changed: boolean } {
  const removed = new Set(removeAddresses);
  for (const target of targets) removed.add(target.address);
  let next: AzureSecurityRule[] = rules.map((rule) =>
    rule.name.startsWith(SECURITY_RULE_PREFIX) ? { ...rule, destinationAddressPrefixes: rule.destinationAddressPrefixes.filter((prefix) => !removed.has(prefix)) } : { ...rule },
  );
  next = next.filter((rule) => !rule.name.startsWith(SECURITY_RULE_PREFIX) || rule.destinationAddressPrefixes.length > 0);
  for (const { address, family, specs, denyAll } of targets) {
    for (const spec of specs) {
      const name = allowRuleNameOf(spec.protocol, family, spec.sources, spec.ports);
      const existing = next.find((rule) => rule.name === name);
      if (existing) {
        existing.destinationAddressPrefixes = sortedUnique([...existing.destinationAddressPrefixes, address]);
        continue;
      }
      next.push({
        name,
        priority: freePriority(next, false),
        direction: 'Inbound',
        access: 'Allow',
        protocol: spec.protocol,
        sourcePortRange: '*',
        sourceAddressPrefixes: [...spec.sources],
        destinationAddressPrefixes: [address],
        destinationPortRanges: [...spec.ports],
      });
    }
    if (denyAll) {
      const denyAllName = denyAllRuleNameOf(family);
      const existing = next.find((rule) => rule.name === denyAllName);
      if (existing) existing.destinationAddressPrefixes = sortedUnique([...existing.destinationAddressPrefixes, address]);
      else
        next.push({
          name: denyAllName,
          priority: freePriority(next, true),
          direction: 'Inbound',
          access: 'Deny',
          protocol: '*',
          sourcePortRange: '*',
          sourceAddressPrefixes: ['*'],
          destinationAddressPrefixes: [address],
          destinationPortRanges: ['*'],
        });
    }
  }
  const canonical = (list: readonly AzureSecurityRule[]) =>
    JSON.stringify([...list].map((rule) => ({ ...rule, destinationAddressPrefixes: sortedUnique(rule.destinationAddressPrefixes) })).sort((left, right) => left.name.localeCompare(right.name)));
  return { rules: next, changed: canonical(next) !== canonical(rules) };
}
