/**
 * The client source ranges of this provider: core's serviceSourceRanges with the default its
 * upstream leads to (upstream writes Internet or * for its allow-all default; none leads to the same sources; docs/parity.md).
 */
import { itReadsSourceRanges, sourceRangesService } from '@ccm/testing/contract';
import { describe, expect, it } from 'vitest';
import { sourceRangesOf } from './annotations.js';

const ANNOTATION = 'service.beta.kubernetes.io/azure-allowed-ip-ranges';

const STANDARD = 'service.beta.kubernetes.io/load-balancer-source-ranges';

describe('source ranges', () => {
  itReadsSourceRanges({ read: sourceRangesOf, defaultRanges: [], annotation: ANNOTATION });

  it('reads azure-allowed-ip-ranges, not the standard annotation', () => {
    expect(sourceRangesOf(sourceRangesService(undefined, { [STANDARD]: '10.0.0.0/8' }))).toEqual([]);
  });
});
