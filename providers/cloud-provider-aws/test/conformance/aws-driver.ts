/**
 * The conformance driver for AWS, backed by moto_server: it builds a VPC with tagged subnets, a
 * cluster route table and a node security group, starts the aws-cloud-controller-manager binary
 * against moto through `[ServiceOverride]` sections in a temporary cloud config (off-AWS mode, so
 * no metadata service is needed), creates EC2 instances as nodes, and reads load balancers and
 * routes back with the plain SDK.
 *
 * Published as `@ccm/cloud-provider-aws/conformance` for the shared conformance suite
 * (e2e/src/conformance/aws.conformance.test.ts); also used by the AWS-specific end-to-end checks
 * (test/e2e/aws-load-balancers.e2e.test.ts).
 */
import { AWS_UPSTREAM_METRICS } from '@ccm/cloud-provider-aws';
import {
  CreateRouteCommand,
  DeleteRouteCommand,
  DescribeInstancesCommand,
  DescribeRouteTablesCommand,
  DescribeSecurityGroupsCommand,
  EC2Client,
  RunInstancesCommand,
  StartInstancesCommand,
  StopInstancesCommand,
  TerminateInstancesCommand,
  type Instance,
} from '@aws-sdk/client-ec2';
import { DescribeLoadBalancersCommand as DescribeClassicCommand, DescribeTagsCommand as DescribeClassicTagsCommand, ElasticLoadBalancingClient } from '@aws-sdk/client-elastic-load-balancing';
import {
  DescribeListenersCommand,
  DescribeLoadBalancersCommand,
  DescribeTagsCommand,
  DescribeTargetGroupsCommand,
  DescribeTargetHealthCommand,
  ElasticLoadBalancingV2Client,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type {
  BenchCcmOptions,
  CcmProcessSpec,
  CloudEndpoint,
  CloudRequest,
  CloudLoadBalancerView,
  CloudRouteView,
  DriverInstance,
  InjectedRoute,
  ProviderDriver,
  ProviderDriverCapabilities,
} from '@ccm/testing/conformance';
import { createMotoNetwork, DEFAULT_SUBNET_CIDRS, motoClientConfig, type MotoNetwork } from '../support/moto-network.js';
import { explainMotoInternalErrors, type ClientWithMiddleware } from '../support/moto-internal-errors.js';
import { MOTO_INSTALL_HINT, motoUnavailableReason, serviceOverrides, startMoto, type RunningMoto } from '../support/moto-server.js';
import { AwsSwapFixture, upstreamLoadBalancerName } from './aws-swap-fixture.js';

/** The built binary (`pnpm exec tsc -b providers/cloud-provider-aws`); the same path from test/ and from dist-test/. */
export const AWS_CCM_BIN = fileURLToPath(new URL('../../dist/cloud-controller-manager/main.js', import.meta.url));

const REGION = 'us-west-2';
const CLUSTER_TAG_PREFIX = 'kubernetes.io/cluster/';
/** Instances per RunInstances call of `createInstances`. */
const INSTANCES_PER_RUN = 100;

export interface AwsDriverOptions {
  /** The node subnets, one per zone (default two /24s; benchmarks with thousands of instances need larger ones). */
  subnetCidrs?: readonly string[];
}

/**
 * The AWS operation of a request to moto: the `Action` of the query protocol (EC2, ELB, ELBv2;
 * form body or query string), else the JSON protocol's `X-Amz-Target`.
 */
export function awsOperationOf(request: CloudRequest): string {
  const query = request.path.includes('?') ? new URLSearchParams(request.path.slice(request.path.indexOf('?') + 1)).get('Action') : null;
  const action = new URLSearchParams(request.body).get('Action') ?? query;
  if (action !== null && action !== '') return action;
  const target = request.headers['x-amz-target'];
  return typeof target === 'string' ? target : `${request.method} ${request.path.split('?')[0]}`;
}

/** `a` + UID without dashes, first 32 characters (the CCM's load balancer name, upstream `DefaultLoadBalancerName`). */
export const loadBalancerName = upstreamLoadBalancerName;

export class AwsDriver implements ProviderDriver {
  readonly name = 'aws';
  readonly upstreamMetrics = AWS_UPSTREAM_METRICS;
  /** moto never reports blackhole routes, so blackhole scenarios cannot be set up. */
  readonly capabilities: ProviderDriverCapabilities = { loadBalancer: true, routes: true, blackholeRoutes: false };
  readonly installHint = `${MOTO_INSTALL_HINT}, and build the CCM (pnpm exec tsc -b providers/cloud-provider-aws)`;
  /** What the upstream CCM leaves in the account for the swap scenario (`aws-swap-fixture.ts`). */
  readonly swap: AwsSwapFixture = new AwsSwapFixture(this);
  readonly clusterId: string;
  readonly #subnetCidrs: readonly string[];
  private moto: RunningMoto | undefined;
  private network: MotoNetwork | undefined;
  private directory: string | undefined;
  private cloudConfigPath: string | undefined;
  private ec2Client: EC2Client | undefined;
  /** Instances standing in for nodes of other clusters in injected routes: instance ID -> name. */
  private readonly foreignTargets = new Map<string, string>();
  private readonly instanceIds = new Map<string, string>();

  constructor(clusterId = `e2e-${process.pid}`, options: AwsDriverOptions = {}) {
    this.clusterId = clusterId;
    this.#subnetCidrs = options.subnetCidrs ?? DEFAULT_SUBNET_CIDRS;
  }

  async unavailableReason(): Promise<string | undefined> {
    return motoUnavailableReason() ?? (existsSync(AWS_CCM_BIN) ? undefined : `the AWS CCM is not built (${AWS_CCM_BIN} is missing)`);
  }

  async start(): Promise<void> {
    this.moto = await startMoto();
    this.ec2Client = explainMotoInternalErrors(new EC2Client(motoClientConfig(this.moto.endpoint, REGION)), this.moto);
    this.network = await createMotoNetwork(this.ec2Client, REGION, this.clusterId, 'shared', this.#subnetCidrs);
    this.directory = await mkdtemp(join(tmpdir(), 'ccm-e2e-aws-'));
    this.cloudConfigPath = await this.#writeCloudConfig('cloud.conf', this.moto.endpoint);
  }

  /** An off-AWS cloud config with every service overridden to `endpoint`; returns its path. */
  async #writeCloudConfig(fileName: string, endpoint: string): Promise<string> {
    if (this.directory === undefined) throw new Error('AwsDriver: not started');
    const path = join(this.directory, fileName);
    await writeFile(
      path,
      `[Global]\nRegion = ${REGION}\nVPC = ${this.vpc.vpcId}\nSubnetID = ${this.vpc.subnetIds[0]}\nKubernetesClusterID = ${this.clusterId}\n` + serviceOverrides(endpoint, REGION),
    );
    return path;
  }

  async stop(): Promise<void> {
    await this.moto?.stop();
    this.moto = undefined;
    if (this.directory !== undefined) await rm(this.directory, { recursive: true, force: true });
    this.directory = undefined;
  }

  ccmProcess(): CcmProcessSpec {
    if (this.cloudConfigPath === undefined) throw new Error('AwsDriver.ccmProcess() called before start()');
    return awsCcmProcess(this.cloudConfigPath);
  }

  cloudEndpoint(): CloudEndpoint {
    return { url: this.endpoint, operationOf: awsOperationOf };
  }

  /** The CCM against `cloudUrl` (the benchmark's counting proxy); AWS has no lookup-policy or budget setting. */
  async benchCcmProcess(options: BenchCcmOptions): Promise<CcmProcessSpec> {
    return awsCcmProcess(await this.#writeCloudConfig('bench-cloud.conf', options.cloudUrl));
  }

  /** Where moto listens and what the driver built there, for provider-specific checks with the SDK. */
  cloudSide(): { endpoint: string; region: string; network: MotoNetwork } {
    return { endpoint: this.endpoint, region: REGION, network: this.vpc };
  }

  private get ec2(): EC2Client {
    if (this.ec2Client === undefined) throw new Error('moto is not started');
    return this.ec2Client;
  }

  /** A test-side client that asks moto again on its internal errors (reads) and shows their traceback. */
  #motoClient<Client extends ClientWithMiddleware>(client: Client): Client {
    if (this.moto === undefined) throw new Error('moto is not started');
    return explainMotoInternalErrors(client, this.moto);
  }

  private get endpoint(): string {
    if (this.moto === undefined) throw new Error('moto is not started');
    return this.moto.endpoint;
  }

  private get vpc(): MotoNetwork {
    if (this.network === undefined) throw new Error('moto is not started');
    return this.network;
  }

  private async describe(instanceIds: string[]): Promise<Instance[]> {
    if (instanceIds.length === 0) return [];
    const output = await this.ec2.send(new DescribeInstancesCommand({ InstanceIds: instanceIds }));
    return (output.Reservations ?? []).flatMap((reservation) => reservation.Instances ?? []);
  }

  private async runInstance(name: string, clusterTagged: boolean): Promise<Instance> {
    const tags = [{ Key: 'Name', Value: name }, ...(clusterTagged ? [{ Key: `${CLUSTER_TAG_PREFIX}${this.clusterId}`, Value: 'owned' }] : [])];
    const output = await this.ec2.send(
      new RunInstancesCommand({
        ImageId: 'ami-12c6146b',
        InstanceType: 't3.medium',
        MinCount: 1,
        MaxCount: 1,
        SubnetId: this.vpc.subnetIds[this.instanceIds.size % this.vpc.subnetIds.length],
        SecurityGroupIds: [this.vpc.nodeSecurityGroupId],
        TagSpecifications: [{ ResourceType: 'instance', Tags: tags }],
      }),
    );
    const [instance] = await this.describe([output.Instances?.[0]?.InstanceId ?? '']);
    if (!instance?.InstanceId) throw new Error(`moto did not create instance ${name}`);
    return instance;
  }

  /** The node name is the instance's private DNS name, as the kubelet registers on EC2. */
  async createInstance(name: string): Promise<DriverInstance> {
    return this.#driverInstance(await this.runInstance(name, true));
  }

  /**
   * Cluster instances in RunInstances calls of up to 100, spread over the subnets; `names` only
   * count them (EC2 names nodes after their private DNS names).
   */
  async createInstances(names: readonly string[]): Promise<DriverInstance[]> {
    const created: DriverInstance[] = [];
    for (let first = 0; first < names.length; first += INSTANCES_PER_RUN) {
      const count = Math.min(INSTANCES_PER_RUN, names.length - first);
      const output = await this.ec2.send(
        new RunInstancesCommand({
          ImageId: 'ami-12c6146b',
          InstanceType: 't3.medium',
          MinCount: count,
          MaxCount: count,
          SubnetId: this.vpc.subnetIds[(first / INSTANCES_PER_RUN) % this.vpc.subnetIds.length],
          SecurityGroupIds: [this.vpc.nodeSecurityGroupId],
          TagSpecifications: [{ ResourceType: 'instance', Tags: [{ Key: `${CLUSTER_TAG_PREFIX}${this.clusterId}`, Value: 'owned' }] }],
        }),
      );
      for (const instance of output.Instances ?? []) created.push(this.#driverInstance(instance));
    }
    if (created.length !== names.length) throw new Error(`moto created ${created.length} instances, not ${names.length}`);
    return created;
  }

  #driverInstance(instance: Instance): DriverInstance {
    const nodeName = instance.PrivateDnsName ?? '';
    const internalIp = instance.PrivateIpAddress ?? '';
    this.instanceIds.set(nodeName, instance.InstanceId ?? '');
    const expectedAddresses = [
      { type: 'InternalIP', address: internalIp },
      ...(instance.PublicIpAddress ? [{ type: 'ExternalIP', address: instance.PublicIpAddress }] : []),
      { type: 'InternalDNS', address: nodeName },
      { type: 'Hostname', address: nodeName },
      ...(instance.PublicDnsName ? [{ type: 'ExternalDNS', address: instance.PublicDnsName }] : []),
    ];
    const zone = instance.Placement?.AvailabilityZone ?? '';
    return {
      nodeName,
      expectedProviderId: `aws:///${zone}/${instance.InstanceId}`,
      expectedAddresses,
      expectedInstanceType: 't3.medium',
      expectedZone: zone,
      expectedRegion: REGION,
      internalIp,
    };
  }

  private instanceId(instance: DriverInstance): string {
    const id = this.instanceIds.get(instance.nodeName);
    if (id === undefined) throw new Error(`instance ${instance.nodeName} was not created by this driver`);
    return id;
  }

  async stopInstance(instance: DriverInstance): Promise<void> {
    await this.ec2.send(new StopInstancesCommand({ InstanceIds: [this.instanceId(instance)] }));
  }

  async startInstance(instance: DriverInstance): Promise<void> {
    await this.ec2.send(new StartInstancesCommand({ InstanceIds: [this.instanceId(instance)] }));
  }

  /** Terminated instances stay listed as `terminated`, like on AWS. */
  async deleteInstance(instance: DriverInstance): Promise<void> {
    await this.ec2.send(new TerminateInstancesCommand({ InstanceIds: [this.instanceId(instance)] }));
  }

  private async nodeNames(instanceIds: string[]): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    for (const instance of await this.describe([...new Set(instanceIds)].filter((id) => !this.foreignTargets.has(id)))) {
      if (instance.InstanceId) names.set(instance.InstanceId, instance.PrivateDnsName ?? instance.InstanceId);
    }
    for (const id of instanceIds) {
      const foreign = this.foreignTargets.get(id);
      if (foreign !== undefined) names.set(id, foreign);
    }
    return names;
  }

  async readLoadBalancer(service: { namespace: string; name: string; uid: string }): Promise<CloudLoadBalancerView> {
    const name = loadBalancerName(service.uid);
    const classic = this.#motoClient(new ElasticLoadBalancingClient(motoClientConfig(this.endpoint, REGION)));
    try {
      const description = (await classic.send(new DescribeClassicCommand({ LoadBalancerNames: [name] }))).LoadBalancerDescriptions?.[0];
      if (description) {
        const ids = (description.Instances ?? []).flatMap((instance) => (instance.InstanceId ? [instance.InstanceId] : []));
        const names = await this.nodeNames(ids);
        return {
          exists: true,
          backendNodeNames: ids.map((id) => names.get(id) ?? id).sort(),
          ports: (description.ListenerDescriptions ?? []).map((entry) => entry.Listener?.LoadBalancerPort ?? 0).sort((a, b) => a - b),
        };
      }
    } catch (error) {
      if ((error as { Code?: string }).Code !== 'LoadBalancerNotFound') throw error;
    }
    const network = this.#motoClient(new ElasticLoadBalancingV2Client(motoClientConfig(this.endpoint, REGION)));
    let arn: string | undefined;
    try {
      arn = (await network.send(new DescribeLoadBalancersCommand({ Names: [name] }))).LoadBalancers?.[0]?.LoadBalancerArn;
    } catch (error) {
      if ((error as { Code?: string }).Code !== 'LoadBalancerNotFound') throw error;
    }
    if (arn === undefined) return { exists: false, backendNodeNames: [], ports: [] };
    const listeners = (await network.send(new DescribeListenersCommand({ LoadBalancerArn: arn }))).Listeners ?? [];
    const groups = (await network.send(new DescribeTargetGroupsCommand({ LoadBalancerArn: arn }))).TargetGroups ?? [];
    const ids = new Set<string>();
    for (const group of groups) {
      const health = await network.send(new DescribeTargetHealthCommand({ TargetGroupArn: group.TargetGroupArn }));
      for (const description of health.TargetHealthDescriptions ?? []) if (description.Target?.Id) ids.add(description.Target.Id);
    }
    const names = await this.nodeNames([...ids]);
    return {
      exists: true,
      backendNodeNames: [...ids].map((id) => names.get(id) ?? id).sort(),
      ports: listeners.map((listener) => listener.Port ?? 0).sort((a, b) => a - b),
    };
  }

  private async routeTableRoutes() {
    const table = (await this.ec2.send(new DescribeRouteTablesCommand({ RouteTableIds: [this.vpc.routeTableId] }))).RouteTables?.[0];
    return table?.Routes ?? [];
  }

  /** Instance routes of the cluster route table, as node names (injected targets by their given name). */
  async readRoutes(): Promise<CloudRouteView[]> {
    const routes = (await this.routeTableRoutes()).filter((route) => route.DestinationCidrBlock && route.InstanceId);
    const names = await this.nodeNames(routes.map((route) => route.InstanceId as string));
    return routes.map((route) => ({
      destinationCidr: route.DestinationCidrBlock as string,
      targetNodeName: names.get(route.InstanceId as string) ?? (route.InstanceId as string),
      blackhole: route.State === 'blackhole',
    }));
  }

  /** Load balancers, target groups and security groups tagged `owned` by the cluster, and routes to cluster nodes. */
  async leakedResources(): Promise<string[]> {
    const owned = (tags: Array<{ Key?: string | undefined; Value?: string | undefined }> | undefined): boolean =>
      (tags ?? []).some((tag) => tag.Key === `${CLUSTER_TAG_PREFIX}${this.clusterId}` && tag.Value === 'owned');
    const leaked: string[] = [];
    const classic = this.#motoClient(new ElasticLoadBalancingClient(motoClientConfig(this.endpoint, REGION)));
    const classicNames = ((await classic.send(new DescribeClassicCommand({}))).LoadBalancerDescriptions ?? []).map((description) => description.LoadBalancerName ?? '');
    if (classicNames.length > 0) {
      for (const description of (await classic.send(new DescribeClassicTagsCommand({ LoadBalancerNames: classicNames }))).TagDescriptions ?? []) {
        if (owned(description.Tags)) leaked.push(`classic load balancer ${description.LoadBalancerName}`);
      }
    }
    const network = this.#motoClient(new ElasticLoadBalancingV2Client(motoClientConfig(this.endpoint, REGION)));
    const arns = [
      ...((await network.send(new DescribeLoadBalancersCommand({}))).LoadBalancers ?? []).map((loadBalancer) => loadBalancer.LoadBalancerArn ?? ''),
      ...((await network.send(new DescribeTargetGroupsCommand({}))).TargetGroups ?? []).map((group) => group.TargetGroupArn ?? ''),
    ];
    for (let index = 0; index < arns.length; index += 20) {
      for (const description of (await network.send(new DescribeTagsCommand({ ResourceArns: arns.slice(index, index + 20) }))).TagDescriptions ?? []) {
        if (owned(description.Tags)) leaked.push(`elbv2 resource ${description.ResourceArn}`);
      }
    }
    for (const group of (await this.ec2.send(new DescribeSecurityGroupsCommand({ Filters: [{ Name: 'vpc-id', Values: [this.vpc.vpcId] }] }))).SecurityGroups ?? []) {
      if (owned(group.Tags)) leaked.push(`security group ${group.GroupId} (${group.GroupName})`);
    }
    for (const route of await this.routeTableRoutes()) {
      if (route.InstanceId && !this.foreignTargets.has(route.InstanceId)) leaked.push(`route ${route.DestinationCidrBlock} -> ${route.InstanceId}`);
    }
    return leaked;
  }

  /** A route to an instance that is not a node of this cluster (moto cannot make blackholes). */
  async injectRoute(route: InjectedRoute): Promise<void> {
    if (route.blackhole === true) throw new Error('moto cannot create blackhole routes');
    let instanceId = [...this.foreignTargets].find(([, name]) => name === route.targetNodeName)?.[0];
    if (instanceId === undefined) {
      instanceId = (await this.runInstance(route.targetNodeName, false)).InstanceId ?? '';
      this.foreignTargets.set(instanceId, route.targetNodeName);
    }
    await this.ec2.send(new CreateRouteCommand({ RouteTableId: this.vpc.routeTableId, DestinationCidrBlock: route.destinationCidr, InstanceId: instanceId }));
  }

  async removeRoute(destinationCidr: string): Promise<void> {
    if (!(await this.routeTableRoutes()).some((route) => route.DestinationCidrBlock === destinationCidr)) return;
    await this.ec2.send(new DeleteRouteCommand({ RouteTableId: this.vpc.routeTableId, DestinationCidrBlock: destinationCidr }));
  }
}

/**
 * The aws-cloud-controller-manager with `cloudConfigPath`, test credentials and no metadata
 * service. The node lifecycle scenario deletes instances of nodes seconds old: without upstream's
 * 2 min instance-exists grace period (`CCM_AWS_INSTANCE_EXISTS_GRACE_PERIOD=0s`, test-only).
 */
function awsCcmProcess(cloudConfigPath: string): CcmProcessSpec {
  return {
    command: process.execPath,
    args: [AWS_CCM_BIN, '--cloud-provider=aws', `--cloud-config=${cloudConfigPath}`],
    env: {
      AWS_ACCESS_KEY_ID: 'testing',
      AWS_SECRET_ACCESS_KEY: 'testing',
      AWS_EC2_METADATA_DISABLED: 'true',
      CCM_AWS_INSTANCE_EXISTS_GRACE_PERIOD: '0s',
    },
  };
}

export const awsDriver = new AwsDriver();
