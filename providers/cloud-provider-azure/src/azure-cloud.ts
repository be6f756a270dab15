/**
 * Composition root of the Azure provider (upstream `NewCloud`): reads `azure.json`, builds the
 * SDK clients (Entra client-secret credential against the configured authority, ARM clients
 * against the configured endpoint), the Compute and Network ports behind the port pipeline
 * (`composeAzurePort`: retries of transient failures -> the one cloud API budget -> the
 * observer -> the SDK adapter), the cached instance lookups, and the capabilities:
 * InstancesV2 always, Routes when `routeTableName` is set. LoadBalancer is not offered yet.
 */
import type { CloudApiBudget, CloudRetryPolicy } from '@ccm/core/cloud';
import { defineCloudProvider, type CloudProvider, type CloudProviderCreateContext, type CloudProviderFactoryContext, type CloudProviderRegistry, type DefinedCloudProvider, type InstancesV2, type Routes } from '@ccm/core/provider';
import { AzureInstances } from './azure-instances.js';
import { AzureRoutes } from './azure-routes.js';
import { DEFAULT_CLOUD_CONFIG_FILE_NAME, readAzureCloudConfig, type AzureCloudConfig } from './config/read-azure-cloud-config.js';
import { InstanceLocator, MIN_LIST_REFRESH_INTERVAL_MS } from './operations/instance-locator.js';
import { NodeAddressOperations } from './operations/node-addresses.js';
import { RouteTableOperations } from './operations/route-table.js';
import type { ComputePort } from './ports/compute-port.js';
import type { NetworkPort } from './ports/network-port.js';
import { composeAzurePort, createAzureApiBudget, createAzureCloudApiObserver, type AzureApiBudgetOverrides } from './ports/azure-port-pipeline.js';
import { createAzureSdkClients, type AzureSdkClients } from './ports/sdk/azure-sdk-clients.js';
import { createSdkComputePort } from './ports/sdk/sdk-compute-port.js';
import { createSdkNetworkPort } from './ports/sdk/sdk-network-port.js';
import { AZURE_PROVIDER_NAME } from './provider-id.js';

export interface AzurePorts {
  compute: ComputePort;
  network: NetworkPort;
}

/** Seams for tests and simulators; production uses the defaults. */
export interface AzureCloudOptions {
  /** Replace SDK-backed ports (they are still composed through the pipeline). */
  ports?: Partial<AzurePorts>;
  /** Tuning of the cloud API budget (defaults: `AZURE_API_BUDGET_DEFAULTS`). */
  apiBudget?: AzureApiBudgetOverrides;
  /** Retries of transient failures (overrides of `AZURE_RETRY_DEFAULTS`). */
  retry?: CloudRetryPolicy;
  /** PEM of an extra CA the SDK clients trust (in-process tests against a simulator; the binary uses NODE_EXTRA_CA_CERTS). */
  caPem?: string;
  /** Clock of the list caches. */
  now?: () => number;
}

export class AzureCloud implements CloudProvider {
  readonly providerName = AZURE_PROVIDER_NAME;
  readonly config: AzureCloudConfig;
  readonly apiBudget: CloudApiBudget;
  readonly #instancesV2: AzureInstances;
  readonly #routes: AzureRoutes | undefined;

  constructor(parts: { config: AzureCloudConfig; apiBudget: CloudApiBudget; instancesV2: AzureInstances; routes: AzureRoutes | undefined }) {
    this.config = parts.config;
    this.apiBudget = parts.apiBudget;
    this.#instancesV2 = parts.instancesV2;
    this.#routes = parts.routes;
  }

  // Instances (v1), Zones and Clusters are not offered (every controller uses InstancesV2;
  // upstream has no Clusters), nor LoadBalancer yet: the capabilities are left out.

  instancesV2(): InstancesV2 {
    return this.#instancesV2;
  }

  /** `undefined` when no `routeTableName` is configured (upstream: routes need a route table). */
  routes(): Routes | undefined {
    return this.#routes;
  }

  hasClusterId(): boolean {
    return true;
  }
}

/** The Azure provider's definition (core's `defineCloudProvider`), with test and simulator seams in `options`. */
export function defineAzureCloudProvider(options: AzureCloudOptions = {}): DefinedCloudProvider<AzureCloudConfig> {
  return defineCloudProvider({
    name: AZURE_PROVIDER_NAME,
    configSchema: { read: readAzureCloudConfig },
    defaultConfigFileName: DEFAULT_CLOUD_CONFIG_FILE_NAME,
    create: (config, context) => createAzureCloudFromConfig(config, context, options),
  });
}

/** The provider the binary registers. */
export const azureCloudProvider = defineAzureCloudProvider();

export function registerAzureCloudProvider(registry?: CloudProviderRegistry): CloudProviderRegistry {
  return azureCloudProvider.register(registry);
}

/** Reads `configText` (logging its warnings) and builds the provider. */
export async function createAzureCloud(configText: string | undefined, context: CloudProviderFactoryContext, options: AzureCloudOptions = {}): Promise<AzureCloud> {
  return (await defineAzureCloudProvider(options).factory(configText, context)) as AzureCloud;
}

function createAzureCloudFromConfig(config: AzureCloudConfig, context: CloudProviderCreateContext, options: AzureCloudOptions): AzureCloud {
  const logger = context.logger;
  const budget = createAzureApiBudget(context.metrics, logger, options.apiBudget);
  const pipeline = {
    budget,
    observer: createAzureCloudApiObserver(context.metrics),
    retry: {
      onRetry: ({ operation, attempt, delayMs, error }: { operation: string; attempt: number; delayMs: number; error: unknown }) =>
        logger.info('retrying Azure call', { operation, attempt, delayMs, error: error instanceof Error ? error.message : String(error) }),
      ...options.retry,
    },
  };
  let sdkClients: AzureSdkClients | undefined;
  const clients = (): AzureSdkClients =>
    (sdkClients ??= createAzureSdkClients({
      resourceManagerEndpoint: config.resourceManagerEndpoint,
      activeDirectoryEndpoint: config.activeDirectoryEndpoint,
      tokenScope: config.tokenScope,
      tenantId: config.tenantId,
      clientId: config.aadClientId,
      clientSecret: config.aadClientSecret,
      subscriptionId: config.subscriptionId,
      disableInstanceDiscovery: config.customCloud,
      userAgent: config.userAgent,
      ...(options.caPem === undefined ? {} : { caPem: options.caPem }),
    }));
  const compute = composeAzurePort(options.ports?.compute ?? createSdkComputePort(clients().compute), 'compute', pipeline);
  const network = composeAzurePort(options.ports?.network ?? createSdkNetworkPort(clients().network), 'network', pipeline);

  const ttlMs = (seconds: number): number => (config.disableApiCallCache ? 0 : seconds * 1000);
  const locator = new InstanceLocator(compute, {
    resourceGroup: config.resourceGroup,
    vmType: config.vmType,
    disableAvailabilitySetNodes: config.disableAvailabilitySetNodes,
    vmCacheTtlMs: ttlMs(config.vmCacheTtlSeconds),
    vmssCacheTtlMs: ttlMs(config.vmssCacheTtlSeconds),
    vmssVirtualMachinesCacheTtlMs: ttlMs(config.vmssVirtualMachinesCacheTtlSeconds),
    minRefreshIntervalMs: config.disableApiCallCache ? 0 : MIN_LIST_REFRESH_INTERVAL_MS,
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  const addresses = new NodeAddressOperations(network);
  const instancesV2 = new AzureInstances({ locator, addresses, resourceGroup: config.resourceGroup });
  const routes =
    config.routeTableName === ''
      ? undefined
      : new AzureRoutes({
          routeTable: new RouteTableOperations(network, { resourceGroup: config.routeTableResourceGroup, name: config.routeTableName, location: config.location, tags: config.tags }),
          locator,
          addresses,
          resourceGroup: config.resourceGroup,
          logger,
        });
  // Never log the secret: only where the provider talks to.
  logger.info('Azure cloud provider configured', {
    cloud: config.cloud,
    resourceManagerEndpoint: config.resourceManagerEndpoint,
    tenantId: config.tenantId,
    subscriptionId: config.subscriptionId,
    resourceGroup: config.resourceGroup,
    location: config.location,
    vmType: config.vmType,
    routeTable: config.routeTableName === '' ? '(none: routes off)' : `${config.routeTableResourceGroup}/${config.routeTableName}`,
  });
  return new AzureCloud({ config, apiBudget: budget, instancesV2, routes });
}
