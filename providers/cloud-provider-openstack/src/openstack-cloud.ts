/**
 * Composition root of the OpenStack provider (upstream `NewOpenStack`): reads cloud.conf, builds
 * the openstack-client-ts client (one Keystone session for every service), the SDK-backed ports
 * behind the port pipeline (`OPENSTACK_PIPELINE`, core's `defineProviderPipeline`: retries of transient failures -> the one cloud
 * API budget -> the observer -> the SDK adapter), and the capabilities.
 *
 * Capabilities as upstream: InstancesV2 always; LoadBalancer (Octavia) unless `[LoadBalancer]
 * enabled = false` or `lb-version` is not `v2`; Routes when `[Route] router-id` is set;
 * Instances (v1), Zones and Clusters are not offered; `HasClusterID` is always true.
 *
 * The port pipeline, outside in: the server and port lookup coalescers of the compute and
 * network ports (`ports/openstack-lookup-coalescing.ts`) -> retries (5xx, transport, timeouts) ->
 * budget -> observer -> SDK adapter.
 */
import { createCoalescerMetrics, createUpstreamObserver, type CloudApiBudget, type CloudApiBudgetOverrides, type CloudRetryPolicy } from '@ccm/core/cloud';
import { warnInsecureTls } from '@ccm/core/logging';
import { ComposedCloudProvider, defineCloudProvider } from '@ccm/core/provider';
import type { CloudInitializeContext, CloudProviderCreateContext, CloudProviderFactoryContext, CloudProviderRegistry } from '@ccm/core/provider';
import type { DefinedCloudProvider, InstancesV2, LoadBalancer, Routes } from '@ccm/core/provider';
import { DEFAULT_CLOUD_CONFIG_FILE_NAME, readOpenStackCloudConfig, type OpenStackCloudConfig, type ReadOpenStackCloudConfigOptions } from './config/read-openstack-cloud-config.js';
import { NodeListDirectory } from './kube/node-addresses-directory.js';
import { KubeServiceAnnotations, type ServiceAnnotationPort } from './kube/service-annotations.js';
import { OpenStackInstances } from './openstack-instances.js';
import { OPENSTACK_UPSTREAM_RECONCILE_METRICS } from './metrics/upstream-metrics.js';
import { OpenStackLoadBalancers } from './openstack-load-balancers.js';
import { loadBalancerSettingsFromConfig } from './operations/load-balancer/load-balancer-settings-from-config.js';
import { OctaviaLoadBalancerOperations } from './operations/load-balancer/octavia-load-balancers.js';
import { DEFAULT_PROVISIONING_WAIT, waitStepsFromEnvironment } from './operations/load-balancer/provisioning-wait.js';
import { OpenStackRoutes } from './openstack-routes.js';
import { InstanceFacts } from './operations/instance-facts.js';
import { InstanceLocator } from './operations/instance-locator.js';
import { InstanceTypes } from './operations/instance-type.js';
import { RouterRouteOperations } from './operations/router-routes.js';
import type { ComputePort } from './ports/compute-port.js';
import type { LoadBalancerNetworkPort } from './ports/load-balancer-network-port.js';
import type { NetworkPort } from './ports/network-port.js';
import type { OctaviaPort } from './ports/octavia-port.js';
import { coalescePortLookups, coalesceServerLookups } from './ports/openstack-lookup-coalescing.js';
import type { SecurityGroupPort } from './ports/security-group-port.js';
import { OPENSTACK_PIPELINE } from './ports/openstack-port-pipeline.js';
import { createOpenStackSdkPorts, type OpenStackSdkPorts } from './ports/sdk/openstack-sdk-ports.js';
import { OPENSTACK_PROVIDER_NAME, REGIONAL_PROVIDER_ID_ENVIRONMENT_VARIABLE } from './provider-id.js';

export interface OpenStackPorts {
  compute: ComputePort;
  network: NetworkPort;
  octavia: OctaviaPort;
  /** Neutron as the load balancer uses it (floating IPs, the VIP port, subnets). */
  loadBalancerNetwork: LoadBalancerNetworkPort;
  /** Neutron security groups of `manage-security-groups`. */
  securityGroups: SecurityGroupPort;
}

/** Seams for tests and in-process runs against the services; production uses the defaults. */
export interface OpenStackCloudOptions {
  /** Replace SDK-backed ports (they are still composed through the pipeline). */
  ports?: Partial<OpenStackPorts>;
  /** Tuning of the cloud API budget (defaults: `OPENSTACK_API_BUDGET_DEFAULTS`). */
  apiBudget?: CloudApiBudgetOverrides;
  /** Retries of transient failures (overrides of `OPENSTACK_RETRY_DEFAULTS`). */
  retry?: CloudRetryPolicy;
  /** PEM of an extra CA the client trusts (in-process tests); the binary uses `ca-file`. */
  caPem?: string;
  /** Environment (`OS_CCM_REGIONAL`, `OS_CLIENT_CONFIG_FILE`, `OS_CLOUD`); default `process.env`. */
  environment?: NodeJS.ProcessEnv;
  /** Where `./clouds.yaml` is looked for. */
  workingDirectory?: string;
  /** `--user-agent` data (upstream's repeatable flag), read when the SDK client is made. */
  userAgent?: () => string;
  /** Replaces the Service annotation writer (default: patches through the API server). */
  serviceAnnotations?: ServiceAnnotationPort;
}

/** What the composition root hands to every capability. */
export interface OpenStackCloudParts {
  config: OpenStackCloudConfig;
  apiBudget: CloudApiBudget;
  ports: OpenStackPorts;
  /** `openstack://<region>/<id>` provider IDs (`OS_CCM_REGIONAL=true`). */
  regionalProviderIds: boolean;
  instancesV2: InstancesV2;
  loadBalancer: LoadBalancer | undefined;
  routes: Routes | undefined;
  /** The nodes the routes read, attached to the shared Node informer in `initialize`. */
  nodes: NodeListDirectory;
  /** The Service annotation writer, attached to the CCM's client in `initialize` (none when replaced). */
  serviceAnnotations: KubeServiceAnnotations | undefined;
}

export class OpenStackCloud extends ComposedCloudProvider<{ instancesV2: InstancesV2; loadBalancer: LoadBalancer | undefined; routes: Routes | undefined }> {
  readonly config: OpenStackCloudConfig;
  readonly apiBudget: CloudApiBudget;
  readonly ports: OpenStackPorts;
  readonly #nodes: NodeListDirectory;
  readonly #serviceAnnotations: KubeServiceAnnotations | undefined;

  /**
   * `loadBalancer` is undefined with `[LoadBalancer] enabled = false` or an `lb-version` other than
   * `v2`, `routes` without `[Route] router-id` (upstream); `HasClusterID` is true unconditionally.
   */
  constructor(parts: OpenStackCloudParts) {
    super(OPENSTACK_PROVIDER_NAME, { instancesV2: parts.instancesV2, loadBalancer: parts.loadBalancer, routes: parts.routes });
    this.config = parts.config;
    this.apiBudget = parts.apiBudget;
    this.ports = parts.ports;
    this.#nodes = parts.nodes;
    this.#serviceAnnotations = parts.serviceAnnotations;
  }

  /**
   * The routes read the nodes from the controllers' shared Node informer (upstream: its own
   * informer); the load balancer annotates Services through the CCM's own client.
   */
  initialize(context: CloudInitializeContext): void {
    this.#nodes.attach(context.informers.nodes);
    this.#serviceAnnotations?.attach(context.clientBuilder.kubeConfig('openstack-cloud-controller-manager'));
  }
}

export function defineOpenStackCloudProvider(options: OpenStackCloudOptions = {}): DefinedCloudProvider<OpenStackCloudConfig, OpenStackCloud> {
  const readOptions: ReadOpenStackCloudConfigOptions = {
    ...(options.environment === undefined ? {} : { environment: options.environment }),
    ...(options.workingDirectory === undefined ? {} : { workingDirectory: options.workingDirectory }),
  };
  return defineCloudProvider({
    name: OPENSTACK_PROVIDER_NAME,
    configSchema: { read: (text, fileName) => readOpenStackCloudConfig(text, fileName, readOptions) },
    defaultConfigFileName: DEFAULT_CLOUD_CONFIG_FILE_NAME,
    create: (config, context) => createOpenStackCloudFromConfig(config, context, options),
  });
}

/** The provider the binary registers. */
export const openStackCloudProvider = defineOpenStackCloudProvider();

export function registerOpenStackCloudProvider(registry?: CloudProviderRegistry): CloudProviderRegistry {
  return openStackCloudProvider.register(registry);
}

/** Reads `configText` (logging its warnings) and builds the provider. */
export function createOpenStackCloud(configText: string | undefined, context: CloudProviderFactoryContext, options: OpenStackCloudOptions = {}): Promise<OpenStackCloud> {
  return defineOpenStackCloudProvider(options).createFromText(configText, context);
}

function createOpenStackCloudFromConfig(config: OpenStackCloudConfig, context: CloudProviderCreateContext, options: OpenStackCloudOptions): OpenStackCloud {
  const logger = context.logger;
  const pipeline = OPENSTACK_PIPELINE.connect(context, options);
  const budget = pipeline.budget;
  // The client authenticates on its first call, not here: a wrong password is a logged, retried
  // failure of the first lookup, never a crash loop. Built only when a port needs it.
  let sdk: OpenStackSdkPorts | undefined;
  const sdkPorts = (): OpenStackSdkPorts =>
    (sdk ??= createOpenStackSdkPorts(config.global, {
      requestTimeoutMs: config.metadata.requestTimeoutMs,
      ...(options.caPem === undefined ? {} : { caPem: options.caPem }),
      ...(options.userAgent === undefined ? {} : { userAgent: options.userAgent() }),
    }));
  const ports: OpenStackPorts = {
    compute: pipeline.compose(options.ports?.compute ?? sdkPorts().compute, 'compute', {
      coalesce: coalesceServerLookups({ observer: createCoalescerMetrics(context.metrics, OPENSTACK_PROVIDER_NAME, 'ServersListByName') }),
    }),
    network: pipeline.compose(options.ports?.network ?? sdkPorts().network, 'network', {
      coalesce: coalescePortLookups({ observer: createCoalescerMetrics(context.metrics, OPENSTACK_PROVIDER_NAME, 'PortsListByDevice') }),
    }),
    octavia: pipeline.compose(options.ports?.octavia ?? sdkPorts().octavia, 'loadbalancer'),
    loadBalancerNetwork: pipeline.compose(options.ports?.loadBalancerNetwork ?? sdkPorts().loadBalancerNetwork, 'network'),
    securityGroups: pipeline.compose(options.ports?.securityGroups ?? sdkPorts().securityGroups, 'network'),
  };
  const regionalProviderIds = (options.environment ?? process.env)[REGIONAL_PROVIDER_ID_ENVIRONMENT_VARIABLE] === 'true';

  // Never log a secret: where the provider talks to and how it authenticates, not with what.
  logger.info('OpenStack cloud provider configured', {
    authUrl: config.global.authUrl,
    region: config.global.region,
    authMethod: config.global.auth.kind,
    scope: config.global.scope.kind,
    endpointType: config.global.endpointType,
    ...(config.global.cloudsYaml === undefined ? {} : { cloudsYaml: config.global.cloudsYaml }),
    regionalProviderIds,
    router: config.route.routerId === '' ? '(none: routes off)' : config.route.routerId,
  });
  if (config.global.tlsInsecure) warnInsecureTls(logger, { what: `OpenStack (${config.global.authUrl})`, setting: config.global.cloudsYaml === undefined ? 'tls-insecure' : 'tls-insecure or clouds.yaml verify: false' });
  const instancesV2 = new OpenStackInstances({
    facts: new InstanceFacts({ locator: new InstanceLocator(ports.compute, { region: config.global.region }), instanceTypes: new InstanceTypes(ports.compute), network: ports.network }),
    addressOptions: config.networking,
    region: config.global.region,
    regionalProviderIds,
  });
  const environment = options.environment ?? process.env;
  const loadBalancerEnabled = config.loadBalancer.enabled && (config.loadBalancer.lbVersion === '' || config.loadBalancer.lbVersion === 'v2');
  let loadBalancer: LoadBalancer | undefined;
  const kubeServiceAnnotations = options.serviceAnnotations === undefined ? new KubeServiceAnnotations() : undefined;
  if (loadBalancerEnabled) {
    const { settings, warnings } = loadBalancerSettingsFromConfig(config.loadBalancer, environment);
    for (const warning of warnings) logger.warn(warning);
    logger.info('Octavia load balancers configured', {
      provider: settings.provider,
      floatingNetwork: settings.floatingNetworkId ?? '(none)',
      internal: settings.internal,
      createMonitor: settings.createMonitor,
      serialApiCalls: settings.serialApiCalls,
      vipPortMode: settings.vipPortMode,
      manageSecurityGroups: settings.manageSecurityGroups,
    });
    loadBalancer = new OpenStackLoadBalancers(
      new OctaviaLoadBalancerOperations({
        octavia: ports.octavia,
        network: ports.loadBalancerNetwork,
        securityGroups: ports.securityGroups,
        serviceAnnotations: options.serviceAnnotations ?? (kubeServiceAnnotations as KubeServiceAnnotations),
        settings,
        wait: { ...DEFAULT_PROVISIONING_WAIT, steps: waitStepsFromEnvironment(environment) },
        logger,
      }),
      context.metrics === undefined ? undefined : createUpstreamObserver(context.metrics, OPENSTACK_UPSTREAM_RECONCILE_METRICS),
    );
  }
  const nodes = new NodeListDirectory();
  const routes =
    config.route.routerId === ''
      ? undefined
      : new OpenStackRoutes({
          router: new RouterRouteOperations(ports.network, {
            routerId: config.route.routerId,
            onUndoFailure: (what, error) => logger.warn(`unable to ${what} while unwinding a failed route change`, { error: error instanceof Error ? error.message : String(error) }),
          }),
          nodes,
          logger,
        });
  return new OpenStackCloud({ config, apiBudget: budget, ports, regionalProviderIds, instancesV2, loadBalancer, routes, nodes, serviceAnnotations: kubeServiceAnnotations });
}
