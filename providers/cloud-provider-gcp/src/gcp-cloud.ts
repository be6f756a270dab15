/**
 * Composition root of the GCE provider (upstream `newGCECloud`): reads gce.conf, builds the
 * Compute clients and the SDK-backed port behind the port pipeline (retries of transient
 * failures, the provider's one cloud API budget, the observer), the coalescing instance lookups,
 * and wires InstancesV2, LoadBalancer (external network LB and internal LB) and Routes.
 *
 * The port pipeline (`GCE_PIPELINE`, core's `defineProviderPipeline`), outside in: instance lookup
 * coalescers -> retries (5xx, network, token source) -> budget -> observer -> SDK adapter.
 */
import { createCoalescerMetrics, type CloudApiBudget, type CloudApiBudgetOverrides, type CloudRetryPolicy } from '@ccm/core/cloud';
import { ComposedCloudProvider, defineCloudProvider } from '@ccm/core/provider';
import type { CloudInitializeContext, CloudProviderCreateContext, CloudProviderFactoryContext, CloudProviderRegistry, DefinedCloudProvider } from '@ccm/core/provider';
import { completeFromMetadata } from './config/complete-from-metadata.js';
import { DEFAULT_CLOUD_CONFIG_FILE_NAME, readGceCloudConfig, type GceCloudConfig } from './config/read-gce-cloud-config.js';
import { GcpInstances } from './gcp-instances.js';
import { GcpLoadBalancers } from './gcp-load-balancers.js';
import { GcpRoutes } from './gcp-routes.js';
import { ConfigMapClusterId } from './kube/config-map-cluster-id.js';
import { GCE_EVENT_COMPONENT, KubeServiceEvents, type ServiceEventPort } from './kube/service-events.js';
import { KubeServiceFinalizers, type ServiceFinalizerPort } from './kube/service-finalizers.js';
import { InstanceLocator } from './operations/instance-locator.js';
import { CoalescedInstanceLookup } from './operations/instance-lookup.js';
import { ExternalLoadBalancerOperations } from './operations/load-balancer/external-load-balancer.js';
import { FirewallWrites } from './operations/load-balancer/firewall-writes.js';
import { InternalLoadBalancerOperations } from './operations/load-balancer/internal-load-balancer.js';
import { L4_HEALTH_CHECK_SOURCE_RANGES } from './operations/load-balancer/load-balancer-names.js';
import { ManagedZones } from './operations/managed-zones.js';
import { ResourceLinks } from './operations/resource-links.js';
import { RouteOperations } from './operations/route-operations.js';
import type { ComputePort } from './ports/compute-port.js';
import type { MetadataPort } from './ports/metadata-port.js';
import { GCE_PIPELINE } from './ports/gcp-port-pipeline.js';
import { createComputeClients } from './ports/sdk/compute-clients.js';
import { createHttpMetadataPort } from './ports/sdk/http-metadata-port.js';
import { createSdkComputePort } from './ports/sdk/sdk-compute-port.js';
import { GCE_PROVIDER_NAME } from './provider-id.js';

export interface GcePorts {
  compute: ComputePort;
  /** Asked only when gce.conf leaves project-id, local-zone or network-name unset. */
  metadata: MetadataPort;
}

/** Seams for tests and simulators; production uses the defaults. */
export interface GcpCloudOptions {
  /** Replace the SDK-backed port (still wrapped by the pipeline). */
  ports?: Partial<GcePorts>;
  apiBudget?: CloudApiBudgetOverrides;
  retry?: CloudRetryPolicy;
  /** The cluster ID without the `kube-system/ingress-uid` ConfigMap (tests). */
  clusterId?: () => Promise<string>;
  /** The Services' finalizers without an API server (tests); default: patched through the API server. */
  serviceFinalizers?: ServiceFinalizerPort;
  /** Events on Services without an API server (tests); default: the runtime's event recorder. */
  serviceEvents?: ServiceEventPort;
  /** Pause between operation polls (ms; default `OPERATION_POLL_INTERVAL_MS`). */
  operationPollIntervalMs?: number;
  /**
   * Source ranges of the health-check firewalls (`--cloud-provider-gce-lb-src-cidrs`), read when the
   * provider is created; default Google's health checkers (`L4_HEALTH_CHECK_SOURCE_RANGES`).
   */
  healthCheckSourceRanges?: () => readonly string[];
}

export class GcpCloud extends ComposedCloudProvider<{ instancesV2: GcpInstances; loadBalancer: GcpLoadBalancers; routes: GcpRoutes }> {
  readonly config: GceCloudConfig;
  readonly apiBudget: CloudApiBudget;
  readonly #clusterIdStore: ConfigMapClusterId | undefined;
  readonly #serviceFinalizers: KubeServiceFinalizers | undefined;
  readonly #serviceEvents: KubeServiceEvents | undefined;

  /** Upstream `HasClusterID` is always true (the ID comes from the ingress-uid ConfigMap). */
  constructor(parts: {
    config: GceCloudConfig;
    apiBudget: CloudApiBudget;
    instancesV2: GcpInstances;
    loadBalancers: GcpLoadBalancers;
    routes: GcpRoutes;
    clusterIdStore: ConfigMapClusterId | undefined;
    serviceFinalizers: KubeServiceFinalizers | undefined;
    serviceEvents: KubeServiceEvents | undefined;
  }) {
    super(GCE_PROVIDER_NAME, { instancesV2: parts.instancesV2, loadBalancer: parts.loadBalancers, routes: parts.routes });
    this.config = parts.config;
    this.apiBudget = parts.apiBudget;
    this.#clusterIdStore = parts.clusterIdStore;
    this.#serviceFinalizers = parts.serviceFinalizers;
    this.#serviceEvents = parts.serviceEvents;
  }

  initialize(context: CloudInitializeContext): void {
    this.#clusterIdStore?.attach(context.clientBuilder.kubeConfig('gce-cluster-id'));
    this.#serviceFinalizers?.attach(context.clientBuilder.kubeConfig('gce-service-finalizers'));
    this.#serviceEvents?.attach(context.eventRecorder(GCE_EVENT_COMPONENT));
  }
}

/** The GCE provider's definition (core's `defineCloudProvider`), with test and simulator seams in `options`. */
export function defineGcpCloudProvider(options: GcpCloudOptions = {}): DefinedCloudProvider<GceCloudConfig, GcpCloud> {
  return defineCloudProvider({
    name: GCE_PROVIDER_NAME,
    configSchema: { read: readGceCloudConfig },
    defaultConfigFileName: DEFAULT_CLOUD_CONFIG_FILE_NAME,
    create: async (config, context) =>
      createGcpCloudFromConfig(await completeFromMetadata(config, options.ports?.metadata ?? createHttpMetadataPort(), context.configFileName), context, options),
  });
}

export const gcpCloudProvider = defineGcpCloudProvider();

/** Reads `configText` and builds the provider; `options` are the seams of tests and simulators. */
export function createGcpCloud(configText: string | undefined, context: CloudProviderFactoryContext, options: GcpCloudOptions = {}): Promise<GcpCloud> {
  return defineGcpCloudProvider(options).createFromText(configText, context);
}

function createGcpCloudFromConfig(config: GceCloudConfig, context: CloudProviderCreateContext, options: GcpCloudOptions): GcpCloud {
  const logger = context.logger;
  const pipeline = GCE_PIPELINE.connect(context, options);
  const budget = pipeline.budget;
  const compute = pipeline.compose(
    options.ports?.compute ??
      createSdkComputePort(createComputeClients(config.endpoint, config.credentials), {
        project: config.projectId,
        networkProject: config.networkProjectId,
        ...(options.operationPollIntervalMs === undefined ? {} : { operationPollIntervalMs: options.operationPollIntervalMs }),
      }),
    'compute',
  );
  logger.info('GCE cloud provider configured', {
    project: config.projectId,
    networkProject: config.networkProjectId,
    network: config.networkName,
    localZone: config.localZone,
    region: config.region,
    endpoint: config.endpoint.baseUrl,
    credentials: config.credentials.kind,
  });

  const zones = new ManagedZones(config.localZone, config.region, config.multizone || config.regional);
  const lookup = new CoalescedInstanceLookup(compute, zones, {
    observers: {
      inZone: createCoalescerMetrics(context.metrics, GCE_PROVIDER_NAME, 'InstancesList'),
      byName: createCoalescerMetrics(context.metrics, GCE_PROVIDER_NAME, 'InstancesAggregatedList'),
    },
  });
  const locator = new InstanceLocator(lookup);
  const links = new ResourceLinks(config.endpoint.baseUrl, config.projectId, config.networkProjectId);
  const clusterIdStore = options.clusterId === undefined ? new ConfigMapClusterId() : undefined;
  const clusterId = options.clusterId ?? (() => (clusterIdStore as ConfigMapClusterId).clusterId());
  const kubeServiceFinalizers = options.serviceFinalizers === undefined ? new KubeServiceFinalizers() : undefined;
  const kubeServiceEvents = options.serviceEvents === undefined ? new KubeServiceEvents() : undefined;
  const healthCheckSourceRanges = options.healthCheckSourceRanges?.() ?? L4_HEALTH_CHECK_SOURCE_RANGES;
  const firewalls = new FirewallWrites({
    compute,
    networkProject: config.networkProjectId,
    onXpn: config.networkProjectId !== config.projectId,
    events: options.serviceEvents ?? (kubeServiceEvents as KubeServiceEvents),
  });
  // What the external and the internal load balancer operations share.
  const loadBalancerContext = {
    compute,
    firewalls,
    links,
    locator,
    region: config.region,
    networkName: config.networkName,
    nodeTags: config.nodeTags,
    healthCheckSourceRanges,
    clusterId,
    logger,
  };
  return new GcpCloud({
    config,
    apiBudget: budget,
    instancesV2: new GcpInstances({ locator, project: config.projectId, stackType: config.stackType }),
    loadBalancers: new GcpLoadBalancers({
      external: new ExternalLoadBalancerOperations(loadBalancerContext),
      internal: new InternalLoadBalancerOperations({ ...loadBalancerContext, subnetworkName: config.subnetworkName }),
      compute,
      region: config.region,
      alphaFeatures: config.alphaFeatures,
      finalizers: options.serviceFinalizers ?? (kubeServiceFinalizers as KubeServiceFinalizers),
    }),
    routes: new GcpRoutes(new RouteOperations({ compute, locator, links, networkName: config.networkName })),
    clusterIdStore,
    serviceFinalizers: kubeServiceFinalizers,
    serviceEvents: kubeServiceEvents,
  });
}

/** Registers `gce` in a provider registry (default: the process-wide one). */
export function registerGcpCloudProvider(registry?: CloudProviderRegistry): CloudProviderRegistry {
  return gcpCloudProvider.register(registry);
}
