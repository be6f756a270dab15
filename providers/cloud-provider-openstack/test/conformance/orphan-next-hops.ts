/**
 * Next hops of the conformance driver's injected routes to nodes that do not exist: addresses on
 * the node subnet (Neutron requires a next hop there) that no port is ever given, because the
 * subnet's allocation pools leave them out. A server holding one would turn an injected
 * "blackhole" into a route of that node, which the CCM hides while the node's port lacks the
 * allowed address pair (upstream's ListRoutes), so the route is never removed.
 */
const ORPHAN_NEXT_HOP_BASE = 240;
const ORPHAN_NEXT_HOPS = 10;

function ipv4ToNumber(address: string): number {
  return address.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
}

function numberToIpv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

function firstThreeOctets(cidr: string): string {
  return (cidr.split('/')[0] ?? '').split('.').slice(0, 3).join('.');
}

/** The `index`-th orphan next hop (cycling through ten): `<first three octets of cidr>.240` to `.249`. */
export function orphanNextHop(cidr: string, index: number): string {
  return `${firstThreeOctets(cidr)}.${ORPHAN_NEXT_HOP_BASE + (index % ORPHAN_NEXT_HOPS)}`;
}

/** The allocation pools of an IPv4 subnet `cidr`: every host after the gateway (the first address) except the orphan next hops. */
export function allocationPoolsWithoutOrphanNextHops(cidr: string): Array<{ start: string; end: string }> {
  const [base = '', prefixText = ''] = cidr.split('/');
  const network = ipv4ToNumber(base);
  const firstHost = network + 2;
  const lastHost = network + 2 ** (32 - Number(prefixText)) - 2;
  const orphanFirst = ipv4ToNumber(orphanNextHop(cidr, 0));
  const orphanLast = orphanFirst + ORPHAN_NEXT_HOPS - 1;
  const pools = [
    { start: firstHost, end: Math.min(lastHost, orphanFirst - 1) },
    { start: Math.max(firstHost, orphanLast + 1), end: lastHost },
  ];
  return pools.filter((pool) => pool.start <= pool.end).map((pool) => ({ start: numberToIpv4(pool.start), end: numberToIpv4(pool.end) }));
}
