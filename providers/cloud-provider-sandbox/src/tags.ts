/**
 * Tags the sandbox provider puts on the cloud resources it creates. They are how it knows what
 * it owns: it never changes or deletes a resource without its cluster tag. Stable identifiers:
 * never rename them.
 */
export const SANDBOX_TAGS = {
  /** The cluster identity: `[Global] cluster-id`, or `--cluster-name` when no cluster-id is set. */
  cluster: 'ccm.sandbox.io/cluster',
  /** `<namespace>/<name>` of the Service a load balancer serves. */
  service: 'ccm.sandbox.io/service',
  /** UID of that Service. */
  serviceUid: 'ccm.sandbox.io/service-uid',
  /** Node a route leads to. */
  node: 'ccm.sandbox.io/node',
} as const;

/** Whether `tags` mark a resource as owned by `clusterIdentity`. */
export function isOwnedBy(tags: Record<string, string>, clusterIdentity: string): boolean {
  return tags[SANDBOX_TAGS.cluster] === clusterIdentity;
}
