import { describe, expect, it } from 'vitest';
import { allocationPoolsWithoutOrphanNextHops, orphanNextHop } from './orphan-next-hops.js';

describe('orphanNextHop', () => {
  it('cycles through .240 to .249 of the first three octets', () => {
    expect(orphanNextHop('10.250.0.0/24', 0)).toBe('10.250.0.240');
    expect(orphanNextHop('10.250.0.0/24', 9)).toBe('10.250.0.249');
    expect(orphanNextHop('10.250.0.0/24', 10)).toBe('10.250.0.240');
    expect(orphanNextHop('10.250.16.0/20', 3)).toBe('10.250.16.243');
  });
});

describe('allocationPoolsWithoutOrphanNextHops', () => {
  it.each([
    ['a /24: the hosts after the gateway, around the orphans', '10.250.0.0/24', [{ start: '10.250.0.2', end: '10.250.0.239' }, { start: '10.250.0.250', end: '10.250.0.254' }]],
    ['a /20: the orphans sit in its first /24', '10.250.16.0/20', [{ start: '10.250.16.2', end: '10.250.16.239' }, { start: '10.250.16.250', end: '10.250.31.254' }]],
    ['a /25 ends before the orphans: one pool', '10.30.0.0/25', [{ start: '10.30.0.2', end: '10.30.0.126' }]],
  ])('%s', (_name, cidr, pools) => {
    expect(allocationPoolsWithoutOrphanNextHops(cidr)).toEqual(pools);
  });

  it('never hands out an orphan next hop', () => {
    for (const cidr of ['10.250.0.0/24', '10.250.16.0/20']) {
      const toNumber = (address: string): number => address.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
      const pools = allocationPoolsWithoutOrphanNextHops(cidr);
      for (let index = 0; index < 10; index++) {
        const hop = toNumber(orphanNextHop(cidr, index));
        expect(pools.some((pool) => toNumber(pool.start) <= hop && hop <= toNumber(pool.end))).toBe(false);
      }
    }
  });
});
