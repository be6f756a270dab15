/**
 * Reads `--cloud-config` and creates the provider through the registry (upstream
 * `InitCloudProvider` plus the sample main's checks), turning every expected failure into a
 * `FatalStartupError` whose lines name the input: `cloud.conf:12: ...` for config problems.
 */
import type { Registry } from 'prom-client';
import { findCloudConfigError, formatCloudConfigProblems } from '../config/cloud-config-error.js';
import { readCloudConfigFile } from '../config/read-cloud-config-file.js';
import type { Logger } from '../logging/logger.js';
import { errorMessage } from '../util/error-message.js';
import { asMetricsSink } from './metrics/prometheus-metrics-sink.js';
import type { CloudProvider } from '../provider/cloud-provider.js';
import type { CloudProviderRegistry } from '../provider/provider-registry.js';
import { FatalStartupError } from './run-controllers.js';

export interface CreateCloudProviderOptions {
  registry: CloudProviderRegistry;
  providerName: string;
  /** `--cloud-config`, '' for none. */
  cloudConfigPath: string;
  allowUntaggedCloud: boolean;
  logger: Logger;
  metrics: Registry;
}

/** A FatalStartupError carrying one line per problem (a config file may have several). */
export class CloudProviderStartupError extends FatalStartupError {
  readonly lines: readonly string[];
  constructor(lines: readonly string[], options?: { cause?: unknown }) {
    super(lines.join('\n'), options);
    this.name = 'CloudProviderStartupError';
    this.lines = lines;
  }
}

export async function createCloudProvider(options: CreateCloudProviderOptions): Promise<CloudProvider> {
  const { providerName, cloudConfigPath, logger } = options;
  let configText: string | undefined;
  if (cloudConfigPath !== '') {
    try {
      configText = await readCloudConfigFile(cloudConfigPath);
    } catch (error) {
      throw asStartupError(error, providerName);
    }
  }
  let cloud: CloudProvider | undefined;
  try {
    cloud = await options.registry.create(providerName, configText, {
      ...(cloudConfigPath !== '' ? { configPath: cloudConfigPath } : {}),
      logger: logger.child({ provider: providerName }),
      metrics: asMetricsSink(options.metrics),
    });
  } catch (error) {
    throw asStartupError(error, providerName);
  }
  if (cloud === undefined) {
    throw new CloudProviderStartupError([`cloud provider ${JSON.stringify(providerName)} cannot run in a cloud-controller-manager (it means "no provider")`]);
  }
  if (!cloud.hasClusterId()) {
    if (options.allowUntaggedCloud) {
      logger.warn('detected a cluster without a ClusterID.  A ClusterID will be required in the future.  Please tag your cluster to avoid any future issues');
    } else {
      throw new CloudProviderStartupError([
        'no ClusterID found.  A ClusterID is required for the cloud provider to function properly.  This check can be bypassed by setting the allow-untagged-cloud option',
      ]);
    }
  }
  return cloud;
}

function asStartupError(error: unknown, providerName: string): CloudProviderStartupError {
  const configError = findCloudConfigError(error);
  if (configError) {
    return new CloudProviderStartupError(formatCloudConfigProblems(configError.problems), { cause: error });
  }
  const message = errorMessage(error);
  return new CloudProviderStartupError([message.includes(JSON.stringify(providerName)) ? message : `cloud provider ${JSON.stringify(providerName)}: ${message}`], { cause: error });
}
