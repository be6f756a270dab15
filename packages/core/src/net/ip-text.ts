/**
 * The textual forms of IP addresses with Go `net.ParseIP` (Kubernetes `ParseIPSloppy`) rules,
 * shared by the node address helpers (16-byte values) and the route CIDR helpers (bigint values):
 * IPv4 dotted quads may carry leading zeros (read as decimal), IPv6 accepts every textual form
 * (compressed, expanded, an embedded IPv4 address at the end only), zones are rejected.
 */

/** The four octets of a dotted quad; `undefined` when `text` is not one. */
export function parseIpv4Octets(text: string): number[] | undefined {
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

/** The eight 16-bit groups of an IPv6 address; `undefined` when `text` is not one. */
export function parseIpv6Groups(text: string): number[] | undefined {
  if (text === '' || text.includes('%')) return undefined;
  const doubleColon = text.indexOf('::');
  if (doubleColon !== -1 && text.indexOf('::', doubleColon + 1) !== -1) return undefined;
  const parseGroups = (section: string): number[] | undefined => {
    if (section === '') return [];
    const pieces = section.split(':');
    const groups: number[] = [];
    for (let index = 0; index < pieces.length; index++) {
      const piece = pieces[index] ?? '';
      if (index === pieces.length - 1 && piece.includes('.')) {
        const octets = parseIpv4Octets(piece);
        if (octets === undefined) return undefined;
        groups.push(((octets[0] ?? 0) << 8) | (octets[1] ?? 0), ((octets[2] ?? 0) << 8) | (octets[3] ?? 0));
        continue;
      }
      if (!/^[0-9a-fA-F]{1,4}$/.test(piece)) return undefined;
      groups.push(parseInt(piece, 16));
    }
    return groups;
  };
  if (doubleColon === -1) {
    const all = parseGroups(text);
    return all === undefined || all.length !== 8 ? undefined : all;
  }
  // An embedded IPv4 address may only end the address, never precede the `::`.
  if (text.slice(0, doubleColon).includes('.')) return undefined;
  const head = parseGroups(text.slice(0, doubleColon));
  const tail = parseGroups(text.slice(doubleColon + 2));
  if (head === undefined || tail === undefined) return undefined;
  const missing = 8 - head.length - tail.length;
  if (missing < 1) return undefined;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

/** RFC 5952 text of eight 16-bit groups (Go `IP.String()` for IPv6): lower-case, longest zero run as `::`. */
export function formatIpv6Groups(groups: readonly number[]): string {
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
  const hex = (values: readonly number[]): string => values.map((value) => value.toString(16)).join(':');
  if (bestStart === -1) return hex(groups);
  return `${hex(groups.slice(0, bestStart))}::${hex(groups.slice(bestStart + bestLength))}`;
}
