import type { V1Node } from '@kubernetes/client-node';

export type ConditionStatus = 'True' | 'False' | 'Unknown';

/** The status of the node's `Ready` condition; a missing condition counts as `Unknown` (upstream). */
export function getNodeReadyStatus(node: V1Node): ConditionStatus {
  const ready = (node.status?.conditions ?? []).find((condition) => condition.type === 'Ready');
  if (ready === undefined) return 'Unknown';
  return ready.status === 'True' || ready.status === 'False' ? ready.status : 'Unknown';
}
