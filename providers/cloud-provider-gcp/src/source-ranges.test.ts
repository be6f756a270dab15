/**
 * The client source ranges of this provider: core's serviceSourceRanges with the default its
 * upstream leads to (upstream cloud-provider-gcp gives servicehelpers.GetLoadBalancerSourceRanges to the k8s-fw- firewalls: 0.0.0.0/0; docs/parity.md).
 */
import { itReadsSourceRanges } from '@ccm/testing/contract';
import { describe } from 'vitest';
import { sourceRangesOf } from './annotations.js';

describe('source ranges', () => {
  itReadsSourceRanges({ read: sourceRangesOf, defaultRanges: ['0.0.0.0/0'], annotation: 'service.beta.kubernetes.io/load-balancer-source-ranges' });
});
