/** Ec2Port over @aws-sdk/client-ec2. Pages through every list; SDK types stay in this file. */
import {
  AuthorizeSecurityGroupIngressCommand,
  CreateRouteCommand,
  CreateSecurityGroupCommand,
  CreateTagsCommand,
  DeleteTagsCommand,
  DeleteRouteCommand,
  DeleteSecurityGroupCommand,
  DescribeAvailabilityZonesCommand,
  DescribeInstancesCommand,
  DescribeInstanceTopologyCommand,
  DescribeRouteTablesCommand,
  DescribeSecurityGroupsCommand,
  DescribeSubnetsCommand,
  ModifyInstanceAttributeCommand,
  ReplaceRouteCommand,
  RevokeSecurityGroupIngressCommand,
  type EC2Client,
  type Filter,
  type Instance,
  type IpPermission,
  type SecurityGroup,
} from '@aws-sdk/client-ec2';
import type { CallOptions } from '@ccm/core/cloud';
import type { Ec2Filter, Ec2Instance, Ec2InstanceTopology, Ec2IpPermission, Ec2Port, Ec2SecurityGroup } from '../ec2-port.js';
import { sdkCall } from './sdk-errors.js';
import { nonEmpty, tagsFromList, tagsToCreateList, tagsToList } from './tag-list.js';

const filters = (list: readonly Ec2Filter[] | undefined): Filter[] | undefined =>
  list === undefined || list.length === 0 ? undefined : list.map((filter) => ({ Name: filter.name, Values: [...filter.values] }));

const sendOptions = (options?: CallOptions) => (options?.signal ? { abortSignal: options.signal } : {});

function toInstance(instance: Instance): Ec2Instance {
  return {
    instanceId: instance.InstanceId ?? '',
    instanceType: nonEmpty(instance.InstanceType),
    state: nonEmpty(instance.State?.Name),
    availabilityZone: nonEmpty(instance.Placement?.AvailabilityZone),
    privateDnsName: nonEmpty(instance.PrivateDnsName),
    privateIpAddress: nonEmpty(instance.PrivateIpAddress),
    publicDnsName: nonEmpty(instance.PublicDnsName),
    publicIpAddress: nonEmpty(instance.PublicIpAddress),
    vpcId: nonEmpty(instance.VpcId),
    subnetId: nonEmpty(instance.SubnetId),
    sourceDestCheck: instance.SourceDestCheck,
    securityGroups: (instance.SecurityGroups ?? []).map((group) => ({ groupId: group.GroupId ?? '', groupName: group.GroupName })),
    networkInterfaces: (instance.NetworkInterfaces ?? []).map((networkInterface) => ({
      networkInterfaceId: networkInterface.NetworkInterfaceId ?? '',
      status: networkInterface.Status,
      deviceIndex: networkInterface.Attachment?.DeviceIndex,
      privateIpAddresses: (networkInterface.PrivateIpAddresses ?? []).flatMap((address) => (address.PrivateIpAddress ? [address.PrivateIpAddress] : [])),
      ipv6Addresses: (networkInterface.Ipv6Addresses ?? []).flatMap((address) => (address.Ipv6Address ? [address.Ipv6Address] : [])),
    })),
    tags: tagsFromList(instance.Tags),
  };
}

function toPermission(permission: IpPermission): Ec2IpPermission {
  return {
    protocol: permission.IpProtocol ?? '-1',
    fromPort: permission.FromPort,
    toPort: permission.ToPort,
    ipv4Ranges: (permission.IpRanges ?? []).map((range) => ({ cidr: range.CidrIp ?? '', description: nonEmpty(range.Description) })),
    ipv6Ranges: (permission.Ipv6Ranges ?? []).map((range) => ({ cidr: range.CidrIpv6 ?? '', description: nonEmpty(range.Description) })),
    groupPairs: (permission.UserIdGroupPairs ?? []).map((pair) => ({ groupId: pair.GroupId ?? '', description: nonEmpty(pair.Description) })),
  };
}

/** `withDescriptions` false for revokes: AWS matches rules without them. */
function fromPermission(permission: Ec2IpPermission, withDescriptions: boolean): IpPermission {
  const description = (text: string | undefined) => (withDescriptions && text !== undefined ? { Description: text } : {});
  const result: IpPermission = { IpProtocol: permission.protocol };
  if (permission.protocol !== '-1') {
    if (permission.fromPort !== undefined) result.FromPort = permission.fromPort;
    if (permission.toPort !== undefined) result.ToPort = permission.toPort;
  }
  if (permission.ipv4Ranges.length > 0) result.IpRanges = permission.ipv4Ranges.map((range) => ({ CidrIp: range.cidr, ...description(range.description) }));
  if (permission.ipv6Ranges.length > 0) result.Ipv6Ranges = permission.ipv6Ranges.map((range) => ({ CidrIpv6: range.cidr, ...description(range.description) }));
  if (permission.groupPairs.length > 0) result.UserIdGroupPairs = permission.groupPairs.map((pair) => ({ GroupId: pair.groupId, ...description(pair.description) }));
  return result;
}

function toSecurityGroup(group: SecurityGroup): Ec2SecurityGroup {
  return {
    groupId: group.GroupId ?? '',
    groupName: group.GroupName ?? '',
    description: group.Description,
    vpcId: nonEmpty(group.VpcId),
    ingress: (group.IpPermissions ?? []).map(toPermission),
    tags: tagsFromList(group.Tags),
  };
}

export function createSdkEc2Port(client: EC2Client): Ec2Port {
  return {
    describeInstances: (request, options) =>
      sdkCall('ec2.describeInstances', async () => {
        const instances: Ec2Instance[] = [];
        const byIds = request.instanceIds !== undefined && request.instanceIds.length > 0;
        let nextToken: string | undefined;
        do {
          const output = await client.send(
            new DescribeInstancesCommand({
              ...(byIds ? { InstanceIds: [...(request.instanceIds ?? [])] } : { MaxResults: 1000 }),
              Filters: filters(request.filters),
              NextToken: nextToken,
            }),
            sendOptions(options),
          );
          for (const reservation of output.Reservations ?? []) for (const instance of reservation.Instances ?? []) instances.push(toInstance(instance));
          nextToken = nonEmpty(output.NextToken);
        } while (nextToken !== undefined);
        return instances;
      }),

    describeAvailabilityZones: (options) =>
      sdkCall('ec2.describeAvailabilityZones', async () => {
        const output = await client.send(new DescribeAvailabilityZonesCommand({}), sendOptions(options));
        return (output.AvailabilityZones ?? []).map((zone) => ({ zoneName: zone.ZoneName ?? '', zoneId: nonEmpty(zone.ZoneId), zoneType: nonEmpty(zone.ZoneType) }));
      }),

    describeSubnets: (request, options) =>
      sdkCall('ec2.describeSubnets', async () => {
        const subnets = [];
        let nextToken: string | undefined;
        do {
          const output = await client.send(
            new DescribeSubnetsCommand({
              ...(request.subnetIds && request.subnetIds.length > 0 ? { SubnetIds: [...request.subnetIds] } : {}),
              Filters: filters(request.filters),
              NextToken: nextToken,
            }),
            sendOptions(options),
          );
          for (const subnet of output.Subnets ?? []) {
            subnets.push({
              subnetId: subnet.SubnetId ?? '',
              vpcId: nonEmpty(subnet.VpcId),
              availabilityZone: nonEmpty(subnet.AvailabilityZone),
              cidrBlock: nonEmpty(subnet.CidrBlock),
              ipv6CidrBlocks: (subnet.Ipv6CidrBlockAssociationSet ?? []).flatMap((association) => (association.Ipv6CidrBlock ? [association.Ipv6CidrBlock] : [])),
              tags: tagsFromList(subnet.Tags),
            });
          }
          nextToken = nonEmpty(output.NextToken);
        } while (nextToken !== undefined);
        return subnets;
      }),

    describeRouteTables: (request, options) =>
      sdkCall('ec2.describeRouteTables', async () => {
        const tables = [];
        let nextToken: string | undefined;
        do {
          const output = await client.send(new DescribeRouteTablesCommand({ Filters: filters(request.filters), NextToken: nextToken }), sendOptions(options));
          for (const table of output.RouteTables ?? []) {
            tables.push({
              routeTableId: table.RouteTableId ?? '',
              vpcId: nonEmpty(table.VpcId),
              associations: (table.Associations ?? []).map((association) => ({ subnetId: nonEmpty(association.SubnetId), main: association.Main === true })),
              routes: (table.Routes ?? []).map((route) => ({
                destinationCidrBlock: nonEmpty(route.DestinationCidrBlock),
                destinationIpv6CidrBlock: nonEmpty(route.DestinationIpv6CidrBlock),
                gatewayId: nonEmpty(route.GatewayId),
                instanceId: nonEmpty(route.InstanceId),
                networkInterfaceId: nonEmpty(route.NetworkInterfaceId),
                state: nonEmpty(route.State),
                origin: nonEmpty(route.Origin),
              })),
              tags: tagsFromList(table.Tags),
            });
          }
          nextToken = nonEmpty(output.NextToken);
        } while (nextToken !== undefined);
        return tables;
      }),

    createRoute: (request, options) =>
      sdkCall('ec2.createRoute', async () => {
        await client.send(
          new CreateRouteCommand({ RouteTableId: request.routeTableId, DestinationCidrBlock: request.destinationCidrBlock, InstanceId: request.instanceId }),
          sendOptions(options),
        );
      }),

    replaceRoute: (request, options) =>
      sdkCall('ec2.replaceRoute', async () => {
        await client.send(
          new ReplaceRouteCommand({ RouteTableId: request.routeTableId, DestinationCidrBlock: request.destinationCidrBlock, InstanceId: request.instanceId }),
          sendOptions(options),
        );
      }),

    deleteRoute: (request, options) =>
      sdkCall('ec2.deleteRoute', async () => {
        await client.send(new DeleteRouteCommand({ RouteTableId: request.routeTableId, DestinationCidrBlock: request.destinationCidrBlock }), sendOptions(options));
      }),

    modifyInstanceSourceDestCheck: (request, options) =>
      sdkCall('ec2.modifyInstanceAttribute', async () => {
        await client.send(new ModifyInstanceAttributeCommand({ InstanceId: request.instanceId, SourceDestCheck: { Value: request.enabled } }), sendOptions(options));
      }),

    describeSecurityGroups: (request, options) =>
      sdkCall('ec2.describeSecurityGroups', async () => {
        const groups: Ec2SecurityGroup[] = [];
        let nextToken: string | undefined;
        do {
          const output = await client.send(
            new DescribeSecurityGroupsCommand({
              ...(request.groupIds && request.groupIds.length > 0 ? { GroupIds: [...request.groupIds] } : {}),
              Filters: filters(request.filters),
              NextToken: nextToken,
            }),
            sendOptions(options),
          );
          for (const group of output.SecurityGroups ?? []) groups.push(toSecurityGroup(group));
          nextToken = nonEmpty(output.NextToken);
        } while (nextToken !== undefined);
        return groups;
      }),

    createSecurityGroup: (request, options) =>
      sdkCall('ec2.createSecurityGroup', async () => {
        const tags = tagsToCreateList(request.tags);
        const output = await client.send(
          new CreateSecurityGroupCommand({
            GroupName: request.groupName,
            Description: request.description,
            VpcId: request.vpcId,
            TagSpecifications: tags === undefined ? undefined : [{ ResourceType: 'security-group', Tags: tags }],
          }),
          sendOptions(options),
        );
        if (!output.GroupId) throw new Error(`created security group, but id was not returned: ${request.groupName}`);
        return output.GroupId;
      }),

    authorizeSecurityGroupIngress: (request, options) =>
      sdkCall('ec2.authorizeSecurityGroupIngress', async () => {
        await client.send(
          new AuthorizeSecurityGroupIngressCommand({ GroupId: request.groupId, IpPermissions: request.permissions.map((permission) => fromPermission(permission, true)) }),
          sendOptions(options),
        );
      }),

    revokeSecurityGroupIngress: (request, options) =>
      sdkCall('ec2.revokeSecurityGroupIngress', async () => {
        await client.send(
          new RevokeSecurityGroupIngressCommand({ GroupId: request.groupId, IpPermissions: request.permissions.map((permission) => fromPermission(permission, false)) }),
          sendOptions(options),
        );
      }),

    deleteSecurityGroup: (request, options) =>
      sdkCall('ec2.deleteSecurityGroup', async () => {
        await client.send(new DeleteSecurityGroupCommand({ GroupId: request.groupId }), sendOptions(options));
      }),

    createTags: (request, options) =>
      sdkCall('ec2.createTags', async () => {
        await client.send(new CreateTagsCommand({ Resources: [...request.resourceIds], Tags: tagsToList(request.tags) }), sendOptions(options));
      }),

    deleteTags: (request, options) =>
      sdkCall('ec2.deleteTags', async () => {
        await client.send(new DeleteTagsCommand({ Resources: [...request.resourceIds], Tags: tagsToList(request.tags) }), sendOptions(options));
      }),

    describeInstanceTopology: (request, options) =>
      sdkCall('ec2.describeInstanceTopology', async () => {
        const topologies: Ec2InstanceTopology[] = [];
        let nextToken: string | undefined;
        do {
          const page = await client.send(new DescribeInstanceTopologyCommand({ InstanceIds: [...request.instanceIds], NextToken: nextToken }), sendOptions(options));
          for (const topology of page.Instances ?? []) {
            if (topology.InstanceId === undefined) continue;
            topologies.push({
              instanceId: topology.InstanceId,
              ...(nonEmpty(topology.InstanceType) === undefined ? {} : { instanceType: topology.InstanceType as string }),
              ...(nonEmpty(topology.AvailabilityZone) === undefined ? {} : { availabilityZone: topology.AvailabilityZone as string }),
              networkNodes: [...(topology.NetworkNodes ?? [])],
            });
          }
          nextToken = nonEmpty(page.NextToken);
        } while (nextToken !== undefined);
        return topologies;
      }),
  };
}
