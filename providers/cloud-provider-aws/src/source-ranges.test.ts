/**
 * The client source ranges of this provider: core's serviceSourceRanges with the default its
 * upstream leads to (upstream cloud-provider-aws passes servicehelpers.GetLoadBalancerSourceRanges to both load balancer kinds: 0.0.0.0/0; docs/parity.md).
 */
import { itReadsSourceRanges, sourceRangesService } from '@ccm/testing/contract';
import { describe, expect, it } from 'vitest';
import { loadBalancerSourceRanges } from './annotations.js';
import { UnsupportedServiceError } from './errors.js';

const ANNOTATION = 'service.beta.kubernetes.io/load-balancer-source-ranges';

describe('source ranges', () => {
  itReadsSourceRanges({ read: loadBalancerSourceRanges, defaultRanges: ['0.0.0.0/0'], annotation: ANNOTATION });

  it('a bad spec field is the Service\'s own error, with upstream\'s wording', () => {
    expect(() => loadBalancerSourceRanges(sourceRangesService(['nope']))).toThrow(UnsupportedServiceError);
    expect(() => loadBalancerSourceRanges(sourceRangesService(['nope']))).toThrow(/service.Spec.LoadBalancerSourceRanges: \["nope"\] is not valid/);
  });
});
