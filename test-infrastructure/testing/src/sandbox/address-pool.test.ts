import { describe, expect, it } from 'vitest';
import { Ipv4AddressPool } from './address-pool.js';

describe('Ipv4AddressPool', () => {
  it.each<[string, (pool: Ipv4AddressPool) => string[], string[]]>([
    ['hands out the lowest free host, skipping network and gateway', (pool) => [pool.allocate(), pool.allocate()], ['10.0.0.2', '10.0.0.3']],
    ['reuses a released address before higher ones', (pool) => {
      pool.allocate();
      const second = pool.allocate();
      pool.allocate();
      pool.release(second);
      return [pool.allocate(), pool.allocate()];
    }, ['10.0.0.3', '10.0.0.5']],
    ['skips reserved addresses', (pool) => {
      pool.reserve('10.0.0.3');
      return [pool.allocate(), pool.allocate()];
    }, ['10.0.0.2', '10.0.0.4']],
    ['starts over after clear', (pool) => {
      pool.allocate();
      pool.allocate();
      pool.clear();
      return [pool.allocate()];
    }, ['10.0.0.2']],
    ['ignores the release of an address outside the range', (pool) => {
      pool.reserve('192.168.1.1');
      pool.release('192.168.1.1');
      return [pool.allocate()];
    }, ['10.0.0.2']],
  ])('%s', (_name, run, expected) => {
    expect(run(new Ipv4AddressPool('10.0.0.0/24', 'test'))).toEqual(expected);
  });

  it('fills a /16 in order and then says it is exhausted', () => {
    const pool = new Ipv4AddressPool('10.0.0.0/16', 'internal');
    const addresses = Array.from({ length: 65_533 }, () => pool.allocate());
    expect(addresses[0]).toBe('10.0.0.2');
    expect(addresses.at(-1)).toBe('10.0.255.254');
    expect(new Set(addresses).size).toBe(65_533);
    expect(() => pool.allocate()).toThrow('no free address left in the internal pool');
    pool.release('10.0.17.4');
    expect(pool.allocate()).toBe('10.0.17.4');
  });
});
