/**
 * Strategic merge patch (application/strategic-merge-patch+json) with the directives clients
 * send: `$patch: replace|delete|merge` on maps and list elements, `$retainKeys`,
 * `$setElementOrder/<list>` and `$deleteFromPrimitiveList/<list>`. Merge semantics per field
 * come from a PatchSchema; unknown maps merge recursively and unknown lists are replaced.
 */
import { cloneJson, deepEqual, isPlainObject, type JsonMap } from '../util/json.js';
import { PatchError } from './patch-error.js';
import type { PatchSchema } from './patch-schema.js';

const patchDirective = '$patch';
const retainKeysDirective = '$retainKeys';
const setElementOrderPrefix = '$setElementOrder/';
const deleteFromPrimitiveListPrefix = '$deleteFromPrimitiveList/';

const isDirectiveKey = (key: string): boolean =>
  key === patchDirective || key === retainKeysDirective || key.startsWith(setElementOrderPrefix) || key.startsWith(deleteFromPrimitiveListPrefix);

/** Applies `patch` to a copy of `original`; `undefined` result means the whole object was deleted. */
export function applyStrategicMergePatch(original: unknown, patch: unknown, schema: PatchSchema | undefined): unknown {
  if (!isPlainObject(patch)) throw new PatchError('bad-request', 'invalid JSON document: a strategic merge patch must be a JSON object');
  const base = isPlainObject(original) ? cloneJson(original) : {};
  return mergeMap(base, patch, schema);
}

function fieldSchema(schema: PatchSchema | undefined, key: string): PatchSchema | undefined {
  return schema?.fields?.[key];
}

/** Merges `patch` into `original` (mutated). Returns undefined when the patch deletes the map. */
function mergeMap(original: JsonMap, patch: JsonMap, schema: PatchSchema | undefined): JsonMap | undefined {
  const directive = patch[patchDirective];
  if (directive !== undefined) {
    if (directive === 'replace') return stripDirectives(patch);
    if (directive === 'delete') return undefined;
    if (directive !== 'merge') throw new PatchError('bad-request', `Unknown patch type: ${String(directive)} in map: ${JSON.stringify(patch)}`);
  }

  const retainKeys = patch[retainKeysDirective];
  if (retainKeys !== undefined) {
    if (!Array.isArray(retainKeys) || !retainKeys.every((key) => typeof key === 'string')) {
      throw new PatchError('bad-request', `invalid patch: ${retainKeysDirective} must be a list of strings`);
    }
    for (const key of Object.keys(patch)) {
      if (!isDirectiveKey(key) && !retainKeys.includes(key)) {
        throw new PatchError('unprocessable', `doesn't match: ${retainKeysDirective} does not contain the key ${JSON.stringify(key)} of the patch`);
      }
    }
    for (const key of Object.keys(original)) if (!retainKeys.includes(key)) delete original[key];
  }

  for (const [directiveKey, toDelete] of Object.entries(patch)) {
    if (!directiveKey.startsWith(deleteFromPrimitiveListPrefix)) continue;
    const key = directiveKey.slice(deleteFromPrimitiveListPrefix.length);
    if (!Array.isArray(toDelete)) throw new PatchError('bad-request', `invalid patch: ${directiveKey} must be a list of primitives`);
    const current = original[key];
    if (Array.isArray(current)) original[key] = current.filter((item) => !toDelete.some((value) => deepEqual(value, item)));
  }

  const listsBeforeMerge = new Map<string, unknown[]>();
  for (const directiveKey of Object.keys(patch)) {
    if (!directiveKey.startsWith(setElementOrderPrefix)) continue;
    const current = original[directiveKey.slice(setElementOrderPrefix.length)];
    listsBeforeMerge.set(directiveKey.slice(setElementOrderPrefix.length), Array.isArray(current) ? current : []);
  }

  for (const [key, patchValue] of Object.entries(patch)) {
    if (isDirectiveKey(key)) continue;
    if (patchValue === null) {
      delete original[key];
      continue;
    }
    const childSchema = fieldSchema(schema, key);
    const current = original[key];
    if (isPlainObject(patchValue)) {
      const merged = mergeMap(isPlainObject(current) ? current : {}, patchValue, childSchema);
      if (merged === undefined) delete original[key];
      else original[key] = merged;
    } else if (Array.isArray(patchValue)) {
      original[key] = Array.isArray(current) ? mergeList(current, patchValue, childSchema) : takeListAsSent(patchValue, childSchema);
    } else {
      original[key] = patchValue;
    }
  }

  for (const [directiveKey, order] of Object.entries(patch)) {
    if (!directiveKey.startsWith(setElementOrderPrefix)) continue;
    const key = directiveKey.slice(setElementOrderPrefix.length);
    if (!Array.isArray(order)) throw new PatchError('bad-request', `invalid patch: ${directiveKey} must be a list`);
    const current = original[key];
    if (Array.isArray(current)) original[key] = applyElementOrder(current, listsBeforeMerge.get(key) ?? [], order, fieldSchema(schema, key));
  }
  return original;
}

function stripDirectives(value: JsonMap): JsonMap {
  const result: JsonMap = {};
  for (const [key, child] of Object.entries(value)) {
    if (isDirectiveKey(key) || child === null) continue;
    result[key] = cloneJson(child);
  }
  return result;
}

/**
 * Like Go's strategicpatch when the original has no such list: the patch list is taken as sent,
 * not merged into an empty list (so two elements with the same merge key both stay), after Go's
 * `removeDirectives` (an element or map carrying `$patch` is dropped). Merge keys are still checked.
 */
function takeListAsSent(patch: unknown[], schema: PatchSchema | undefined): unknown[] {
  if (patch.some((item) => Array.isArray(item))) throw new PatchError('unprocessable', 'lists of lists are not supported by strategic merge patch');
  const mergeKey = schema?.listStrategy === 'merge' ? schema.mergeKey : undefined;
  if (mergeKey) {
    for (const item of patch) {
      if (!isPlainObject(item)) throw new PatchError('bad-request', `invalid patch: a list merged by ${mergeKey} must only contain objects, found ${JSON.stringify(item)}`);
      if (!(patchDirective in item) && !(mergeKey in item)) {
        throw new PatchError('internal', `map: ${JSON.stringify(item)} does not contain declared merge key: ${mergeKey}`);
      }
    }
  }
  return removeDirectives(patch) as unknown[];
}

/** Go's `removeDirectives` on a patch value; `undefined` means the value is dropped. */
function removeDirectives(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(removeDirectives).filter((item) => item !== undefined);
  if (!isPlainObject(value)) return cloneJson(value);
  if (patchDirective in value) return undefined;
  const result: JsonMap = {};
  for (const [key, child] of Object.entries(value)) {
    if (isDirectiveKey(key)) continue;
    const kept = removeDirectives(child);
    if (kept !== undefined) result[key] = kept;
  }
  return result;
}

function isDirectiveOnlyElement(item: unknown): item is JsonMap {
  return isPlainObject(item) && patchDirective in item;
}

function mergeList(original: unknown[], patch: unknown[], schema: PatchSchema | undefined): unknown[] {
  if (patch.some((item) => Array.isArray(item))) throw new PatchError('unprocessable', 'lists of lists are not supported by strategic merge patch');
  if (schema?.listStrategy !== 'merge') {
    return patch.filter((item) => !isDirectiveOnlyElement(item) || Object.keys(item).length > 1).map((item) => (isPlainObject(item) ? stripDirectives(item) : item));
  }
  const primitives = patch.every((item) => !isPlainObject(item)) && original.every((item) => !isPlainObject(item));
  if (primitives) {
    const merged = [...original];
    for (const item of patch) if (!merged.some((existing) => deepEqual(existing, item))) merged.push(item);
    return orderAfterMerge(merged, patch, original, (item) => item);
  }
  const mergeKey = schema.mergeKey;
  if (!mergeKey) return patch.map((item) => (isPlainObject(item) ? stripDirectives(item) : item));

  let replace = false;
  const regular: JsonMap[] = [];
  let result = [...original];
  for (const item of patch) {
    if (!isPlainObject(item)) throw new PatchError('bad-request', `invalid patch: a list merged by ${mergeKey} must only contain objects, found ${JSON.stringify(item)}`);
    const directive = item[patchDirective];
    if (directive === undefined) {
      regular.push(item);
    } else if (directive === 'replace') {
      replace = true;
    } else if (directive === 'delete') {
      if (!(mergeKey in item)) throw new PatchError('internal', `map: ${JSON.stringify(item)} does not contain declared merge key: ${mergeKey}`);
      result = result.filter((existing) => !(isPlainObject(existing) && deepEqual(existing[mergeKey], item[mergeKey])));
    } else if (directive === 'merge') {
      throw new PatchError('bad-request', 'merging lists cannot yet be specified in the patch');
    } else {
      throw new PatchError('bad-request', `Unknown patch type: ${String(directive)} in map: ${JSON.stringify(item)}`);
    }
  }
  if (replace) return regular.map(stripDirectives);

  for (const item of regular) {
    if (!(mergeKey in item)) throw new PatchError('internal', `map: ${JSON.stringify(item)} does not contain declared merge key: ${mergeKey}`);
    const index = result.findIndex((existing) => isPlainObject(existing) && deepEqual(existing[mergeKey], item[mergeKey]));
    if (index >= 0) {
      const existing = result[index];
      const merged = mergeMap(isPlainObject(existing) ? cloneJson(existing) : {}, item, schema.items);
      if (merged === undefined) result.splice(index, 1);
      else result[index] = merged;
    } else {
      const created = mergeMap({}, item, schema.items);
      if (created !== undefined) result.push(created);
    }
  }
  return orderAfterMerge(result, regular, original, (item) => (isPlainObject(item) ? item[mergeKey] : item));
}

/**
 * The order Go's strategicpatch gives a merged list (normalizeElementOrder + mergeSortedSlice):
 * the elements the patch names, in the patch's order, and the server-only elements, in their
 * original order, merged so that two elements both known to the server keep the server's order,
 * and an element the patch added comes before the server-only element it is compared with (so a
 * new condition is listed first, as on a real API server).
 */
function orderAfterMerge(merged: unknown[], patch: unknown[], original: unknown[], identity: (item: unknown) => unknown): unknown[] {
  const indexIn = (list: unknown[], item: unknown): number => list.findIndex((candidate) => deepEqual(identity(candidate), identity(item)));
  const patchItems = merged.filter((item) => indexIn(patch, item) >= 0).sort((left, right) => indexIn(patch, left) - indexIn(patch, right));
  const serverOnly = merged.filter((item) => indexIn(patch, item) < 0).sort((left, right) => indexIn(original, left) - indexIn(original, right));
  const result: unknown[] = [];
  let left = 0;
  let right = 0;
  while (left < serverOnly.length || right < patchItems.length) {
    if (right >= patchItems.length) result.push(serverOnly[left++]);
    else if (left >= serverOnly.length) result.push(patchItems[right++]);
    else {
      const leftIndex = indexIn(original, serverOnly[left]);
      const rightIndex = indexIn(original, patchItems[right]);
      if (leftIndex >= 0 && rightIndex >= 0 && leftIndex < rightIndex) result.push(serverOnly[left++]);
      else result.push(patchItems[right++]);
    }
  }
  return result;
}

/**
 * Orders a merged list by `$setElementOrder`: elements named in the order come in that order;
 * the others (server-only elements) are interleaved by their position in the list before the
 * patch; when a position is unknown (an element the patch added) the ordered element goes first.
 */
function applyElementOrder(list: unknown[], before: unknown[], order: unknown[], schema: PatchSchema | undefined): unknown[] {
  const mergeKey = schema?.mergeKey;
  const identity = (item: unknown): unknown => (mergeKey && isPlainObject(item) ? item[mergeKey] : item);
  const orderIdentities = order.map((item) => {
    if (mergeKey) {
      if (!isPlainObject(item) || !(mergeKey in item)) {
        throw new PatchError('bad-request', `invalid patch: $setElementOrder elements must be maps containing the merge key ${mergeKey}`);
      }
      return item[mergeKey];
    }
    return item;
  });
  const positionInOrder = (item: unknown): number => orderIdentities.findIndex((value) => deepEqual(value, identity(item)));
  const ordered = list.filter((item) => positionInOrder(item) >= 0).sort((left, right) => positionInOrder(left) - positionInOrder(right));
  const others = list.filter((item) => positionInOrder(item) < 0);
  const positionBefore = (item: unknown): number => before.findIndex((candidate) => deepEqual(identity(candidate), identity(item)));
  const result: unknown[] = [];
  let orderedIndex = 0;
  let otherIndex = 0;
  while (orderedIndex < ordered.length || otherIndex < others.length) {
    if (orderedIndex >= ordered.length) {
      result.push(others[otherIndex++]);
    } else if (otherIndex >= others.length) {
      result.push(ordered[orderedIndex++]);
    } else {
      const otherPosition = positionBefore(others[otherIndex]);
      const orderedPosition = positionBefore(ordered[orderedIndex]);
      if (otherPosition >= 0 && orderedPosition >= 0 && otherPosition < orderedPosition) result.push(others[otherIndex++]);
      else result.push(ordered[orderedIndex++]);
    }
  }
  return result;
}
