/**
 * NLB create/update/delete with instance targets (upstream `ensureLoadBalancerv2`,
 * `ensureNLBSecurityGroup`, `updateInstanceSecurityGroupsForNLB`, `EnsureLoadBalancerDeleted`).
 */
import type { V1Node } from '@ccm/core/kube';
import type { LoadBalancerStatus } from '@ccm/core/provider';
import { ANNOTATIONS } from '../../../annotations.js';
import { CloudStateError, UnresolvedAnnotationError, AwsApiError, NotOwnedError } from '../../../errors.js';
import type { CallOptions } from '@ccm/core/cloud';
import type { Ec2Instance } from '../../../ports/ec2-port.js';
import type { ListenerSpec, NetworkLoadBalancer, SubnetMapping, TargetGroup } from '../../../ports/elbv2-port.js';
import { TAG_SERVICE_NAME, tagValue, type Tags } from '../../../tags.js';
import { cidrSource, mtuRule, planExactIngress, portRule, ungroupPermissions, type IngressRule } from '../ingress-rules.js';
import { chunk, type DeletionTarget, type LoadBalancerContext } from '../load-balancer-context.js';
import type { NetworkLoadBalancerSpec, NetworkPortMapping, ServiceIdentity } from '../load-balancer-spec.js';
import { updateNetworkNodeRules } from '../node-security-rules.js';
import { targetInstances } from '../target-nodes.js';
import { changedAttributes } from './network-attributes.js';
import { NETWORK_SECURITY_GROUP_DESCRIPTION, networkSecurityGroupName, targetGroupName, targetGroupNamePrefix } from './network-names.js';
import { planNetworkListeners, planTargetGroupHealthCheck, planTargets, targetGroupHealthCheck, type ListenerAction } from './plan-network-listeners.js';

const TARGET_CHUNK_SIZE = 100;

/** Upstream `v2toStatus`: a hostname only while the NLB is active or provisioning. */
export function networkStatus(loadBalancer: NetworkLoadBalancer): LoadBalancerStatus {
  if ((loadBalancer.state === 'active' || loadBalancer.state === 'provisioning') && loadBalancer.dnsName) {
    return { ingress: [{ hostname: loadBalancer.dnsName }] };
  }
  return {};
}

/** Pure: subnet mappings with the annotated EIPs / private IPs, which must match the subnet count. */
export function subnetMappings(subnetIds: readonly string[], spec: Pick<NetworkLoadBalancerSpec, 'eipAllocations' | 'privateIpv4Addresses'>): SubnetMapping[] {
  const check = (key: string, values: string[] | undefined, what: string): void => {
    if (values !== undefined && values.length !== subnetIds.length) {
      throw new UnresolvedAnnotationError(key, values.join(','), `must have the same number of ${what} (${values.length}) and subnets (${subnetIds.length})`);
    }
  };
  check(ANNOTATIONS.eipAllocations.key, spec.eipAllocations, 'EIP allocation IDs');
  check(ANNOTATIONS.privateIpv4Addresses.key, spec.privateIpv4Addresses, 'private IPv4 addresses');
  return subnetIds.map((subnetId, index) => {
    const mapping: SubnetMapping = { subnetId };
    const allocationId = spec.eipAllocations?.[index];
    if (allocationId !== undefined) mapping.allocationId = allocationId;
    const privateIp = spec.privateIpv4Addresses?.[index];
    if (privateIp !== undefined) mapping.privateIpv4Address = privateIp;
    return mapping;
  });
}

/** Pure: rules of the managed NLB security group: every frontend port from the sources, and ICMP 3/4. */
export function networkSecurityGroupRules(spec: Pick<NetworkLoadBalancerSpec, 'mappings' | 'sourceRanges'>): IngressRule[] {
  const rules: IngressRule[] = [];
  for (const mapping of spec.mappings) {
    const protocol = mapping.frontendProtocol === 'UDP' ? 'udp' : 'tcp';
    for (const cidr of spec.sourceRanges) rules.push(portRule(protocol, mapping.frontendPort, cidrSource(cidr)));
  }
  for (const cidr of spec.sourceRanges) if (!cidr.includes(':')) rules.push(mtuRule(cidr));
  return rules;
}

export class NetworkLoadBalancerOperations {
  readonly #context: LoadBalancerContext;

  constructor(context: LoadBalancerContext) {
    this.#context = context;
  }

  /** The NLB with this name; a load balancer of another type with the name is not ours to manage. */
  async describe(name: string, options?: CallOptions): Promise<NetworkLoadBalancer | undefined> {
    const loadBalancer = await this.#context.elbv2.describeLoadBalancerByName(name, options);
    if (loadBalancer && loadBalancer.type !== undefined && loadBalancer.type !== 'network') return undefined;
    return loadBalancer;
  }

  async ownershipProblem(loadBalancer: NetworkLoadBalancer, options?: CallOptions): Promise<string | undefined> {
    const tags = (await this.#context.elbv2.describeTags([loadBalancer.arn], options)).get(loadBalancer.arn) ?? {};
    return this.#context.tagging.ownershipProblem(tags);
  }

  async ensure(clusterName: string, spec: NetworkLoadBalancerSpec, nodes: readonly V1Node[], options?: CallOptions): Promise<LoadBalancerStatus> {
    const { elbv2, tagging, subnets, clusterInstances, settings, logger } = this.#context;
    const name = spec.loadBalancerName;
    const instances = await targetInstances(nodes, spec.targetNodeLabels, clusterInstances, logger, options);
    const tags = tagging.buildTags('owned', { ...spec.additionalTags, [TAG_SERVICE_NAME]: `${spec.service.namespace}/${spec.service.name}` });
    const other = await elbv2.describeLoadBalancerByName(name, options);
    if (other && other.type !== undefined && other.type !== 'network') {
      throw new CloudStateError(`a load balancer named ${name} of type ${other.type} exists; refusing to replace it with an NLB`);
    }
    let loadBalancer = other;
    let managedGroupId: string | undefined;
    if (loadBalancer) {
      const problem = await this.ownershipProblem(loadBalancer, options);
      if (problem !== undefined) throw new NotOwnedError(`load balancer ${name}`, problem);
      managedGroupId = await this.#syncSecurityGroups(clusterName, loadBalancer, spec, options);
    } else {
      const subnetIds = await subnets.subnetsFor(spec.subnetNamesOrIds, spec.internal, options);
      const mappings = subnetMappings(subnetIds, spec);
      let securityGroups: string[] | undefined;
      if (settings.nlbSecurityGroupMode === 'Managed') {
        if (spec.securityGroups.length > 0) securityGroups = spec.securityGroups;
        else {
          managedGroupId = await this.#ensureManagedGroup(clusterName, spec, options);
          securityGroups = [managedGroupId];
        }
      }
      logger.info('creating load balancer', { service: `${spec.service.namespace}/${spec.service.name}`, loadBalancer: name, type: 'network' });
      loadBalancer = await elbv2.createLoadBalancer(
        { name, internal: spec.internal, subnetMappings: mappings, ...(securityGroups === undefined ? {} : { securityGroups }), tags },
        options,
      );
    }

    const targetGroupsChanged = await this.#syncListeners(loadBalancer, spec, instances, tags, options);
    if (targetGroupsChanged) {
      const inUse = new Set((await elbv2.describeListeners(loadBalancer.arn, options)).flatMap((listener) => (listener.targetGroupArn === undefined ? [] : [listener.targetGroupArn])));
      await this.#deleteUnusedTargetGroups(spec.service, name, inUse, options);
    }
    await this.#syncAttributes(loadBalancer, spec, options);
    if (managedGroupId !== undefined) await this.#syncManagedGroupRules(managedGroupId, spec, options);
    if (!settings.disableSecurityGroupIngress) {
      const subnetCidrs = await subnets.cidrsOf(loadBalancer.subnetIds, options);
      await updateNetworkNodeRules(
        this.#context.securityGroups,
        instances.values(),
        { loadBalancerName: name, mappings: spec.mappings, clientCidrs: spec.sourceRanges, subnetCidrs },
        logger,
        options,
      );
    }
    const refreshed = await this.describe(name, options);
    return networkStatus(refreshed ?? loadBalancer);
  }

  /**
   * Deletes the NLB (if this cluster owns it), its target groups, this NLB's node rules and the
   * security groups we own that it used. Returns false when there was nothing of ours.
   */
  async delete(clusterName: string, target: DeletionTarget, options?: CallOptions): Promise<boolean> {
    const { elbv2, securityGroups, settings, logger } = this.#context;
    const name = target.loadBalancerName;
    const loadBalancer = await this.describe(name, options);
    const candidates = new Set<string>();
    if (loadBalancer) {
      const problem = await this.ownershipProblem(loadBalancer, options);
      if (problem !== undefined) {
        logger.warn('not deleting load balancer we do not own', { loadBalancer: name, reason: problem });
        return false;
      }
      const targetGroups = await elbv2.describeTargetGroupsOfLoadBalancer(loadBalancer.arn, options);
      for (const groupId of loadBalancer.securityGroups) candidates.add(groupId);
      logger.info('deleting load balancer', { loadBalancer: name, type: 'network' });
      await elbv2.deleteLoadBalancer(loadBalancer.arn, options);
      for (const group of targetGroups) await this.#deleteTargetGroup(group.arn, options);
    }
    const orphans = await this.#deleteUnusedTargetGroups(target.service, name, new Set(), options);
    if (!settings.disableSecurityGroupIngress) {
      await updateNetworkNodeRules(securityGroups, [], { loadBalancerName: name, mappings: [], clientCidrs: [], subnetCidrs: [] }, logger, options);
    }
    const managed = await securityGroups.findByName(networkSecurityGroupName(clusterName, target.service), options);
    if (managed) candidates.add(managed.groupId);
    for (const groupId of target.annotatedSecurityGroups) candidates.delete(groupId);
    await securityGroups.deleteOwned([...candidates], options);
    return loadBalancer !== undefined || orphans > 0 || candidates.size > 0;
  }

  /**
   * What a cut-short sync or deletion of this Service's NLB left behind without the NLB: its
   * managed security group and its target groups. Deletion must still remove them, so the
   * Service keeps its finalizer until they are gone.
   */
  async remnants(clusterName: string, target: DeletionTarget, options?: CallOptions): Promise<string[]> {
    const found = (await this.#unusedTargetGroups(target.service, target.loadBalancerName, new Set(), options)).map((group) => `target group ${group.name}`);
    const managed = await this.#context.securityGroups.findByName(networkSecurityGroupName(clusterName, target.service), options);
    if (managed !== undefined && this.#context.tagging.ownershipProblem(managed.tags) === undefined) found.push(`security group ${managed.groupId}`);
    return found;
  }

  /**
   * Target groups of this Service that no listener uses (`inUse` holds the ones the NLB's
   * listeners forward to): named with the Service's prefix, tagged with this cluster and the
   * Service's name (other Services may share the prefix), and linked to no load balancer but
   * this Service's own (AWS drops the link when the listener goes; moto keeps it).
   */
  async #unusedTargetGroups(service: ServiceIdentity, loadBalancerName: string, inUse: ReadonlySet<string>, options?: CallOptions): Promise<TargetGroup[]> {
    const { elbv2, tagging } = this.#context;
    const prefix = targetGroupNamePrefix(service);
    const candidates = (await elbv2.describeAllTargetGroups(options)).filter(
      (group) => group.name.startsWith(prefix) && !inUse.has(group.arn) && group.loadBalancerArns.every((arn) => loadBalancerNameOfArn(arn) === loadBalancerName),
    );
    if (candidates.length === 0) return [];
    const tags = await elbv2.describeTags(candidates.map((group) => group.arn), options);
    const serviceName = `${service.namespace}/${service.name}`;
    return candidates.filter((group) => {
      const groupTags = tags.get(group.arn) ?? {};
      return tagValue(groupTags, TAG_SERVICE_NAME) === serviceName && tagging.ownershipProblem(groupTags) === undefined;
    });
  }

  /** Deletes this Service's target groups that no listener uses; returns how many. */
  async #deleteUnusedTargetGroups(service: ServiceIdentity, loadBalancerName: string, inUse: ReadonlySet<string>, options?: CallOptions): Promise<number> {
    const unused = await this.#unusedTargetGroups(service, loadBalancerName, inUse, options);
    for (const group of unused) {
      this.#context.logger.info('deleting target group no listener uses', { service: `${service.namespace}/${service.name}`, targetGroup: group.name });
      await this.#deleteTargetGroup(group.arn, options);
    }
    return unused.length;
  }

  async #ensureManagedGroup(clusterName: string, spec: NetworkLoadBalancerSpec, options?: CallOptions): Promise<string> {
    return this.#context.securityGroups.ensure(networkSecurityGroupName(clusterName, spec.service), NETWORK_SECURITY_GROUP_DESCRIPTION, spec.additionalTags, options);
  }

  /** Managed mode on an existing NLB; returns the managed group ID when we manage one. */
  async #syncSecurityGroups(clusterName: string, loadBalancer: NetworkLoadBalancer, spec: NetworkLoadBalancerSpec, options?: CallOptions): Promise<string | undefined> {
    const { elbv2, securityGroups, settings, logger } = this.#context;
    if (settings.nlbSecurityGroupMode !== 'Managed') return undefined;
    if (loadBalancer.securityGroups.length === 0) {
      logger.warn('NLB was created without security groups; AWS cannot add them later, so none are managed', { loadBalancer: loadBalancer.name });
      return undefined;
    }
    let managedGroupId: string | undefined;
    const desired = spec.securityGroups.length > 0 ? spec.securityGroups : [(managedGroupId = await this.#ensureManagedGroup(clusterName, spec, options))];
    const same = desired.length === loadBalancer.securityGroups.length && desired.every((group) => loadBalancer.securityGroups.includes(group));
    if (!same) {
      logger.info('replacing NLB security groups', { loadBalancer: loadBalancer.name, securityGroups: desired });
      await elbv2.setSecurityGroups(loadBalancer.arn, desired, options);
      await securityGroups.deleteOwned(loadBalancer.securityGroups.filter((group) => !desired.includes(group)), options);
    }
    return managedGroupId;
  }

  async #syncManagedGroupRules(groupId: string, spec: NetworkLoadBalancerSpec, options?: CallOptions): Promise<void> {
    const { securityGroups } = this.#context;
    const [group] = await securityGroups.describe([groupId], options);
    if (!group) return;
    await securityGroups.apply(groupId, planExactIngress(ungroupPermissions(group.ingress), networkSecurityGroupRules(spec)), options);
  }

  /** Returns whether target groups were created, replaced or deleted. */
  async #syncListeners(loadBalancer: NetworkLoadBalancer, spec: NetworkLoadBalancerSpec, instances: ReadonlyMap<string, Ec2Instance>, tags: Tags, options?: CallOptions): Promise<boolean> {
    const { elbv2, tagging } = this.#context;
    const listeners = await elbv2.describeListeners(loadBalancer.arn, options);
    const targetGroups = listeners.length === 0 ? [] : await elbv2.describeTargetGroupsOfLoadBalancer(loadBalancer.arn, options);
    const nameOf = (mapping: NetworkPortMapping): string => targetGroupName(tagging.clusterId, spec.service, mapping);
    const actions = planNetworkListeners(spec.mappings, listeners, targetGroups, nameOf);
    for (const action of actions) await this.#apply(loadBalancer, action, instances, tags, options);
    if (spec.targetGroupAttributes !== undefined) {
      for (const group of await elbv2.describeTargetGroupsOfLoadBalancer(loadBalancer.arn, options)) {
        const changes = changedAttributes(await elbv2.describeTargetGroupAttributes(group.arn, options), spec.targetGroupAttributes);
        if (Object.keys(changes).length > 0) await elbv2.modifyTargetGroupAttributes(group.arn, changes, options);
      }
    }
    return actions.some((action) => action.kind !== 'update' || action.reuseTargetGroup === undefined);
  }

  async #apply(loadBalancer: NetworkLoadBalancer, action: ListenerAction, instances: ReadonlyMap<string, Ec2Instance>, tags: Tags, options?: CallOptions): Promise<void> {
    const { elbv2, logger } = this.#context;
    switch (action.kind) {
      case 'delete':
        logger.info('deleting NLB listener', { loadBalancer: loadBalancer.name, port: action.listener.port });
        await elbv2.deleteListener(action.listener.arn, options);
        if (action.deleteTargetGroupArn !== undefined) await this.#deleteTargetGroup(action.deleteTargetGroupArn, options);
        return;
      case 'create': {
        const group = await this.#ensureTargetGroup(loadBalancer, action.targetGroupName, action.mapping, instances, tags, options);
        logger.info('creating NLB listener', { loadBalancer: loadBalancer.name, port: action.mapping.frontendPort });
        await elbv2.createListener(loadBalancer.arn, listenerSpec(action.mapping, group.arn), tags, options);
        return;
      }
      case 'update': {
        let group = action.reuseTargetGroup;
        if (group) {
          await this.#syncTargets(group, action.mapping, instances, options);
          const healthCheck = planTargetGroupHealthCheck(action.mapping.healthCheck, group.healthCheck);
          if (healthCheck) await elbv2.modifyTargetGroupHealthCheck(group.arn, healthCheck, options);
        } else {
          group = await this.#ensureTargetGroup(loadBalancer, action.targetGroupName, action.mapping, instances, tags, options);
        }
        if (action.listenerChanged) {
          logger.info('updating NLB listener', { loadBalancer: loadBalancer.name, port: action.mapping.frontendPort, targetGroup: group.name });
          await elbv2.modifyListener(action.listener.arn, listenerSpec(action.mapping, group.arn), options);
        }
        if (action.replacedTargetGroupArn !== undefined && action.replacedTargetGroupArn !== group.arn) {
          await this.#deleteTargetGroup(action.replacedTargetGroupArn, options);
        }
        return;
      }
    }
  }

  /** Finds the target group by name (adopting one we own from an interrupted sync) or creates it. */
  async #ensureTargetGroup(
    loadBalancer: NetworkLoadBalancer,
    name: string,
    mapping: NetworkPortMapping,
    instances: ReadonlyMap<string, Ec2Instance>,
    tags: Tags,
    options?: CallOptions,
  ): Promise<TargetGroup> {
    const { elbv2, tagging, logger } = this.#context;
    const existing = await elbv2.describeTargetGroupByName(name, options);
    let group: TargetGroup;
    if (existing) {
      const problem = tagging.ownershipProblem((await elbv2.describeTags([existing.arn], options)).get(existing.arn) ?? {});
      if (problem !== undefined) throw new NotOwnedError(`target group ${name}`, problem);
      group = existing;
    } else {
      logger.info('creating target group', { loadBalancer: loadBalancer.name, targetGroup: name });
      group = await elbv2.createTargetGroup(
        { name, protocol: mapping.trafficProtocol, port: mapping.trafficPort, vpcId: loadBalancer.vpcId ?? '', healthCheck: targetGroupHealthCheck(mapping.healthCheck), tags },
        options,
      );
    }
    await this.#syncTargets(group, mapping, instances, options);
    return group;
  }

  async #syncTargets(group: TargetGroup, mapping: NetworkPortMapping, instances: ReadonlyMap<string, Ec2Instance>, options?: CallOptions): Promise<void> {
    const { elbv2 } = this.#context;
    const expected = [...instances.keys()].sort().map((id) => ({ id, port: mapping.trafficPort }));
    const plan = planTargets(expected, await elbv2.describeTargetHealth(group.arn, options));
    for (const targets of chunk(plan.deregister, TARGET_CHUNK_SIZE)) await elbv2.deregisterTargets(group.arn, targets, options);
    for (const targets of chunk(plan.register, TARGET_CHUNK_SIZE)) await elbv2.registerTargets(group.arn, targets, options);
  }

  async #deleteTargetGroup(arn: string, options?: CallOptions): Promise<void> {
    try {
      await this.#context.elbv2.deleteTargetGroup(arn, options);
    } catch (error) {
      if (!AwsApiError.hasKind(error, 'NotFound')) throw error;
    }
  }

  async #syncAttributes(loadBalancer: NetworkLoadBalancer, spec: NetworkLoadBalancerSpec, options?: CallOptions): Promise<void> {
    const { elbv2 } = this.#context;
    const changes = changedAttributes(await elbv2.describeLoadBalancerAttributes(loadBalancer.arn, options), spec.attributes);
    if (Object.keys(changes).length > 0) await elbv2.modifyLoadBalancerAttributes(loadBalancer.arn, changes, options);
  }
}

/** `arn:aws:elasticloadbalancing:<region>:<account>:loadbalancer/net/<name>/<id>` -> `<name>`. */
export function loadBalancerNameOfArn(arn: string): string | undefined {
  const parts = arn.split(':').pop()?.split('/') ?? [];
  return parts[0] === 'loadbalancer' ? parts[2] : undefined;
}

function listenerSpec(mapping: NetworkPortMapping, targetGroupArn: string): ListenerSpec {
  const spec: ListenerSpec = { port: mapping.frontendPort, protocol: mapping.frontendProtocol, targetGroupArn };
  if (mapping.frontendProtocol === 'TLS') {
    if ((mapping.sslPolicy ?? '') !== '') spec.sslPolicy = mapping.sslPolicy as string;
    if (mapping.sslCertificateArn !== undefined) spec.certificateArn = mapping.sslCertificateArn;
  }
  return spec;
}

