/**
 * Security group ingress as single-source rules (upstream `IPPermissionSet` ungrouping). AWS
 * identifies a rule by protocol, port range and source; the description is metadata we use to
 * mark the rules we manage on shared node security groups.
 */
import type { Ec2IpPermission } from '../../ports/ec2-port.js';

export interface RuleSource {
  kind: 'ipv4' | 'ipv6' | 'group';
  value: string;
}

export interface IngressRule {
  /** Lower case; `-1` means every protocol (then there are no ports). */
  protocol: string;
  fromPort?: number;
  toPort?: number;
  source: RuleSource;
  description?: string;
}

function normalizeProtocol(protocol: string): string {
  const lower = protocol.toLowerCase();
  return lower === 'all' ? '-1' : lower;
}

/** Identity of a rule as AWS sees it (without the description). */
export function ruleKey(rule: IngressRule): string {
  const protocol = normalizeProtocol(rule.protocol);
  const ports = protocol === '-1' ? '' : `${rule.fromPort ?? ''}-${rule.toPort ?? ''}`;
  return `${protocol}|${ports}|${rule.source.kind}:${rule.source.value}`;
}

export function ungroupPermissions(permissions: readonly Ec2IpPermission[]): IngressRule[] {
  const rules: IngressRule[] = [];
  for (const permission of permissions) {
    const protocol = normalizeProtocol(permission.protocol);
    const base = protocol === '-1' ? { protocol } : { protocol, fromPort: permission.fromPort, toPort: permission.toPort };
    const withDescription = (rule: IngressRule, description: string | undefined): IngressRule =>
      description === undefined || description === '' ? rule : { ...rule, description };
    for (const range of permission.ipv4Ranges) rules.push(withDescription({ ...base, source: { kind: 'ipv4', value: range.cidr } }, range.description));
    for (const range of permission.ipv6Ranges) rules.push(withDescription({ ...base, source: { kind: 'ipv6', value: range.cidr } }, range.description));
    for (const pair of permission.groupPairs) rules.push(withDescription({ ...base, source: { kind: 'group', value: pair.groupId } }, pair.description));
  }
  return rules;
}

/** One permission per rule: simple, and AWS accepts any number per call. */
export function toPermissions(rules: readonly IngressRule[]): Ec2IpPermission[] {
  return rules.map((rule) => {
    const permission: Ec2IpPermission = { protocol: normalizeProtocol(rule.protocol), ipv4Ranges: [], ipv6Ranges: [], groupPairs: [] };
    if (permission.protocol !== '-1') {
      if (rule.fromPort !== undefined) permission.fromPort = rule.fromPort;
      if (rule.toPort !== undefined) permission.toPort = rule.toPort;
    }
    const description = rule.description === undefined ? {} : { description: rule.description };
    if (rule.source.kind === 'ipv4') permission.ipv4Ranges.push({ cidr: rule.source.value, ...description });
    else if (rule.source.kind === 'ipv6') permission.ipv6Ranges.push({ cidr: rule.source.value, ...description });
    else permission.groupPairs.push({ groupId: rule.source.value, ...description });
    return permission;
  });
}

function uniqueByKey(rules: readonly IngressRule[]): IngressRule[] {
  const seen = new Map<string, IngressRule>();
  for (const rule of rules) if (!seen.has(ruleKey(rule))) seen.set(ruleKey(rule), rule);
  return [...seen.values()];
}

export interface RulePlan {
  grant: IngressRule[];
  revoke: IngressRule[];
}

/** Pure: make the group's ingress exactly `desired` (for groups we own). */
export function planExactIngress(actual: readonly IngressRule[], desired: readonly IngressRule[]): RulePlan {
  const desiredKeys = new Set(desired.map(ruleKey));
  const actualKeys = new Set(actual.map(ruleKey));
  return {
    grant: uniqueByKey(desired.filter((rule) => !actualKeys.has(ruleKey(rule)))),
    revoke: uniqueByKey(actual.filter((rule) => !desiredKeys.has(ruleKey(rule)))),
  };
}

/**
 * Pure: reconcile only the rules marked with `description` (upstream
 * `updateInstanceSecurityGroupForNLBTraffic`). Other rules are never revoked; a desired rule that
 * already exists under another description is left as it is (AWS would refuse a duplicate).
 */
export function planMarkedIngress(actual: readonly IngressRule[], desired: readonly IngressRule[], description: string): RulePlan {
  const desiredKeys = new Set(desired.map(ruleKey));
  const actualKeys = new Set(actual.map(ruleKey));
  return {
    grant: uniqueByKey(desired.filter((rule) => !actualKeys.has(ruleKey(rule)))),
    revoke: uniqueByKey(actual.filter((rule) => rule.description === description && !desiredKeys.has(ruleKey(rule)))),
  };
}

/** Apply a plan to a rule list (to keep a local view current between steps). */
export function applyRulePlan(actual: readonly IngressRule[], plan: RulePlan): IngressRule[] {
  const revoked = new Set(plan.revoke.map(ruleKey));
  return [...actual.filter((rule) => !revoked.has(ruleKey(rule))), ...plan.grant];
}

export function portRule(protocol: string, port: number, source: RuleSource, description?: string): IngressRule {
  return { protocol, fromPort: port, toPort: port, source, ...(description === undefined ? {} : { description }) };
}

/** ICMP "fragmentation needed" (type 3, code 4) for path MTU discovery. */
export function mtuRule(cidr: string, description?: string): IngressRule {
  return { protocol: 'icmp', fromPort: 3, toPort: 4, source: { kind: 'ipv4', value: cidr }, ...(description === undefined ? {} : { description }) };
}

export function cidrSource(cidr: string): RuleSource {
  return { kind: cidr.includes(':') ? 'ipv6' : 'ipv4', value: cidr };
}
