/**
 * Nodes -> target instances (upstream `findInstancesForELB`, `filterTargetNodes`,
 * `mapToAWSInstanceIDsTolerant`): nodes filtered by the target-node-labels annotation, mapped
 * through their provider IDs, and kept only when the instance carries the cluster tag and is
 * not terminated.
 */
import type { V1Node } from '@ccm/core/kube';
import type { Logger } from '@ccm/core/logging';
import type { CallOptions } from '@ccm/core/cloud';
import type { Ec2Instance } from '../../ports/ec2-port.js';
import { parseAwsProviderId } from '../../provider-id.js';
import type { ClusterInstances } from '../cluster-instances.js';

/** Pure: nodes carrying every label; an empty wanted value only needs the key. */
export function filterTargetNodes(nodes: readonly V1Node[], wantedLabels: Readonly<Record<string, string>>): V1Node[] {
  const wanted = Object.entries(wantedLabels);
  if (wanted.length === 0) return [...nodes];
  return nodes.filter((node) => {
    const labels = node.metadata?.labels ?? {};
    return wanted.every(([key, value]) => Object.prototype.hasOwnProperty.call(labels, key) && (value === '' || labels[key] === value));
  });
}

/** Pure: instance IDs of nodes with a valid AWS provider ID; the rest are logged and skipped. */
export function instanceIdsOfNodes(nodes: readonly V1Node[], logger: Logger): string[] {
  const ids: string[] = [];
  for (const node of nodes) {
    const providerId = node.spec?.providerID ?? '';
    if (providerId === '') {
      logger.warn('node has no provider ID; not a load balancer target yet', { node: node.metadata?.name });
      continue;
    }
    try {
      ids.push(parseAwsProviderId(providerId));
    } catch (error) {
      logger.warn('ignoring node with an unusable provider ID', { node: node.metadata?.name, error: String(error) });
    }
  }
  return [...new Set(ids)];
}

const NOT_TARGETABLE = new Set(['terminated', 'shutting-down']);

export async function targetInstances(
  nodes: readonly V1Node[],
  wantedLabels: Readonly<Record<string, string>>,
  clusterInstances: ClusterInstances,
  logger: Logger,
  options?: CallOptions,
): Promise<Map<string, Ec2Instance>> {
  const ids = instanceIdsOfNodes(filterTargetNodes(nodes, wantedLabels), logger);
  const found = await clusterInstances.find(ids, options);
  for (const id of ids) if (!found.has(id)) logger.warn('instance is not tagged for this cluster or does not exist; not a target', { instanceId: id });
  for (const [id, instance] of found) if (NOT_TARGETABLE.has(instance.state ?? '')) found.delete(id);
  return found;
}
