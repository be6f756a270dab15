import type { V1Service } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { ANNOTATION_LOAD_BALANCER_SOURCE_RANGES } from '../api/well-known.js';
import { InvalidAnnotationError } from './invalid-annotation-error.js';
import { serviceSourceRanges } from './source-ranges.js';

const service = (ranges: string[] | undefined, annotations: Record<string, string> = {}): V1Service => ({
  metadata: { name: 's', namespace: 'n', annotations },
  spec: ranges === undefined ? {} : { loadBalancerSourceRanges: ranges },
});

describe('serviceSourceRanges (upstream GetLoadBalancerSourceRanges)', () => {
  it('the spec wins over the annotation; both canonical, de-duplicated, sorted', () => {
    expect(serviceSourceRanges(service([' 192.168.0.9/24', '10.0.0.0/8', '10.0.0.0/8'], { [ANNOTATION_LOAD_BALANCER_SOURCE_RANGES]: '172.16.0.0/12' }), { whenAbsent: 'allow-all' })).toEqual(['10.0.0.0/8', '192.168.0.0/24']);
    expect(serviceSourceRanges(service(undefined, { [ANNOTATION_LOAD_BALANCER_SOURCE_RANGES]: ' 2001:db8::1/32 , 10.0.0.0/8' }), { whenAbsent: 'allow-all' })).toEqual(['10.0.0.0/8', '2001:db8::/32']);
  });

  it.each([
    ['allow-all', ['0.0.0.0/0']],
    ['none', []],
  ] as const)('no ranges anywhere: %s gives %j', (whenAbsent, expected) => {
    expect(serviceSourceRanges(service(undefined, { [ANNOTATION_LOAD_BALANCER_SOURCE_RANGES]: ' ' }), { whenAbsent })).toEqual(expected);
    expect(serviceSourceRanges(service([]), { whenAbsent })).toEqual(expected);
  });

  it('reads the provider\'s own annotation when given', () => {
    const key = 'example.com/allowed-ranges';
    expect(serviceSourceRanges(service(undefined, { [key]: '10.0.0.0/8', [ANNOTATION_LOAD_BALANCER_SOURCE_RANGES]: '192.168.0.0/16' }), { whenAbsent: 'none', annotation: key })).toEqual(['10.0.0.0/8']);
  });

  it('every bad range is named', () => {
    expect(() => serviceSourceRanges(service(['10.0.0.0/8', '300.1.1.1/8', 'x']), { whenAbsent: 'none' })).toThrow('"300.1.1.1/8", "x" are not CIDRs');
  });

  it('a bad range names the field or the annotation and the value', () => {
    expect(() => serviceSourceRanges(service(['10.0.0.0/8', 'nope']), { whenAbsent: 'none' })).toThrow(new InvalidAnnotationError('spec.loadBalancerSourceRanges', '10.0.0.0/8,nope', '"nope" is not a CIDR'));
    expect(() => serviceSourceRanges(service(undefined, { [ANNOTATION_LOAD_BALANCER_SOURCE_RANGES]: '10.0.0.0/99' }), { whenAbsent: 'allow-all' })).toThrow(
      `annotation ${ANNOTATION_LOAD_BALANCER_SOURCE_RANGES}="10.0.0.0/99": "10.0.0.0/99" is not a CIDR`,
    );
  });
});
