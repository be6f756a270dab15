/** RFC 7386 JSON Merge Patch: objects merge recursively, `null` deletes, everything else replaces. */
import { cloneJson, isPlainObject, type JsonMap } from '../util/json.js';

export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return cloneJson(patch);
  const result: JsonMap = isPlainObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = applyMergePatch(result[key], value);
  }
  return result;
}
