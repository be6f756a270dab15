/**
 * `[LoadBalancer] manage-security-groups` (upstream `loadbalancer_sg.go`): a security group
 * `lb-sg-<uid>-<namespace>-<name>` per Service that opens its node ports to the load balancer,
 * attached to the member nodes' Neutron ports; detached and deleted with the Service (and when the
 * setting is off, as upstream). Only the group of the Service's own name is ever read or changed;
 * on a port only that group is added or removed, the port's other groups stay.
 */
import type { V1Node, V1Service } from '@kubernetes/client-node';
import type { CallOptions } from '@ccm/core/cloud';
import { CloudStateError } from '@ccm/core/provider';
import { sourceRangesOf } from '../../annotations.js';
import { isOpenStackErrorKind, OpenStackApiError } from '../../errors.js';
import { parseOpenStackProviderId } from '../../provider-id.js';
import type { NeutronSecurityGroup } from '../../ports/security-group-port.js';
import { ignoringNotFound, type LoadBalancerContext } from './load-balancer-context.js';
import type { ServiceIdentity } from './load-balancer-names.js';
import { nodeAddressForMember } from './load-balancer-planners.js';
import { desiredSecurityGroupRules, detachment, planSecurityGroupRules, portsToAttach, securityGroupDescription, securityGroupName } from './security-group-planner.js';

/** The group named for the Service, if any; two of that name is an error (upstream `IDFromName`). */
async function findServiceSecurityGroup(context: LoadBalancerContext, name: string, options?: CallOptions): Promise<NeutronSecurityGroup | undefined> {
  const found = (await context.securityGroups.findSecurityGroupsByName(name, options)).filter((group) => group.name === name);
  if (found.length > 1) throw new CloudStateError(`${found.length} security groups are named ${name}`);
  return found[0];
}

/** Upstream `GetLoadBalancerSourceRanges` with its default of every address of the Service's family. */
function sourceRangesOrEveryone(service: V1Service): string[] {
  const ranges = sourceRangesOf(service);
  if (ranges.length > 0) return ranges;
  return service.spec?.ipFamilies?.[0] === 'IPv6' ? ['::/0'] : ['0.0.0.0/0'];
}

export interface ServiceSecurityGroupTarget {
  clusterName: string;
  identity: ServiceIdentity;
  /** The member nodes (after the node selector). */
  members: readonly V1Node[];
  /** The members' subnet (`member-subnet-id`, else the VIP subnet): the rules' source, and where a node port must hold the member address. */
  memberSubnetId: string;
}

/** Upstream `ensureAndUpdateOctaviaSecurityGroup`: the group, its rules, its attachment to the member ports. */
export async function ensureServiceSecurityGroup(context: LoadBalancerContext, service: V1Service, target: ServiceSecurityGroupTarget, options?: CallOptions): Promise<void> {
  const { securityGroups, network, logger, settings } = context;
  const name = securityGroupName(service);
  let group = await findServiceSecurityGroup(context, name, options);
  if (group === undefined) {
    logger.info('creating security group', { securityGroup: name });
    group = await securityGroups.createSecurityGroup({ name, description: securityGroupDescription(target.clusterName, target.identity) }, options);
  }
  const subnet = await network.getSubnet(target.memberSubnetId, options);
  if (subnet === undefined) {
    throw new OpenStackApiError(`failed to find subnet ${target.memberSubnetId} of the load balancer members`, { kind: 'NotFound', operation: 'network.getSubnet', retryable: true });
  }
  const wanted = desiredSecurityGroupRules(service, { memberSubnetCidr: subnet.cidr, ovnSourceRanges: settings.provider === 'ovn' ? sourceRangesOrEveryone(service) : undefined });
  const plan = planSecurityGroupRules(wanted, await securityGroups.listRules(group.id, options));
  for (const rule of plan.create) {
    try {
      await securityGroups.createRule(group.id, rule, options);
    } catch (error) {
      // 409: the rule exists already (another writer in between), as upstream.
      if (!isOpenStackErrorKind(error, 'Conflict')) throw error;
      logger.warn('security group rule already exists: concurrent updates of the security group', { securityGroup: name });
    }
  }
  for (const rule of plan.delete) {
    logger.info('deleting security group rule', { securityGroup: name, rule: rule.id });
    await ignoringNotFound(() => securityGroups.deleteRule(rule.id, options));
  }
  const groupId = group.id;
  for (const node of target.members) {
    const nodeName = node.metadata?.name ?? '';
    let serverId: string;
    try {
      serverId = parseOpenStackProviderId(node.spec?.providerID ?? '').serverId;
    } catch (error) {
      throw new CloudStateError(`node ${nodeName}: cannot attach security group ${name}: ${(error as Error).message}`, { cause: error });
    }
    const address = nodeAddressForMember(node);
    if (address === undefined) continue;
    const ports = await securityGroups.portsOfDevice(serverId, options);
    for (const port of portsToAttach(address, ports, groupId, target.memberSubnetId)) {
      logger.info('attaching security group to node port', { securityGroup: name, node: nodeName, port: port.id });
      await securityGroups.setPortSecurityGroups(port.id, [...port.securityGroupIds, groupId], options);
    }
  }
}

/**
 * Upstream `ensureSecurityGroupDeleted`: the Service's group detached from every port holding it
 * (and its ID removed from their tags, where an older release put it), then deleted. Nothing to
 * do when no group has the Service's name.
 */
export async function deleteServiceSecurityGroup(context: LoadBalancerContext, service: V1Service, options?: CallOptions): Promise<void> {
  const { securityGroups, logger } = context;
  const name = securityGroupName(service);
  const group = await findServiceSecurityGroup(context, name, options);
  if (group === undefined) return;
  for (const port of await securityGroups.portsWithSecurityGroup(group.id, options)) {
    if (!port.securityGroupIds.includes(group.id) && !port.tags.includes(group.id)) continue;
    const kept = detachment(port, group.id);
    logger.info('detaching security group from port', { securityGroup: name, port: port.id });
    await ignoringNotFound(() => securityGroups.setPortSecurityGroups(port.id, kept.securityGroupIds, options));
    if (kept.removeTag) await ignoringNotFound(() => securityGroups.removePortTag(port.id, group.id, options));
  }
  logger.info('deleting security group', { securityGroup: name, id: group.id });
  await ignoringNotFound(() => securityGroups.deleteSecurityGroup(group.id, options));
}
