/**
 * What the vSphere binary adds to core's command (upstream `cmd/vsphere-cloud-controller-manager`
 * with `pkg/cloudprovider/vsphere/options` `AddFlags`): `--node-labels`, whose labels the provider
 * reads through the returned `nodeLabels` once the flags are parsed.
 */
import type { RunCloudControllerManagerOptions } from '@ccm/core/app';
import { parseNodeLabels, VSPHERE_FLAGS } from './vsphere-flags.js';

export interface VsphereControllerManagerExtensions {
  /** Spread into `runCloudControllerManager`'s settings. */
  settings: Required<Pick<RunCloudControllerManagerOptions, 'additionalFlags' | 'onFlagsParsed'>>;
  /** `--node-labels` as parsed (empty until the flags are parsed). */
  nodeLabels: () => Readonly<Record<string, string>>;
}

export function vsphereControllerManagerExtensions(): VsphereControllerManagerExtensions {
  let nodeLabels: Readonly<Record<string, string>> = {};
  return {
    settings: {
      additionalFlags: [VSPHERE_FLAGS],
      onFlagsParsed: (flags) => {
        nodeLabels = parseNodeLabels(flags.valuesOf(VSPHERE_FLAGS).nodeLabels);
      },
    },
    nodeLabels: () => nodeLabels,
  };
}
