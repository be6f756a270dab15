import { describe, expect, it } from 'vitest';
import { formatIp, ipEqual, isIpv4, isUnspecifiedIp, parseIp } from './ip-address.js';

describe('parseIp (netutils.ParseIPSloppy semantics)', () => {
  it.each([
    ['10.1.1.1', '10.1.1.1'],
    ['010.001.001.001', '10.1.1.1'],
    ['0.0.0.0', '0.0.0.0'],
    ['2600:1f14:1d4:d101::ba3d', '2600:1f14:1d4:d101::ba3d'],
    ['2600:1f14:1d4:d101:0:0:0:ba3d', '2600:1f14:1d4:d101::ba3d'],
    ['FC01:1234::5678', 'fc01:1234::5678'],
    ['::', '::'],
    ['::1', '::1'],
    ['1::', '1::'],
    ['::ffff:10.1.1.1', '10.1.1.1'],
    ['64:ff9b::10.1.1.1', '64:ff9b::a01:101'],
    ['1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8'],
  ])('parses %s as %s', (text, canonical) => {
    const ip = parseIp(text);
    expect(ip).toBeDefined();
    expect(formatIp(ip as Uint8Array)).toBe(canonical);
  });

  it.each(['', ' 10.1.1.1', '10.1.1.1 ', '10.1.1', '10.1.1.256', '10.1.1.1.1', 'a.b.c.d', '1:2:3:4:5:6:7:8:9', '1::2::3', 'fe80::1%eth0', '12345::', ':::', '1.2.3.4::', 'hostname'])(
    'rejects %j',
    (text) => {
      expect(parseIp(text)).toBeUndefined();
    },
  );

  it('compares different spellings as equal and keeps families apart', () => {
    expect(ipEqual(parseIp('2600:1f14:1d4:d101::ba3d')!, parseIp('2600:1f14:1d4:d101:0:0:0:ba3d')!)).toBe(true);
    expect(ipEqual(parseIp('10.1.1.1')!, parseIp('::ffff:10.1.1.1')!)).toBe(true);
    expect(ipEqual(parseIp('10.1.1.1')!, parseIp('10.1.1.2')!)).toBe(false);
    expect(isIpv4(parseIp('10.1.1.1')!)).toBe(true);
    expect(isIpv4(parseIp('fc01::1')!)).toBe(false);
    expect(isUnspecifiedIp(parseIp('0.0.0.0')!)).toBe(true);
    expect(isUnspecifiedIp(parseIp('::')!)).toBe(true);
    expect(isUnspecifiedIp(parseIp('::1')!)).toBe(false);
  });
});
