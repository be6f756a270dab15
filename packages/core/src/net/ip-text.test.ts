import { describe, expect, it } from 'vitest';
import { formatIpv6Groups, parseIpv4Octets, parseIpv6Groups } from './ip-text.js';

describe('parseIpv4Octets', () => {
  it.each([
    ['10.0.0.1', [10, 0, 0, 1]],
    ['010.000.0.01', [10, 0, 0, 1]],
    ['256.0.0.1', undefined],
    ['1.2.3', undefined],
    ['1.2.3.4.5', undefined],
    ['1.2.3.x', undefined],
  ])('%j -> %j', (text, expected) => {
    expect(parseIpv4Octets(text)).toEqual(expected);
  });
});

describe('parseIpv6Groups', () => {
  it.each([
    ['::', [0, 0, 0, 0, 0, 0, 0, 0]],
    ['fd00::1', [0xfd00, 0, 0, 0, 0, 0, 0, 1]],
    ['1:2:3:4:5:6:7:8', [1, 2, 3, 4, 5, 6, 7, 8]],
    ['::ffff:10.0.0.1', [0, 0, 0, 0, 0, 0xffff, 0x0a00, 0x0001]],
    ['', undefined],
    ['1::2::3', undefined],
    ['1:2:3:4:5:6:7:8::', undefined],
    ['1:2:3:4:5:6:7', undefined],
    ['fe80::1%eth0', undefined],
    ['1.2.3.4::', undefined],
    ['12345::', undefined],
  ])('%j -> %j', (text, expected) => {
    expect(parseIpv6Groups(text)).toEqual(expected);
  });
});

describe('formatIpv6Groups (RFC 5952)', () => {
  it.each([
    [[0, 0, 0, 0, 0, 0, 0, 0], '::'],
    [[0xfd00, 0, 0, 0, 0, 0, 0, 1], 'fd00::1'],
    [[1, 0, 0, 2, 0, 0, 0, 3], '1:0:0:2::3'],
    [[1, 0, 0, 2, 0, 0, 3, 4], '1::2:0:0:3:4'],
    [[1, 0, 2, 3, 4, 5, 6, 7], '1:0:2:3:4:5:6:7'],
  ])('%j -> %s', (groups, expected) => {
    expect(formatIpv6Groups(groups)).toBe(expected);
  });
});
