/**
 * Client source ranges of a Service (upstream `servicehelpers.GetLoadBalancerSourceRanges`):
 * `spec.loadBalancerSourceRanges`, else the `load-balancer-source-ranges` annotation, else
 * 0.0.0.0/0. CIDRs are normalised to their network address, deduplicated and sorted.
 */
import { ANNOTATION_LOAD_BALANCER_SOURCE_RANGES } from '@ccm/core/api';
import type { V1Service } from '@ccm/core/kube';
import { isIP } from 'node:net';
import { InvalidAnnotationError, UnsupportedServiceError } from '../../errors.js';

export const ALL_IPV4 = '0.0.0.0/0';

/** Network address of a CIDR (`10.0.0.7/8` -> `10.0.0.0/8`), or undefined when invalid. */
export function normalizeCidr(cidr: string): string | undefined {
  const slash = cidr.indexOf('/');
  if (slash < 0) return undefined;
  const address = cidr.slice(0, slash);
  const prefixText = cidr.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = Number(prefixText);
  const family = isIP(address);
  if (family === 4) {
    if (prefix > 32) return undefined;
    const octets = address.split('.').map(Number);
    const value = octets.reduce((sum, octet) => sum * 256 + octet, 0);
    const size = 2 ** (32 - prefix);
    const network = Math.floor(value / size) * size;
    const parts = [24, 16, 8, 0].map((shift) => Math.floor(network / 2 ** shift) % 256);
    return `${parts.join('.')}/${prefix}`;
  }
  if (family === 6) {
    if (prefix > 128) return undefined;
    const groups = expandIpv6(address);
    let remaining = prefix;
    const masked = groups.map((group) => {
      const bits = Math.max(0, Math.min(16, remaining));
      remaining -= 16;
      const mask = bits === 0 ? 0 : (0xffff << (16 - bits)) & 0xffff;
      return group & mask;
    });
    return `${compressIpv6(masked)}/${prefix}`;
  }
  return undefined;
}

function expandIpv6(address: string): number[] {
  let text = address;
  const embeddedIpv4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (embeddedIpv4?.[1]) {
    const octets = embeddedIpv4[1].split('.').map(Number);
    text = `${text.slice(0, embeddedIpv4.index)}${(((octets[0] ?? 0) << 8) | (octets[1] ?? 0)).toString(16)}:${(((octets[2] ?? 0) << 8) | (octets[3] ?? 0)).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - headGroups.length - tailGroups.length;
  return [...headGroups, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...tailGroups].map((group) => Number.parseInt(group, 16));
}

function compressIpv6(groups: number[]): string {
  let bestStart = -1;
  let bestLength = 0;
  for (let start = 0; start < groups.length; ) {
    if (groups[start] !== 0) {
      start++;
      continue;
    }
    let end = start;
    while (end < groups.length && groups[end] === 0) end++;
    if (end - start > bestLength && end - start >= 2) {
      bestStart = start;
      bestLength = end - start;
    }
    start = end;
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

export function loadBalancerSourceRanges(service: V1Service): string[] {
  const specRanges = service.spec?.loadBalancerSourceRanges ?? [];
  const fromSpec = specRanges.length > 0;
  const annotationValue = (service.metadata?.annotations?.[ANNOTATION_LOAD_BALANCER_SOURCE_RANGES] ?? '').trim();
  const entries = fromSpec ? specRanges : (annotationValue === '' ? ALL_IPV4 : annotationValue).split(',');
  const ranges = new Set<string>();
  for (const entry of entries) {
    const normalized = normalizeCidr(entry.trim());
    if (normalized === undefined) {
      if (fromSpec) {
        throw new UnsupportedServiceError(
          `service.Spec.LoadBalancerSourceRanges: ${JSON.stringify(specRanges)} is not valid. Expecting a list of IP ranges. For example, 10.0.0.0/24 (bad entry ${JSON.stringify(entry)})`,
        );
      }
      throw new InvalidAnnotationError(ANNOTATION_LOAD_BALANCER_SOURCE_RANGES, annotationValue, `${JSON.stringify(entry.trim())} is not a CIDR; expecting a comma-separated list such as 10.0.0.0/24,192.168.2.0/24`);
    }
    ranges.add(normalized);
  }
  return [...ranges].sort();
}
