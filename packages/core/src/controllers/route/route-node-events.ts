/**
 * Which node updates start an early route reconcile (upstream `handleNodeUpdate` of the
 * watch-based route reconciliation, KEP-5237). Pure.
 */
import type { V1Node } from '@kubernetes/client-node';
import { jsonEqual, type JsonValue } from '../../kube/json-value.js';

const asJson = (value: unknown): JsonValue | undefined => (value === undefined || value === null ? undefined : (JSON.parse(JSON.stringify(value)) as JsonValue));

/**
 * True when `spec.podCIDRs` or `status.addresses` changed (deep equality), or when the
 * resourceVersion is unchanged (an informer resync, used as a periodic full reconcile).
 */
export function shouldReconcileOnNodeUpdate(oldNode: V1Node, newNode: V1Node): boolean {
  if (!jsonEqual(asJson(oldNode.spec?.podCIDRs ?? []), asJson(newNode.spec?.podCIDRs ?? []))) return true;
  if (!jsonEqual(asJson(oldNode.status?.addresses ?? []), asJson(newNode.status?.addresses ?? []))) return true;
  return oldNode.metadata?.resourceVersion === newNode.metadata?.resourceVersion;
}
