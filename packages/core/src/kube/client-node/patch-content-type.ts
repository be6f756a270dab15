import { PatchStrategy } from '@kubernetes/client-node';
import type { PatchType } from '../ports.js';

/**
 * The Content-Type of each patch type. client-node defaults every patch to
 * `application/json-patch+json`, so it must always be set explicitly.
 */
export const PATCH_CONTENT_TYPES: Readonly<Record<PatchType, string>> = {
  merge: PatchStrategy.MergePatch,
  strategic: PatchStrategy.StrategicMergePatch,
  json: PatchStrategy.JsonPatch,
};
