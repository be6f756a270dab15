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
 * off), but the node IPAM controller is not implemented here. Upstream's controller fails the
 * command without `--allocate-node-cidrs` ("the AllocateNodeCIDRs is not enabled"); here it is
 * skipped then, so the default `--controllers=*` keeps working. With `--allocate-node-cidrs=true`
 * the command stops with one line: nodes would silently get no pod CIDR.
 */
export function startNodeIpamController(context: ControllerContext): Controller | { skipped: string } {
  if (!context.config.allocateNodeCidrs) return { skipped: 'the AllocateNodeCIDRs is not enabled' };
  throw new Error(
    `the "${NODE_IPAM_CONTROLLER_NAME}" controller is not implemented by this cloud-controller-manager: with --allocate-node-cidrs=true nodes would get no pod CIDR; ` +
      `disable it with --controllers=*,-${NODE_IPAM_CONTROLLER_NAME} and allocate pod CIDRs elsewhere (kube-controller-manager's node IPAM, or VPC-native alias IP ranges)`,
  );
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
