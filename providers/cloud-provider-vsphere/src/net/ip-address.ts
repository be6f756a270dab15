/**
 * IP addresses and CIDRs with Go `net` semantics where the upstream provider relies on them,
 * parsed by core's `@ccm/core/net`: an IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) is IPv4
 * (`To4() != nil`), a CIDR contains addresses of its own family only.
 */
import { cidrContains, isIpv4, parseIp as parseIpBytes, tryParseCidr, type Cidr as NetCidr } from '@ccm/core/net';

export type IpFamily = 'ipv4' | 'ipv6';

export interface ParsedIp {
  family: IpFamily;
  /** 4 bytes for IPv4, 16 for IPv6. */
  bytes: readonly number[];
}

export function parseIp(text: string): ParsedIp | undefined {
  const bytes = parseIpBytes(text.trim());
  if (bytes === undefined) return undefined;
  return isIpv4(bytes) ? { family: 'ipv4', bytes: [...bytes.slice(12)] } : { family: 'ipv6', bytes: [...bytes] };
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
  readonly #cidr: NetCidr;

  private constructor(text: string, cidr: NetCidr) {
    this.text = text;
    this.family = cidr.family === 4 ? 'ipv4' : 'ipv6';
    this.#cidr = cidr;
  }

  /** `10.0.0.0/8`, `2001:db8::/32`; undefined when malformed (Go net.ParseCIDR). */
  static parse(text: string): Cidr | undefined {
    const trimmed = text.trim();
    const cidr = tryParseCidr(trimmed);
    return cidr === undefined ? undefined : new Cidr(trimmed, cidr);
  }

  contains(ip: ParsedIp): boolean {
    if (ip.family !== this.family) return false;
    const value = ip.bytes.reduce((sum, byte) => (sum << 8n) | BigInt(byte), 0n);
    return cidrContains(this.#cidr, { family: this.#cidr.family, value });
  }
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
