/** Elbv2Port (NLB) over @aws-sdk/client-elastic-load-balancing-v2. */
import {
  AddTagsCommand,
  CreateListenerCommand,
  CreateLoadBalancerCommand,
  CreateTargetGroupCommand,
  DeleteListenerCommand,
  DeleteLoadBalancerCommand,
  DeleteTargetGroupCommand,
  DeregisterTargetsCommand,
  DescribeListenersCommand,
  DescribeLoadBalancerAttributesCommand,
  DescribeLoadBalancersCommand,
  DescribeTagsCommand,
  DescribeTargetGroupAttributesCommand,
  DescribeTargetGroupsCommand,
  DescribeTargetHealthCommand,
  ModifyListenerCommand,
  ModifyLoadBalancerAttributesCommand,
  ModifyTargetGroupAttributesCommand,
  ModifyTargetGroupCommand,
  RegisterTargetsCommand,
  SetSecurityGroupsCommand,
  type Action,
  type ElasticLoadBalancingV2Client,
  type Listener,
  type LoadBalancer,
  type ProtocolEnum,
  type TargetGroup as SdkTargetGroup,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { AwsApiError } from '../aws-api-error.js';
import type { Tags } from '../../tags.js';
import type { CallOptions } from '@ccm/core/cloud';
import type { Elbv2Port, ListenerSpec, NetworkListener, NetworkLoadBalancer, TargetGroup } from '../elbv2-port.js';
import { sdkCall, toAwsApiError } from './sdk-errors.js';
import { nonEmpty, tagsFromList, tagsToCreateList, tagsToList } from './tag-list.js';

const sendOptions = (options?: CallOptions) => (options?.signal ? { abortSignal: options.signal } : {});
const DESCRIBE_TAGS_LIMIT = 20;

function toLoadBalancer(loadBalancer: LoadBalancer): NetworkLoadBalancer {
  return {
    arn: loadBalancer.LoadBalancerArn ?? '',
    name: loadBalancer.LoadBalancerName ?? '',
    dnsName: nonEmpty(loadBalancer.DNSName),
    type: nonEmpty(loadBalancer.Type),
    scheme: nonEmpty(loadBalancer.Scheme),
    state: nonEmpty(loadBalancer.State?.Code),
    vpcId: nonEmpty(loadBalancer.VpcId),
    securityGroups: loadBalancer.SecurityGroups ?? [],
    subnetIds: (loadBalancer.AvailabilityZones ?? []).flatMap((zone) => (zone.SubnetId ? [zone.SubnetId] : [])),
  };
}

function toTargetGroup(group: SdkTargetGroup): TargetGroup {
  const healthCheck: TargetGroup['healthCheck'] = {};
  if (group.HealthCheckProtocol !== undefined) healthCheck.protocol = group.HealthCheckProtocol;
  if (group.HealthCheckPort !== undefined) healthCheck.port = group.HealthCheckPort;
  if (group.HealthCheckPath !== undefined) healthCheck.path = group.HealthCheckPath;
  if (group.HealthCheckIntervalSeconds !== undefined) healthCheck.intervalSeconds = group.HealthCheckIntervalSeconds;
  if (group.HealthyThresholdCount !== undefined) healthCheck.healthyThreshold = group.HealthyThresholdCount;
  if (group.UnhealthyThresholdCount !== undefined) healthCheck.unhealthyThreshold = group.UnhealthyThresholdCount;
  return {
    arn: group.TargetGroupArn ?? '',
    name: group.TargetGroupName ?? '',
    protocol: group.Protocol ?? '',
    port: group.Port ?? 0,
    vpcId: nonEmpty(group.VpcId),
    targetType: nonEmpty(group.TargetType),
    healthCheck,
    loadBalancerArns: group.LoadBalancerArns ?? [],
  };
}

function forwardTarget(actions: Action[] | undefined): string | undefined {
  const forward = actions?.find((action) => action.Type === 'forward');
  return nonEmpty(forward?.TargetGroupArn) ?? nonEmpty(forward?.ForwardConfig?.TargetGroups?.[0]?.TargetGroupArn);
}

function toListener(listener: Listener): NetworkListener {
  return {
    arn: listener.ListenerArn ?? '',
    port: listener.Port ?? 0,
    protocol: listener.Protocol ?? '',
    sslPolicy: nonEmpty(listener.SslPolicy),
    certificates: (listener.Certificates ?? []).flatMap((certificate) => (certificate.CertificateArn ? [{ certificateArn: certificate.CertificateArn }] : [])),
    targetGroupArn: forwardTarget(listener.DefaultActions),
  };
}

function listenerInput(listener: ListenerSpec) {
  return {
    Port: listener.port,
    Protocol: listener.protocol as ProtocolEnum,
    DefaultActions: [{ Type: 'forward' as const, TargetGroupArn: listener.targetGroupArn }],
    ...(listener.sslPolicy === undefined ? {} : { SslPolicy: listener.sslPolicy }),
    ...(listener.certificateArn === undefined ? {} : { Certificates: [{ CertificateArn: listener.certificateArn }] }),
  };
}

const toAttributeList = (attributes: Readonly<Record<string, string>>) => Object.entries(attributes).map(([Key, Value]) => ({ Key, Value }));
const fromAttributeList = (list: Array<{ Key?: string | undefined; Value?: string | undefined }> | undefined): Record<string, string> =>
  Object.fromEntries((list ?? []).flatMap((attribute) => (attribute.Key === undefined ? [] : [[attribute.Key, attribute.Value ?? '']])));

export function createSdkElbv2Port(client: ElasticLoadBalancingV2Client): Elbv2Port {
  const call = <T>(operation: string, body: () => Promise<T>) => sdkCall(`elbv2.${operation}`, body);
  /** A describe-by-name that answers undefined instead of a NotFound error. */
  const orUndefined = async <T>(operation: string, body: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await body();
    } catch (error) {
      const converted = toAwsApiError(`elbv2.${operation}`, error);
      if (AwsApiError.hasKind(converted, 'NotFound')) return undefined;
      throw converted;
    }
  };
  return {
    describeLoadBalancerByName: (name, options) =>
      orUndefined('describeLoadBalancers', async () => {
        const output = await client.send(new DescribeLoadBalancersCommand({ Names: [name] }), sendOptions(options));
        const found = output.LoadBalancers?.find((loadBalancer) => loadBalancer.LoadBalancerName === name);
        return found ? toLoadBalancer(found) : undefined;
      }),

    createLoadBalancer: (request, options) =>
      call('createLoadBalancer', async () => {
        const output = await client.send(
          new CreateLoadBalancerCommand({
            Name: request.name,
            Type: 'network',
            Scheme: request.internal ? 'internal' : 'internet-facing',
            SubnetMappings: request.subnetMappings.map((mapping) => ({
              SubnetId: mapping.subnetId,
              ...(mapping.allocationId === undefined ? {} : { AllocationId: mapping.allocationId }),
              ...(mapping.privateIpv4Address === undefined ? {} : { PrivateIPv4Address: mapping.privateIpv4Address }),
            })),
            ...(request.securityGroups === undefined ? {} : { SecurityGroups: [...request.securityGroups] }),
            Tags: tagsToCreateList(request.tags),
          }),
          sendOptions(options),
        );
        const created = output.LoadBalancers?.[0];
        if (!created) throw new Error(`CreateLoadBalancer returned no load balancer for ${request.name}`);
        return toLoadBalancer(created);
      }),

    deleteLoadBalancer: (arn, options) =>
      call('deleteLoadBalancer', async () => {
        await client.send(new DeleteLoadBalancerCommand({ LoadBalancerArn: arn }), sendOptions(options));
      }),

    setSecurityGroups: (arn, groups, options) =>
      call('setSecurityGroups', async () => {
        await client.send(new SetSecurityGroupsCommand({ LoadBalancerArn: arn, SecurityGroups: [...groups] }), sendOptions(options));
      }),

    describeLoadBalancerAttributes: (arn, options) =>
      call('describeLoadBalancerAttributes', async () => {
        const output = await client.send(new DescribeLoadBalancerAttributesCommand({ LoadBalancerArn: arn }), sendOptions(options));
        return fromAttributeList(output.Attributes);
      }),

    modifyLoadBalancerAttributes: (arn, attributes, options) =>
      call('modifyLoadBalancerAttributes', async () => {
        await client.send(new ModifyLoadBalancerAttributesCommand({ LoadBalancerArn: arn, Attributes: toAttributeList(attributes) }), sendOptions(options));
      }),

    describeTags: (arns, options) =>
      call('describeTags', async () => {
        const result = new Map<string, Tags>();
        for (let index = 0; index < arns.length; index += DESCRIBE_TAGS_LIMIT) {
          const output = await client.send(new DescribeTagsCommand({ ResourceArns: arns.slice(index, index + DESCRIBE_TAGS_LIMIT) }), sendOptions(options));
          for (const description of output.TagDescriptions ?? []) if (description.ResourceArn) result.set(description.ResourceArn, tagsFromList(description.Tags));
        }
        return result;
      }),

    addTags: (arns, tags, options) =>
      call('addTags', async () => {
        await client.send(new AddTagsCommand({ ResourceArns: [...arns], Tags: tagsToList(tags) }), sendOptions(options));
      }),

    createTargetGroup: (request, options) =>
      call('createTargetGroup', async () => {
        const healthCheck = request.healthCheck;
        const output = await client.send(
          new CreateTargetGroupCommand({
            Name: request.name,
            Protocol: request.protocol as ProtocolEnum,
            Port: request.port,
            VpcId: request.vpcId,
            TargetType: 'instance',
            HealthCheckProtocol: healthCheck.protocol as ProtocolEnum,
            HealthCheckPort: healthCheck.port,
            ...(healthCheck.path === undefined ? {} : { HealthCheckPath: healthCheck.path }),
            HealthCheckIntervalSeconds: healthCheck.intervalSeconds,
            HealthyThresholdCount: healthCheck.healthyThreshold,
            UnhealthyThresholdCount: healthCheck.unhealthyThreshold,
            Tags: tagsToCreateList(request.tags),
          }),
          sendOptions(options),
        );
        const groups = output.TargetGroups ?? [];
        if (groups.length !== 1) throw new Error(`expected only one target group on CreateTargetGroup, got ${groups.length} groups`);
        return toTargetGroup(groups[0] as SdkTargetGroup);
      }),

    describeTargetGroupsOfLoadBalancer: (loadBalancerArn, options) =>
      call('describeTargetGroups', async () => {
        const groups: TargetGroup[] = [];
        let marker: string | undefined;
        do {
          const output = await client.send(new DescribeTargetGroupsCommand({ LoadBalancerArn: loadBalancerArn, Marker: marker }), sendOptions(options));
          for (const group of output.TargetGroups ?? []) groups.push(toTargetGroup(group));
          marker = nonEmpty(output.NextMarker);
        } while (marker !== undefined);
        return groups;
      }),

    describeAllTargetGroups: (options) =>
      call('describeTargetGroups', async () => {
        const groups: TargetGroup[] = [];
        let marker: string | undefined;
        do {
          const output = await client.send(new DescribeTargetGroupsCommand({ Marker: marker }), sendOptions(options));
          for (const group of output.TargetGroups ?? []) groups.push(toTargetGroup(group));
          marker = nonEmpty(output.NextMarker);
        } while (marker !== undefined);
        return groups;
      }),

    describeTargetGroupByName: (name, options) =>
      orUndefined('describeTargetGroups', async () => {
        const output = await client.send(new DescribeTargetGroupsCommand({ Names: [name] }), sendOptions(options));
        const found = output.TargetGroups?.find((group) => group.TargetGroupName === name);
        return found ? toTargetGroup(found) : undefined;
      }),

    modifyTargetGroupHealthCheck: (arn, healthCheck, options) =>
      call('modifyTargetGroup', async () => {
        await client.send(
          new ModifyTargetGroupCommand({
            TargetGroupArn: arn,
            ...(healthCheck.protocol === undefined ? {} : { HealthCheckProtocol: healthCheck.protocol as ProtocolEnum }),
            ...(healthCheck.port === undefined ? {} : { HealthCheckPort: healthCheck.port }),
            ...(healthCheck.path === undefined ? {} : { HealthCheckPath: healthCheck.path }),
            ...(healthCheck.intervalSeconds === undefined ? {} : { HealthCheckIntervalSeconds: healthCheck.intervalSeconds }),
            ...(healthCheck.healthyThreshold === undefined ? {} : { HealthyThresholdCount: healthCheck.healthyThreshold }),
            ...(healthCheck.unhealthyThreshold === undefined ? {} : { UnhealthyThresholdCount: healthCheck.unhealthyThreshold }),
          }),
          sendOptions(options),
        );
      }),

    deleteTargetGroup: (arn, options) =>
      call('deleteTargetGroup', async () => {
        await client.send(new DeleteTargetGroupCommand({ TargetGroupArn: arn }), sendOptions(options));
      }),

    describeTargetHealth: (arn, options) =>
      call('describeTargetHealth', async () => {
        const output = await client.send(new DescribeTargetHealthCommand({ TargetGroupArn: arn }), sendOptions(options));
        return (output.TargetHealthDescriptions ?? []).flatMap((description) =>
          description.Target?.Id
            ? [{ id: description.Target.Id, port: description.Target.Port ?? 0, state: nonEmpty(description.TargetHealth?.State), reason: nonEmpty(description.TargetHealth?.Reason) }]
            : [],
        );
      }),

    registerTargets: (arn, targets, options) =>
      call('registerTargets', async () => {
        await client.send(new RegisterTargetsCommand({ TargetGroupArn: arn, Targets: targets.map((target) => ({ Id: target.id, Port: target.port })) }), sendOptions(options));
      }),

    deregisterTargets: (arn, targets, options) =>
      call('deregisterTargets', async () => {
        await client.send(new DeregisterTargetsCommand({ TargetGroupArn: arn, Targets: targets.map((target) => ({ Id: target.id, Port: target.port })) }), sendOptions(options));
      }),

    describeTargetGroupAttributes: (arn, options) =>
      call('describeTargetGroupAttributes', async () => {
        const output = await client.send(new DescribeTargetGroupAttributesCommand({ TargetGroupArn: arn }), sendOptions(options));
        return fromAttributeList(output.Attributes);
      }),

    modifyTargetGroupAttributes: (arn, attributes, options) =>
      call('modifyTargetGroupAttributes', async () => {
        await client.send(new ModifyTargetGroupAttributesCommand({ TargetGroupArn: arn, Attributes: toAttributeList(attributes) }), sendOptions(options));
      }),

    createListener: (loadBalancerArn, listener, tags, options) =>
      call('createListener', async () => {
        const output = await client.send(
          new CreateListenerCommand({ LoadBalancerArn: loadBalancerArn, ...listenerInput(listener), Tags: tagsToCreateList(tags) }),
          sendOptions(options),
        );
        const created = output.Listeners?.[0];
        if (!created) throw new Error(`CreateListener returned no listener for port ${listener.port}`);
        return toListener(created);
      }),

    describeListeners: (loadBalancerArn, options) =>
      call('describeListeners', async () => {
        const listeners: NetworkListener[] = [];
        let marker: string | undefined;
        do {
          const output = await client.send(new DescribeListenersCommand({ LoadBalancerArn: loadBalancerArn, Marker: marker }), sendOptions(options));
          for (const listener of output.Listeners ?? []) listeners.push(toListener(listener));
          marker = nonEmpty(output.NextMarker);
        } while (marker !== undefined);
        return listeners;
      }),

    modifyListener: (listenerArn, listener, options) =>
      call('modifyListener', async () => {
        await client.send(new ModifyListenerCommand({ ListenerArn: listenerArn, ...listenerInput(listener) }), sendOptions(options));
      }),

    deleteListener: (listenerArn, options) =>
      call('deleteListener', async () => {
        await client.send(new DeleteListenerCommand({ ListenerArn: listenerArn }), sendOptions(options));
      }),
  };
}
