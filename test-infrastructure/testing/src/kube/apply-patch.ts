/**
 * Patch application for the in-memory kube: the kube emulator's implementation (RFC 7386 merge
 * patch, RFC 6902 JSON patch, and the strategic merge patch driven by the `patchStrategy` /
 * `patchMergeKey` schema of each resource), on wire-form JSON values. Inputs are never mutated.
 */
import { applyJsonPatch, applyMergePatch, applyStrategicMergePatch, PatchError, resolveResource, type PatchSchema } from '@ccm/kube-emulator';
import type { JsonValue, PatchType } from '@ccm/core/kube';

export type { JsonObject, JsonValue } from '@ccm/core/kube';
export { applyJsonPatch, applyMergePatch, applyStrategicMergePatch, PatchError, type PatchSchema };

function resourcePatchSchema(resource: string): PatchSchema {
  const schema = resolveResource(resource)?.patchSchema;
  if (schema === undefined) throw new Error(`the kube emulator has no patch schema for ${resource}`);
  return schema;
}

/** core/v1 Node: status.addresses and status.conditions merge by type, spec.podCIDRs as a set; spec.taints is atomic. */
export const NODE_MERGE_SCHEMA: PatchSchema = resourcePatchSchema('nodes');

/** core/v1 Service: spec.ports merge by port, status.conditions by type; status.loadBalancer.ingress is atomic. */
export const SERVICE_MERGE_SCHEMA: PatchSchema = resourcePatchSchema('services');

/** Applies `patch` of `type` to `target` (wire JSON) and returns the result. Throws PatchError. */
export function applyPatch(target: JsonValue, patch: JsonValue, type: PatchType, schema?: PatchSchema): JsonValue {
  switch (type) {
    case 'merge':
      return applyMergePatch(target, patch) as JsonValue;
    case 'strategic':
      return (applyStrategicMergePatch(target, patch, schema) ?? {}) as JsonValue;
    case 'json':
      return applyJsonPatch(target, patch) as JsonValue;
  }
}
