/**
 * IP address and CIDR parsing with Go `net` semantics (k8s.io/utils/net `ParseCIDRSloppy`):
 * IPv4 octets may carry leading zeros (read as decimal), the network is masked, and the
 * canonical string form matches Go's `IPNet.String()` (RFC 5952 for IPv6).
 */

export type IpFamily = 4 | 6;

export interface IpAddress {
  family: IpFamily;
  /** The address as an unsigned integer (32 or 128 bits). */
  value: bigint;
}

export interface Cidr {
  family: IpFamily;
  /** The network address (host bits cleared). */
  network: bigint;
  prefixLength: number;
}

const bitsOf = (family: IpFamily): number => (family === 4 ? 32 : 128);

/** Parses an IPv4 or IPv6 address; `undefined` when it is not one. Zones are rejected. */
export function parseIp(text: string): IpAddress | undefined {
  if (text.includes(':')) {
    const value = parseIpv6(text);
    return value === undefined ? undefined : { family: 6, value };
  }
  const value = parseIpv4(text);
  return value === undefined ? undefined : { family: 4, value };
}

function parseIpv4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!/^[0-9]{1,3}$/.test(part)) return undefined;
    const octet = Number(part);
    if (octet > 255) return undefined;
    value = (value << 8n) | BigInt(octet);
  }
  return value;
}

function parseIpv6(text: string): bigint | undefined {
  if (text.length === 0 || text.includes('%')) return undefined;
  const doubleColon = text.indexOf('::');
  if (doubleColon !== -1 && text.indexOf('::', doubleColon + 1) !== -1) return undefined;
  const parseGroups = (part: string): number[] | undefined => {
    if (part === '') return [];
    const groups: number[] = [];
    const pieces = part.split(':');
    for (let index = 0; index < pieces.length; index++) {
      const piece = pieces[index] as string;
      if (index === pieces.length - 1 && piece.includes('.')) {
        const ipv4 = parseIpv4(piece);
        if (ipv4 === undefined) return undefined;
        groups.push(Number(ipv4 >> 16n), Number(ipv4 & 0xffffn));
        continue;
      }
      if (!/^[0-9a-fA-F]{1,4}$/.test(piece)) return undefined;
      groups.push(parseInt(piece, 16));
    }
    return groups;
  };
  let groups: number[];
  if (doubleColon === -1) {
    const all = parseGroups(text);
    if (all === undefined || all.length !== 8) return undefined;
    groups = all;
  } else {
    const head = parseGroups(text.slice(0, doubleColon));
    const tail = parseGroups(text.slice(doubleColon + 2));
    if (head === undefined || tail === undefined || head.length + tail.length > 7) return undefined;
    groups = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  }
  return groups.reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}

const maskOf = (family: IpFamily, prefixLength: number): bigint => {
  const bits = BigInt(bitsOf(family));
  const all = (1n << bits) - 1n;
  return (all << (bits - BigInt(prefixLength))) & all;
};

/** Go's error text for a bad CIDR: `invalid CIDR address: <text>`. */
export class InvalidCidrError extends Error {
  readonly input: string;
  constructor(input: string) {
    super(`invalid CIDR address: ${input}`);
    this.name = 'InvalidCidrError';
    this.input = input;
  }
}

/** Parses `address/prefix` (ParseCIDRSloppy); throws InvalidCidrError. A bare IP is not a CIDR. */
export function parseCidr(text: string): Cidr {
  const slash = text.indexOf('/');
  if (slash === -1) throw new InvalidCidrError(text);
  const address = parseIp(text.slice(0, slash));
  const prefixText = text.slice(slash + 1);
  if (address === undefined || !/^[0-9]{1,3}$/.test(prefixText)) throw new InvalidCidrError(text);
  const prefixLength = Number(prefixText);
  if (prefixLength > bitsOf(address.family)) throw new InvalidCidrError(text);
  return { family: address.family, network: address.value & maskOf(address.family, prefixLength), prefixLength };
}

/** Like parseCidr but `undefined` instead of throwing. */
export function tryParseCidr(text: string): Cidr | undefined {
  try {
    return parseCidr(text);
  } catch {
    return undefined;
  }
}

/** The last address of the network (all host bits set). */
export function lastAddress(cidr: Cidr): IpAddress {
  const bits = BigInt(bitsOf(cidr.family));
  const hostMask = ((1n << bits) - 1n) ^ maskOf(cidr.family, cidr.prefixLength);
  return { family: cidr.family, value: cidr.network | hostMask };
}

export function firstAddress(cidr: Cidr): IpAddress {
  return { family: cidr.family, value: cidr.network };
}

export function cidrContains(cidr: Cidr, address: IpAddress): boolean {
  return cidr.family === address.family && (address.value & maskOf(cidr.family, cidr.prefixLength)) === cidr.network;
}

/** Canonical text of an address: dotted IPv4, RFC 5952 IPv6 (like Go's `IP.String()`). */
export function formatIp(address: IpAddress): string {
  if (address.family === 4) {
    return [24n, 16n, 8n, 0n].map((shift) => String((address.value >> shift) & 0xffn)).join('.');
  }
  const groups: number[] = [];
  for (let index = 7; index >= 0; index--) groups.push(Number((address.value >> BigInt(index * 16)) & 0xffffn));
  // Longest run of at least two zero groups, leftmost on ties.
  let bestStart = -1;
  let bestLength = 0;
  for (let start = 0; start < 8; ) {
    if (groups[start] !== 0) {
      start++;
      continue;
    }
    let end = start;
    while (end < 8 && groups[end] === 0) end++;
    if (end - start > bestLength && end - start >= 2) {
      bestStart = start;
      bestLength = end - start;
    }
    start = end;
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart === -1) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/** Canonical `network/prefix` (Go's `IPNet.String()`). */
export function formatCidr(cidr: Cidr): string {
  return `${formatIp({ family: cidr.family, value: cidr.network })}/${cidr.prefixLength}`;
}
