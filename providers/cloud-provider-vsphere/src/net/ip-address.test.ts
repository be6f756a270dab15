import { describe, expect, it } from 'vitest';
import { Cidr, isLocalOnlyIp, parseIp } from './ip-address.js';

describe('ip-address', () => {
  it('parses IPv4, IPv6 and IPv4-mapped addresses', () => {
    expect(parseIp('10.0.0.1')).toEqual({ family: 'ipv4', bytes: [10, 0, 0, 1] });
    expect(parseIp('::ffff:10.0.0.1')).toEqual({ family: 'ipv4', bytes: [10, 0, 0, 1] });
    expect(parseIp('2001:db8::1')?.bytes).toEqual([0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIp('fe80::1%eth0')).toBeUndefined();
    expect(parseIp('10.0.0')).toBeUndefined();
  });

  it.each([
    ['127.0.0.1', true],
    ['169.254.1.1', true],
    ['0.0.0.0', true],
    ['239.1.1.1', true],
    ['10.0.0.1', false],
    ['::1', true],
    ['::', true],
    ['fe80::1', true],
    ['febf::1', true],
    ['fec0::1', false],
    ['ff02::1', true],
    ['2001:db8::1', false],
  ])('%s local-only: %s', (text, expected) => {
    expect(isLocalOnlyIp(parseIp(text)!)).toBe(expected);
  });

  it('matches CIDRs of the same family', () => {
    const cidr = Cidr.parse('10.1.0.0/16')!;
    expect(cidr.contains(parseIp('10.1.255.3')!)).toBe(true);
    expect(cidr.contains(parseIp('10.2.0.1')!)).toBe(false);
    expect(Cidr.parse('2001:db8::/33')!.contains(parseIp('2001:db8:7fff::1')!)).toBe(true);
    expect(Cidr.parse('2001:db8::/33')!.contains(parseIp('2001:db8:8000::1')!)).toBe(false);
    expect(Cidr.parse('0.0.0.0/0')!.contains(parseIp('2001:db8::1')!)).toBe(false);
    expect(Cidr.parse('10.0.0.0/33')).toBeUndefined();
    expect(Cidr.parse('10.0.0.0')).toBeUndefined();
  });
});
