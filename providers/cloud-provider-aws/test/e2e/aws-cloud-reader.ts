/**
 * Reads what the CCM built in moto back with plain SDK calls (test code, independent of the
 * provider's own ports): Classic ELBs with attributes and tags, NLBs with listeners, target
 * groups and targets, security groups, the cluster route table and instance attributes.
 */
import {
  DescribeInstanceAttributeCommand,
  DescribeRouteTablesCommand,
  DescribeSecurityGroupsCommand,
  DescribeSubnetsCommand,
  EC2Client,
  type IpPermission,
  type Route,
  type SecurityGroup,
} from '@aws-sdk/client-ec2';
import {
  DescribeLoadBalancerAttributesCommand as DescribeClassicAttributesCommand,
  DescribeLoadBalancersCommand as DescribeClassicCommand,
  DescribeTagsCommand as DescribeClassicTagsCommand,
  ElasticLoadBalancingClient,
  type LoadBalancerAttributes as ClassicAttributes,
  type LoadBalancerDescription,
} from '@aws-sdk/client-elastic-load-balancing';
import {
  DescribeListenersCommand,
  DescribeLoadBalancersCommand,
  DescribeTagsCommand,
  DescribeTargetGroupsCommand,
  DescribeTargetHealthCommand,
  ElasticLoadBalancingV2Client,
  type Listener,
  type LoadBalancer,
  type TargetGroup,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { motoClientConfig } from '../support/moto-network.js';

type SdkTags = Array<{ Key?: string | undefined; Value?: string | undefined }> | undefined;

export function tagMap(tags: SdkTags): Record<string, string> {
  return Object.fromEntries((tags ?? []).map((tag) => [tag.Key ?? '', tag.Value ?? '']));
}

function isNotFound(error: unknown): boolean {
  const code = (error as { Code?: string; name?: string }).Code ?? (error as { name?: string }).name ?? '';
  return code === 'LoadBalancerNotFound' || code === 'LoadBalancerNotFoundException' || code === 'AccessPointNotFound';
}

export interface ClassicView {
  description: LoadBalancerDescription;
  attributes: ClassicAttributes | undefined;
  tags: Record<string, string>;
}

export interface TargetGroupView {
  group: TargetGroup;
  tags: Record<string, string>;
  /** Registered targets as `<instance id>:<port>`, sorted. */
  targets: string[];
}

export interface NetworkView {
  loadBalancer: LoadBalancer;
  tags: Record<string, string>;
  listeners: Listener[];
  targetGroups: TargetGroupView[];
}

/** One flat ingress rule, for readable assertions. */
export interface FlatRule {
  protocol: string;
  fromPort: number | undefined;
  toPort: number | undefined;
  source: string;
  description: string | undefined;
}

export function flattenRules(permissions: readonly IpPermission[] | undefined): FlatRule[] {
  const rules: FlatRule[] = [];
  for (const permission of permissions ?? []) {
    const base = { protocol: permission.IpProtocol ?? '', fromPort: permission.FromPort, toPort: permission.ToPort };
    for (const range of permission.IpRanges ?? []) rules.push({ ...base, source: range.CidrIp ?? '', description: range.Description });
    for (const range of permission.Ipv6Ranges ?? []) rules.push({ ...base, source: range.CidrIpv6 ?? '', description: range.Description });
    for (const pair of permission.UserIdGroupPairs ?? []) rules.push({ ...base, source: pair.GroupId ?? '', description: pair.Description });
  }
  return rules;
}

export class AwsCloudReader {
  readonly ec2: EC2Client;
  readonly elb: ElasticLoadBalancingClient;
  readonly elbv2: ElasticLoadBalancingV2Client;

  constructor(endpoint: string, region: string) {
    this.ec2 = new EC2Client(motoClientConfig(endpoint, region));
    this.elb = new ElasticLoadBalancingClient(motoClientConfig(endpoint, region));
    this.elbv2 = new ElasticLoadBalancingV2Client(motoClientConfig(endpoint, region));
  }

  async classic(name: string): Promise<ClassicView | undefined> {
    let description: LoadBalancerDescription | undefined;
    try {
      description = (await this.elb.send(new DescribeClassicCommand({ LoadBalancerNames: [name] }))).LoadBalancerDescriptions?.[0];
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
    if (description === undefined) return undefined;
    const attributes = (await this.elb.send(new DescribeClassicAttributesCommand({ LoadBalancerName: name }))).LoadBalancerAttributes;
    const tags = (await this.elb.send(new DescribeClassicTagsCommand({ LoadBalancerNames: [name] }))).TagDescriptions?.[0]?.Tags;
    return { description, attributes, tags: tagMap(tags) };
  }

  async network(name: string): Promise<NetworkView | undefined> {
    let loadBalancer: LoadBalancer | undefined;
    try {
      loadBalancer = (await this.elbv2.send(new DescribeLoadBalancersCommand({ Names: [name] }))).LoadBalancers?.[0];
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
    const arn = loadBalancer?.LoadBalancerArn;
    if (loadBalancer === undefined || arn === undefined) return undefined;
    const listeners = (await this.elbv2.send(new DescribeListenersCommand({ LoadBalancerArn: arn }))).Listeners ?? [];
    const groups = (await this.elbv2.send(new DescribeTargetGroupsCommand({ LoadBalancerArn: arn }))).TargetGroups ?? [];
    const arns = [arn, ...groups.map((group) => group.TargetGroupArn ?? '')];
    const tags = new Map(((await this.elbv2.send(new DescribeTagsCommand({ ResourceArns: arns }))).TagDescriptions ?? []).map((entry) => [entry.ResourceArn ?? '', tagMap(entry.Tags)]));
    const targetGroups: TargetGroupView[] = [];
    for (const group of groups) {
      const health = await this.elbv2.send(new DescribeTargetHealthCommand({ TargetGroupArn: group.TargetGroupArn }));
      const targets = (health.TargetHealthDescriptions ?? []).map((entry) => `${entry.Target?.Id}:${entry.Target?.Port}`).sort();
      targetGroups.push({ group, tags: tags.get(group.TargetGroupArn ?? '') ?? {}, targets });
    }
    return { loadBalancer, tags: tags.get(arn) ?? {}, listeners, targetGroups };
  }

  /** Every target group in the region (the CCM names its own `k8s-…`). */
  async allTargetGroups(): Promise<TargetGroup[]> {
    return (await this.elbv2.send(new DescribeTargetGroupsCommand({}))).TargetGroups ?? [];
  }

  async securityGroup(groupId: string): Promise<SecurityGroup | undefined> {
    const output = await this.ec2.send(new DescribeSecurityGroupsCommand({ Filters: [{ Name: 'group-id', Values: [groupId] }] }));
    return output.SecurityGroups?.[0];
  }

  async securityGroupByName(vpcId: string, name: string): Promise<SecurityGroup | undefined> {
    const output = await this.ec2.send(
      new DescribeSecurityGroupsCommand({ Filters: [{ Name: 'vpc-id', Values: [vpcId] }, { Name: 'group-name', Values: [name] }] }),
    );
    return output.SecurityGroups?.[0];
  }

  async subnetCidrs(subnetIds: readonly string[]): Promise<string[]> {
    const output = await this.ec2.send(new DescribeSubnetsCommand({ SubnetIds: [...subnetIds] }));
    return (output.Subnets ?? []).map((subnet) => subnet.CidrBlock ?? '').sort();
  }

  async routes(routeTableId: string): Promise<Route[]> {
    const output = await this.ec2.send(new DescribeRouteTablesCommand({ RouteTableIds: [routeTableId] }));
    return output.RouteTables?.[0]?.Routes ?? [];
  }

  async sourceDestCheck(instanceId: string): Promise<boolean | undefined> {
    const output = await this.ec2.send(new DescribeInstanceAttributeCommand({ InstanceId: instanceId, Attribute: 'sourceDestCheck' }));
    return output.SourceDestCheck?.Value;
  }

  destroy(): void {
    this.ec2.destroy();
    this.elb.destroy();
    this.elbv2.destroy();
  }
}
