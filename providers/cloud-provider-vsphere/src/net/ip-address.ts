/**
 * IP addresses and CIDRs with Go `net` semantics where the upstream provider relies on them:
 * an IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) is IPv4 (`To4() != nil`), a CIDR contains
 * addresses of its own family only.
 */
import { isIPv4, isIPv6 } from 'node:net';

export type IpFamily = 'ipv4' | 'ipv6';

export interface ParsedIp {
  family: IpFamily;
  /** 4 bytes for IPv4, 16 for IPv6. */
  bytes: readonly number[];
}

export function parseIp(text: string): ParsedIp | undefined {
  const trimmed = text.trim();
  if (isIPv4(trimmed)) return { family: 'ipv4', bytes: trimmed.split('.').map(Number) };
  if (!isIPv6(trimmed) || trimmed.includes('%')) return undefined;
  const bytes = ipv6Bytes(trimmed);
  if (bytes === undefined) return undefined;
  const mapped = bytes.slice(0, 10).every((byte) => byte === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  return mapped ? { family: 'ipv4', bytes: bytes.slice(12) } : { family: 'ipv6', bytes };
}

function ipv6Bytes(text: string): number[] | undefined {
  let head = text;
  let tail = '';
  const doubleColon = text.indexOf('::');
  if (doubleColon >= 0) {
    head = text.slice(0, doubleColon);
    tail = text.slice(doubleColon + 2);
  }
  const groups = (part: string): number[] | undefined => {
    if (part === '') return [];
    const result: number[] = [];
    for (const group of part.split(':')) {
      if (group.includes('.')) {
        if (!isIPv4(group)) return undefined;
        const [a, b, c, d] = group.split('.').map(Number) as [number, number, number, number];
        result.push((a << 8) | b, (c << 8) | d);
      } else {
        result.push(Number.parseInt(group, 16));
      }
    }
    return result;
  };
  const first = groups(head);
  const last = groups(tail);
  if (first === undefined || last === undefined) return undefined;
  const zeros = doubleColon >= 0 ? 8 - first.length - last.length : 0;
  const all = [...first, ...new Array<number>(Math.max(0, zeros)).fill(0), ...last];
  if (all.length !== 8) return undefined;
  return all.flatMap((group) => [group >> 8, group & 0xff]);
}

/**
 * Addresses the guest reports that can never be node addresses: loopback, link-local
 * (unicast and multicast), unspecified and multicast.
 */
export function isLocalOnlyIp(ip: ParsedIp): boolean {
  const [a = 0, b = 0] = ip.bytes;
  if (ip.family === 'ipv4') {
    const unspecified = ip.bytes.every((byte) => byte === 0);
    return a === 127 || (a === 169 && b === 254) || unspecified || (a >= 224 && a <= 239);
  }
  const unspecified = ip.bytes.every((byte) => byte === 0);
  const loopback = ip.bytes.slice(0, 15).every((byte) => byte === 0) && ip.bytes[15] === 1;
  const linkLocal = a === 0xfe && (b & 0xc0) === 0x80;
  const multicast = a === 0xff;
  return unspecified || loopback || linkLocal || multicast;
}

export class Cidr {
  readonly text: string;
  readonly family: IpFamily;
  readonly #network: readonly number[];
  readonly #prefixLength: number;

  private constructor(text: string, family: IpFamily, network: readonly number[], prefixLength: number) {
    this.text = text;
    this.family = family;
    this.#network = network;
    this.#prefixLength = prefixLength;
  }

  /** `10.0.0.0/8`, `2001:db8::/32`; undefined when malformed (Go net.ParseCIDR). */
  static parse(text: string): Cidr | undefined {
    const trimmed = text.trim();
    const slash = trimmed.indexOf('/');
    if (slash < 0) return undefined;
    const address = trimmed.slice(0, slash);
    const prefixText = trimmed.slice(slash + 1);
    if (!/^\d{1,3}$/.test(prefixText)) return undefined;
    const prefixLength = Number(prefixText);
    const family: IpFamily | undefined = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : undefined;
    if (family === undefined) return undefined;
    if (prefixLength > (family === 'ipv4' ? 32 : 128)) return undefined;
    const bytes = family === 'ipv4' ? address.split('.').map(Number) : ipv6Bytes(address);
    if (bytes === undefined) return undefined;
    return new Cidr(trimmed, family, maskBytes(bytes, prefixLength), prefixLength);
  }

  contains(ip: ParsedIp): boolean {
    if (ip.family !== this.family) return false;
    const masked = maskBytes(ip.bytes, this.#prefixLength);
    return masked.every((byte, index) => byte === this.#network[index]);
  }
}

function maskBytes(bytes: readonly number[], prefixLength: number): number[] {
  return bytes.map((byte, index) => {
    const bits = Math.min(8, Math.max(0, prefixLength - index * 8));
    return bits === 0 ? 0 : byte & ((0xff << (8 - bits)) & 0xff);
  });
}

/** Comma-separated CIDRs -> list, or the first malformed item. */
export function parseCidrList(text: string): { cidrs: Cidr[] } | { invalid: string } {
  const cidrs: Cidr[] = [];
  for (const item of text.split(',')) {
    if (item.trim() === '') continue;
    const cidr = Cidr.parse(item);
    if (cidr === undefined) return { invalid: item.trim() };
    cidrs.push(cidr);
  }
  return { cidrs };
}
