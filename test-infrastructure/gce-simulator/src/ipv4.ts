import { invalidField } from './gce-error.js';

export interface Ipv4Range {
  base: number;
  prefix: number;
  size: number;
}

export function ipv4ToNumber(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const octet = Number(part);
    if (octet > 255) return undefined;
    value = value * 256 + octet;
  }
  return value;
}

export function numberToIpv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

/** Parses `a.b.c.d/n`; throws `invalid` naming `field`. */
export function parseIpv4Range(field: string, text: unknown): Ipv4Range {
  const match = typeof text === 'string' ? /^([\d.]+)\/(\d{1,2})$/.exec(text) : null;
  const address = match === null ? undefined : ipv4ToNumber(match[1] ?? '');
  const prefix = Number(match?.[2]);
  if (address === undefined || !(prefix >= 0 && prefix <= 32)) throw invalidField(field, text, 'Must be an IPv4 CIDR range such as 10.0.0.0/20.');
  const size = 2 ** (32 - prefix);
  if (address % size !== 0) throw invalidField(field, text, 'The address has bits set beyond the prefix length.');
  return { base: address, prefix, size };
}

export function rangesOverlap(a: Ipv4Range, b: Ipv4Range): boolean {
  return a.base < b.base + b.size && b.base < a.base + a.size;
}

export function rangeContains(range: Ipv4Range, address: string): boolean {
  const value = ipv4ToNumber(address);
  return value !== undefined && value >= range.base && value < range.base + range.size;
}

/** The lowest host address of `range` from its third (network and gateway skipped) not in `used`. */
export function firstFreeHost(range: Ipv4Range, used: Set<string>): string | undefined {
  for (let offset = 2; offset < range.size - 1; offset += 1) {
    const candidate = numberToIpv4(range.base + offset);
    if (!used.has(candidate)) return candidate;
  }
  return undefined;
}
