/**
 * Load balancer subnets (upstream `getLoadBalancerSubnets`, `findELBSubnets`, `isSubnetPublic`,
 * `resolveSubnetNameOrIDs`).
 */
import type { Logger } from '@ccm/core/logging';
import { errorMessage } from '@ccm/core/util';
import { ANNOTATIONS } from '../../annotations.js';
import { CloudStateError, UnresolvedAnnotationError, AwsApiError } from '../../errors.js';
import type { CallOptions } from '@ccm/core/cloud';
import { ec2Filter, type Ec2Port, type Ec2RouteTable, type Ec2Subnet } from '../../ports/ec2-port.js';
import { hasTag, TAG_ROLE_ELB, TAG_ROLE_INTERNAL_ELB, type ClusterTagging } from '../../tags.js';
import type { ZoneCache } from '../zone-cache.js';

/**
 * A subnet is public when its route table (explicit association, else the VPC's main table) has
 * a route through an internet gateway (`igw-...`).
 */
export function isSubnetPublic(routeTables: readonly Ec2RouteTable[], subnetId: string): boolean {
  const table =
    routeTables.find((candidate) => candidate.associations.some((association) => association.subnetId === subnetId)) ??
    routeTables.find((candidate) => candidate.associations.some((association) => association.main));
  if (!table) throw new CloudStateError(`could not locate routing table for subnet ${subnetId}`);
  return table.routes.some((route) => (route.gatewayId ?? '').startsWith('igw'));
}

export interface SubnetSelection {
  subnetIds: string[];
  notes: string[];
}

/**
 * Pure: one subnet per availability zone (zones sorted by name). Candidates must be public for
 * internet-facing load balancers and sit in a regular availability zone (no local or wavelength
 * zones). Ties: the role tag, then the cluster tag, then the lowest subnet ID.
 */
export function selectSubnetsPerZone(
  subnets: readonly Ec2Subnet[],
  routeTables: readonly Ec2RouteTable[],
  internal: boolean,
  tagging: ClusterTagging,
  zoneTypes: ReadonlyMap<string, string | undefined>,
): SubnetSelection {
  const roleTag = internal ? TAG_ROLE_INTERNAL_ELB : TAG_ROLE_ELB;
  const byZone = new Map<string, Ec2Subnet>();
  const notes: string[] = [];
  for (const subnet of subnets) {
    const zone = subnet.availabilityZone ?? '';
    if (zone === '' || subnet.subnetId === '') {
      notes.push(`ignoring subnet with empty az/id: ${subnet.subnetId}`);
      continue;
    }
    const zoneType = zoneTypes.get(zone);
    if (zoneType !== undefined && zoneType !== 'availability-zone') {
      notes.push(`ignoring subnet ${subnet.subnetId} in ${zoneType} ${zone}`);
      continue;
    }
    if (!internal && !isSubnetPublic(routeTables, subnet.subnetId)) {
      notes.push(`ignoring private subnet for public ELB ${subnet.subnetId}`);
      continue;
    }
    const existing = byZone.get(zone);
    if (!existing) {
      byZone.set(zone, subnet);
      continue;
    }
    const existingHasRole = hasTag(existing.tags, roleTag);
    const subnetHasRole = hasTag(subnet.tags, roleTag);
    if (existingHasRole !== subnetHasRole) {
      if (subnetHasRole) byZone.set(zone, subnet);
      continue;
    }
    const existingHasCluster = tagging.hasClusterTag(existing.tags);
    const subnetHasCluster = tagging.hasClusterTag(subnet.tags);
    if (existingHasCluster !== subnetHasCluster) {
      if (subnetHasCluster) byZone.set(zone, subnet);
      continue;
    }
    const chosen = existing.subnetId > subnet.subnetId ? subnet : existing;
    notes.push(`found multiple subnets in AZ ${zone}; choosing ${chosen.subnetId} between subnets ${existing.subnetId} and ${subnet.subnetId}`);
    byZone.set(zone, chosen);
  }
  const zones = [...byZone.keys()].sort();
  return { subnetIds: zones.map((zone) => (byZone.get(zone) as Ec2Subnet).subnetId), notes };
}

export class SubnetOperations {
  readonly #ec2: Ec2Port;
  readonly #tagging: ClusterTagging;
  readonly #zones: ZoneCache;
  readonly #vpcId: string;
  readonly #fallbackSubnetId: string;
  readonly #logger: Logger;

  constructor(ec2: Ec2Port, tagging: ClusterTagging, zones: ZoneCache, vpcId: string, fallbackSubnetId: string, logger: Logger) {
    this.#ec2 = ec2;
    this.#tagging = tagging;
    this.#zones = zones;
    this.#vpcId = vpcId;
    this.#fallbackSubnetId = fallbackSubnetId;
    this.#logger = logger;
  }

  /** Subnets from the annotation, else discovered; throws when none qualify. */
  async subnetsFor(namesOrIds: readonly string[], internal: boolean, options?: CallOptions): Promise<string[]> {
    const subnetIds = namesOrIds.length > 0 ? (await this.resolve(namesOrIds, options)).map((subnet) => subnet.subnetId) : await this.discover(internal, options);
    if (subnetIds.length === 0) throw new CloudStateError('could not find any suitable subnets for creating the ELB');
    return subnetIds;
  }

  /** Resolves `subnet-...` IDs and Name tags; every entry must match exactly one subnet. */
  async resolve(namesOrIds: readonly string[], options?: CallOptions): Promise<Ec2Subnet[]> {
    const key = ANNOTATIONS.subnets.key;
    const value = namesOrIds.join(',');
    const ids = namesOrIds.filter((entry) => entry.startsWith('subnet-'));
    const names = namesOrIds.filter((entry) => !entry.startsWith('subnet-'));
    const resolved: Ec2Subnet[] = [];
    try {
      if (ids.length > 0) resolved.push(...(await this.#ec2.describeSubnets({ subnetIds: ids }, options)));
      if (names.length > 0) {
        resolved.push(...(await this.#ec2.describeSubnets({ filters: [ec2Filter('tag:Name', ...names), ec2Filter('vpc-id', this.#vpcId)] }, options)));
      }
    } catch (error) {
      if (AwsApiError.hasKind(error, 'NotFound') || AwsApiError.hasKind(error, 'Invalid')) {
        throw new UnresolvedAnnotationError(key, value, errorMessage(error), { cause: error });
      }
      throw error;
    }
    if (resolved.length !== namesOrIds.length) {
      throw new UnresolvedAnnotationError(key, value, `expected to find ${namesOrIds.length}, but found ${resolved.length} subnets`);
    }
    return resolved;
  }

  async discover(internal: boolean, options?: CallOptions): Promise<string[]> {
    const inVpc = await this.#ec2.describeSubnets({ filters: [ec2Filter('vpc-id', this.#vpcId)] }, options);
    let candidates = inVpc.filter((subnet) => this.#tagging.hasClusterTag(subnet.tags) || this.#tagging.hasNoClusterPrefixTag(subnet.tags));
    if (candidates.length === 0 && this.#fallbackSubnetId !== '') {
      this.#logger.warn('no tagged subnets found; falling back to the current subnet only', { subnetId: this.#fallbackSubnetId });
      candidates = await this.#ec2.describeSubnets({ filters: [ec2Filter('subnet-id', this.#fallbackSubnetId)] }, options);
    }
    const routeTables = await this.#ec2.describeRouteTables({ filters: [ec2Filter('vpc-id', this.#vpcId)] }, options);
    const zones = await this.#zones.zones(
      candidates.flatMap((subnet) => (subnet.availabilityZone ? [subnet.availabilityZone] : [])),
      options,
    );
    const zoneTypes = new Map([...zones].map(([name, zone]) => [name, zone.zoneType]));
    const selection = selectSubnetsPerZone(candidates, routeTables, internal, this.#tagging, zoneTypes);
    for (const note of selection.notes) this.#logger.verbose(2, note);
    return selection.subnetIds;
  }

  async cidrsOf(subnetIds: readonly string[], options?: CallOptions): Promise<string[]> {
    if (subnetIds.length === 0) return [];
    const subnets = await this.#ec2.describeSubnets({ subnetIds }, options);
    return [...new Set(subnets.flatMap((subnet) => (subnet.cidrBlock ? [subnet.cidrBlock] : [])))].sort();
  }
}
