/**
 * `--cluster-cidr` as the route controller needs it (upstream `processCIDRs` plus the checks of
 * `startRouteController`): a comma-separated list of at most two CIDRs, and two CIDRs must be one
 * IPv4 and one IPv6 (dual-stack).
 */
import { isIPv4, isIPv6 } from 'node:net';

export interface ClusterCidrs {
  cidrs: string[];
  dualStack: boolean;
}

export type ClusterCidrsResult = ({ ok: true } & ClusterCidrs) | { ok: false; error: string };

export function parseClusterCidrFlag(text: string): ClusterCidrsResult {
  if (text.trim() === '') return { ok: false, error: '--cluster-cidr is not set' };
  const entries = text.trim().split(',');
  const cidrs: string[] = [];
  const families: (4 | 6)[] = [];
  for (const entry of entries) {
    const family = cidrFamily(entry);
    if (family === undefined) return { ok: false, error: `invalid CIDR ${JSON.stringify(entry)} in --cluster-cidr` };
    cidrs.push(entry);
    families.push(family);
  }
  const dualStack = families.includes(4) && families.includes(6);
  if (cidrs.length > 1 && !dualStack) {
    return { ok: false, error: `--cluster-cidr has ${cidrs.length} CIDRs of one IP family: more than one CIDR is only allowed for dual-stack (one IPv4 and one IPv6 CIDR)` };
  }
  if (cidrs.length > 2) return { ok: false, error: `--cluster-cidr has ${cidrs.length} CIDRs: at most 2 are allowed (one IPv4 and one IPv6)` };
  return { ok: true, cidrs, dualStack };
}

/** 4 or 6 for a valid `address/prefix` (Go `net.ParseCIDR`: no blanks, decimal prefix in range). */
export function cidrFamily(text: string): 4 | 6 | undefined {
  const slash = text.indexOf('/');
  if (slash === -1) return undefined;
  const address = text.slice(0, slash);
  const prefix = text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefix)) return undefined;
  const bits = Number(prefix);
  if (isIPv4(address) && !address.includes(':')) return bits <= 32 ? 4 : undefined;
  if (isIPv6(address) && !address.includes('%')) return bits <= 128 ? 6 : undefined;
  return undefined;
}
