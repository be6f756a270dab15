/**
 * Builds a small cluster network in moto with the raw SDK (test setup, not provider code): a VPC,
 * two public subnets with an internet gateway route, a cluster route table, a node security
 * group and instances tagged for the cluster.
 */
import {
  AttachInternetGatewayCommand,
  AssociateRouteTableCommand,
  CreateInternetGatewayCommand,
  CreateRouteCommand,
  CreateRouteTableCommand,
  CreateSecurityGroupCommand,
  CreateSubnetCommand,
  CreateVpcCommand,
  DescribeInstancesCommand,
  EC2Client,
  RunInstancesCommand,
  type Instance,
} from '@aws-sdk/client-ec2';

export interface MotoNetwork {
  vpcId: string;
  subnetIds: string[];
  routeTableId: string;
  nodeSecurityGroupId: string;
}

export function motoClientConfig(endpoint: string, region: string) {
  return { region, endpoint, credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' }, maxAttempts: 1 };
}

/** Two public subnets, one per zone (room for 251 instances each). */
export const DEFAULT_SUBNET_CIDRS: readonly string[] = ['10.0.1.0/24', '10.0.2.0/24'];

/**
 * `lifecycle` of the cluster tag on the pre-made route table and node group (`shared` keeps them
 * apart from what the CCM creates); `subnetCidrs`, one public subnet per zone `a`, `b`, ... of the
 * VPC 10.0.0.0/16 (larger ones for benchmarks with thousands of instances).
 */
export async function createMotoNetwork(
  ec2: EC2Client,
  region: string,
  clusterId: string,
  lifecycle: 'owned' | 'shared' = 'owned',
  subnetCidrs: readonly string[] = DEFAULT_SUBNET_CIDRS,
): Promise<MotoNetwork> {
  const clusterTag = { Key: `kubernetes.io/cluster/${clusterId}`, Value: lifecycle };
  const vpcId = (await ec2.send(new CreateVpcCommand({ CidrBlock: '10.0.0.0/16' }))).Vpc?.VpcId ?? '';
  const gatewayId = (await ec2.send(new CreateInternetGatewayCommand({}))).InternetGateway?.InternetGatewayId ?? '';
  await ec2.send(new AttachInternetGatewayCommand({ InternetGatewayId: gatewayId, VpcId: vpcId }));
  const publicTable = (await ec2.send(new CreateRouteTableCommand({ VpcId: vpcId }))).RouteTable?.RouteTableId ?? '';
  await ec2.send(new CreateRouteCommand({ RouteTableId: publicTable, DestinationCidrBlock: '0.0.0.0/0', GatewayId: gatewayId }));
  const subnetIds: string[] = [];
  for (const [index, cidr] of subnetCidrs.entries()) {
    const subnetId =
      (
        await ec2.send(
          new CreateSubnetCommand({
            VpcId: vpcId,
            CidrBlock: cidr,
            AvailabilityZone: `${region}${String.fromCharCode(97 + index)}`,
            TagSpecifications: [{ ResourceType: 'subnet', Tags: [{ Key: `kubernetes.io/cluster/${clusterId}`, Value: 'shared' }, { Key: 'kubernetes.io/role/elb', Value: '1' }] }],
          }),
        )
      ).Subnet?.SubnetId ?? '';
    await ec2.send(new AssociateRouteTableCommand({ RouteTableId: publicTable, SubnetId: subnetId }));
    subnetIds.push(subnetId);
  }
  const routeTableId =
    (await ec2.send(new CreateRouteTableCommand({ VpcId: vpcId, TagSpecifications: [{ ResourceType: 'route-table', Tags: [clusterTag] }] }))).RouteTable?.RouteTableId ?? '';
  const nodeSecurityGroupId =
    (
      await ec2.send(
        new CreateSecurityGroupCommand({ GroupName: `nodes-${clusterId}`, Description: 'nodes', VpcId: vpcId, TagSpecifications: [{ ResourceType: 'security-group', Tags: [clusterTag] }] }),
      )
    ).GroupId ?? '';
  return { vpcId, subnetIds, routeTableId, nodeSecurityGroupId };
}

export async function runMotoInstance(ec2: EC2Client, network: MotoNetwork, clusterId: string, subnetIndex = 0): Promise<Instance> {
  const output = await ec2.send(
    new RunInstancesCommand({
      ImageId: 'ami-12c6146b',
      InstanceType: 't3.medium',
      MinCount: 1,
      MaxCount: 1,
      SubnetId: network.subnetIds[subnetIndex],
      SecurityGroupIds: [network.nodeSecurityGroupId],
      TagSpecifications: [{ ResourceType: 'instance', Tags: [{ Key: `kubernetes.io/cluster/${clusterId}`, Value: 'owned' }] }],
    }),
  );
  const instanceId = output.Instances?.[0]?.InstanceId ?? '';
  const described = await ec2.send(new DescribeInstancesCommand({ InstanceIds: [instanceId] }));
  const instance = described.Reservations?.[0]?.Instances?.[0];
  if (!instance) throw new Error(`moto did not return instance ${instanceId}`);
  return instance;
}
