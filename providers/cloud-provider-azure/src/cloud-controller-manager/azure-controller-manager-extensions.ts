/**
 * What the Azure binary adds to core's command (upstream `cmd/cloud-controller-manager/app` of
 * kubernetes-sigs/cloud-provider-azure): its flag groups (`azure-flags.ts`), and
 * `--node-instance-not-found-grace-period-in-seconds`, which the provider reads through
 * `notFoundGracePeriodSeconds` once the flags are parsed.
 */
import type { RunCloudControllerManagerOptions } from '@ccm/core/app';
import { AZURE_FLAG_GROUPS, AZURE_NODE_FILTERING_FLAGS } from './azure-flags.js';

export interface AzureControllerManagerExtensions {
  /** Spread into `runCloudControllerManager`'s settings. */
  settings: Required<Pick<RunCloudControllerManagerOptions, 'additionalFlags' | 'onFlagsParsed'>>;
  /** `--node-instance-not-found-grace-period-in-seconds` as parsed (0 until the flags are parsed). */
  notFoundGracePeriodSeconds: () => number;
}

export function azureControllerManagerExtensions(): AzureControllerManagerExtensions {
  let notFoundGracePeriodSeconds = 0;
  return {
    settings: {
      additionalFlags: AZURE_FLAG_GROUPS,
      onFlagsParsed: (flags) => {
        notFoundGracePeriodSeconds = flags.valuesOf(AZURE_NODE_FILTERING_FLAGS).nodeInstanceNotFoundGracePeriodSeconds;
      },
    },
    notFoundGracePeriodSeconds: () => notFoundGracePeriodSeconds,
  };
}
