import { describe, expect, it } from 'vitest';
import { cidrFamily, parseClusterCidrFlag } from './cluster-cidrs.js';

describe('parseClusterCidrFlag', () => {
  it.each([
    ['10.244.0.0/16', ['10.244.0.0/16'], false],
    [' 10.244.0.0/16 ', ['10.244.0.0/16'], false],
    ['10.244.0.0/16,fd00::/48', ['10.244.0.0/16', 'fd00::/48'], true],
    ['fd00::/48,10.244.0.0/16', ['fd00::/48', '10.244.0.0/16'], true],
    ['10.244.1.5/16', ['10.244.1.5/16'], false],
  ])('%j is valid', (text, cidrs, dualStack) => {
    expect(parseClusterCidrFlag(text)).toEqual({ ok: true, cidrs, dualStack });
  });

  it.each([
    ['', '--cluster-cidr is not set'],
    ['10.244.0.0', 'invalid CIDR "10.244.0.0" in --cluster-cidr'],
    ['10.244.0.0/33', 'invalid CIDR "10.244.0.0/33" in --cluster-cidr'],
    ['10.244.0.0/16,', 'invalid CIDR "" in --cluster-cidr'],
    ['10.244.0.0/16, fd00::/48', 'invalid CIDR " fd00::/48" in --cluster-cidr'],
    ['10.0.0.0/16,10.1.0.0/16', '--cluster-cidr has 2 CIDRs of one IP family: more than one CIDR is only allowed for dual-stack (one IPv4 and one IPv6 CIDR)'],
    ['10.0.0.0/16,fd00::/48,10.1.0.0/16', '--cluster-cidr has 3 CIDRs: at most 2 are allowed (one IPv4 and one IPv6)'],
  ])('%j is rejected', (text, error) => {
    expect(parseClusterCidrFlag(text)).toEqual({ ok: false, error });
  });

  it.each([
    ['10.0.0.0/8', 4], ['::/0', 6], ['fe80::1%eth0/64', undefined], ['10.0.0.0/x', undefined], ['10.0.0.0/+8', undefined], ['hello/8', undefined],
  ])('cidrFamily(%j) = %j', (text, expected) => {
    expect(cidrFamily(text)).toBe(expected);
  });
});
