/**
 * Composition root of the AWS provider (upstream `newAWSCloud2`): reads the cloud config, finds
 * the region, the VPC and the cluster ID (from the config, else from the CCM's own instance via
 * the metadata service), builds the SDK-backed ports behind retries of transient failures and
 * the one cloud API budget of the provider (rate limit, throttling retries, metrics), the
 * coalescing instance lookups, and wires the capabilities.
 *
 * The port pipeline (`AWS_PIPELINE`, core's `defineProviderPipeline`), outside in: instance lookup
 * coalescer -> retries (5xx, network) -> budget ->
 * cloud API observer -> SDK adapter.
 */
import { createCoalescerMetrics, type CloudApiBudget, type CloudApiBudgetOverrides, type CloudRetryPolicy } from '@ccm/core/cloud';
import { CloudConfigError } from '@ccm/core/config';
import type { Logger } from '@ccm/core/logging';
import { ComposedCloudProvider, defineCloudProvider } from '@ccm/core/provider';
import type { CloudInitializeContext, CloudProviderCreateContext, CloudProviderFactoryContext, CloudProviderRegistry, DefinedCloudProvider } from '@ccm/core/provider';
import { errorMessage, parseGoDuration } from '@ccm/core/util';
import { AwsInstances } from './aws-instances.js';
import { AwsLoadBalancers } from './aws-load-balancers.js';
import { AwsRoutes } from './aws-routes.js';
import { DEFAULT_CLOUD_CONFIG_FILE_NAME, findServiceOverride, readAwsCloudConfig, regionOfZone, SERVICE_ID_IMDS, type AwsCloudConfig } from './config/read-aws-cloud-config.js';
import { CloudStateError } from './errors.js';
import { ClusterInstances } from './operations/cluster-instances.js';
import { InstanceLocator } from './operations/instance-locator.js';
import { CoalescedInstanceLookup } from './operations/instance-lookup.js';
import { InstanceTagOperations } from './operations/instance-tags.js';
import { InstanceTopologyOperations } from './operations/instance-topology.js';
import { ClassicLoadBalancerOperations } from './operations/load-balancer/classic/classic-load-balancer.js';
import type { LoadBalancerContext } from './operations/load-balancer/load-balancer-context.js';
import type { LoadBalancerSettings } from './operations/load-balancer/load-balancer-spec.js';
import { NetworkLoadBalancerOperations } from './operations/load-balancer/network/network-load-balancer.js';
import { DEFAULT_SECURITY_GROUP_TIMING, SecurityGroupOperations, type SecurityGroupTiming } from './operations/load-balancer/security-groups.js';
import { SubnetOperations } from './operations/load-balancer/subnets.js';
import type { NodeDirectory } from './operations/node-directory.js';
import { RouteTableOperations } from './operations/route-table.js';
import { ZoneCache } from './operations/zone-cache.js';
import type { Ec2Port } from './ports/ec2-port.js';
import type { ElbPort } from './ports/elb-port.js';
import type { Elbv2Port } from './ports/elbv2-port.js';
import type { MetadataPort } from './ports/metadata-port.js';
import { AWS_PIPELINE } from './ports/aws-port-pipeline.js';
import { assumeRoleCredentials, createAwsSdkClients } from './ports/sdk/aws-sdk-clients.js';
import { createSdkEc2Port } from './ports/sdk/sdk-ec2-port.js';
import { createSdkElbPort } from './ports/sdk/sdk-elb-port.js';
import { createSdkElbv2Port } from './ports/sdk/sdk-elbv2-port.js';
import { createImdsMetadataPort } from './ports/sdk/imds-metadata-port.js';
import { sharedNodeDirectory } from './kube/shared-node-directory.js';
import { AWS_PROVIDER_NAME } from './provider-id.js';
import { ClusterTagging, findClusterIdInTags } from './tags.js';

export interface AwsPorts {
  ec2: Ec2Port;
  elb: ElbPort;
  elbv2: Elbv2Port;
  metadata: MetadataPort;
}

/** Seams for tests and simulators; production uses the defaults. */
export interface AwsCloudOptions {
  /** Replace SDK-backed ports (they are still wrapped with the budget and retries). */
  ports?: Partial<AwsPorts>;
  /** Tuning of the cloud API budget (defaults: `AWS_API_BUDGET_DEFAULTS`). */
  apiBudget?: CloudApiBudgetOverrides;
  /** Retries of 5xx and network failures (overrides of `AWS_RETRY_DEFAULTS`). */
  retry?: CloudRetryPolicy;
  securityGroupTiming?: SecurityGroupTiming;
  /** Builds the node directory once the CCM runs (default: none; lookups use names). */
  createNodeDirectory?: (context: CloudInitializeContext) => NodeDirectory | undefined;
  /**
   * Upstream's fixed 2 min `instanceExistsGracePeriod` (default). Test-only; the binary reads
   * {@link INSTANCE_EXISTS_GRACE_PERIOD_VARIABLE} for its conformance runs.
   */
  instanceExistsGracePeriodMs?: number;
  /** Environment to read {@link INSTANCE_EXISTS_GRACE_PERIOD_VARIABLE} from; default process.env. */
  environment?: Readonly<Record<string, string | undefined>>;
}

/**
 * Test-only override of the instance-exists grace period (a Go duration such as `0s`): the
 * conformance suite deletes instances of nodes seconds old. Upstream has no such setting.
 */
export const INSTANCE_EXISTS_GRACE_PERIOD_VARIABLE = 'CCM_AWS_INSTANCE_EXISTS_GRACE_PERIOD';

function instanceExistsGracePeriodMs(options: AwsCloudOptions, logger: Logger): number | undefined {
  if (options.instanceExistsGracePeriodMs !== undefined) return options.instanceExistsGracePeriodMs;
  const text = (options.environment ?? process.env)[INSTANCE_EXISTS_GRACE_PERIOD_VARIABLE];
  if (text === undefined) return undefined;
  let value: number;
  try {
    value = parseGoDuration(text);
  } catch (error) {
    throw new Error(`${INSTANCE_EXISTS_GRACE_PERIOD_VARIABLE}=${JSON.stringify(text)}: ${errorMessage(error)}`, { cause: error });
  }
  logger.warn(`${INSTANCE_EXISTS_GRACE_PERIOD_VARIABLE} sets the instance-exists grace period (upstream: a fixed 2m); meant for tests`, { gracePeriod: text });
  return value;
}

export interface AwsIdentity {
  region: string;
  vpcId: string;
  subnetId: string;
  clusterId: string;
  usesLegacyTags: boolean;
  /** True when no metadata lookup of the CCM's own instance was made. */
  offAws: boolean;
}

export class AwsCloud extends ComposedCloudProvider<{ instancesV2: AwsInstances; loadBalancer: AwsLoadBalancers; routes: AwsRoutes }> {
  readonly identity: AwsIdentity;
  /** The budget every AWS call of this provider goes through. */
  readonly apiBudget: CloudApiBudget;
  readonly #instanceTags: InstanceTagOperations;
  readonly #createNodeDirectory: AwsCloudOptions['createNodeDirectory'];
  readonly #setNodeDirectory: (directory: NodeDirectory | undefined) => void;

  /** Upstream `HasClusterID`: false without a cluster ID (config or the instance's cluster tag). */
  constructor(parts: {
    identity: AwsIdentity;
    apiBudget: CloudApiBudget;
    instancesV2: AwsInstances;
    loadBalancers: AwsLoadBalancers;
    routes: AwsRoutes;
    instanceTags: InstanceTagOperations;
    createNodeDirectory: AwsCloudOptions['createNodeDirectory'];
    setNodeDirectory: (directory: NodeDirectory | undefined) => void;
  }) {
    super(AWS_PROVIDER_NAME, { instancesV2: parts.instancesV2, loadBalancer: parts.loadBalancers, routes: parts.routes }, () => parts.identity.clusterId !== '');
    this.identity = parts.identity;
    this.apiBudget = parts.apiBudget;
    this.#instanceTags = parts.instanceTags;
    this.#createNodeDirectory = parts.createNodeDirectory;
    this.#setNodeDirectory = parts.setNodeDirectory;
  }

  initialize(context: CloudInitializeContext): void {
    this.#setNodeDirectory(this.#createNodeDirectory?.(context));
  }

  /** The tagging controller's cloud steps (CreateTags / DeleteTags on instances). */
  instanceTags(): InstanceTagOperations {
    return this.#instanceTags;
  }
}

function configError(fileName: string, message: string): CloudConfigError {
  return new CloudConfigError({ fileName, message });
}

async function findIdentity(config: AwsCloudConfig, fileName: string, metadata: MetadataPort, ec2: () => Ec2Port, region: string, logger: Logger): Promise<AwsIdentity> {
  if (config.kubernetesClusterTag !== '' && config.kubernetesClusterId !== '' && config.kubernetesClusterTag !== config.kubernetesClusterId) {
    throw configError(fileName, `clusterID tags did not match: KubernetesClusterID ${JSON.stringify(config.kubernetesClusterId)} vs KubernetesClusterTag ${JSON.stringify(config.kubernetesClusterTag)}`);
  }
  let clusterId = config.kubernetesClusterTag !== '' ? config.kubernetesClusterTag : config.kubernetesClusterId;
  let usesLegacyTags = config.kubernetesClusterTag !== '';
  const offAws = config.vpc !== '' && (config.subnetId !== '' || config.roleArn !== '') && clusterId !== '';
  let vpcId = config.vpc;
  let subnetId = config.subnetId;
  if (!offAws) {
    let instanceId: string;
    try {
      instanceId = await metadata.instanceId();
    } catch (error) {
      throw new Error(
        `could not read the instance ID from the instance metadata service (${errorMessage(error)}); ` +
          'when not running on EC2, set VPC, SubnetID (or RoleARN) and KubernetesClusterID in [Global]',
        { cause: error },
      );
    }
    const [self] = await ec2().describeInstances({ instanceIds: [instanceId] });
    if (!self) throw new CloudStateError(`error finding instance ${instanceId}: not returned by DescribeInstances`);
    if (vpcId === '') vpcId = self.vpcId ?? '';
    if (subnetId === '') subnetId = self.subnetId ?? '';
    if (clusterId === '') {
      const found = findClusterIdInTags(self.tags);
      if (found) {
        clusterId = found.clusterId;
        usesLegacyTags = found.legacy;
      } else {
        logger.warn(
          'no cluster ID configured or tagged on this instance; no cluster filtering is applied to shared resources, and load balancers, ' +
            'their k8s-elb-<name> security groups and target groups are found by name and treated as this cluster\'s (as upstream)',
          { instanceId },
        );
      }
    }
  }
  return { region, vpcId, subnetId, clusterId, usesLegacyTags, offAws };
}

/**
 * The AWS provider's definition (core's `defineCloudProvider`: registration, reading the cloud
 * config, logging its warnings), with test and simulator seams in `options`.
 */
export function defineAwsCloudProvider(options: AwsCloudOptions = {}): DefinedCloudProvider<AwsCloudConfig, AwsCloud> {
  return defineCloudProvider({
    name: AWS_PROVIDER_NAME,
    configSchema: { read: readAwsCloudConfig },
    defaultConfigFileName: DEFAULT_CLOUD_CONFIG_FILE_NAME,
    create: (config, context) => createAwsCloudFromConfig(config, context, options),
  });
}

/** The provider the binary registers: the node directory follows the shared Node informer. */
export const awsCloudProvider = defineAwsCloudProvider({ createNodeDirectory: sharedNodeDirectory });

/** Reads `configText` (logging its warnings) and builds the provider; `options` are the seams of tests and simulators. */
export function createAwsCloud(configText: string | undefined, context: CloudProviderFactoryContext, options: AwsCloudOptions = {}): Promise<AwsCloud> {
  return defineAwsCloudProvider(options).createFromText(configText, context);
}

async function createAwsCloudFromConfig(config: AwsCloudConfig, context: CloudProviderCreateContext, options: AwsCloudOptions): Promise<AwsCloud> {
  const logger = context.logger;
  const fileName = context.configFileName;

  const imdsOverride = findServiceOverride(config.serviceOverrides, SERVICE_ID_IMDS, '');
  const metadata = options.ports?.metadata ?? createImdsMetadataPort(imdsOverride ? { endpoint: imdsOverride.url } : {});
  let region = config.zone !== '' ? (regionOfZone(config.zone) ?? '') : config.region;
  if (region === '') {
    try {
      region = await metadata.region();
    } catch (error) {
      throw new Error(`could not determine the AWS region from the instance metadata service (${errorMessage(error)}); set Region in [Global]`, {
        cause: error,
      });
    }
  }

  const pipeline = AWS_PIPELINE.connect(context, options);
  const budget = pipeline.budget;
  const decorate = <T extends object>(port: T, service: string): T => pipeline.compose(port, service);
  let sdkClients: ReturnType<typeof createAwsSdkClients> | undefined;
  const clients = () =>
    (sdkClients ??= createAwsSdkClients({
      region,
      serviceOverrides: config.serviceOverrides,
      ...(config.roleArn === '' ? {} : { credentials: assumeRoleCredentials(config.roleArn, config.sourceArn, region) }),
    }));
  const ec2 = decorate(options.ports?.ec2 ?? createSdkEc2Port(clients().ec2), 'ec2');
  const elb = decorate(options.ports?.elb ?? createSdkElbPort(clients().elb), 'elb');
  const elbv2 = decorate(options.ports?.elbv2 ?? createSdkElbv2Port(clients().elbv2), 'elbv2');

  const identity = await findIdentity(config, fileName, metadata, () => ec2, region, logger);
  logger.info('AWS cloud provider configured', {
    region: identity.region,
    vpc: identity.vpcId,
    clusterId: identity.clusterId,
    offAws: identity.offAws,
  });

  const tagging = new ClusterTagging(identity.clusterId, identity.usesLegacyTags);
  let nodeDirectory: NodeDirectory | undefined;
  const lookup = new CoalescedInstanceLookup(ec2, {
    observers: {
      byId: createCoalescerMetrics(context.metrics, AWS_PROVIDER_NAME, 'DescribeInstances'),
      byPrivateDnsName: createCoalescerMetrics(context.metrics, AWS_PROVIDER_NAME, 'DescribeInstancesByPrivateDnsName'),
    },
  });
  const locator = new InstanceLocator(lookup, tagging, () => nodeDirectory);
  const zones = new ZoneCache(ec2);
  const settings: LoadBalancerSettings = {
    healthProbeMode: config.healthProbeMode,
    sharedHealthProbePort: config.sharedHealthProbePort,
    sharedHealthProbePath: config.sharedHealthProbePath,
    nlbSecurityGroupMode: config.nlbSecurityGroupMode,
    elbSecurityGroup: config.elbSecurityGroup,
    disableSecurityGroupIngress: config.disableSecurityGroupIngress,
  };
  const loadBalancerContext: LoadBalancerContext = {
    ec2,
    elb,
    elbv2,
    tagging,
    securityGroups: new SecurityGroupOperations(ec2, tagging, identity.vpcId, logger, options.securityGroupTiming ?? DEFAULT_SECURITY_GROUP_TIMING),
    subnets: new SubnetOperations(ec2, tagging, zones, identity.vpcId, identity.subnetId, logger),
    clusterInstances: new ClusterInstances(ec2, tagging),
    settings,
    logger,
  };
  return new AwsCloud({
    identity,
    apiBudget: budget,
    instancesV2: new AwsInstances({
      locator,
      zones,
      region: identity.region,
      nodeIpFamilies: config.nodeIpFamilies,
      topology: new InstanceTopologyOperations(ec2, config.supportedTopologyInstanceTypePattern, logger, Date.now, {
        observer: createCoalescerMetrics(context.metrics, AWS_PROVIDER_NAME, 'DescribeInstanceTopology'),
      }),
      logger,
      ...optionalGracePeriod(instanceExistsGracePeriodMs(options, logger)),
    }),
    loadBalancers: new AwsLoadBalancers({
      classic: new ClassicLoadBalancerOperations(loadBalancerContext),
      network: new NetworkLoadBalancerOperations(loadBalancerContext),
      settings,
      logger,
    }),
    routes: new AwsRoutes({ ec2, routeTables: new RouteTableOperations({ ec2, tagging, routeTableId: config.routeTableId }), locator, logger }),
    instanceTags: new InstanceTagOperations(ec2),
    createNodeDirectory: options.createNodeDirectory,
    setNodeDirectory: (directory) => {
      nodeDirectory = directory;
    },
  });
}

function optionalGracePeriod(value: number | undefined): { instanceExistsGracePeriodMs?: number } {
  return value === undefined ? {} : { instanceExistsGracePeriodMs: value };
}

/** Registers `aws` in a provider registry (default: the process-wide one). */
export function registerAwsCloudProvider(registry?: CloudProviderRegistry): CloudProviderRegistry {
  return awsCloudProvider.register(registry);
}
