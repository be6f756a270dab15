/**
 * IP address and CIDR parsing with Go `net` semantics (k8s.io/utils/net `ParseCIDRSloppy`):
 * IPv4 octets may carry leading zeros (read as decimal), the network is masked, and the
 * canonical string form matches Go's `IPNet.String()` (RFC 5952 for IPv6).
 */

import { formatIpv6Groups, parseIpv4Octets, parseIpv6Groups } from './ip-text.js';

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
export function parseIpAddress(text: string): IpAddress | undefined {
  if (text.includes(':')) {
    const value = parseIpv6(text);
    return value === undefined ? undefined : { family: 6, value };
  }
  const value = parseIpv4(text);
  return value === undefined ? undefined : { family: 4, value };
}

function parseIpv4(text: string): bigint | undefined {
  return parseIpv4Octets(text)?.reduce((value, octet) => (value << 8n) | BigInt(octet), 0n);
}

function parseIpv6(text: string): bigint | undefined {
  return parseIpv6Groups(text)?.reduce((value, group) => (value << 16n) | BigInt(group), 0n);
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
  const address = parseIpAddress(text.slice(0, slash));
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
export function formatIpAddress(address: IpAddress): string {
  if (address.family === 4) {
    return [24n, 16n, 8n, 0n].map((shift) => String((address.value >> shift) & 0xffn)).join('.');
  }
  const groups: number[] = [];
  for (let index = 7; index >= 0; index--) groups.push(Number((address.value >> BigInt(index * 16)) & 0xffffn));
  return formatIpv6Groups(groups);
}

/** Canonical `network/prefix` (Go's `IPNet.String()`). */
export function formatCidr(cidr: Cidr): string {
  return `${formatIpAddress({ family: cidr.family, value: cidr.network })}/${cidr.prefixLength}`;
}

const IPV4_MAPPED_HIGH_BITS = 0xffffn;

/**
 * Go's `IPNet.String()` of a parsed network: an IPv4-mapped IPv6 network of /96 or longer prints
 * as the IPv4 network (`::ffff:10.0.0.0/104` is `10.0.0.0/8`); other networks keep their family.
 */
export function formatCidrAsGo(cidr: Cidr): string {
  if (cidr.family === 6 && cidr.prefixLength >= 96 && cidr.network >> 32n === IPV4_MAPPED_HIGH_BITS) {
    return formatCidr({ family: 4, network: cidr.network & 0xffffffffn, prefixLength: cidr.prefixLength - 96 });
  }
  return formatCidr(cidr);
}
