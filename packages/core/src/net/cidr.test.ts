import { describe, expect, it } from 'vitest';
import { cidrContains, formatCidr, formatIpAddress, InvalidCidrError, lastAddress, parseCidr, parseIpAddress } from './cidr.js';

describe('parseCidr (Go ParseCIDRSloppy semantics)', () => {
  it.each([
    ['10.244.0.0/16', '10.244.0.0/16'],
    ['10.244.3.7/16', '10.244.0.0/16'],
    ['192.168.0.0/0', '0.0.0.0/0'],
    ['010.001.0.0/16', '10.1.0.0/16'],
    ['a00:100::/10', 'a00::/10'],
    ['2001:DB8:0:0:1::1/128', '2001:db8::1:0:0:1/128'],
    ['2001:db8::/32', '2001:db8::/32'],
    ['::/0', '::/0'],
    ['fe80:0:0:1:0:0:0:1/128', 'fe80:0:0:1::1/128'],
  ])('%s -> %s', (input, canonical) => {
    expect(formatCidr(parseCidr(input))).toBe(canonical);
  });

  it.each(['10.0.0.1/33', 'foo.bar', '*', '', '10.0.0.1', '10.0.0.256/8', '10.0.0/8', '::1::/64', '2001:db8::/129', '10.0.0.0/-1', ' 10.0.0.0/8'])(
    'rejects %j with Go message',
    (input) => {
      expect(() => parseCidr(input)).toThrow(InvalidCidrError);
      expect(() => parseCidr(input)).toThrow(`invalid CIDR address: ${input}`);
    },
  );

  it('computes the last address and containment per family', () => {
    const cluster = parseCidr('10.244.0.0/14');
    expect(formatIpAddress(lastAddress(parseCidr('10.247.255.0/24')))).toBe('10.247.255.255');
    expect(cidrContains(cluster, parseIpAddress('10.247.255.255')!)).toBe(true);
    expect(cidrContains(cluster, parseIpAddress('10.248.0.0')!)).toBe(false);
    expect(cidrContains(parseCidr('::/0'), parseIpAddress('10.0.0.1')!)).toBe(false);
  });
});
