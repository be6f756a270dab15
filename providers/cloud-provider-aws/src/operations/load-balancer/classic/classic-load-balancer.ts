/**
 * Classic ELB create/update/delete (upstream `EnsureLoadBalancer` classic path,
 * `ensureLoadBalancer`, `UpdateLoadBalancer`, `EnsureLoadBalancerDeleted`).
 */
import type { V1Node } from '@ccm/core/kube';
import type { LoadBalancerStatus } from '@ccm/core/provider';
import { NotOwnedError } from '../../../errors.js';
import type { CallOptions } from '@ccm/core/cloud';
import type { Ec2Instance } from '../../../ports/ec2-port.js';
import type { ClassicLoadBalancer } from '../../../ports/elb-port.js';
import { TAG_SERVICE_NAME, type Tags } from '../../../tags.js';
import { cidrSource, mtuRule, planExactIngress, portRule, ungroupPermissions, type IngressRule } from '../ingress-rules.js';
import type { DeletionTarget, LoadBalancerContext } from '../load-balancer-context.js';
import type { ClassicLoadBalancerSpec } from '../load-balancer-spec.js';
import { updateClassicNodeRules } from '../node-security-rules.js';
import { targetInstances } from '../target-nodes.js';
import { classicAttributesSatisfied } from './classic-attributes.js';
import { classicHealthChecksEqual } from './classic-health-check.js';
import { planClassicListeners } from './classic-listeners.js';

export const PROXY_PROTOCOL_POLICY_NAME = 'k8s-proxyprotocol-enabled';
export const SSL_NEGOTIATION_POLICY_PREFIX = 'k8s-SSLNegotiationPolicy-';

export function classicSecurityGroupName(loadBalancerName: string): string {
  return `k8s-elb-${loadBalancerName}`;
}

export function classicStatus(loadBalancer: ClassicLoadBalancer): LoadBalancerStatus {
  return loadBalancer.dnsName ? { ingress: [{ hostname: loadBalancer.dnsName }] } : {};
}

/** Pure: the rules of the load balancer's own group: service ports and ICMP 3/4 from the sources. */
export function classicSecurityGroupRules(spec: Pick<ClassicLoadBalancerSpec, 'frontendPorts' | 'sourceRanges'>): IngressRule[] {
  const rules: IngressRule[] = [];
  for (const port of spec.frontendPorts) for (const cidr of spec.sourceRanges) rules.push(portRule(port.protocol, port.port, cidrSource(cidr)));
  for (const cidr of spec.sourceRanges) if (!cidr.includes(':')) rules.push(mtuRule(cidr));
  return rules;
}

/** Pure: instance IDs to register and to deregister. */
export function planClassicInstances(current: readonly string[], wanted: Iterable<string>): { register: string[]; deregister: string[] } {
  const wantedSet = new Set(wanted);
  const currentSet = new Set(current);
  return {
    register: [...wantedSet].filter((id) => !currentSet.has(id)).sort(),
    deregister: [...currentSet].filter((id) => !wantedSet.has(id)).sort(),
  };
}

/** Pure (upstream proxy protocol sync): backend ports whose policies must be set, with the policy list. */
export function planProxyProtocol(
  loadBalancer: Pick<ClassicLoadBalancer, 'backendServers'>,
  instancePorts: readonly number[],
  enabled: boolean,
): Array<{ instancePort: number; policyNames: string[] }> {
  const current = new Map(loadBalancer.backendServers.map((backend) => [backend.instancePort, backend.policyNames.includes(PROXY_PROTOCOL_POLICY_NAME)]));
  const changes: Array<{ instancePort: number; policyNames: string[] }> = [];
  const seen = new Set<number>();
  for (const port of instancePorts) {
    if (seen.has(port)) continue;
    seen.add(port);
    const state = current.get(port);
    if (state === undefined ? enabled : state !== enabled) changes.push({ instancePort: port, policyNames: enabled ? [PROXY_PROTOCOL_POLICY_NAME] : [] });
  }
  for (const [port, state] of current) if (!seen.has(port) && state) changes.push({ instancePort: port, policyNames: [] });
  return changes;
}

export class ClassicLoadBalancerOperations {
  readonly #context: LoadBalancerContext;

  constructor(context: LoadBalancerContext) {
    this.#context = context;
  }

  describe(name: string, options?: CallOptions): Promise<ClassicLoadBalancer | undefined> {
    return this.#context.elb.describeLoadBalancer(name, options);
  }

  /** Undefined when owned by this cluster, else why not. */
  async ownershipProblem(name: string, options?: CallOptions): Promise<string | undefined> {
    return this.#context.tagging.ownershipProblem(await this.#context.elb.describeTags(name, options));
  }

  async ensure(spec: ClassicLoadBalancerSpec, nodes: readonly V1Node[], options?: CallOptions): Promise<LoadBalancerStatus> {
    const { elb, tagging, securityGroups, subnets, clusterInstances, settings, logger } = this.#context;
    const name = spec.loadBalancerName;
    const instances = await targetInstances(nodes, spec.targetNodeLabels, clusterInstances, logger, options);
    let existing = await this.describe(name, options);
    let currentTags: Tags = {};
    if (existing) {
      currentTags = await elb.describeTags(name, options);
      const problem = tagging.ownershipProblem(currentTags);
      if (problem !== undefined) throw new NotOwnedError(`load balancer ${name}`, problem);
    }
    const subnetIds = await subnets.subnetsFor(spec.subnetNamesOrIds, spec.internal, options);
    const groups = await this.#securityGroupsFor(spec, options);

    if (!existing) {
      const tags = tagging.buildTags('owned', { ...spec.additionalTags, [TAG_SERVICE_NAME]: `${spec.service.namespace}/${spec.service.name}` });
      logger.info('creating load balancer', { service: `${spec.service.namespace}/${spec.service.name}`, loadBalancer: name });
      await elb.createLoadBalancer({ name, listeners: spec.listeners, subnets: subnetIds, securityGroups: groups.ids, internal: spec.internal, tags }, options);
      if (spec.proxyProtocol) {
        await this.#ensureProxyProtocolPolicy(name, options);
        for (const change of planProxyProtocol({ backendServers: [] }, spec.listeners.map((listener) => listener.instancePort), true)) {
          await elb.setBackendServerPolicies(name, change.instancePort, change.policyNames, options);
        }
      }
    } else {
      await this.#updateExisting(existing, currentTags, spec, subnetIds, groups.ids, options);
    }

    const attributes = await elb.describeAttributes(name, options);
    if (!classicAttributesSatisfied(attributes, spec.attributes)) {
      logger.verbose(2, 'updating load balancer attributes', { loadBalancer: name });
      await elb.modifyAttributes(name, spec.attributes, options);
    }
    existing = await this.describe(name, options);
    if (!existing) throw new Error(`load balancer ${name} disappeared while it was being configured`);

    await this.#ensureSslNegotiationPolicy(existing, spec.sslNegotiationPolicy, options);
    if (!classicHealthChecksEqual(existing.healthCheck, spec.healthCheck)) {
      logger.verbose(2, 'configuring load balancer health check', { loadBalancer: name, target: spec.healthCheck.target });
      await elb.configureHealthCheck(name, spec.healthCheck, options);
    }
    if (groups.managedId !== undefined) {
      const [group] = await securityGroups.describe([groups.managedId], options);
      if (group) await securityGroups.apply(group.groupId, planExactIngress(ungroupPermissions(group.ingress), classicSecurityGroupRules(spec)), options);
    }
    if (!settings.disableSecurityGroupIngress && groups.ids[0] !== undefined) {
      await updateClassicNodeRules(securityGroups, groups.ids[0], instances.values(), logger, options);
    }
    await this.#ensureInstances(existing, instances, options);
    return classicStatus(existing);
  }

  /** Node set changed (upstream `UpdateLoadBalancer`): SSL policy, instances and node rules. */
  async updateHosts(spec: ClassicLoadBalancerSpec, nodes: readonly V1Node[], options?: CallOptions): Promise<void> {
    const { securityGroups, clusterInstances, settings, logger } = this.#context;
    const existing = await this.describe(spec.loadBalancerName, options);
    if (!existing) throw new Error('Load balancer not found');
    const problem = await this.ownershipProblem(spec.loadBalancerName, options);
    if (problem !== undefined) throw new NotOwnedError(`load balancer ${spec.loadBalancerName}`, problem);
    const instances = await targetInstances(nodes, spec.targetNodeLabels, clusterInstances, logger, options);
    await this.#ensureSslNegotiationPolicy(existing, spec.sslNegotiationPolicy, options);
    await this.#ensureInstances(existing, instances, options);
    const primary = primarySecurityGroup(existing.securityGroups, spec.securityGroups, spec.extraSecurityGroups);
    if (!settings.disableSecurityGroupIngress && primary !== undefined) {
      await updateClassicNodeRules(securityGroups, primary, instances.values(), logger, options);
    }
  }

  /**
   * Deletes the load balancer if this cluster owns it, then the security groups we own that it
   * used (plus `k8s-elb-<name>` found by name, so a retry after the load balancer is gone still
   * cleans up). Returns false when there was nothing of ours to delete.
   */
  /**
   * What a cut-short sync or deletion left without the load balancer: its own `k8s-elb-<name>`
   * security group, still ours. Deletion must still remove it.
   */
  async remnants(target: DeletionTarget, options?: CallOptions): Promise<string[]> {
    const { securityGroups, settings } = this.#context;
    const group = await securityGroups.findByName(classicSecurityGroupName(target.loadBalancerName), options);
    if (group === undefined || group.groupId === settings.elbSecurityGroup || target.annotatedSecurityGroups.includes(group.groupId)) return [];
    return securityGroups.tagging.ownershipProblem(group.tags) === undefined ? [`security group ${group.groupId}`] : [];
  }

  async delete(target: DeletionTarget, options?: CallOptions): Promise<boolean> {
    const { elb, securityGroups, settings, logger } = this.#context;
    const name = target.loadBalancerName;
    const existing = await this.describe(name, options);
    const candidates = new Set<string>();
    if (existing) {
      const problem = await this.ownershipProblem(name, options);
      if (problem !== undefined) {
        logger.warn('not deleting load balancer we do not own', { loadBalancer: name, reason: problem });
        return false;
      }
      for (const groupId of existing.securityGroups) candidates.add(groupId);
    }
    const byName = await securityGroups.findByName(classicSecurityGroupName(name), options);
    if (byName) candidates.add(byName.groupId);
    for (const groupId of [...candidates]) {
      if (groupId === settings.elbSecurityGroup || target.annotatedSecurityGroups.includes(groupId)) candidates.delete(groupId);
    }
    if (existing) {
      logger.info('deleting load balancer', { loadBalancer: name });
      await elb.deleteLoadBalancer(name, options);
    }
    await securityGroups.deleteOwned([...candidates], options);
    return existing !== undefined || candidates.size > 0;
  }

  async #securityGroupsFor(spec: ClassicLoadBalancerSpec, options?: CallOptions): Promise<{ ids: string[]; managedId: string | undefined }> {
    const { securityGroups, settings } = this.#context;
    const ids = [...spec.securityGroups];
    let managedId: string | undefined;
    if (ids.length === 0) {
      if (settings.elbSecurityGroup !== '') ids.push(settings.elbSecurityGroup);
      else {
        const name = classicSecurityGroupName(spec.loadBalancerName);
        const description = `Security group for Kubernetes ELB ${spec.loadBalancerName} (${spec.service.namespace}/${spec.service.name})`;
        managedId = await securityGroups.ensure(name, description, spec.additionalTags, options);
        ids.push(managedId);
      }
    }
    for (const extra of spec.extraSecurityGroups) if (!ids.includes(extra)) ids.push(extra);
    return { ids, managedId };
  }

  async #updateExisting(existing: ClassicLoadBalancer, currentTags: Tags, spec: ClassicLoadBalancerSpec, subnetIds: string[], groupIds: string[], options?: CallOptions): Promise<void> {
    const { elb, securityGroups, settings, logger } = this.#context;
    const name = existing.name;
    const removedSubnets = existing.subnets.filter((subnet) => !subnetIds.includes(subnet));
    const addedSubnets = subnetIds.filter((subnet) => !existing.subnets.includes(subnet));
    if (removedSubnets.length > 0) await elb.detachFromSubnets(name, removedSubnets, options);
    if (addedSubnets.length > 0) await elb.attachToSubnets(name, addedSubnets, options);

    const sameGroups = existing.securityGroups.length === groupIds.length && groupIds.every((group) => existing.securityGroups.includes(group));
    if (!sameGroups) {
      logger.info('replacing load balancer security groups', { loadBalancer: name, securityGroups: groupIds });
      await elb.applySecurityGroups(name, groupIds, options);
      const detached = existing.securityGroups.filter(
        (group) => !groupIds.includes(group) && group !== settings.elbSecurityGroup && !spec.securityGroups.includes(group) && !spec.extraSecurityGroups.includes(group),
      );
      await securityGroups.deleteOwned(detached, options);
    }

    const listenerPlan = planClassicListeners(existing.listeners, spec.listeners);
    if (listenerPlan.removals.length > 0) await elb.deleteListeners(name, listenerPlan.removals, options);
    if (listenerPlan.additions.length > 0) await elb.createListeners(name, listenerPlan.additions, options);

    const proxyChanges = planProxyProtocol(existing, spec.listeners.map((listener) => listener.instancePort), spec.proxyProtocol);
    if (spec.proxyProtocol && proxyChanges.some((change) => change.policyNames.length > 0)) await this.#ensureProxyProtocolPolicy(name, options);
    for (const change of proxyChanges) await elb.setBackendServerPolicies(name, change.instancePort, change.policyNames, options);

    const missingTags = Object.fromEntries(Object.entries(spec.additionalTags).filter(([key, value]) => currentTags[key] !== value));
    if (Object.keys(missingTags).length > 0) await elb.addTags(name, missingTags, options);
  }

  async #ensureProxyProtocolPolicy(name: string, options?: CallOptions): Promise<void> {
    const { elb } = this.#context;
    const existing = await elb.describePolicyNames(name, [PROXY_PROTOCOL_POLICY_NAME], options);
    if (existing.includes(PROXY_PROTOCOL_POLICY_NAME)) return;
    await elb.createPolicy(
      name,
      { policyName: PROXY_PROTOCOL_POLICY_NAME, policyTypeName: 'ProxyProtocolPolicyType', attributes: [{ name: 'ProxyProtocol', value: 'true' }] },
      options,
    );
  }

  async #ensureSslNegotiationPolicy(loadBalancer: ClassicLoadBalancer, predefinedPolicy: string | undefined, options?: CallOptions): Promise<void> {
    if (predefinedPolicy === undefined) return;
    const { elb } = this.#context;
    const policyName = `${SSL_NEGOTIATION_POLICY_PREFIX}${predefinedPolicy}`;
    const existing = await elb.describePolicyNames(loadBalancer.name, [policyName], options);
    if (!existing.includes(policyName)) {
      await elb.createPolicy(
        loadBalancer.name,
        { policyName, policyTypeName: 'SSLNegotiationPolicyType', attributes: [{ name: 'Reference-Security-Policy', value: predefinedPolicy }] },
        options,
      );
    }
    for (const description of loadBalancer.listeners) {
      const protocol = description.listener.protocol.toUpperCase();
      if (protocol !== 'SSL' && protocol !== 'HTTPS') continue;
      if (description.policyNames.length === 1 && description.policyNames[0] === policyName) continue;
      await elb.setListenerPolicies(loadBalancer.name, description.listener.loadBalancerPort, [policyName], options);
    }
  }

  async #ensureInstances(loadBalancer: ClassicLoadBalancer, instances: ReadonlyMap<string, Ec2Instance>, options?: CallOptions): Promise<void> {
    const { elb, logger } = this.#context;
    const plan = planClassicInstances(loadBalancer.instanceIds, instances.keys());
    if (plan.register.length > 0) {
      logger.verbose(2, 'registering instances with load balancer', { loadBalancer: loadBalancer.name, instances: plan.register });
      await elb.registerInstances(loadBalancer.name, plan.register, options);
    }
    if (plan.deregister.length > 0) {
      logger.verbose(2, 'deregistering instances from load balancer', { loadBalancer: loadBalancer.name, instances: plan.deregister });
      await elb.deregisterInstances(loadBalancer.name, plan.deregister, options);
    }
  }
}

/**
 * The group node rules reference (upstream `sortELBSecurityGroupList` then the first): annotated
 * groups first, then the managed/shared group, extra groups last.
 */
export function primarySecurityGroup(groups: readonly string[], annotated: readonly string[], extra: readonly string[]): string | undefined {
  const rank = (group: string): number => {
    const annotatedIndex = annotated.indexOf(group);
    if (annotatedIndex >= 0) return annotatedIndex;
    const extraIndex = extra.indexOf(group);
    if (extraIndex >= 0) return annotated.length + 1 + extraIndex;
    return annotated.length;
  };
  return [...groups].sort((left, right) => rank(left) - rank(right))[0];
}
