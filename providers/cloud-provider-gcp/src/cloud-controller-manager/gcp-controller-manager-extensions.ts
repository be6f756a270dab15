/**
 * What the GCP binary adds to core's command (upstream `cmd/cloud-controller-manager/main.go` of
 * kubernetes/cloud-provider-gcp): its flag groups (`gcp-flags.ts`), the health-check source
 * ranges of `--cloud-provider-gce-lb-src-cidrs`, which the provider reads through
 * `healthCheckSourceRanges` once the flags are parsed, and the controller name `nodeipam` that
 * upstream's binary adds to the default controllers.
 */
import { defaultControllerConstructors, type RunCloudControllerManagerOptions } from '@ccm/core/app';
import type { Controller, ControllerContext } from '@ccm/core/controllers';
import { L4_HEALTH_CHECK_SOURCE_RANGES } from '../operations/load-balancer/load-balancer-names.js';
import { GCE_LOAD_BALANCER_SOURCE_FLAGS, GCP_FLAG_GROUPS, parseSourceRanges } from './gcp-flags.js';

/** Upstream main.go: `controllerInitializers["nodeipam"]`, enabled by default (`*`). */
export const NODE_IPAM_CONTROLLER_NAME = 'nodeipam';

/**
 * `nodeipam` is accepted in `--controllers` (`*,-nodeipam` is how upstream's deployments turn it
 * off), but the node IPAM controller is not implemented here: it is always skipped, with the
 * reason in the `Skipping "nodeipam"` warning. Upstream's controller fails the command without
 * `--allocate-node-cidrs` ("the AllocateNodeCIDRs is not enabled"); here the default
 * `--controllers=*` keeps working. With `--allocate-node-cidrs=true` (which the route controller
 * needs too) the warning says that pod CIDRs must come from elsewhere.
 */
export function startNodeIpamController(context: ControllerContext): Controller | { skipped: string } {
  if (!context.config.allocateNodeCidrs) return { skipped: 'the AllocateNodeCIDRs is not enabled' };
  return {
    skipped:
      'the node IPAM controller is not implemented by this cloud-controller-manager: pod CIDRs are not allocated here, so with --allocate-node-cidrs=true they must come from kube-controller-manager\'s node IPAM or VPC-native alias IP ranges (turn this warning off with --controllers=*,-nodeipam)',
  };
}

export interface GcpControllerManagerExtensions {
  /** Spread into `runCloudControllerManager`'s settings. */
  settings: Required<Pick<RunCloudControllerManagerOptions, 'additionalFlags' | 'onFlagsParsed' | 'controllerConstructors'>>;
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
      controllerConstructors: { ...defaultControllerConstructors, [NODE_IPAM_CONTROLLER_NAME]: startNodeIpamController },
    },
    healthCheckSourceRanges: () => healthCheckSourceRanges,
  };
}
