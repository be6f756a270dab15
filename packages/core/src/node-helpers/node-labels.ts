/**
 * Node label rules of the cloud node controller: the beta->GA consistency reconcile (the beta
 * label is the source of truth) and the AdditionalLabels merge rules.
 */
import {
  LABEL_INSTANCE_TYPE,
  LABEL_INSTANCE_TYPE_BETA,
  LABEL_REGION,
  LABEL_REGION_BETA,
  LABEL_ZONE,
  LABEL_ZONE_BETA,
  RESERVED_LABEL_PREFIX_PATTERN,
} from '../api/well-known.js';

/** Upstream `labelReconcileInfo`: primary (beta, source of truth) -> secondary (GA). */
export const LABEL_RECONCILE_PAIRS: ReadonlyArray<{ primary: string; secondary: string }> = [
  { primary: LABEL_ZONE_BETA, secondary: LABEL_ZONE },
  { primary: LABEL_REGION_BETA, secondary: LABEL_REGION },
  { primary: LABEL_INSTANCE_TYPE_BETA, secondary: LABEL_INSTANCE_TYPE },
];

/**
 * The GA labels to set so they equal their beta label: when the beta label exists and the GA one is
 * missing or different. Nothing is planned for a pair whose beta label is missing.
 */
export function planLabelReconcile(labels: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const labelsToUpdate: Record<string, string> = {};
  if (labels === undefined) return labelsToUpdate;
  for (const { primary, secondary } of LABEL_RECONCILE_PAIRS) {
    const primaryValue = labels[primary];
    if (primaryValue === undefined) continue;
    if (labels[secondary] !== primaryValue) labelsToUpdate[secondary] = primaryValue;
  }
  return labelsToUpdate;
}

export type DiscardedLabelReason = 'ReservedPrefix' | 'AlreadyPresent';

export interface DiscardedLabel {
  key: string;
  reason: DiscardedLabelReason;
  /** Upstream warns only for reserved prefixes and for present keys whose value differs. */
  warn: boolean;
}

/**
 * Merges AdditionalLabels into `labels` (returns a new map): keys matching
 * `(^|\.)(kubernetes|k8s)\.io/` are discarded (look-alikes such as `k8snio/x` are kept), keys
 * already present are never overwritten.
 */
export function mergeAdditionalLabels(
  labels: Readonly<Record<string, string>> | undefined,
  additionalLabels: Readonly<Record<string, string>> | undefined,
): { labels: Record<string, string>; discarded: DiscardedLabel[] } {
  const merged: Record<string, string> = { ...labels };
  const discarded: DiscardedLabel[] = [];
  for (const [key, value] of Object.entries(additionalLabels ?? {})) {
    if (RESERVED_LABEL_PREFIX_PATTERN.test(key)) {
      discarded.push({ key, reason: 'ReservedPrefix', warn: true });
      continue;
    }
    if (Object.prototype.hasOwnProperty.call(merged, key)) {
      discarded.push({ key, reason: 'AlreadyPresent', warn: merged[key] !== value });
      continue;
    }
    merged[key] = value;
  }
  return { labels: merged, discarded };
}
