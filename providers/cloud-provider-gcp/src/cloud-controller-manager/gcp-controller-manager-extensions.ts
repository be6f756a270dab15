/**
 * What the GCP binary adds to core's command (upstream `cmd/cloud-controller-manager/main.go` of
 * kubernetes/cloud-provider-gcp): its flag groups (`gcp-flags.ts`), and the health-check source
 * ranges of `--cloud-provider-gce-lb-src-cidrs`, which the provider reads through
 * `healthCheckSourceRanges` once the flags are parsed.
 */
import type { RunCloudControllerManagerOptions } from '@ccm/core/app';
import { L4_HEALTH_CHECK_SOURCE_RANGES } from '../operations/load-balancer/load-balancer-names.js';
import { GCE_LOAD_BALANCER_SOURCE_FLAGS, GCP_FLAG_GROUPS, parseSourceRanges } from './gcp-flags.js';

export interface GcpControllerManagerExtensions {
  /** Spread into `runCloudControllerManager`'s settings. */
  settings: Required<Pick<RunCloudControllerManagerOptions, 'additionalFlags' | 'onFlagsParsed'>>;
  /** `--cloud-provider-gce-lb-src-cidrs` as parsed (the default until the flags are parsed). */
  healthCheckSourceRanges: () => readonly string[];
}

export function gcpControllerManagerExtensions(): GcpControllerManagerExtensions {
  let healthCheckSourceRanges: readonly string[] = L4_HEALTH_CHECK_SOURCE_RANGES;
  return {
    settings: {
      additionalFlags: GCP_FLAG_GROUPS,
      onFlagsParsed: (flags) => {
        healthCheckSourceRanges = parseSourceRanges(flags.valuesOf(GCE_LOAD_BALANCER_SOURCE_FLAGS).l4SourceRanges);
      },
    },
    healthCheckSourceRanges: () => healthCheckSourceRanges,
  };
}
