/** ElbPort (Classic ELB) over @aws-sdk/client-elastic-load-balancing. */
import {
  AddTagsCommand,
  ApplySecurityGroupsToLoadBalancerCommand,
  AttachLoadBalancerToSubnetsCommand,
  ConfigureHealthCheckCommand,
  CreateLoadBalancerCommand,
  CreateLoadBalancerListenersCommand,
  CreateLoadBalancerPolicyCommand,
  DeleteLoadBalancerCommand,
  DeleteLoadBalancerListenersCommand,
  DeregisterInstancesFromLoadBalancerCommand,
  DescribeLoadBalancerAttributesCommand,
  DescribeLoadBalancerPoliciesCommand,
  DescribeLoadBalancersCommand,
  DescribeTagsCommand,
  DetachLoadBalancerFromSubnetsCommand,
  ModifyLoadBalancerAttributesCommand,
  RegisterInstancesWithLoadBalancerCommand,
  SetLoadBalancerPoliciesForBackendServerCommand,
  SetLoadBalancerPoliciesOfListenerCommand,
  type ElasticLoadBalancingClient,
  type Listener,
} from '@aws-sdk/client-elastic-load-balancing';
import { AwsApiError } from '../aws-api-error.js';
import type { CallOptions } from '@ccm/core/cloud';
import type { ClassicListener, ElbPort } from '../elb-port.js';
import { sdkCall, toAwsApiError } from './sdk-errors.js';
import { nonEmpty, tagsFromList, tagsToCreateList, tagsToList } from './tag-list.js';

const sendOptions = (options?: CallOptions) => (options?.signal ? { abortSignal: options.signal } : {});

function fromListener(listener: ClassicListener): Listener {
  return {
    Protocol: listener.protocol,
    LoadBalancerPort: listener.loadBalancerPort,
    InstanceProtocol: listener.instanceProtocol,
    InstancePort: listener.instancePort,
    ...(listener.sslCertificateId === undefined ? {} : { SSLCertificateId: listener.sslCertificateId }),
  };
}

export function createSdkElbPort(client: ElasticLoadBalancingClient): ElbPort {
  const call = <T>(operation: string, body: () => Promise<T>) => sdkCall(`elb.${operation}`, body);
  return {
    describeLoadBalancer: (name, options) =>
      call('describeLoadBalancers', async () => {
        let output;
        try {
          output = await client.send(new DescribeLoadBalancersCommand({ LoadBalancerNames: [name] }), sendOptions(options));
        } catch (error) {
          const converted = toAwsApiError('elb.describeLoadBalancers', error);
          if (AwsApiError.hasKind(converted, 'NotFound')) return undefined;
          throw converted;
        }
        const description = output.LoadBalancerDescriptions?.[0];
        if (!description) return undefined;
        const healthCheck = description.HealthCheck;
        return {
          name: description.LoadBalancerName ?? name,
          dnsName: nonEmpty(description.DNSName),
          scheme: nonEmpty(description.Scheme),
          vpcId: nonEmpty(description.VPCId),
          listeners: (description.ListenerDescriptions ?? []).flatMap((entry) =>
            entry.Listener
              ? [
                  {
                    listener: {
                      protocol: entry.Listener.Protocol ?? '',
                      loadBalancerPort: entry.Listener.LoadBalancerPort ?? 0,
                      instanceProtocol: entry.Listener.InstanceProtocol ?? '',
                      instancePort: entry.Listener.InstancePort ?? 0,
                      ...(nonEmpty(entry.Listener.SSLCertificateId) === undefined ? {} : { sslCertificateId: entry.Listener.SSLCertificateId as string }),
                    },
                    policyNames: entry.PolicyNames ?? [],
                  },
                ]
              : [],
          ),
          subnets: description.Subnets ?? [],
          securityGroups: description.SecurityGroups ?? [],
          instanceIds: (description.Instances ?? []).flatMap((instance) => (instance.InstanceId ? [instance.InstanceId] : [])),
          ...(healthCheck?.Target
            ? {
                healthCheck: {
                  target: healthCheck.Target,
                  interval: healthCheck.Interval ?? 0,
                  timeout: healthCheck.Timeout ?? 0,
                  unhealthyThreshold: healthCheck.UnhealthyThreshold ?? 0,
                  healthyThreshold: healthCheck.HealthyThreshold ?? 0,
                },
              }
            : {}),
          backendServers: (description.BackendServerDescriptions ?? []).map((backend) => ({ instancePort: backend.InstancePort ?? 0, policyNames: backend.PolicyNames ?? [] })),
        };
      }),

    createLoadBalancer: (request, options) =>
      call('createLoadBalancer', async () => {
        const output = await client.send(
          new CreateLoadBalancerCommand({
            LoadBalancerName: request.name,
            Listeners: request.listeners.map(fromListener),
            Subnets: [...request.subnets],
            SecurityGroups: [...request.securityGroups],
            ...(request.internal ? { Scheme: 'internal' } : {}),
            Tags: tagsToCreateList(request.tags),
          }),
          sendOptions(options),
        );
        return output.DNSName ?? '';
      }),

    deleteLoadBalancer: (name, options) =>
      call('deleteLoadBalancer', async () => {
        await client.send(new DeleteLoadBalancerCommand({ LoadBalancerName: name }), sendOptions(options));
      }),

    describeTags: (name, options) =>
      call('describeTags', async () => {
        const output = await client.send(new DescribeTagsCommand({ LoadBalancerNames: [name] }), sendOptions(options));
        return tagsFromList(output.TagDescriptions?.find((entry) => entry.LoadBalancerName === name)?.Tags ?? output.TagDescriptions?.[0]?.Tags);
      }),

    addTags: (name, tags, options) =>
      call('addTags', async () => {
        await client.send(new AddTagsCommand({ LoadBalancerNames: [name], Tags: tagsToList(tags) }), sendOptions(options));
      }),

    registerInstances: (name, instanceIds, options) =>
      call('registerInstancesWithLoadBalancer', async () => {
        await client.send(
          new RegisterInstancesWithLoadBalancerCommand({ LoadBalancerName: name, Instances: instanceIds.map((InstanceId) => ({ InstanceId })) }),
          sendOptions(options),
        );
      }),

    deregisterInstances: (name, instanceIds, options) =>
      call('deregisterInstancesFromLoadBalancer', async () => {
        await client.send(
          new DeregisterInstancesFromLoadBalancerCommand({ LoadBalancerName: name, Instances: instanceIds.map((InstanceId) => ({ InstanceId })) }),
          sendOptions(options),
        );
      }),

    createListeners: (name, listeners, options) =>
      call('createLoadBalancerListeners', async () => {
        await client.send(new CreateLoadBalancerListenersCommand({ LoadBalancerName: name, Listeners: listeners.map(fromListener) }), sendOptions(options));
      }),

    deleteListeners: (name, ports, options) =>
      call('deleteLoadBalancerListeners', async () => {
        await client.send(new DeleteLoadBalancerListenersCommand({ LoadBalancerName: name, LoadBalancerPorts: [...ports] }), sendOptions(options));
      }),

    attachToSubnets: (name, subnets, options) =>
      call('attachLoadBalancerToSubnets', async () => {
        await client.send(new AttachLoadBalancerToSubnetsCommand({ LoadBalancerName: name, Subnets: [...subnets] }), sendOptions(options));
      }),

    detachFromSubnets: (name, subnets, options) =>
      call('detachLoadBalancerFromSubnets', async () => {
        await client.send(new DetachLoadBalancerFromSubnetsCommand({ LoadBalancerName: name, Subnets: [...subnets] }), sendOptions(options));
      }),

    applySecurityGroups: (name, groups, options) =>
      call('applySecurityGroupsToLoadBalancer', async () => {
        await client.send(new ApplySecurityGroupsToLoadBalancerCommand({ LoadBalancerName: name, SecurityGroups: [...groups] }), sendOptions(options));
      }),

    configureHealthCheck: (name, healthCheck, options) =>
      call('configureHealthCheck', async () => {
        await client.send(
          new ConfigureHealthCheckCommand({
            LoadBalancerName: name,
            HealthCheck: {
              Target: healthCheck.target,
              Interval: healthCheck.interval,
              Timeout: healthCheck.timeout,
              UnhealthyThreshold: healthCheck.unhealthyThreshold,
              HealthyThreshold: healthCheck.healthyThreshold,
            },
          }),
          sendOptions(options),
        );
      }),

    describeAttributes: (name, options) =>
      call('describeLoadBalancerAttributes', async () => {
        const output = await client.send(new DescribeLoadBalancerAttributesCommand({ LoadBalancerName: name }), sendOptions(options));
        const attributes = output.LoadBalancerAttributes;
        const accessLog = attributes?.AccessLog;
        const draining = attributes?.ConnectionDraining;
        return {
          accessLog: {
            enabled: accessLog?.Enabled === true,
            ...(accessLog?.EmitInterval === undefined ? {} : { emitInterval: accessLog.EmitInterval }),
            ...(nonEmpty(accessLog?.S3BucketName) === undefined ? {} : { s3BucketName: accessLog?.S3BucketName as string }),
            ...(nonEmpty(accessLog?.S3BucketPrefix) === undefined ? {} : { s3BucketPrefix: accessLog?.S3BucketPrefix as string }),
          },
          connectionDraining: { enabled: draining?.Enabled === true, ...(draining?.Timeout === undefined ? {} : { timeout: draining.Timeout }) },
          connectionSettings: attributes?.ConnectionSettings?.IdleTimeout === undefined ? {} : { idleTimeout: attributes.ConnectionSettings.IdleTimeout },
          crossZoneLoadBalancing: { enabled: attributes?.CrossZoneLoadBalancing?.Enabled === true },
        };
      }),

    modifyAttributes: (name, attributes, options) =>
      call('modifyLoadBalancerAttributes', async () => {
        await client.send(
          new ModifyLoadBalancerAttributesCommand({
            LoadBalancerName: name,
            LoadBalancerAttributes: {
              AccessLog: {
                Enabled: attributes.accessLog.enabled,
                ...(attributes.accessLog.emitInterval === undefined ? {} : { EmitInterval: attributes.accessLog.emitInterval }),
                ...(attributes.accessLog.s3BucketName === undefined ? {} : { S3BucketName: attributes.accessLog.s3BucketName }),
                ...(attributes.accessLog.s3BucketPrefix === undefined ? {} : { S3BucketPrefix: attributes.accessLog.s3BucketPrefix }),
              },
              ConnectionDraining: {
                Enabled: attributes.connectionDraining.enabled,
                ...(attributes.connectionDraining.timeout === undefined ? {} : { Timeout: attributes.connectionDraining.timeout }),
              },
              ...(attributes.connectionSettings.idleTimeout === undefined ? {} : { ConnectionSettings: { IdleTimeout: attributes.connectionSettings.idleTimeout } }),
              CrossZoneLoadBalancing: { Enabled: attributes.crossZoneLoadBalancing.enabled },
            },
          }),
          sendOptions(options),
        );
      }),

    describePolicyNames: (name, policyNames, options) =>
      call('describeLoadBalancerPolicies', async () => {
        const found: string[] = [];
        for (const policyName of policyNames) {
          try {
            const output = await client.send(new DescribeLoadBalancerPoliciesCommand({ LoadBalancerName: name, PolicyNames: [policyName] }), sendOptions(options));
            if ((output.PolicyDescriptions ?? []).some((policy) => policy.PolicyName === policyName)) found.push(policyName);
          } catch (error) {
            const converted = toAwsApiError('elb.describeLoadBalancerPolicies', error);
            if (converted.code === 'PolicyNotFound') continue;
            throw converted;
          }
        }
        return found;
      }),

    createPolicy: (name, policy, options) =>
      call('createLoadBalancerPolicy', async () => {
        await client.send(
          new CreateLoadBalancerPolicyCommand({
            LoadBalancerName: name,
            PolicyName: policy.policyName,
            PolicyTypeName: policy.policyTypeName,
            PolicyAttributes: policy.attributes.map((attribute) => ({ AttributeName: attribute.name, AttributeValue: attribute.value })),
          }),
          sendOptions(options),
        );
      }),

    setBackendServerPolicies: (name, instancePort, policyNames, options) =>
      call('setLoadBalancerPoliciesForBackendServer', async () => {
        await client.send(
          new SetLoadBalancerPoliciesForBackendServerCommand({ LoadBalancerName: name, InstancePort: instancePort, PolicyNames: [...policyNames] }),
          sendOptions(options),
        );
      }),

    setListenerPolicies: (name, loadBalancerPort, policyNames, options) =>
      call('setLoadBalancerPoliciesOfListener', async () => {
        await client.send(
          new SetLoadBalancerPoliciesOfListenerCommand({ LoadBalancerName: name, LoadBalancerPort: loadBalancerPort, PolicyNames: [...policyNames] }),
          sendOptions(options),
        );
      }),
  };
}
