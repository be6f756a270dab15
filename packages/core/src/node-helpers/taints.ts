/**
 * Pure taint helpers (upstream `node/helpers/taints.go` and the cloud node controller's
 * uninitialized-taint handling). Taints match on key and effect (`MatchTaint`), except the
 * uninitialized taint, which the node controller matches on key only.
 */
import type { V1Node, V1Taint } from '@kubernetes/client-node';
import { TAINT_SHUTDOWN, TAINT_UNINITIALIZED } from '../api/well-known.js';

/** The taint the lifecycle controller puts on shut-down instances (NoSchedule, no value). */
export const SHUTDOWN_TAINT: Readonly<V1Taint> = Object.freeze({ key: TAINT_SHUTDOWN, effect: 'NoSchedule' });

/** Upstream `Taint.MatchTaint`: same key and same effect. */
export function matchTaint(left: V1Taint, right: V1Taint): boolean {
  return left.key === right.key && left.effect === right.effect;
}

/** Upstream `taintExists`: a taint with the same key and effect is present. */
export function taintExists(taints: readonly V1Taint[] | undefined, taint: V1Taint): boolean {
  return (taints ?? []).some((existing) => matchTaint(existing, taint));
}

/** Upstream `deleteTaint`: every taint with the same key and effect removed. */
export function deleteTaint(taints: readonly V1Taint[] | undefined, taint: V1Taint): { taints: V1Taint[]; deleted: boolean } {
  const kept = (taints ?? []).filter((existing) => !matchTaint(existing, taint));
  return { taints: kept, deleted: kept.length !== (taints ?? []).length };
}

/** Upstream `removeTaint`: a copy of `node` without `taint` (key and effect), and whether it changed. */
export function removeTaint(node: V1Node, taint: V1Taint): { node: V1Node; updated: boolean } {
  const taints = node.spec?.taints;
  if (taints === undefined || taints.length === 0 || !taintExists(taints, taint)) return { node, updated: false };
  const copy = structuredClone(node);
  copy.spec = { ...copy.spec, taints: deleteTaint(taints, taint).taints };
  return { node: copy, updated: true };
}

function semanticTaintEqual(left: V1Taint, right: V1Taint): boolean {
  const time = (value: V1Taint['timeAdded']) => (value === undefined ? undefined : new Date(value).getTime());
  return (
    left.key === right.key &&
    (left.value ?? '') === (right.value ?? '') &&
    left.effect === right.effect &&
    time(left.timeAdded) === time(right.timeAdded)
  );
}

/**
 * Upstream `addOrUpdateTaint`: replaces a taint with the same key and effect when its content
 * differs, appends it when absent; `updated` is false when the node already has it as is.
 */
export function addOrUpdateTaint(node: V1Node, taint: V1Taint): { node: V1Node; updated: boolean } {
  const taints = node.spec?.taints ?? [];
  const result: V1Taint[] = [];
  let updated = false;
  for (const existing of taints) {
    if (matchTaint(existing, taint)) {
      if (semanticTaintEqual(existing, taint)) return { node, updated: false };
      result.push({ ...taint });
      updated = true;
      continue;
    }
    result.push(existing);
  }
  if (!updated) result.push({ ...taint });
  const copy = structuredClone(node);
  copy.spec = { ...copy.spec, taints: result };
  return { node: copy, updated: true };
}

/** The node still carries `node.cloudprovider.kubernetes.io/uninitialized` (key only). */
export function hasUninitializedTaint(node: V1Node): boolean {
  return (node.spec?.taints ?? []).some((taint) => taint.key === TAINT_UNINITIALIZED);
}

/** Every taint except those keyed `node.cloudprovider.kubernetes.io/uninitialized` (any value or effect). */
export function withoutUninitializedTaint(taints: readonly V1Taint[] | undefined): V1Taint[] {
  return (taints ?? []).filter((taint) => taint.key !== TAINT_UNINITIALIZED);
}
