/**
 * Pure patch application with API-server semantics, on wire-form JSON values (no Dates, no class
 * instances): RFC 7386 merge patch, RFC 6902 JSON patch and the Kubernetes strategic merge patch
 * driven by a small schema of list merge strategies (`patchStrategy`/`patchMergeKey` tags).
 *
 * Inputs are never mutated; every function returns a new value.
 */
import type { JsonObject, JsonValue, PatchType } from '@ccm/core/kube';
import { applyJsonPatch } from './json-patch.js';
import { applyStrategicMergePatch, type StrategicMergeSchema } from './strategic-merge-patch.js';

export type { JsonObject, JsonValue };
export { PatchError } from './patch-error.js';
export { applyJsonPatch } from './json-patch.js';
export { applyStrategicMergePatch, NODE_MERGE_SCHEMA, SERVICE_MERGE_SCHEMA, type ListMergeStrategy, type StrategicMergeSchema } from './strategic-merge-patch.js';

/** Applies `patch` of `type` to `target` (wire JSON) and returns the result. Throws PatchError. */
export function applyPatch(target: JsonValue, patch: JsonValue, type: PatchType, schema: StrategicMergeSchema = {}): JsonValue {
  switch (type) {
    case 'merge':
      return applyMergePatch(target, patch);
    case 'strategic':
      return applyStrategicMergePatch(target, patch, schema);
    case 'json':
      return applyJsonPatch(target, patch);
  }
}

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const clone = <T extends JsonValue>(value: T): T => structuredClone(value);

// ---------------------------------------------------------------------------------------------
// RFC 7386 JSON merge patch

/** RFC 7386: objects merge recursively, `null` deletes a key, anything else replaces. */
export function applyMergePatch(target: JsonValue, patch: JsonValue): JsonValue {
  if (!isObject(patch)) return clone(patch);
  const result: JsonObject = isObject(target) ? clone(target) : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = applyMergePatch(result[key] ?? null, value);
  }
  return result;
}
