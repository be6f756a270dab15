/**
 * The client source ranges of this provider: core's serviceSourceRanges with the default its
 * upstream leads to (upstream sends its allow-all default as allowed_cidrs; Octavia reads no allowed_cidrs the same, so none is sent; docs/parity.md).
 */
import { itReadsSourceRanges } from '@ccm/testing/contract';
import { describe } from 'vitest';
import { sourceRangesOf } from './annotations.js';

describe('source ranges', () => {
  itReadsSourceRanges({ read: sourceRangesOf, defaultRanges: [], annotation: 'service.beta.kubernetes.io/load-balancer-source-ranges' });
});
