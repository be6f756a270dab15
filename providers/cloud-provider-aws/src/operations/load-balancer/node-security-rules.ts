/**
 * Rules on the nodes' security groups that let load balancer traffic in.
 *
 * Classic ELB (upstream `updateInstanceSecurityGroupsForLoadBalancer`): "all traffic from the
 * load balancer's security group" on each node group; removed from cluster-tagged groups that no
 * longer hold targets.
 *
 * NLB (upstream `updateInstanceSecurityGroupsForNLB`): rules marked by their description so only
 * our own rules are touched:
 * - `kubernetes.io/rule/nlb/client=<lb>`: node ports from the client source ranges;
 * - `kubernetes.io/rule/nlb/health=<lb>`: health-check ports from the load balancer's subnets;
 * - `kubernetes.io/rule/nlb/mtu`: ICMP 3/4 from every client range of every NLB (shared).
 */
import type { Logger } from '@ccm/core/logging';
import type { CallOptions } from '@ccm/core/cloud';
import type { Ec2Instance, Ec2SecurityGroup } from '../../ports/ec2-port.js';
import {
  applyRulePlan,
  cidrSource,
  mtuRule,
  planMarkedIngress,
  portRule,
  ruleKey,
  ungroupPermissions,
  type IngressRule,
  type RulePlan,
} from './ingress-rules.js';
import type { NetworkPortMapping } from './load-balancer-spec.js';
import { ALLOW_ALL_IPV4 as ALL_IPV4 } from '@ccm/core/service-input';
import { securityGroupForInstance, type SecurityGroupOperations } from './security-groups.js';

export const NLB_CLIENT_RULE_DESCRIPTION = 'kubernetes.io/rule/nlb/client';
export const NLB_HEALTH_RULE_DESCRIPTION = 'kubernetes.io/rule/nlb/health';
export const NLB_MTU_RULE_DESCRIPTION = 'kubernetes.io/rule/nlb/mtu';

/** The node groups of target instances; instances without a group are logged and skipped. */
export function nodeSecurityGroupIds(instances: Iterable<Ec2Instance>, taggedGroupIds: ReadonlySet<string>, logger: Logger): Set<string> {
  const ids = new Set<string>();
  for (const instance of instances) {
    const groupId = securityGroupForInstance(instance, taggedGroupIds);
    if (groupId === undefined) logger.warn('ignoring instance without security group', { instanceId: instance.instanceId });
    else ids.add(groupId);
  }
  return ids;
}

/** Pure: node groups that need the Classic rule added, and tagged groups that must lose it. */
export function planClassicNodeRules(desiredGroupIds: ReadonlySet<string>, groupsWithRule: readonly string[]): { add: string[]; remove: string[] } {
  const current = new Set(groupsWithRule);
  return {
    add: [...desiredGroupIds].filter((id) => !current.has(id)).sort(),
    remove: [...current].filter((id) => !desiredGroupIds.has(id)).sort(),
  };
}

export function classicNodeRule(loadBalancerGroupId: string): IngressRule {
  return { protocol: '-1', source: { kind: 'group', value: loadBalancerGroupId } };
}

export async function updateClassicNodeRules(
  securityGroups: SecurityGroupOperations,
  loadBalancerGroupId: string,
  instances: Iterable<Ec2Instance>,
  logger: Logger,
  options?: CallOptions,
): Promise<void> {
  const tagged = await securityGroups.taggedGroups(options);
  const desired = nodeSecurityGroupIds(instances, new Set(tagged.keys()), logger);
  const withRule = (await securityGroups.groupsReferencing(loadBalancerGroupId, options)).filter((group) =>
    securityGroups.tagging.hasClusterTag(group.tags),
  );
  const plan = planClassicNodeRules(desired, withRule.map((group) => group.groupId));
  const rule = classicNodeRule(loadBalancerGroupId);
  const untaggedIds = plan.add.filter((id) => !tagged.has(id));
  const untagged = new Map((await securityGroups.describe(untaggedIds, options)).map((group) => [group.groupId, group]));
  for (const groupId of plan.add) {
    const group = tagged.get(groupId) ?? untagged.get(groupId);
    if (!group) continue;
    logger.verbose(2, 'adding rule for traffic from the load balancer to instances', { loadBalancerGroupId, groupId });
    await securityGroups.addIngress(group, [rule], options);
  }
  for (const group of withRule.filter((candidate) => plan.remove.includes(candidate.groupId))) {
    logger.verbose(2, 'removing rule for traffic from the load balancer to instances', { loadBalancerGroupId, groupId: group.groupId });
    await securityGroups.removeIngress(group, [rule], options);
  }
}

export interface NetworkRuleInput {
  loadBalancerName: string;
  mappings: readonly NetworkPortMapping[];
  clientCidrs: readonly string[];
  subnetCidrs: readonly string[];
}

/** Pure: client and health rules one node group should have for one NLB. */
export function desiredNetworkRules(input: NetworkRuleInput): { client: IngressRule[]; health: IngressRule[] } {
  const clientDescription = `${NLB_CLIENT_RULE_DESCRIPTION}=${input.loadBalancerName}`;
  const healthDescription = `${NLB_HEALTH_RULE_DESCRIPTION}=${input.loadBalancerName}`;
  const clientPorts = new Set<number>();
  const healthPorts = new Set<number>();
  let clientProtocol = 'tcp';
  for (const mapping of input.mappings) {
    clientPorts.add(mapping.trafficPort);
    healthPorts.add(mapping.healthCheck.port === 'traffic-port' ? mapping.trafficPort : Number.parseInt(mapping.healthCheck.port, 10));
    if (mapping.trafficProtocol === 'UDP') clientProtocol = 'udp';
  }
  const clientCidrs = input.clientCidrs.length > 0 ? input.clientCidrs : [ALL_IPV4];
  const client = [...clientPorts].sort((a, b) => a - b).flatMap((port) => clientCidrs.map((cidr) => portRule(clientProtocol, port, cidrSource(cidr), clientDescription)));
  const clientCoversHealth =
    clientProtocol === 'tcp' &&
    clientCidrs.length === 1 &&
    clientCidrs[0] === ALL_IPV4 &&
    healthPorts.size === clientPorts.size &&
    [...healthPorts].every((port) => clientPorts.has(port));
  const health = clientCoversHealth
    ? []
    : [...healthPorts].sort((a, b) => a - b).flatMap((port) => input.subnetCidrs.map((cidr) => portRule('tcp', port, cidrSource(cidr), healthDescription)));
  return { client, health };
}

/** Pure: MTU rules for every client rule (of any NLB) in the group. */
export function planMtuRules(rules: readonly IngressRule[]): RulePlan {
  const desired = rules
    .filter((rule) => rule.source.kind === 'ipv4' && (rule.description ?? '').includes(NLB_CLIENT_RULE_DESCRIPTION))
    .map((rule) => mtuRule(rule.source.value, NLB_MTU_RULE_DESCRIPTION));
  return planMarkedIngress(rules, desired, NLB_MTU_RULE_DESCRIPTION);
}

/**
 * Pure: per node group, the rules to revoke and grant. Groups in `desiredGroupIds` get this
 * NLB's rules; every other group loses them. Groups without changes are left out.
 */
export function planNetworkNodeRules(
  groups: readonly Ec2SecurityGroup[],
  desiredGroupIds: ReadonlySet<string>,
  input: NetworkRuleInput,
): Map<string, RulePlan> {
  const wanted = desiredNetworkRules(input);
  const plans = new Map<string, RulePlan>();
  for (const group of groups) {
    const desired = desiredGroupIds.has(group.groupId);
    let rules = ungroupPermissions(group.ingress);
    const steps: RulePlan[] = [];
    for (const [description, desiredRules] of [
      [`${NLB_HEALTH_RULE_DESCRIPTION}=${input.loadBalancerName}`, wanted.health],
      [`${NLB_CLIENT_RULE_DESCRIPTION}=${input.loadBalancerName}`, wanted.client],
    ] as const) {
      const step = planMarkedIngress(rules, desired ? desiredRules : [], description);
      rules = applyRulePlan(rules, step);
      steps.push(step);
    }
    const mtu = planMtuRules(rules);
    steps.push(mtu);
    const plan = mergePlans(steps);
    if (plan.grant.length > 0 || plan.revoke.length > 0) plans.set(group.groupId, plan);
  }
  return plans;
}

function mergePlans(steps: readonly RulePlan[]): RulePlan {
  const grant = new Map<string, IngressRule>();
  const revoke = new Map<string, IngressRule>();
  for (const step of steps) {
    for (const rule of step.revoke) {
      if (grant.has(ruleKey(rule))) grant.delete(ruleKey(rule));
      else revoke.set(ruleKey(rule), rule);
    }
    for (const rule of step.grant) {
      if (revoke.has(ruleKey(rule))) revoke.delete(ruleKey(rule));
      else grant.set(ruleKey(rule), rule);
    }
  }
  return { grant: [...grant.values()], revoke: [...revoke.values()] };
}

/**
 * Reconciles this NLB's node rules. `instances` empty (deletion) removes them everywhere.
 * Untagged groups actually used by target instances are included like upstream.
 */
export async function updateNetworkNodeRules(
  securityGroups: SecurityGroupOperations,
  instances: Iterable<Ec2Instance>,
  input: NetworkRuleInput,
  logger: Logger,
  options?: CallOptions,
): Promise<void> {
  const tagged = await securityGroups.taggedGroups(options);
  const desired = nodeSecurityGroupIds(instances, new Set(tagged.keys()), logger);
  const extra = await securityGroups.describe([...desired].filter((id) => !tagged.has(id)), options);
  const groups = [...tagged.values(), ...extra];
  for (const [groupId, plan] of planNetworkNodeRules(groups, desired, input)) {
    logger.verbose(2, 'updating NLB rules on node security group', { groupId, loadBalancer: input.loadBalancerName, grant: plan.grant.length, revoke: plan.revoke.length });
    await securityGroups.apply(groupId, plan, options);
  }
}
