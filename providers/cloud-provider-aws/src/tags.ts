/**
 * Cluster ownership tags (upstream `tags.go`). Stable identifiers: never change these keys.
 *
 * - `kubernetes.io/cluster/<id>` = `owned` (we created it and may delete it) or `shared`.
 * - Legacy `KubernetesCluster=<id>`: recognised on reads; also written when the cluster ID came
 *   from `KubernetesClusterTag` or from a legacy-tagged self instance.
 */

export const TAG_CLUSTER_PREFIX = 'kubernetes.io/cluster/';
export const TAG_LEGACY_CLUSTER = 'KubernetesCluster';
export const TAG_SERVICE_NAME = 'kubernetes.io/service-name';
export const TAG_ROLE_ELB = 'kubernetes.io/role/elb';
export const TAG_ROLE_INTERNAL_ELB = 'kubernetes.io/role/internal-elb';
export const TAG_NAME = 'Name';

export type ResourceLifecycle = 'owned' | 'shared';

export type Tags = Readonly<Record<string, string>>;

export function hasTag(tags: Tags, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(tags, key);
}

export function tagValue(tags: Tags, key: string): string | undefined {
  return hasTag(tags, key) ? tags[key] : undefined;
}

export class ClusterTagging {
  readonly clusterId: string;
  /** Also write `KubernetesCluster=<id>` on resources we create. */
  readonly usesLegacyTags: boolean;

  constructor(clusterId: string, usesLegacyTags = false) {
    this.clusterId = clusterId;
    this.usesLegacyTags = usesLegacyTags;
  }

  get clusterTagKey(): string {
    return `${TAG_CLUSTER_PREFIX}${this.clusterId}`;
  }

  /**
   * Upstream `hasClusterTag`: true when the resource carries our `kubernetes.io/cluster/<id>` key
   * (any value) or the legacy tag with our ID. Without a cluster ID every resource matches.
   */
  hasClusterTag(tags: Tags): boolean {
    if (this.clusterId === '') return true;
    if (tagValue(tags, TAG_LEGACY_CLUSTER) === this.clusterId) return true;
    return hasTag(tags, this.clusterTagKey);
  }

  /** Upstream `hasNoClusterPrefixTag`: no `kubernetes.io/cluster/*` key at all. */
  hasNoClusterPrefixTag(tags: Tags): boolean {
    return !Object.keys(tags).some((key) => key.startsWith(TAG_CLUSTER_PREFIX));
  }

  /** We created it: `kubernetes.io/cluster/<id>=owned`, or the legacy tag with our ID. */
  isOwned(tags: Tags): boolean {
    if (this.clusterId === '') return false;
    if (tagValue(tags, this.clusterTagKey) === 'owned') return true;
    return tagValue(tags, TAG_LEGACY_CLUSTER) === this.clusterId;
  }

  /**
   * Why `tags` do not mark the resource as ours, or undefined when they do. Without a cluster ID
   * (`--allow-untagged-cloud`) nothing carries an ownership tag, so, as upstream (whose
   * `hasClusterTag` accepts everything then and which never checks the load balancer's tags), a
   * resource we found by the name we give it (the load balancer named for the Service, its
   * `k8s-elb-<name>` security group, its target groups) is ours to change and delete.
   */
  ownershipProblem(tags: Tags): string | undefined {
    if (this.clusterId === '') return undefined;
    if (this.isOwned(tags)) return undefined;
    const value = tagValue(tags, this.clusterTagKey);
    if (value !== undefined) return `tag ${this.clusterTagKey}=${value} (expected owned)`;
    const otherCluster = Object.keys(tags).find((key) => key.startsWith(TAG_CLUSTER_PREFIX));
    if (otherCluster !== undefined) return `it belongs to another cluster (${otherCluster})`;
    return `it has no ${this.clusterTagKey} tag`;
  }

  /** Upstream `buildTags`: additional tags first, then the cluster tag(s) on top. */
  buildTags(lifecycle: ResourceLifecycle, additionalTags: Tags = {}): Record<string, string> {
    const tags: Record<string, string> = { ...additionalTags };
    if (this.clusterId === '') return tags;
    tags[this.clusterTagKey] = lifecycle;
    if (this.usesLegacyTags) tags[TAG_LEGACY_CLUSTER] = this.clusterId;
    return tags;
  }

  /**
   * Upstream `readRepairClusterTags` decision: which tags to add to a resource found by name so
   * it carries the expected cluster tag. Throws when the key holds a different lifecycle value.
   */
  missingClusterTags(resource: string, lifecycle: ResourceLifecycle, actual: Tags): Record<string, string> {
    const expected = this.buildTags(lifecycle);
    const missing: Record<string, string> = {};
    for (const [key, value] of Object.entries(expected)) {
      const current = tagValue(actual, key);
      if (current === undefined) missing[key] = value;
      else if (current !== value) {
        throw new Error(`resource ${resource} has tag ${key}=${current}, expected ${value}; refusing to adopt it`);
      }
    }
    return missing;
  }
}

/** The cluster ID found on a self instance's tags (upstream `findClusterID`). */
export function findClusterIdInTags(tags: Tags): { clusterId: string; legacy: boolean } | undefined {
  let legacyId: string | undefined;
  let newId: string | undefined;
  for (const [key, value] of Object.entries(tags)) {
    if (key === TAG_LEGACY_CLUSTER) legacyId = value;
    else if (key.startsWith(TAG_CLUSTER_PREFIX)) {
      const id = key.slice(TAG_CLUSTER_PREFIX.length);
      if (newId !== undefined && newId !== id) {
        throw new Error(`found multiple cluster tags with prefix ${TAG_CLUSTER_PREFIX} (${JSON.stringify(newId)} and ${JSON.stringify(id)})`);
      }
      newId = id;
    }
  }
  if (legacyId !== undefined && newId !== undefined && legacyId !== newId) {
    throw new Error(`found different cluster tags: ${TAG_LEGACY_CLUSTER}=${JSON.stringify(legacyId)} and ${TAG_CLUSTER_PREFIX}${newId}`);
  }
  if (newId !== undefined) return { clusterId: newId, legacy: false };
  if (legacyId !== undefined) return { clusterId: legacyId, legacy: true };
  return undefined;
}
