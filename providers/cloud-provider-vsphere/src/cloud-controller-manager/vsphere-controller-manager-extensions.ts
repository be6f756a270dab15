/**
 * What the vSphere binary adds to core's command (upstream `cmd/vsphere-cloud-controller-manager`
 * with `pkg/cloudprovider/vsphere/options` `AddFlags`):
 * - `--node-labels`, whose labels the provider reads through `nodeLabels` once the flags are parsed;
 * - the watch of `--cloud-config` (upstream `initializeWatch`): the first change of the file stops
 *   the command with one line and exit code 255 (upstream `klog.Fatalf`), so an edited ConfigMap
 *   takes effect through the pod's restart.
 */
import type { RunCloudControllerManagerOptions } from '@ccm/core/app';
import { createLogger, type LogDestination } from '@ccm/core/logging';
import { watchCloudConfig, type FileWatch, type WatchFunction } from './cloud-config-watch.js';
import { parseNodeLabels, VSPHERE_FLAGS } from './vsphere-flags.js';

/** Upstream exits with klog.Fatalf, whose exit code is 255. */
export const CLOUD_CONFIG_CHANGED_EXIT_CODE = 255;

export interface VsphereControllerManagerExtensionsOptions {
  /** Where the restart line goes; default process.stderr (give the command's own in tests). */
  stderr?: LogDestination;
  watch?: WatchFunction;
}

export interface VsphereControllerManagerExtensions {
  /** Spread into `runCloudControllerManager`'s settings. */
  settings: Required<Pick<RunCloudControllerManagerOptions, 'additionalFlags' | 'onFlagsParsed' | 'signal'>>;
  /** `--node-labels` as parsed (empty until the flags are parsed). */
  nodeLabels: () => Readonly<Record<string, string>>;
  /** The process exit code: the command's, or 255 after a cloud config change stopped it. */
  exitCode: (commandExitCode: number) => number;
  /** Stops watching the cloud config. */
  close: () => void;
}

export function vsphereControllerManagerExtensions(options: VsphereControllerManagerExtensionsOptions = {}): VsphereControllerManagerExtensions {
  let nodeLabels: Readonly<Record<string, string>> = {};
  let configWatch: FileWatch | undefined;
  let configChanged = false;
  const restart = new AbortController();
  return {
    settings: {
      additionalFlags: [VSPHERE_FLAGS],
      onFlagsParsed: (flags, commandOptions) => {
        nodeLabels = parseNodeLabels(flags.valuesOf(VSPHERE_FLAGS).nodeLabels);
        const path = commandOptions.cloudConfig;
        if (path === '') return;
        const logger = createLogger({
          format: commandOptions.loggingFormat === 'json' ? 'json' : 'text',
          verbosity: commandOptions.verbosity,
          ...(options.stderr === undefined ? {} : { destination: options.stderr }),
        });
        configWatch = watchCloudConfig(
          path,
          () => {
            configChanged = true;
            logger.error(`config map ${path} has been updated, restarting pod`);
            restart.abort();
          },
          options.watch,
        );
      },
      signal: restart.signal,
    },
    nodeLabels: () => nodeLabels,
    exitCode: (commandExitCode) => (configChanged ? CLOUD_CONFIG_CHANGED_EXIT_CODE : commandExitCode),
    close: () => configWatch?.close(),
  };
}
