/**
 * Composition root of the Azure provider (upstream `NewCloud`): reads `azure.json`, builds the
 * SDK clients (the Entra credential of the configured kind against the configured authority,
 * built at start when the file names it, ARM clients against the configured endpoint), the Compute and Network ports behind the port pipeline
 * (`AZURE_PIPELINE`, core's `defineProviderPipeline`: retries of transient failures -> the one cloud API budget -> the
 * observer -> the SDK adapter), the cached instance lookups, and the capabilities:
 * InstancesV2 and LoadBalancer (Standard SKU) always, Routes when `routeTableName` is set.
 */
import { createUpstreamObserver, type CloudApiBudget, type CloudApiBudgetOverrides, type CloudRetryPolicy } from '@ccm/core/cloud';
import { CloudConfigError } from '@ccm/core/config';
import { ComposedCloudProvider, defineCloudProvider } from '@ccm/core/provider';
import type { CloudInitializeContext, CloudProviderCreateContext, CloudProviderFactoryContext, CloudProviderRegistry, DefinedCloudProvider } from '@ccm/core/provider';
import { AzureInstances } from './azure-instances.js';
import { AzureLoadBalancers, nodeVirtualMachines } from './azure-load-balancers.js';
import { BackendPoolOperations } from './operations/load-balancer/backend-pool-operations.js';
import { ServiceLoadBalancerOperations } from './operations/load-balancer/service-load-balancer-operations.js';
import { AzureRoutes } from './azure-routes.js';
import { DEFAULT_CLOUD_CONFIG_FILE_NAME, readAzureCloudConfig, type AzureCloudConfig, type AzureConfigValues } from './config/read-azure-cloud-config.js';
import { describeAzureCredential } from './config/azure-credential-config.js';
import { ConnectionConfigSource } from './config/secret-config-source.js';
import { AzureConfigurationError, AzureCredentialSetupError } from './errors.js';
import { InstanceLocator } from './operations/instance-locator.js';
import { NodeAddressOperations } from './operations/node-addresses.js';
import { RouteTableOperations } from './operations/route-table.js';
import type { ComputePort } from './ports/compute-port.js';
import type { NetworkPort } from './ports/network-port.js';
import { azureUpstreamMetrics, azureUpstreamOperationMetrics } from './metrics/upstream-metrics.js';
import { AZURE_PIPELINE } from './ports/azure-port-pipeline.js';
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
  apiBudget?: CloudApiBudgetOverrides;
  /** Retries of transient failures (overrides of `AZURE_RETRY_DEFAULTS`). */
  retry?: CloudRetryPolicy;
  /** PEM of an extra CA the SDK clients trust (in-process tests against a simulator; the binary uses NODE_EXTRA_CA_CERTS). */
  caPem?: string;
  /** Clock of the list caches. */
  now?: () => number;
  /**
   * `--node-instance-not-found-grace-period-in-seconds`, read when the provider is created: above 0
   * it replaces the config key `nodeInstanceNotFoundGracePeriodInSeconds`.
   */
  notFoundGracePeriodSeconds?: () => number;
}

export class AzureCloud extends ComposedCloudProvider<{ instancesV2: AzureInstances; loadBalancer: AzureLoadBalancers; routes: AzureRoutes | undefined }> {
  readonly config: AzureCloudConfig;
  readonly apiBudget: CloudApiBudget;
  readonly #connection: ConnectionConfigSource;
  readonly #routes: AzureRoutes | undefined;

  /** `routes` is undefined when no `routeTableName` is configured (upstream: routes need a route table). */
  constructor(parts: { config: AzureCloudConfig; apiBudget: CloudApiBudget; instancesV2: AzureInstances; routes: AzureRoutes | undefined; loadBalancers: AzureLoadBalancers; connection: ConnectionConfigSource }) {
    super(AZURE_PROVIDER_NAME, { instancesV2: parts.instancesV2, loadBalancer: parts.loadBalancers, routes: parts.routes });
    this.config = parts.config;
    this.apiBudget = parts.apiBudget;
    this.#connection = parts.connection;
    this.#routes = parts.routes;
  }

  /** Follows the `azure-cloud-provider` Secret through the shared informer (cloudConfigType merge / secret); routes read node labels from the Node informer. */
  initialize(context: CloudInitializeContext): void {
    this.#connection.attach(context.informers);
    this.#routes?.attachNodes(context.informers.nodes.store);
  }
}

/** The Azure provider's definition (core's `defineCloudProvider`), with test and simulator seams in `options`. */
/** What the definition reads: the typed config and the keys the file set (merged with the Secret's later). */
export interface AzureConfigFile {
  config: AzureCloudConfig;
  file: AzureConfigValues;
}

export function defineAzureCloudProvider(options: AzureCloudOptions = {}): DefinedCloudProvider<AzureConfigFile, AzureCloud> {
  return defineCloudProvider({
    name: AZURE_PROVIDER_NAME,
    configSchema: {
      read: (text, fileName) => {
        const { config, file, warnings } = readAzureCloudConfig(text, fileName);
        return { config: { config, file }, warnings };
      },
    },
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
export function createAzureCloud(configText: string | undefined, context: CloudProviderFactoryContext, options: AzureCloudOptions = {}): Promise<AzureCloud> {
  return defineAzureCloudProvider(options).createFromText(configText, context);
}

/** `Port` whose every method first awaits `resolve()` (the SDK port of the current connection config). */
function deferredPort<Port extends object>(methods: ReadonlyArray<keyof Port & string>, resolve: () => Promise<Port>): Port {
  const port: Record<string, unknown> = {};
  for (const method of methods) {
    port[method] = async (...parameters: unknown[]) => {
      const target = await resolve();
      return (target[method] as (...values: unknown[]) => unknown).apply(target, parameters);
    };
  }
  return port as Port;
}

const COMPUTE_METHODS = [
  'listVirtualMachines',
  'listScaleSets',
  'listScaleSetVirtualMachines',
  'getScaleSetNetwork',
  'setScaleSetBackendPools',
  'getScaleSetVirtualMachineNetwork',
  'setScaleSetVirtualMachineBackendPools',
] as const satisfies ReadonlyArray<keyof ComputePort>;
const NETWORK_METHODS = [
  'listNetworkInterfaces',
  'listScaleSetNetworkInterfaces',
  'listPublicIpAddresses',
  'getNetworkInterface',
  'getPublicIpAddress',
  'getRouteTable',
  'createRouteTable',
  'putRoute',
  'deleteRoute',
  'setNetworkInterfaceBackendPools',
  'getLoadBalancer',
  'putLoadBalancer',
  'putBackendAddressPool',
  'deleteLoadBalancer',
  'getPublicIp',
  'listPublicIps',
  'putPublicIp',
  'deletePublicIp',
  'getSecurityGroup',
  'putSecurityGroup',
] as const satisfies ReadonlyArray<keyof NetworkPort>;

function createAzureCloudFromConfig(read: AzureConfigFile, context: CloudProviderCreateContext, options: AzureCloudOptions): AzureCloud {
  const { config } = read;
  const logger = context.logger;
  const connection = new ConnectionConfigSource(read.file, config, logger);
  // The subscription of the upstream series' labels: the file's, then the connection config's in use.
  let subscriptionId = config.subscriptionId;
  const pipeline = AZURE_PIPELINE.connect(
    { metrics: context.metrics, logger },
    { apiBudget: options.apiBudget, retry: options.retry, upstreamMetrics: azureUpstreamMetrics(() => subscriptionId) },
  );
  const budget = pipeline.budget;
  // The SDK clients of the current connection config, rebuilt when the Secret changes.
  let sdk: { version: string; compute: ComputePort; network: NetworkPort } | undefined;
  const buildSdk = (version: string, current: AzureCloudConfig): { version: string; compute: ComputePort; network: NetworkPort } => {
    if (current.credential === undefined) throw new AzureConfigurationError('no Azure credential is configured');
    subscriptionId = current.subscriptionId;
    const clients: AzureSdkClients = createAzureSdkClients({
      resourceManagerEndpoint: current.resourceManagerEndpoint,
      activeDirectoryEndpoint: current.activeDirectoryEndpoint,
      tokenScope: current.tokenScope,
      credential: current.credential,
      logger,
      subscriptionId: current.subscriptionId,
      disableInstanceDiscovery: current.customCloud,
      userAgent: current.userAgent,
      ...(options.caPem === undefined ? {} : { caPem: options.caPem }),
    });
    return { version, compute: createSdkComputePort(clients.compute), network: createSdkNetworkPort(clients.network) };
  };
  const sdkPorts = async (): Promise<{ compute: ComputePort; network: NetworkPort }> => {
    const { version, config: current } = await connection.current();
    if (sdk?.version === version) return sdk;
    sdk = buildSdk(version, current);
    return sdk;
  };
  // The file's own credential is built at start, so a certificate or token file that cannot be
  // read stops the start naming its key (exit 1), as a bad key does.
  if (config.credential !== undefined && config.subscriptionId !== '' && options.ports === undefined) {
    try {
      sdk = buildSdk('file', config);
    } catch (error) {
      if (!(error instanceof AzureCredentialSetupError)) throw error;
      const line = read.file.lines.get(error.key);
      throw new CloudConfigError({ fileName: read.file.fileName, ...(line === undefined ? {} : { line }), message: error.message }, { cause: error });
    }
  }
  const compute = pipeline.compose(options.ports?.compute ?? deferredPort<ComputePort>(COMPUTE_METHODS, async () => (await sdkPorts()).compute), 'compute');
  const network = pipeline.compose(options.ports?.network ?? deferredPort<NetworkPort>(NETWORK_METHODS, async () => (await sdkPorts()).network), 'network');

  const ttlMs = (seconds: number): number => (config.disableApiCallCache ? 0 : seconds * 1000);
  const locator = new InstanceLocator(compute, {
    resourceGroup: config.resourceGroup,
    vmType: config.vmType,
    disableAvailabilitySetNodes: config.disableAvailabilitySetNodes,
    vmCacheTtlMs: ttlMs(config.vmCacheTtlSeconds),
    vmssCacheTtlMs: ttlMs(config.vmssCacheTtlSeconds),
    vmssVirtualMachinesCacheTtlMs: ttlMs(config.vmssVirtualMachinesCacheTtlSeconds),
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  const addresses = new NodeAddressOperations(network, {
    networkInterfacesCacheTtlMs: ttlMs(config.vmCacheTtlSeconds),
    scaleSetNetworkInterfacesCacheTtlMs: ttlMs(config.vmssVirtualMachinesCacheTtlSeconds),
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  const instancesV2 = new AzureInstances({
    locator,
    addresses,
    resourceGroup: config.resourceGroup,
    notFoundGracePeriodMs: notFoundGracePeriodSeconds(config, options) * 1000,
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  // Upstream's whole-operation series (load balancers, routes), labelled like its ARM calls.
  const operationMetrics =
    context.metrics === undefined ? undefined : createUpstreamObserver(context.metrics, azureUpstreamOperationMetrics({ resourceGroup: config.resourceGroup, subscriptionId: () => subscriptionId }));
  const routes =
    config.routeTableName === ''
      ? undefined
      : new AzureRoutes({
          routeTable: new RouteTableOperations(network, { resourceGroup: config.routeTableResourceGroup, name: config.routeTableName, location: config.location, tags: config.tags }),
          locator,
          addresses,
          resourceGroup: config.resourceGroup,
          logger,
          ...(operationMetrics === undefined ? {} : { operationMetrics }),
        });
  const loadBalancers = new AzureLoadBalancers({
    operations: new ServiceLoadBalancerOperations({
      network,
      pools: new BackendPoolOperations(network, compute),
      settings: {
        subscriptionId: config.subscriptionId,
        loadBalancerResourceGroup: config.loadBalancerResourceGroup,
        resourceGroup: config.resourceGroup,
        location: config.location,
        loadBalancerName: config.loadBalancerName,
        vnetName: config.vnetName,
        vnetResourceGroup: config.vnetResourceGroup,
        subnetName: config.subnetName,
        securityGroupName: config.securityGroupName,
        securityGroupResourceGroup: config.securityGroupResourceGroup,
        tags: config.tags,
        maximumLoadBalancerRuleCount: config.maximumLoadBalancerRuleCount,
        disableOutboundSnat: config.disableOutboundSnat,
        backendPoolType: config.backendPoolType,
      },
      virtualMachinesOf: nodeVirtualMachines(locator, config.resourceGroup),
      logger,
    }),
    // nodeIP pools never take control-plane nodes (upstream `EnsureHostsInPool` of `backendPoolTypeNodeIP` skips them whatever excludeMasterFromStandardLB says).
    excludeControlPlane: config.excludeMasterFromStandardLB || config.backendPoolType === 'nodeIP',
    ...(operationMetrics === undefined ? {} : { operationMetrics }),
  });
  // Never log the secret: only where the provider talks to.
  if (config.ignoredCredentialKeys.length > 0) {
    logger.warn(`${read.file.fileName}: credential keys ignored (upstream's precedence: workload identity, managed identity, client secret, client certificate)`, { ignored: config.ignoredCredentialKeys.join(', ') });
  }
  logger.info('Azure cloud provider configured', {
    cloud: config.cloud,
    tenantId: config.tenantId,
    // The credential's own tenant and client (AZURE_TENANT_ID / AZURE_CLIENT_ID override the file's).
    ...(config.credential === undefined ? { authentication: 'from the cloud config Secret' } : describeAzureCredential(config.credential)),
    resourceManagerEndpoint: config.resourceManagerEndpoint,
    subscriptionId: config.subscriptionId,
    resourceGroup: config.resourceGroup,
    location: config.location,
    vmType: config.vmType,
    cloudConfigType: config.cloudConfigType,
    routeTable: config.routeTableName === '' ? '(none: routes off)' : `${config.routeTableResourceGroup}/${config.routeTableName}`,
  });
  return new AzureCloud({ config, apiBudget: budget, instancesV2, routes, loadBalancers, connection });
}

/** The flag's grace period when set above 0, else the config key's. */
function notFoundGracePeriodSeconds(config: AzureCloudConfig, options: AzureCloudOptions): number {
  const fromFlag = options.notFoundGracePeriodSeconds?.() ?? 0;
  return fromFlag > 0 ? fromFlag : config.nodeInstanceNotFoundGracePeriodSeconds;
}
