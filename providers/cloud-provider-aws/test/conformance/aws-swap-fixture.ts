/**
 * The swap scenario's fixture for AWS (issue 23): writes into moto exactly what the upstream
 * aws-cloud-controller-manager (kubernetes/cloud-provider-aws v1.34.0, docs/parity.md "AWS") leaves
 * behind for a few Services and two nodes, next to another cluster's load balancer, so the
 * conformance suite can start our CCM on top and check it adopts everything.
 *
 * Upstream files read: `pkg/providers/v1/aws.go` (at 03a56811: `EnsureLoadBalancer`,
 * `buildELBSecurityGroupList`, `ensureSecurityGroup`, `updateInstanceSecurityGroupsForLoadBalancer`,
 * `GetLoadBalancerName`, `toStatus`, `v2toStatus`), `aws_loadbalancer.go` (at 007b18ec:
 * `ensureLoadBalancerv2`, `reconcileLBAttributes`, `buildTargetGroupName`, `createListenerV2`,
 * `ensureTargetGroup`, `updateInstanceSecurityGroupsForNLB`, `ensureLoadBalancer`,
 * `ensureLoadBalancerHealthCheck`, `getExpectedHealthCheck`), `tags.go` (at 1b79aced: `buildTags`),
 * `aws_routes.go` (at 58ce93a8: `CreateRoute`, `configureInstanceSourceDestCheck`).
 *
 * What the AWS names depend on: the load balancer name is `cloudprovider.DefaultLoadBalancerName`
 * (`GetLoadBalancerName` ignores `clusterName`); target group names hash the cluster ID (the
 * `KubernetesClusterID` of the cloud config, `tagging.clusterID()`), not `--cluster-name`. The
 * long `clusterName` below therefore names nothing in the cloud; it is still what both CCMs run with.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  AllocateAddressCommand,
  AuthorizeSecurityGroupIngressCommand,
  CreateRouteCommand,
  CreateRouteTableCommand,
  CreateSecurityGroupCommand,
  DeleteRouteCommand,
  DeleteRouteTableCommand,
  DeleteSecurityGroupCommand,
  DescribeAddressesCommand,
  DescribeInstancesCommand,
  DescribeRouteTablesCommand,
  DescribeSecurityGroupRulesCommand,
  DescribeSecurityGroupsCommand,
  EC2Client,
  ModifyInstanceAttributeCommand,
  ReleaseAddressCommand,
  RevokeSecurityGroupIngressCommand,
  RunInstancesCommand,
  TerminateInstancesCommand,
  type IpPermission,
  type SecurityGroupRule,
} from '@aws-sdk/client-ec2';
import {
  ConfigureHealthCheckCommand,
  CreateLoadBalancerCommand as CreateClassicCommand,
  DeleteLoadBalancerCommand as DeleteClassicCommand,
  DescribeLoadBalancersCommand as DescribeClassicCommand,
  ElasticLoadBalancingClient,
  ModifyLoadBalancerAttributesCommand as ModifyClassicAttributesCommand,
  RegisterInstancesWithLoadBalancerCommand,
} from '@aws-sdk/client-elastic-load-balancing';
import {
  CreateListenerCommand,
  CreateLoadBalancerCommand,
  CreateTargetGroupCommand,
  DescribeListenersCommand,
  DescribeLoadBalancerAttributesCommand,
  DescribeLoadBalancersCommand,
  DescribeTargetGroupsCommand,
  DescribeTargetHealthCommand,
  ElasticLoadBalancingV2Client,
  ModifyLoadBalancerAttributesCommand,
  RegisterTargetsCommand,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import type {
  DriverInstance,
  ProviderSwapFixture,
  SwapInventory,
  SwapNodeSeed,
  SwapServiceSeed,
  SwapServiceVariant,
  UpstreamServiceState,
} from '@ccm/testing/conformance';
import { motoClientConfig, type MotoNetwork } from '../support/moto-network.js';

/** What the fixture needs from the driver: where moto runs, the network it built, the cluster ID. */
export interface AwsSwapCloud {
  readonly clusterId: string;
  cloudSide(): { endpoint: string; region: string; network: MotoNetwork };
}

/** Upstream `ServiceAnnotationLoadBalancerInternal` (`aws.go`): any value but `false` asks for an internal ELB. */
const ANNOTATION_INTERNAL = 'service.beta.kubernetes.io/aws-load-balancer-internal';
/** Upstream `ServiceAnnotationLoadBalancerType` (`aws.go`); `isNLB` (`aws_loadbalancer.go`) is the value `nlb`. */
const ANNOTATION_TYPE = 'service.beta.kubernetes.io/aws-load-balancer-type';
/** Upstream `ServiceAnnotationLoadBalancerEIPAllocations` (`aws.go`): one allocation per subnet. */
const ANNOTATION_EIP_ALLOCATIONS = 'service.beta.kubernetes.io/aws-load-balancer-eip-allocations';

/** Upstream `TagNameKubernetesClusterPrefix` (`tags.go`). */
const CLUSTER_TAG_PREFIX = 'kubernetes.io/cluster/';
/** Upstream `TagNameKubernetesService` (`aws.go`): `namespace/name` of the Service, on ELBs, NLBs, target groups and listeners. */
const SERVICE_NAME_TAG = 'kubernetes.io/service-name';
/** Upstream `NLBClientRuleDescription`, `NLBMtuDiscoveryRuleDescription` (`aws.go`). */
const NLB_CLIENT_RULE = 'kubernetes.io/rule/nlb/client';
const NLB_MTU_RULE = 'kubernetes.io/rule/nlb/mtu';
/** `EnsureLoadBalancer`: without `loadBalancerSourceRanges`, `GetLoadBalancerSourceRanges` is 0.0.0.0/0. */
const ALL_IPV4 = '0.0.0.0/0';

/** The other cluster sharing the account and the VPC. */
const FOREIGN_CLUSTER_ID = 'another-cluster-in-the-same-account';
/** The other cluster's pod CIDR: the same as one of ours (both clusters use the default 10.244.0.0/16). */
const FOREIGN_POD_CIDR = '10.244.240.0/24';

type Tag = { Key: string; Value: string };

function tagList(tags: Record<string, string>): Tag[] {
  return Object.entries(tags).map(([Key, Value]) => ({ Key, Value }));
}

/** Upstream `cloudprovider.DefaultLoadBalancerName` (k8s.io/cloud-provider `cloud.go`): `a` + the UID without dashes, cut to 32. */
export function upstreamLoadBalancerName(uid: string): string {
  return `a${uid.replaceAll('-', '')}`.slice(0, 32);
}

/** Upstream `buildELBSecurityGroupList` (`aws.go`): the security group name of a Classic ELB. */
function classicSecurityGroupName(loadBalancerName: string): string {
  return `k8s-elb-${loadBalancerName}`;
}

/**
 * Upstream `buildTargetGroupName` (`aws_loadbalancer.go`): `k8s-%.8s-%.8s-%.10s` of the namespace and
 * name without non-alphanumerics and the SHA-1 of cluster ID, namespace, name, service port, node
 * port, target protocol, target type (`instance`), health-check protocol and interval.
 */
export function upstreamTargetGroupName(
  clusterId: string,
  service: { namespace: string; name: string },
  port: { port: number; nodePort: number; protocol: string },
  healthCheck: { protocol: string; intervalSeconds: number },
): string {
  const hasher = createHash('sha1');
  for (const part of [clusterId, service.namespace, service.name, String(port.port), String(port.nodePort), port.protocol, 'instance', healthCheck.protocol, String(healthCheck.intervalSeconds)]) {
    hasher.update(part);
  }
  return `${targetGroupPrefix(service)}${hasher.digest('hex').slice(0, 10)}`;
}

/** What every target group name of the Service starts with (`buildTargetGroupName`'s `k8s-%.8s-%.8s-`). */
function targetGroupPrefix(service: { namespace: string; name: string }): string {
  const alphanumeric = (value: string): string => value.replace(/[^a-zA-Z0-9]/g, '');
  return `k8s-${alphanumeric(service.namespace).slice(0, 8)}-${alphanumeric(service.name).slice(0, 8)}-`;
}

/** Upstream `buildNLBHealthCheckConfiguration` defaults for `externalTrafficPolicy: Cluster` (`aws.go`, `aws_loadbalancer.go`). */
const NLB_HEALTH_CHECK = { protocol: 'TCP', port: 'traffic-port', intervalSeconds: 30, timeoutSeconds: 10, threshold: 3 } as const;

/** The instance ID of a driver instance (its provider ID is `aws:///<zone>/<id>`). */
function instanceIdOf(instance: DriverInstance): string {
  return instance.expectedProviderId.split('/').pop() ?? '';
}

function ruleSource(rule: SecurityGroupRule, groupNames: ReadonlyMap<string, string>): string {
  if (rule.CidrIpv4) return rule.CidrIpv4;
  const referenced = rule.ReferencedGroupInfo?.GroupId ?? '';
  return `group ${groupNames.get(referenced) ?? referenced}`;
}

function ruleKey(groupName: string, rule: SecurityGroupRule, groupNames: ReadonlyMap<string, string>): string {
  const ports = rule.IpProtocol === '-1' ? 'all' : `${rule.FromPort}-${rule.ToPort}`;
  const description = rule.Description ? ` (${rule.Description})` : '';
  return `security-group-rule/${groupName} ${rule.IpProtocol} ${ports} from ${ruleSource(rule, groupNames)}${description}`;
}

interface SeededService {
  namespace: string;
  name: string;
  loadBalancerName: string;
  kind: 'classic' | 'network';
  targetGroupNames: string[];
}

interface ForeignResources {
  instanceId: string;
  loadBalancerName: string;
  loadBalancerGroupId: string;
  nodeGroupId: string;
  routeTableId: string;
}

export class AwsSwapFixture implements ProviderSwapFixture {
  /** 45 characters: `--cluster-name` of both CCMs (AWS names do not depend on it, see the file comment). */
  readonly clusterName = 'swap-from-the-upstream-aws-ccm-at-v1-34-0-e2e';
  readonly #cloud: AwsSwapCloud;
  #allocationIds: string[] = [];
  #seeded: SeededService[] = [];
  #nodeInstanceIds: string[] = [];
  #foreign: ForeignResources | undefined;

  constructor(cloud: AwsSwapCloud) {
    this.#cloud = cloud;
  }

  #clients(): { ec2: EC2Client; elb: ElasticLoadBalancingClient; elbv2: ElasticLoadBalancingV2Client; network: MotoNetwork } {
    const { endpoint, region, network } = this.#cloud.cloudSide();
    const config = motoClientConfig(endpoint, region);
    return { ec2: new EC2Client(config), elb: new ElasticLoadBalancingClient(config), elbv2: new ElasticLoadBalancingV2Client(config), network };
  }

  /**
   * An internet-facing and an internal Classic ELB, one for `externalTrafficPolicy: Local` (HTTP
   * health check on the health check node port), and an NLB on two Elastic IPs the user
   * reserved (one per subnet, as `ensureLoadBalancerv2` requires). AWS has no `loadBalancerIP`
   * (`EnsureLoadBalancer`: "LoadBalancerIP cannot be specified for AWS ELB"): the EIP annotation is
   * how a user requests addresses.
   */
  async userServices(): Promise<SwapServiceVariant[]> {
    const { ec2, network } = this.#clients();
    this.#allocationIds = [];
    for (const index of network.subnetIds.keys()) {
      const address = await ec2.send(
        new AllocateAddressCommand({ Domain: 'vpc', TagSpecifications: [{ ResourceType: 'elastic-ip', Tags: [{ Key: 'Name', Value: `user-reserved-${index}` }] }] }),
      );
      this.#allocationIds.push(address.AllocationId ?? '');
    }
    return [
      { label: 'external' },
      { label: 'internal', annotations: { [ANNOTATION_INTERNAL]: 'true' } },
      { label: 'local', externalTrafficPolicy: 'Local' },
      { label: 'nlb-eip', annotations: { [ANNOTATION_TYPE]: 'nlb', [ANNOTATION_EIP_ALLOCATIONS]: this.#allocationIds.join(',') } },
    ];
  }

  async seedUpstream(input: { services: SwapServiceSeed[]; nodes: SwapNodeSeed[] }): Promise<UpstreamServiceState[]> {
    this.#nodeInstanceIds = input.nodes.map((seed) => instanceIdOf(seed.instance));
    await this.#seedRoutes(input.nodes);
    const states: UpstreamServiceState[] = [];
    this.#seeded = [];
    for (const service of input.services) {
      const hostname = service.variant.annotations?.[ANNOTATION_TYPE] === 'nlb' ? await this.#seedNetwork(service) : await this.#seedClassic(service);
      // `toStatus` / `v2toStatus`: the DNS name as the only ingress. Upstream adds no finalizer of its
      // own and writes no annotation on the Service.
      states.push({ ingress: [{ hostname }], extraFinalizers: [], writtenAnnotations: {} });
    }
    this.#foreign = await this.#seedForeignCluster();
    return states;
  }

  /**
   * Upstream `CreateRoute` (`aws_routes.go`): source/destination check off on the instance
   * (`configureInstanceSourceDestCheck`), then a route for the pod CIDR to the instance in the
   * cluster's route table (`findRouteTable`: the one table tagged for the cluster).
   */
  async #seedRoutes(nodes: readonly SwapNodeSeed[]): Promise<void> {
    const { ec2, network } = this.#clients();
    for (const seed of nodes) {
      if (seed.podCidr === undefined) continue;
      const instanceId = instanceIdOf(seed.instance);
      await ec2.send(new ModifyInstanceAttributeCommand({ InstanceId: instanceId, SourceDestCheck: { Value: false } }));
      await ec2.send(new CreateRouteCommand({ RouteTableId: network.routeTableId, DestinationCidrBlock: seed.podCidr, InstanceId: instanceId }));
    }
  }

  /** Upstream `buildTags(ResourceLifecycleOwned, ...)` (`tags.go`): the cluster tag on top; no legacy `KubernetesCluster` tag, as the driver's config sets `KubernetesClusterID`, not `KubernetesClusterTag` (`awsTagging.init`). */
  #ownedTags(additional: Record<string, string> = {}): Record<string, string> {
    return { ...additional, [`${CLUSTER_TAG_PREFIX}${this.#cloud.clusterId}`]: 'owned' };
  }

  /**
   * The Classic ELB path of `EnsureLoadBalancer` (`aws.go`) for a Service with one TCP port: its security group with ingress, the ELB, its attributes and
   * health check, the node rule, the instances. Returns the DNS name.
   */
  async #seedClassic(service: SwapServiceSeed): Promise<string> {
    const { ec2, elb, network } = this.#clients();
    const name = upstreamLoadBalancerName(service.uid);
    const internal = (service.variant.annotations?.[ANNOTATION_INTERNAL] ?? '') !== '' && service.variant.annotations?.[ANNOTATION_INTERNAL] !== 'false';
    // `buildELBSecurityGroupList` -> `ensureSecurityGroup`: name, description, `buildTags(owned, additional tags)`.
    const groupId =
      (
        await ec2.send(
          new CreateSecurityGroupCommand({
            GroupName: classicSecurityGroupName(name),
            Description: `Security group for Kubernetes ELB ${name} (${service.namespace}/${service.name})`,
            VpcId: network.vpcId,
            TagSpecifications: [{ ResourceType: 'security-group', Tags: tagList(this.#ownedTags()) }],
          }),
        )
      ).GroupId ?? '';
    // `EnsureLoadBalancer` with `setupSg`: each service port from the source ranges, and ICMP 3-4
    // ("Allow ICMP fragmentation packets") from the same ranges (`setSecurityGroupIngress`).
    const permissions: IpPermission[] = [
      ...service.ports.map((port) => ({ IpProtocol: port.protocol.toLowerCase(), FromPort: port.port, ToPort: port.port, IpRanges: [{ CidrIp: ALL_IPV4 }] })),
      { IpProtocol: 'icmp', FromPort: 3, ToPort: 4, IpRanges: [{ CidrIp: ALL_IPV4 }] },
    ];
    await ec2.send(new AuthorizeSecurityGroupIngressCommand({ GroupId: groupId, IpPermissions: permissions }));
    // `ensureLoadBalancer` (`aws_loadbalancer.go`): listeners from `buildListener` (lower-case tcp,
    // load balancer port -> node port), `internal` scheme, the subnets of `findELBSubnets` (the
    // driver has one tagged public subnet per zone: each of them), the group, and the tags
    // `kubernetes.io/service-name` + `buildTags(owned)`.
    await elb.send(
      new CreateClassicCommand({
        LoadBalancerName: name,
        Listeners: service.ports.map((port) => ({ Protocol: 'tcp', LoadBalancerPort: port.port, InstanceProtocol: 'tcp', InstancePort: port.nodePort })),
        Subnets: network.subnetIds,
        SecurityGroups: [groupId],
        ...(internal ? { Scheme: 'internal' } : {}),
        Tags: tagList(this.#ownedTags({ [SERVICE_NAME_TAG]: `${service.namespace}/${service.name}` })),
      }),
    );
    // `EnsureLoadBalancer`'s attribute defaults, applied by `ensureLoadBalancer` when they differ.
    await elb.send(
      new ModifyClassicAttributesCommand({
        LoadBalancerName: name,
        LoadBalancerAttributes: {
          AccessLog: { Enabled: false },
          ConnectionDraining: { Enabled: false },
          ConnectionSettings: { IdleTimeout: 60 },
          CrossZoneLoadBalancing: { Enabled: false },
        },
      }),
    );
    // `ensureLoadBalancerHealthCheck`: with `externalTrafficPolicy: Local`, HTTP on the health check
    // node port at `/healthz` (`GetServiceHealthCheckPathPort`); else TCP on the first listener's
    // instance port. `getExpectedHealthCheck` defaults: healthy 2, unhealthy 6, timeout 5, interval 10.
    const target = service.healthCheckNodePort === undefined ? `TCP:${service.ports[0]?.nodePort ?? 0}` : `HTTP:${service.healthCheckNodePort}/healthz`;
    await elb.send(
      new ConfigureHealthCheckCommand({
        LoadBalancerName: name,
        HealthCheck: { Target: target, HealthyThreshold: 2, UnhealthyThreshold: 6, Timeout: 5, Interval: 10 },
      }),
    );
    // `updateInstanceSecurityGroupsForLoadBalancer`: all traffic from the ELB's group into the
    // instances' cluster-tagged group (the driver's node group).
    await ec2.send(new AuthorizeSecurityGroupIngressCommand({ GroupId: network.nodeSecurityGroupId, IpPermissions: [{ IpProtocol: '-1', UserIdGroupPairs: [{ GroupId: groupId }] }] }));
    // `ensureLoadBalancerInstances`: every node's instance.
    await elb.send(new RegisterInstancesWithLoadBalancerCommand({ LoadBalancerName: name, Instances: this.#nodeInstanceIds.map((InstanceId) => ({ InstanceId })) }));
    this.#seeded.push({ namespace: service.namespace, name: service.name, loadBalancerName: name, kind: 'classic', targetGroupNames: [] });
    const description = (await elb.send(new DescribeClassicCommand({ LoadBalancerNames: [name] }))).LoadBalancerDescriptions?.[0];
    return description?.DNSName ?? '';
  }

  /**
   * The NLB path of `EnsureLoadBalancer` (`aws.go`) and `ensureLoadBalancerv2`
   * (`aws_loadbalancer.go`) for a Service with one TCP port: the NLB on the annotated EIPs, a target
   * group and a listener per port, the attributes, and the node rules of
   * `updateInstanceSecurityGroupsForNLB`. No security group on the NLB (`NLBSecurityGroupMode` unset).
   */
  async #seedNetwork(service: SwapServiceSeed): Promise<string> {
    const { ec2, elbv2, network } = this.#clients();
    const name = upstreamLoadBalancerName(service.uid);
    const internal = (service.variant.annotations?.[ANNOTATION_INTERNAL] ?? '') !== '' && service.variant.annotations?.[ANNOTATION_INTERNAL] !== 'false';
    const allocations = (service.variant.annotations?.[ANNOTATION_EIP_ALLOCATIONS] ?? '').split(',').filter((id) => id !== '');
    // `ensureLoadBalancerv2`: additional tags + `kubernetes.io/service-name`, then `buildTags(owned)`;
    // the same tags go on the NLB, its target groups and its listeners.
    const tags = tagList(this.#ownedTags({ [SERVICE_NAME_TAG]: `${service.namespace}/${service.name}` }));
    // `createSubnetMappings`: one mapping per subnet, with the allocation of the same index.
    const created = await elbv2.send(
      new CreateLoadBalancerCommand({
        Name: name,
        Type: 'network',
        ...(internal ? { Scheme: 'internal' } : {}),
        SubnetMappings: network.subnetIds.map((SubnetId, index) => ({ SubnetId, ...(allocations[index] === undefined ? {} : { AllocationId: allocations[index] }) })),
        Tags: tags,
      }),
    );
    const loadBalancer = created.LoadBalancers?.[0];
    const arn = loadBalancer?.LoadBalancerArn ?? '';
    const targetGroupNames: string[] = [];
    for (const port of service.ports) {
      // `createListenerV2` -> `ensureTargetGroup`: an instance target group on the node port with
      // the Cluster-policy health check, then every node's instance on the node port.
      const targetGroupName = upstreamTargetGroupName(this.#cloud.clusterId, service, port, NLB_HEALTH_CHECK);
      targetGroupNames.push(targetGroupName);
      const group = (
        await elbv2.send(
          new CreateTargetGroupCommand({
            Name: targetGroupName,
            VpcId: network.vpcId,
            Port: port.nodePort,
            Protocol: 'TCP',
            TargetType: 'instance',
            HealthCheckIntervalSeconds: NLB_HEALTH_CHECK.intervalSeconds,
            HealthCheckPort: NLB_HEALTH_CHECK.port,
            HealthCheckProtocol: NLB_HEALTH_CHECK.protocol,
            HealthyThresholdCount: NLB_HEALTH_CHECK.threshold,
            UnhealthyThresholdCount: NLB_HEALTH_CHECK.threshold,
            Tags: tags,
          }),
        )
      ).TargetGroups?.[0];
      await elbv2.send(new RegisterTargetsCommand({ TargetGroupArn: group?.TargetGroupArn, Targets: this.#nodeInstanceIds.map((Id) => ({ Id, Port: port.nodePort })) }));
      await elbv2.send(
        new CreateListenerCommand({
          LoadBalancerArn: arn,
          Port: port.port,
          Protocol: 'TCP',
          DefaultActions: [{ Type: 'forward', TargetGroupArn: group?.TargetGroupArn }],
          Tags: tags,
        }),
      );
    }
    // `reconcileLBAttributes`: cross-zone and access logs off, written only where they differ.
    const current = new Map(((await elbv2.send(new DescribeLoadBalancerAttributesCommand({ LoadBalancerArn: arn }))).Attributes ?? []).map((entry) => [entry.Key, entry.Value]));
    const changed = [
      { Key: 'load_balancing.cross_zone.enabled', Value: 'false' },
      { Key: 'access_logs.s3.enabled', Value: 'false' },
    ].filter((attribute) => current.get(attribute.Key) !== attribute.Value);
    if (changed.length > 0) await elbv2.send(new ModifyLoadBalancerAttributesCommand({ LoadBalancerArn: arn, Attributes: changed }));
    // `updateInstanceSecurityGroupsForNLB` on the nodes' cluster-tagged group: the client rule (node
    // ports from the client CIDRs, described `kubernetes.io/rule/nlb/client=<name>`); no health
    // rule, as a tcp client rule from 0.0.0.0/0 on the same ports covers it; then
    // `updateInstanceSecurityGroupForNLBMTU`: ICMP 3-4 from each client CIDR, described `kubernetes.io/rule/nlb/mtu`.
    await ec2.send(
      new AuthorizeSecurityGroupIngressCommand({
        GroupId: network.nodeSecurityGroupId,
        IpPermissions: [
          ...service.ports.map((port) => ({ IpProtocol: 'tcp', FromPort: port.nodePort, ToPort: port.nodePort, IpRanges: [{ CidrIp: ALL_IPV4, Description: `${NLB_CLIENT_RULE}=${name}` }] })),
          { IpProtocol: 'icmp', FromPort: 3, ToPort: 4, IpRanges: [{ CidrIp: ALL_IPV4, Description: NLB_MTU_RULE }] },
        ],
      }),
    );
    this.#seeded.push({ namespace: service.namespace, name: service.name, loadBalancerName: name, kind: 'network', targetGroupNames });
    return loadBalancer?.DNSName ?? '';
  }

  /**
   * Another cluster in the same account and VPC, as its own upstream CCM left it: a node in its own
   * node group, a Classic ELB with its `k8s-elb-` group (all tagged for that cluster), the node
   * rule from that group, and its own route table with a route for the same pod CIDR as ours.
   */
  async #seedForeignCluster(): Promise<ForeignResources> {
    const { ec2, elb, network } = this.#clients();
    const owned = { [`${CLUSTER_TAG_PREFIX}${FOREIGN_CLUSTER_ID}`]: 'owned' };
    const nodeGroupId =
      (
        await ec2.send(
          new CreateSecurityGroupCommand({
            GroupName: `nodes-${FOREIGN_CLUSTER_ID}`,
            Description: 'nodes of another cluster',
            VpcId: network.vpcId,
            TagSpecifications: [{ ResourceType: 'security-group', Tags: tagList(owned) }],
          }),
        )
      ).GroupId ?? '';
    const run = await ec2.send(
      new RunInstancesCommand({
        ImageId: 'ami-12c6146b',
        InstanceType: 't3.medium',
        MinCount: 1,
        MaxCount: 1,
        SubnetId: network.subnetIds[0],
        SecurityGroupIds: [nodeGroupId],
        TagSpecifications: [{ ResourceType: 'instance', Tags: tagList({ Name: 'node-of-another-cluster', ...owned }) }],
      }),
    );
    const instanceId = run.Instances?.[0]?.InstanceId ?? '';
    const loadBalancerName = `a${randomBytes(16).toString('hex')}`.slice(0, 32);
    const loadBalancerGroupId =
      (
        await ec2.send(
          new CreateSecurityGroupCommand({
            GroupName: classicSecurityGroupName(loadBalancerName),
            Description: `Security group for Kubernetes ELB ${loadBalancerName} (default/web)`,
            VpcId: network.vpcId,
            TagSpecifications: [{ ResourceType: 'security-group', Tags: tagList(owned) }],
          }),
        )
      ).GroupId ?? '';
    await ec2.send(
      new AuthorizeSecurityGroupIngressCommand({
        GroupId: loadBalancerGroupId,
        IpPermissions: [
          { IpProtocol: 'tcp', FromPort: 443, ToPort: 443, IpRanges: [{ CidrIp: ALL_IPV4 }] },
          { IpProtocol: 'icmp', FromPort: 3, ToPort: 4, IpRanges: [{ CidrIp: ALL_IPV4 }] },
        ],
      }),
    );
    await elb.send(
      new CreateClassicCommand({
        LoadBalancerName: loadBalancerName,
        Listeners: [{ Protocol: 'tcp', LoadBalancerPort: 443, InstanceProtocol: 'tcp', InstancePort: 31443 }],
        Subnets: network.subnetIds,
        SecurityGroups: [loadBalancerGroupId],
        Tags: tagList({ [SERVICE_NAME_TAG]: 'default/web', ...owned }),
      }),
    );
    await elb.send(new RegisterInstancesWithLoadBalancerCommand({ LoadBalancerName: loadBalancerName, Instances: [{ InstanceId: instanceId }] }));
    await ec2.send(new AuthorizeSecurityGroupIngressCommand({ GroupId: nodeGroupId, IpPermissions: [{ IpProtocol: '-1', UserIdGroupPairs: [{ GroupId: loadBalancerGroupId }] }] }));
    const routeTableId =
      (await ec2.send(new CreateRouteTableCommand({ VpcId: network.vpcId, TagSpecifications: [{ ResourceType: 'route-table', Tags: tagList(owned) }] }))).RouteTable?.RouteTableId ?? '';
    await ec2.send(new CreateRouteCommand({ RouteTableId: routeTableId, DestinationCidrBlock: FOREIGN_POD_CIDR, InstanceId: instanceId }));
    return { instanceId, loadBalancerName, loadBalancerGroupId, nodeGroupId, routeTableId };
  }

  async inventory(): Promise<SwapInventory> {
    const { ec2, elb, elbv2, network } = this.#clients();
    const inventory: SwapInventory = { loadBalancers: {}, routes: {}, user: {}, foreign: {} };
    const foreign = this.#foreign;
    const ourClassicNames = new Set(this.#seeded.filter((service) => service.kind === 'classic').map((service) => service.loadBalancerName));
    const ourNetworkNames = new Set(this.#seeded.filter((service) => service.kind === 'network').map((service) => service.loadBalancerName));

    // Classic ELBs: created time and DNS name identify one; a recreated ELB has another created time.
    for (const description of (await elb.send(new DescribeClassicCommand({}))).LoadBalancerDescriptions ?? []) {
      const name = description.LoadBalancerName ?? '';
      const target = ourClassicNames.has(name) ? inventory.loadBalancers : name === foreign?.loadBalancerName ? inventory.foreign : undefined;
      if (target === undefined) continue;
      const instances = (description.Instances ?? []).map((instance) => instance.InstanceId ?? '').sort();
      const listeners = (description.ListenerDescriptions ?? []).map((entry) => `${entry.Listener?.Protocol}:${entry.Listener?.LoadBalancerPort}->${entry.Listener?.InstancePort}`).sort();
      target[`classic-load-balancer/${name}`] =
        `created=${description.CreatedTime?.toISOString()} dns=${description.DNSName} scheme=${description.Scheme} subnets=${[...(description.Subnets ?? [])].sort().join(',')} ` +
        `groups=${[...(description.SecurityGroups ?? [])].sort().join(',')} listeners=${listeners.join(',')} health=${description.HealthCheck?.Target} instances=${instances.join(',')}`;
    }

    // NLBs, their listeners and target groups (ARNs hold a random ID: a recreated one differs).
    const networkArns: string[] = [];
    for (const loadBalancer of (await elbv2.send(new DescribeLoadBalancersCommand({}))).LoadBalancers ?? []) {
      if (!ourNetworkNames.has(loadBalancer.LoadBalancerName ?? '')) continue;
      networkArns.push(loadBalancer.LoadBalancerArn ?? '');
      const subnets = (loadBalancer.AvailabilityZones ?? []).map((zone) => zone.SubnetId ?? '').sort();
      inventory.loadBalancers[`network-load-balancer/${loadBalancer.LoadBalancerName}`] = `${loadBalancer.LoadBalancerArn} dns=${loadBalancer.DNSName} scheme=${loadBalancer.Scheme} subnets=${subnets.join(',')}`;
      for (const listener of (await elbv2.send(new DescribeListenersCommand({ LoadBalancerArn: loadBalancer.LoadBalancerArn }))).Listeners ?? []) {
        inventory.loadBalancers[`listener/${loadBalancer.LoadBalancerName}:${listener.Port}`] = `${listener.ListenerArn} forward=${listener.DefaultActions?.[0]?.TargetGroupArn}`;
      }
    }
    const ourTargetGroupNames = new Set(this.#seeded.flatMap((service) => service.targetGroupNames));
    const ourTargetGroupPrefixes = this.#seeded.map(targetGroupPrefix);
    for (const group of (await elbv2.send(new DescribeTargetGroupsCommand({}))).TargetGroups ?? []) {
      const name = group.TargetGroupName ?? '';
      const linked = (group.LoadBalancerArns ?? []).some((arn) => networkArns.includes(arn));
      if (!ourTargetGroupNames.has(name) && !linked && !ourTargetGroupPrefixes.some((prefix) => name.startsWith(prefix))) continue;
      const targets = ((await elbv2.send(new DescribeTargetHealthCommand({ TargetGroupArn: group.TargetGroupArn }))).TargetHealthDescriptions ?? [])
        .map((entry) => `${entry.Target?.Id}:${entry.Target?.Port}`)
        .sort();
      inventory.loadBalancers[`target-group/${name}`] = `${group.TargetGroupArn} port=${group.Port} targets=${targets.join(',')}`;
    }

    // Security groups of the VPC by name, and the ingress rules that belong to a load balancer.
    const groups = (await ec2.send(new DescribeSecurityGroupsCommand({ Filters: [{ Name: 'vpc-id', Values: [network.vpcId] }] }))).SecurityGroups ?? [];
    const groupNames = new Map(groups.map((group) => [group.GroupId ?? '', group.GroupName ?? '']));
    const ourGroupNames = new Set([...ourClassicNames].map(classicSecurityGroupName));
    const foreignGroupIds = foreign === undefined ? [] : [foreign.loadBalancerGroupId, foreign.nodeGroupId];
    const ourGroupIds: string[] = [];
    for (const group of groups) {
      const id = group.GroupId ?? '';
      if (ourGroupNames.has(group.GroupName ?? '')) {
        ourGroupIds.push(id);
        inventory.loadBalancers[`security-group/${group.GroupName}`] = `${id} description=${group.Description}`;
      } else if (foreignGroupIds.includes(id)) {
        inventory.foreign[`security-group/${group.GroupName}`] = `${id} description=${group.Description}`;
      }
    }
    const ruleGroups = [...ourGroupIds, network.nodeSecurityGroupId, ...foreignGroupIds].filter((id) => groupNames.has(id));
    const rules = (await ec2.send(new DescribeSecurityGroupRulesCommand({ Filters: [{ Name: 'group-id', Values: ruleGroups }] }))).SecurityGroupRules ?? [];
    const seededNames = this.#seeded.map((service) => service.loadBalancerName);
    for (const rule of rules) {
      if (rule.IsEgress) continue;
      const owner = rule.GroupId ?? '';
      const key = ruleKey(groupNames.get(owner) ?? owner, rule, groupNames);
      if (foreignGroupIds.includes(owner)) inventory.foreign[key] = rule.SecurityGroupRuleId ?? '';
      else if (ourGroupIds.includes(owner)) inventory.loadBalancers[key] = rule.SecurityGroupRuleId ?? '';
      else if (owner === network.nodeSecurityGroupId) {
        const fromOurGroup = ourGroupIds.includes(rule.ReferencedGroupInfo?.GroupId ?? '');
        const description = rule.Description ?? '';
        const nlbRule = description === NLB_MTU_RULE || seededNames.some((name) => description.endsWith(`=${name}`));
        if (fromOurGroup || nlbRule) inventory.loadBalancers[key] = rule.SecurityGroupRuleId ?? '';
      }
    }

    // Routes to this cluster's nodes in its route table; the other cluster's table and route.
    const tableIds = [network.routeTableId, ...(foreign === undefined ? [] : [foreign.routeTableId])];
    for (const table of (await ec2.send(new DescribeRouteTablesCommand({ RouteTableIds: tableIds }))).RouteTables ?? []) {
      for (const route of table.Routes ?? []) {
        if (route.InstanceId === undefined || route.DestinationCidrBlock === undefined) continue;
        if (table.RouteTableId === network.routeTableId && this.#nodeInstanceIds.includes(route.InstanceId)) {
          inventory.routes[`route/${route.DestinationCidrBlock}`] = route.InstanceId;
        } else if (table.RouteTableId === foreign?.routeTableId) {
          inventory.foreign[`route/${table.RouteTableId} ${route.DestinationCidrBlock}`] = route.InstanceId;
        }
      }
    }
    if (foreign !== undefined) {
      const reservations = (await ec2.send(new DescribeInstancesCommand({ InstanceIds: [foreign.instanceId] }))).Reservations ?? [];
      const state = reservations[0]?.Instances?.[0]?.State?.Name;
      inventory.foreign[`instance/${foreign.instanceId}`] = `state=${state}`;
    }

    // The user's Elastic IPs: allocation ID and address.
    for (const address of (await ec2.send(new DescribeAddressesCommand({}))).Addresses ?? []) {
      if (this.#allocationIds.includes(address.AllocationId ?? '')) inventory.user[`elastic-ip/${address.AllocationId}`] = address.PublicIp ?? '';
    }
    return inventory;
  }

  /** Releases the user's EIPs and removes the other cluster's resources. */
  async cleanUp(): Promise<void> {
    const { ec2, elb } = this.#clients();
    const foreign = this.#foreign;
    if (foreign !== undefined) {
      await elb.send(new DeleteClassicCommand({ LoadBalancerName: foreign.loadBalancerName }));
      await ec2.send(
        new RevokeSecurityGroupIngressCommand({ GroupId: foreign.nodeGroupId, IpPermissions: [{ IpProtocol: '-1', UserIdGroupPairs: [{ GroupId: foreign.loadBalancerGroupId }] }] }),
      );
      await ec2.send(new DeleteSecurityGroupCommand({ GroupId: foreign.loadBalancerGroupId }));
      await ec2.send(new DeleteRouteCommand({ RouteTableId: foreign.routeTableId, DestinationCidrBlock: FOREIGN_POD_CIDR }));
      await ec2.send(new DeleteRouteTableCommand({ RouteTableId: foreign.routeTableId }));
      await ec2.send(new TerminateInstancesCommand({ InstanceIds: [foreign.instanceId] }));
      await ec2.send(new DeleteSecurityGroupCommand({ GroupId: foreign.nodeGroupId }));
      this.#foreign = undefined;
    }
    for (const allocationId of this.#allocationIds) await ec2.send(new ReleaseAddressCommand({ AllocationId: allocationId }));
    this.#allocationIds = [];
  }
}
