/**
 * Security group operations for load balancers: find-or-create by name (upstream
 * `ensureSecurityGroup`), rule reconciliation, and deletion of groups we own.
 */
import type { Logger } from '@ccm/core/logging';
import { RetryError } from '@ccm/core/provider';
import { sleepOrThrowOnAbort } from '@ccm/core/util';
import { AwsApiError, NotOwnedError } from '../../errors.js';
import type { CallOptions } from '@ccm/core/cloud';
import { ec2Filter, type Ec2Instance, type Ec2Port, type Ec2SecurityGroup } from '../../ports/ec2-port.js';
import type { ClusterTagging, Tags } from '../../tags.js';
import { ruleKey, toPermissions, ungroupPermissions, type IngressRule, type RulePlan } from './ingress-rules.js';

export interface SecurityGroupTiming {
  sleep(milliseconds: number, signal?: AbortSignal): Promise<void>;
  /** Retries of a create that raced with another writer (upstream 30 x 1 s). */
  duplicateRetries: number;
  duplicateRetryDelayMs: number;
  /** Deleting a group still used by a load balancer being torn down: tries and delay between them. */
  deleteAttempts: number;
  deleteRetryDelayMs: number;
  /** Requeue delay once the attempts are used up. */
  deleteRequeueMs: number;
}

export const DEFAULT_SECURITY_GROUP_TIMING: SecurityGroupTiming = {
  sleep: sleepOrThrowOnAbort,
  duplicateRetries: 30,
  duplicateRetryDelayMs: 1000,
  deleteAttempts: 6,
  deleteRetryDelayMs: 5000,
  deleteRequeueMs: 15_000,
};

/**
 * The security group of an instance that load balancer rules go to (upstream
 * `findSecurityGroupForInstance`): the one cluster-tagged group, else the only group.
 */
export function securityGroupForInstance(instance: Ec2Instance, taggedGroupIds: ReadonlySet<string>): string | undefined {
  const groups = instance.securityGroups.filter((group) => group.groupId !== '');
  const tagged = groups.filter((group) => taggedGroupIds.has(group.groupId));
  if (tagged.length > 1) {
    const names = tagged.map((group) => `${group.groupId}(${group.groupName ?? ''})`).join(' ');
    throw new Error(`Multiple tagged security groups found for instance ${instance.instanceId}; ensure only the k8s security group is tagged; the tagged groups were ${names}`);
  }
  if (tagged.length === 1) return tagged[0]?.groupId;
  if (groups.length > 1) throw new Error(`Multiple untagged security groups found for instance ${instance.instanceId}; ensure the k8s security group is tagged`);
  return groups[0]?.groupId;
}

export class SecurityGroupOperations {
  readonly #ec2: Ec2Port;
  readonly #tagging: ClusterTagging;
  readonly #vpcId: string;
  readonly #logger: Logger;
  readonly #timing: SecurityGroupTiming;

  constructor(ec2: Ec2Port, tagging: ClusterTagging, vpcId: string, logger: Logger, timing: SecurityGroupTiming = DEFAULT_SECURITY_GROUP_TIMING) {
    this.#ec2 = ec2;
    this.#tagging = tagging;
    this.#vpcId = vpcId;
    this.#logger = logger;
    this.#timing = timing;
  }

  get tagging(): ClusterTagging {
    return this.#tagging;
  }

  async findByName(name: string, options?: CallOptions): Promise<Ec2SecurityGroup | undefined> {
    const groups = await this.#ec2.describeSecurityGroups({ filters: [ec2Filter('group-name', name), ec2Filter('vpc-id', this.#vpcId)] }, options);
    if (groups.length > 1) this.#logger.warn('found multiple security groups with the same name', { name });
    return groups[0];
  }

  async describe(groupIds: readonly string[], options?: CallOptions): Promise<Ec2SecurityGroup[]> {
    if (groupIds.length === 0) return [];
    return this.#ec2.describeSecurityGroups({ groupIds }, options);
  }

  /** Groups of the VPC that carry the cluster tag (upstream `getTaggedSecurityGroups`). */
  async taggedGroups(options?: CallOptions): Promise<Map<string, Ec2SecurityGroup>> {
    const groups = await this.#ec2.describeSecurityGroups({ filters: [ec2Filter('vpc-id', this.#vpcId)] }, options);
    return new Map(groups.filter((group) => this.#tagging.hasClusterTag(group.tags)).map((group) => [group.groupId, group]));
  }

  /** Groups with a rule whose source is `sourceGroupId`. */
  async groupsReferencing(sourceGroupId: string, options?: CallOptions): Promise<Ec2SecurityGroup[]> {
    return this.#ec2.describeSecurityGroups({ filters: [ec2Filter('ip-permission.group-id', sourceGroupId)] }, options);
  }

  /**
   * Finds the group by name in the VPC (adding a missing cluster tag, refusing a conflicting
   * one) or creates it tagged `owned`. Returns the group ID.
   */
  async ensure(name: string, description: string, additionalTags: Tags, options?: CallOptions): Promise<string> {
    for (let attempt = 1; ; attempt++) {
      const existing = await this.findByName(name, options);
      if (existing) {
        const missing = this.#tagging.missingClusterTags(`security group ${existing.groupId} (${name})`, 'owned', existing.tags);
        if (Object.keys(missing).length > 0) await this.#ec2.createTags({ resourceIds: [existing.groupId], tags: missing }, options);
        return existing.groupId;
      }
      try {
        const groupId = await this.#ec2.createSecurityGroup(
          { groupName: name, description, vpcId: this.#vpcId, tags: this.#tagging.buildTags('owned', additionalTags) },
          options,
        );
        this.#logger.info('created security group', { name, groupId });
        return groupId;
      } catch (error) {
        if (!AwsApiError.hasCode(error, 'InvalidGroup.Duplicate') || attempt >= this.#timing.duplicateRetries) throw error;
        this.#logger.verbose(2, 'security group creation raced with another writer; retrying', { name });
        await this.#timing.sleep(this.#timing.duplicateRetryDelayMs, options?.signal);
      }
    }
  }

  /** Applies a rule plan; a grant that already exists or a revoke that is already gone is fine. */
  async apply(groupId: string, plan: RulePlan, options?: CallOptions): Promise<boolean> {
    let changed = false;
    if (plan.revoke.length > 0) {
      try {
        await this.#ec2.revokeSecurityGroupIngress({ groupId, permissions: toPermissions(plan.revoke) }, options);
        changed = true;
      } catch (error) {
        if (!AwsApiError.hasCode(error, 'InvalidPermission.NotFound')) throw error;
        this.#logger.warn('revoking ingress was not needed; concurrent change?', { groupId });
      }
    }
    if (plan.grant.length > 0) {
      try {
        await this.#ec2.authorizeSecurityGroupIngress({ groupId, permissions: toPermissions(plan.grant) }, options);
        changed = true;
      } catch (error) {
        if (!AwsApiError.hasCode(error, 'InvalidPermission.Duplicate')) throw error;
        this.#logger.warn('allowing ingress was not needed; concurrent change?', { groupId });
      }
    }
    return changed;
  }

  /** Adds the rules the group lacks (upstream `addSecurityGroupIngress`). */
  async addIngress(group: Ec2SecurityGroup, rules: readonly IngressRule[], options?: CallOptions): Promise<boolean> {
    const present = new Set(ungroupPermissions(group.ingress).map(ruleKey));
    const grant = rules.filter((rule) => !present.has(ruleKey(rule)));
    return grant.length > 0 && this.apply(group.groupId, { grant, revoke: [] }, options);
  }

  /** Removes the rules the group has (upstream `removeSecurityGroupIngress`). */
  async removeIngress(group: Ec2SecurityGroup, rules: readonly IngressRule[], options?: CallOptions): Promise<boolean> {
    const wanted = new Set(rules.map(ruleKey));
    const revoke = ungroupPermissions(group.ingress).filter((rule) => wanted.has(ruleKey(rule)));
    return revoke.length > 0 && this.apply(group.groupId, { grant: [], revoke }, options);
  }

  /**
   * Deletes groups we own: first removes every rule in other groups that references them, then
   * deletes each, retrying while AWS still reports a dependency (the load balancer's interfaces
   * take a while to go). Groups not owned by this cluster are skipped with a warning.
   */
  async deleteOwned(groupIds: readonly string[], options?: CallOptions): Promise<void> {
    const groups = await this.describeExisting(groupIds, options);
    const owned = groups.filter((group) => {
      const problem = this.#tagging.ownershipProblem(group.tags);
      if (problem !== undefined) this.#logger.warn('not deleting security group we do not own', { groupId: group.groupId, reason: problem });
      return problem === undefined;
    });
    for (const group of owned) {
      for (const referencing of await this.groupsReferencing(group.groupId, options)) {
        if (referencing.groupId === group.groupId) continue;
        const references = ungroupPermissions(referencing.ingress).filter(
          (rule) => rule.source.kind === 'group' && rule.source.value === group.groupId,
        );
        if (references.length > 0) await this.apply(referencing.groupId, { grant: [], revoke: references }, options);
      }
    }
    let pending = owned.map((group) => group.groupId);
    for (let attempt = 1; pending.length > 0; attempt++) {
      const blocked: string[] = [];
      for (const groupId of pending) {
        try {
          await this.#ec2.deleteSecurityGroup({ groupId }, options);
          this.#logger.info('deleted security group', { groupId });
        } catch (error) {
          if (AwsApiError.hasKind(error, 'NotFound')) continue;
          if (!AwsApiError.hasKind(error, 'DependencyViolation')) throw error;
          blocked.push(groupId);
        }
      }
      pending = blocked;
      if (pending.length === 0) return;
      if (attempt >= this.#timing.deleteAttempts) {
        throw new RetryError(`security groups still in use, will retry: ${pending.join(', ')}`, this.#timing.deleteRequeueMs);
      }
      await this.#timing.sleep(this.#timing.deleteRetryDelayMs, options?.signal);
    }
  }

  /** Describes groups one call at a time so an already deleted group is not an error. */
  async describeExisting(groupIds: readonly string[], options?: CallOptions): Promise<Ec2SecurityGroup[]> {
    const unique = [...new Set(groupIds)];
    if (unique.length === 0) return [];
    try {
      return await this.describe(unique, options);
    } catch (error) {
      if (!AwsApiError.hasKind(error, 'NotFound')) throw error;
    }
    const found: Ec2SecurityGroup[] = [];
    for (const groupId of unique) {
      try {
        found.push(...(await this.describe([groupId], options)));
      } catch (error) {
        if (!AwsApiError.hasKind(error, 'NotFound')) throw error;
      }
    }
    return found;
  }

  /** Throws NotOwnedError unless the group is tagged `owned` for this cluster. */
  assertOwned(group: Ec2SecurityGroup): void {
    const problem = this.#tagging.ownershipProblem(group.tags);
    if (problem !== undefined) throw new NotOwnedError(`security group ${group.groupId}`, problem);
  }
}

