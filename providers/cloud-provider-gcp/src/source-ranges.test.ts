/**
 * The client source ranges of this provider: core's serviceSourceRanges with the default its
 * upstream leads to (upstream cloud-provider-gcp gives servicehelpers.GetLoadBalancerSourceRanges to the k8s-fw- firewalls: 0.0.0.0/0; docs/parity.md).
 */
import type { V1Service } from '@kubernetes/client-node';
import { InvalidAnnotationError } from '@ccm/core/service-input';
import { describe, expect, it } from 'vitest';
import { sourceRangesOf } from './annotations.js';

const ANNOTATION = 'service.beta.kubernetes.io/load-balancer-source-ranges';

const service = (ranges: string[] | undefined, annotations: Record<string, string> = {}): V1Service => ({
  metadata: { name: 'web', namespace: 'default', uid: 'u-1', annotations },
  spec: { type: 'LoadBalancer', ports: [{ port: 80, nodePort: 30080 }], ...(ranges === undefined ? {} : { loadBalancerSourceRanges: ranges }) },
});

describe('source ranges', () => {
  it("no ranges: ['0.0.0.0/0']", () => {
    expect(sourceRangesOf(service(undefined))).toEqual(['0.0.0.0/0']);
    expect(sourceRangesOf(service([], { [ANNOTATION]: ' ' }))).toEqual(['0.0.0.0/0']);
  });

  it('the spec wins over the annotation; canonical, de-duplicated, sorted', () => {
    expect(sourceRangesOf(service(['192.168.0.9/24', '10.0.0.0/8', '10.0.0.0/8'], { [ANNOTATION]: '172.16.0.0/12' }))).toEqual(['10.0.0.0/8', '192.168.0.0/24']);
    expect(sourceRangesOf(service(undefined, { [ANNOTATION]: '172.16.0.0/12, 10.0.0.0/8' }))).toEqual(['10.0.0.0/8', '172.16.0.0/12']);
  });

  it('a bad annotation names the annotation and its value', () => {
    expect(() => sourceRangesOf(service(undefined, { [ANNOTATION]: '10.0.0.0/8,nope' }))).toThrow(InvalidAnnotationError);
    expect(() => sourceRangesOf(service(undefined, { [ANNOTATION]: '10.0.0.0/8,nope' }))).toThrow(`annotation ${ANNOTATION}="10.0.0.0/8,nope": "nope" is not a CIDR`);
  });

});
