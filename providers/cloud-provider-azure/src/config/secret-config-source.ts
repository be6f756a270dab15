/**
 * The effective connection config (cloud, endpoints, tenant, subscription, client ID and the
 * credential keys) with upstream's `cloudConfigType`: `file` uses `azure.json` alone; `merge` (upstream's
 * default) and `secret` overlay it with the `cloud-config` key of the Secret
 * `kube-system/azure-cloud-provider`, read through the CCM's shared Secret informer. When the
 * Secret does not exist the file alone is used if it is complete. The Secret is re-read when it
 * changes (the next ARM call uses the new credentials). The cluster keys (resource group,
 * location, route table, vmType, ...) are read from the file at start.
 */
import { CloudConfigError, findCloudConfigError } from '@ccm/core/config';
import type { Logger } from '@ccm/core/logging';
import type { ProviderInformers } from '@ccm/core/provider';
import type { V1Secret } from '@kubernetes/client-node';
import { AzureConfigurationError } from '../errors.js';
import { parseAzureConfigValues, resolveAzureCloudConfig, type AzureCloudConfig, type AzureConfigValues } from './read-azure-cloud-config.js';

export const CLOUD_CONFIG_SECRET = { namespace: 'kube-system', name: 'azure-cloud-provider', key: 'cloud-config' } as const;

/** How long a first ARM call waits for the Secret informer's first list. */
export const SECRET_SYNC_TIMEOUT_MS = 10_000;

const SECRET_SOURCE_NAME = `Secret ${CLOUD_CONFIG_SECRET.namespace}/${CLOUD_CONFIG_SECRET.name} key ${CLOUD_CONFIG_SECRET.key}`;

type SecretInformer = ReturnType<ProviderInformers['secrets']>;

export class ConnectionConfigSource {
  readonly #file: AzureConfigValues;
  readonly #fileConfig: AzureCloudConfig;
  readonly #logger: Logger;
  #informer: SecretInformer | undefined;
  #cached: { version: string; config: AzureCloudConfig } | undefined;

  constructor(file: AzureConfigValues, fileConfig: AzureCloudConfig, logger: Logger) {
    this.#file = file;
    this.#fileConfig = fileConfig;
    this.#logger = logger;
  }

  /** Starts following the Secret (from the provider's `initialize`), unless the config is file-only. */
  attach(informers: Pick<ProviderInformers, 'secrets'>): void {
    if (this.#fileConfig.cloudConfigType === 'file' || this.#informer !== undefined) return;
    const informer = informers.secrets(CLOUD_CONFIG_SECRET.namespace, CLOUD_CONFIG_SECRET.name);
    informer.addHandlers({
      onAdd: () => this.#logger.info('cloud config Secret found; the next ARM call uses it', { object: SECRET_SOURCE_NAME }),
      onUpdate: (previous, current) => {
        if (previous.metadata?.resourceVersion !== current.metadata?.resourceVersion) this.#logger.info('cloud config Secret changed; the next ARM call uses it', { object: SECRET_SOURCE_NAME });
      },
      onDelete: () => this.#logger.warn('cloud config Secret deleted; using the file alone', { object: SECRET_SOURCE_NAME }),
    });
    this.#informer = informer;
  }

  /** The connection config the next ARM call uses; `version` changes when it changes. */
  async current(): Promise<{ version: string; config: AzureCloudConfig }> {
    const informer = this.#informer;
    if (informer === undefined) return { version: 'file', config: this.#requireCompleteFile('the Secret is not read before the provider is initialized') };
    if (!informer.hasSynced()) await informer.waitForSync(AbortSignal.timeout(SECRET_SYNC_TIMEOUT_MS)).catch(() => undefined);
    const secret = informer.store.get(`${CLOUD_CONFIG_SECRET.namespace}/${CLOUD_CONFIG_SECRET.name}`);
    if (secret === undefined) return { version: 'file', config: this.#requireCompleteFile(`${SECRET_SOURCE_NAME} was not found`) };
    const version = secret.metadata?.resourceVersion ?? 'unknown';
    if (this.#cached?.version === version) return this.#cached;
    this.#cached = { version, config: this.#merge(secret) };
    return this.#cached;
  }

  #requireCompleteFile(why: string): AzureCloudConfig {
    const config = this.#fileConfig;
    if (config.credential !== undefined && config.subscriptionId !== '') return config;
    try {
      return resolveAzureCloudConfig([this.#file], { requireConnection: true });
    } catch (error) {
      const configError = findCloudConfigError(error);
      const problems = configError === undefined ? String(error) : configError.problems.map((problem) => problem.message).join('; ');
      throw new AzureConfigurationError(`${why}, and ${this.#file.fileName} is not complete: ${problems}`, { cause: error });
    }
  }

  #merge(secret: V1Secret): AzureCloudConfig {
    const encoded = secret.data?.[CLOUD_CONFIG_SECRET.key];
    const text = encoded === undefined ? secret.stringData?.[CLOUD_CONFIG_SECRET.key] : Buffer.from(encoded, 'base64').toString('utf8');
    if (text === undefined) throw new AzureConfigurationError(`${SECRET_SOURCE_NAME}: the Secret has no key ${JSON.stringify(CLOUD_CONFIG_SECRET.key)}`);
    try {
      const fromSecret = parseAzureConfigValues(text, SECRET_SOURCE_NAME);
      if (fromSecret.problems.length > 0) throw new CloudConfigError(fromSecret.problems);
      for (const warning of fromSecret.warnings) this.#logger.warn(`${warning.fileName}${warning.line === undefined ? '' : `:${warning.line}`}: ${warning.message}`);
      // `secret` is read as `merge`: the cluster keys of the file stay in force.
      return resolveAzureCloudConfig([this.#file, fromSecret], { requireConnection: true });
    } catch (error) {
      const configError = findCloudConfigError(error);
      throw new AzureConfigurationError(configError === undefined ? String(error) : configError.message, { cause: error });
    }
  }
}
