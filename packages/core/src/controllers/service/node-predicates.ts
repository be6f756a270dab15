/**
 * Which nodes back load balancers, and which node changes trigger a host sync (upstream
 * `stableNodeSetPredicates`, `shouldSyncUpdatedNode`, `nodesSufficientlyEqual`). Pure functions.
 */
import type { V1Node } from '@kubernetes/client-node';
import { LABEL_EXCLUDE_FROM_EXTERNAL_LOAD_BALANCERS, TAINT_TO_BE_DELETED_BY_CLUSTER_AUTOSCALER } from '../../api/well-known.js';
import { parseGoBool } from '../../util/parse-go-bool.js';

export type NodeConditionPredicate = (node: V1Node) => boolean;

/**
 * Not labelled for exclusion. With the label `node.kubernetes.io/exclude-from-external-load-balancers`
 * present, its value is parsed as a boolean: `false` includes, `true` or anything unparsable
 * (including the empty value) excludes.
 */
export const nodeIncludedPredicate: NodeConditionPredicate = (node) => {
  const labels = node.metadata?.labels ?? {};
  if (!Object.hasOwn(labels, LABEL_EXCLUDE_FROM_EXTERNAL_LOAD_BALANCERS)) return true;
  const parsed = parseGoBool(labels[LABEL_EXCLUDE_FROM_EXTERNAL_LOAD_BALANCERS] ?? '');
  return parsed === undefined ? false : !parsed;
};

/** No `ToBeDeletedByClusterAutoscaler` taint (matched on key only). */
export const nodeUnTaintedPredicate: NodeConditionPredicate = (node) =>
  !(node.spec?.taints ?? []).some((taint) => taint.key === TAINT_TO_BE_DELETED_BY_CLUSTER_AUTOSCALER);

/** The Ready condition is True (only in {@link allNodePredicates}, unused by the stable set). */
export const nodeReadyPredicate: NodeConditionPredicate = (node) => {
  const ready = (node.status?.conditions ?? []).find((condition) => condition.type === 'Ready');
  return ready !== undefined && ready.status === 'True';
};

/** No deletionTimestamp. */
export const nodeNotDeletedPredicate: NodeConditionPredicate = (node) =>
  node.metadata?.deletionTimestamp === undefined || node.metadata.deletionTimestamp === null;

/**
 * The node set every load balancer gets (KEP-3458, gate removed in v1.32): readiness is ignored
 * so NotReady nodes stay in the set; providers rely on LB health checks.
 */
export const stableNodeSetPredicates: readonly NodeConditionPredicate[] = [nodeNotDeletedPredicate, nodeIncludedPredicate, nodeUnTaintedPredicate];

/** Upstream still defines this set (with readiness) but no longer uses it. */
export const allNodePredicates: readonly NodeConditionPredicate[] = [nodeIncludedPredicate, nodeUnTaintedPredicate, nodeReadyPredicate];

export function respectsPredicates(node: V1Node, predicates: readonly NodeConditionPredicate[]): boolean {
  return predicates.every((predicate) => predicate(node));
}

export function filterWithPredicates(nodes: readonly V1Node[], predicates: readonly NodeConditionPredicate[]): V1Node[] {
  return nodes.filter((node) => respectsPredicates(node, predicates));
}

/**
 * A node update triggers a host sync only if the exclusion predicate's result or the providerID
 * changed. Taints, readiness and deletionTimestamp alone do not; they are honoured at the next
 * sync that happens for another reason.
 */
export function shouldSyncUpdatedNode(oldNode: V1Node, newNode: V1Node): boolean {
  if (nodeIncludedPredicate(oldNode) !== nodeIncludedPredicate(newNode)) return true;
  return (oldNode.spec?.providerID ?? '') !== (newNode.spec?.providerID ?? '');
}

/** Same size and the same map of node name -> providerID. */
export function nodesSufficientlyEqual(oldNodes: readonly V1Node[], newNodes: readonly V1Node[]): boolean {
  if (oldNodes.length !== newNodes.length) return false;
  const distill = (nodes: readonly V1Node[]): Map<string, string> =>
    new Map(nodes.map((node) => [node.metadata?.name ?? '', node.spec?.providerID ?? '']));
  const oldMap = distill(oldNodes);
  const newMap = distill(newNodes);
  if (oldMap.size !== newMap.size) return false;
  for (const [name, providerId] of oldMap) if (newMap.get(name) !== providerId) return false;
  return true;
}

/** Upstream caps node lists in events and logs at 20 names. */
export const MAX_NODE_NAMES_TO_LOG = 20;

/** Sorted names of the first 20 nodes, plus `<N more>` when the list is longer. */
export function loggableNodeNames(nodes: readonly V1Node[]): string[] {
  const names = (list: readonly V1Node[]): string[] => [...new Set(list.map((node) => node.metadata?.name ?? ''))].sort();
  if (nodes.length <= MAX_NODE_NAMES_TO_LOG) return names(nodes);
  return [...names(nodes.slice(0, MAX_NODE_NAMES_TO_LOG)), `<${nodes.length - MAX_NODE_NAMES_TO_LOG} more>`];
}
