/**
 * IP parsing with the semantics Kubernetes uses for node IPs (`netutils.ParseIPSloppy`, i.e. Go
 * 1.16 `net.ParseIP`): IPv4 dotted quads may carry leading zeros (`010.0.0.1` is 10.0.0.1),
 * IPv6 accepts every textual form (compressed, expanded, embedded IPv4), zones are rejected.
 * Addresses are compared as 16-byte values, so different spellings of one address are equal and
 * an IPv4-mapped IPv6 address equals its IPv4 form.
 */

/** A parsed IP as 16 bytes (IPv4 addresses in their IPv4-mapped form). */
export type IpBytes = Uint8Array;

const IPV4_MAPPED_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff] as const;

function parseIpv4Octets(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const octets: number[] = [];
  for (const part of parts) {
    if (!/^[0-9]{1,3}$/.test(part)) return undefined;
    const value = Number(part);
    if (value > 255) return undefined;
    octets.push(value);
  }
  return octets;
}

function parseIpv6(text: string): IpBytes | undefined {
  if (text.includes('%')) return undefined;
  const doubleColon = text.indexOf('::');
  if (doubleColon !== -1 && text.indexOf('::', doubleColon + 1) !== -1) return undefined;
  const parseGroups = (section: string): number[] | undefined => {
    if (section === '') return [];
    const groups = section.split(':');
    const values: number[] = [];
    for (let index = 0; index < groups.length; index++) {
      const group = groups[index] ?? '';
      if (index === groups.length - 1 && group.includes('.')) {
        const octets = parseIpv4Octets(group);
        if (octets === undefined) return undefined;
        values.push(((octets[0] ?? 0) << 8) | (octets[1] ?? 0), ((octets[2] ?? 0) << 8) | (octets[3] ?? 0));
        continue;
      }
      if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return undefined;
      values.push(parseInt(group, 16));
    }
    return values;
  };
  let groups: number[];
  if (doubleColon === -1) {
    const all = parseGroups(text);
    if (all === undefined || all.length !== 8) return undefined;
    groups = all;
  } else {
    const head = parseGroups(text.slice(0, doubleColon));
    const tail = parseGroups(text.slice(doubleColon + 2));
    if (head === undefined || tail === undefined) return undefined;
    // An embedded IPv4 address may only end the address, never precede the `::`.
    if (text.slice(0, doubleColon).includes('.')) return undefined;
    const missing = 8 - head.length - tail.length;
    if (missing < 1) return undefined;
    groups = [...head, ...new Array<number>(missing).fill(0), ...tail];
  }
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
  let bestStart = -1;
  let bestLength = 0;
  for (let index = 0; index < 8; ) {
    if (groups[index] !== 0) {
      index++;
      continue;
    }
    let end = index;
    while (end < 8 && groups[end] === 0) end++;
    if (end - index > bestLength && end - index >= 2) {
      bestStart = index;
      bestLength = end - index;
    }
    index = end;
  }
  const hex = (values: number[]) => values.map((value) => value.toString(16)).join(':');
  if (bestStart === -1) return hex(groups);
  return `${hex(groups.slice(0, bestStart))}::${hex(groups.slice(bestStart + bestLength))}`;
}
