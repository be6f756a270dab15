/**
 * IP parsing with the semantics Kubernetes uses for node IPs (`netutils.ParseIPSloppy`, i.e. Go
 * 1.16 `net.ParseIP`): IPv4 dotted quads may carry leading zeros (`010.0.0.1` is 10.0.0.1),
 * IPv6 accepts every textual form (compressed, expanded, embedded IPv4), zones are rejected.
 * Addresses are compared as 16-byte values, so different spellings of one address are equal and
 * an IPv4-mapped IPv6 address equals its IPv4 form.
 */

import { formatIpv6Groups, parseIpv4Octets, parseIpv6Groups } from './ip-text.js';

/** A parsed IP as 16 bytes (IPv4 addresses in their IPv4-mapped form). */
export type IpBytes = Uint8Array;

const IPV4_MAPPED_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff] as const;

function parseIpv6(text: string): IpBytes | undefined {
  const groups = parseIpv6Groups(text);
  if (groups === undefined) return undefined;
  const bytes = new Uint8Array(16);
  groups.forEach((group, index) => {
    bytes[index * 2] = group >> 8;
    bytes[index * 2 + 1] = group & 0xff;
  });
  return bytes;
}

/** Parses an IPv4 or IPv6 address; `undefined` when `text` is not one. */
export function parseIp(text: string): IpBytes | undefined {
  if (text.includes(':')) return parseIpv6(text);
  const octets = parseIpv4Octets(text);
  if (octets === undefined) return undefined;
  return Uint8Array.from([...IPV4_MAPPED_PREFIX, ...octets]);
}

/** True for IPv4 addresses, including IPv4-mapped IPv6 ones (Go `To4() != nil`). */
export function isIpv4(ip: IpBytes): boolean {
  return IPV4_MAPPED_PREFIX.every((value, index) => ip[index] === value);
}

/** True for `0.0.0.0` and `::`. */
export function isUnspecifiedIp(ip: IpBytes): boolean {
  if (isIpv4(ip)) return ip[12] === 0 && ip[13] === 0 && ip[14] === 0 && ip[15] === 0;
  return ip.every((value) => value === 0);
}

export function ipEqual(left: IpBytes, right: IpBytes): boolean {
  return left.length === right.length && left.every((value, index) => right[index] === value);
}

/** Canonical text (Go `IP.String()`): dotted quad for IPv4, RFC 5952 compressed form for IPv6. */
export function formatIp(ip: IpBytes): string {
  if (isIpv4(ip)) return `${ip[12]}.${ip[13]}.${ip[14]}.${ip[15]}`;
  const groups: number[] = [];
  for (let index = 0; index < 8; index++) groups.push(((ip[index * 2] ?? 0) << 8) | (ip[index * 2 + 1] ?? 0));
  return formatIpv6Groups(groups);
}
