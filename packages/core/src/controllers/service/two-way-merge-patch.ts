/**
 * A two-way strategic merge patch generator (apimachinery `strategicpatch.CreateTwoWayMergePatch`)
 * for the fields controllers change: maps are diffed key by key (`null` deletes), lists with a
 * merge strategy produce `$setElementOrder/…`, `$deleteFromPrimitiveList/…` and `$patch: delete`
 * directives, every other list is replaced atomically. Keys are sorted like Go's JSON encoder, so
 * the result serializes to the bytes upstream sends. The patch carries no resourceVersion: it
 * applies to whatever version the server holds.
 */
import type { JsonObject, JsonValue } from '../../kube/json-value.js';
import { jsonEqual } from '../../kube/json-value.js';

/** How a list is merged, by dotted path from the object root (like apply-patch's schema). */
export type ListStrategy = { primitive: true } | { mergeKey: string };
export type MergeSchema = Readonly<Record<string, ListStrategy>>;

/** core/v1 Service lists with a patch strategy (status.loadBalancer.ingress is atomic). */
export const SERVICE_PATCH_SCHEMA: MergeSchema = {
  'metadata.finalizers': { primitive: true },
  'metadata.ownerReferences': { mergeKey: 'uid' },
  'spec.ports': { mergeKey: 'port' },
  'status.conditions': { mergeKey: 'type' },
};

const isObject = (value: JsonValue | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Empty lists are omitted by Go's encoder (`omitempty`), so they count as absent. */
const present = (value: JsonValue | undefined): JsonValue | undefined =>
  value === undefined || (Array.isArray(value) && value.length === 0) ? undefined : value;

/** The patch turning `original` into `modified`; `{}` when they are equal. */
export function createTwoWayMergePatch(original: JsonObject, modified: JsonObject, schema: MergeSchema = {}): JsonObject {
  return sortKeys(diffMaps(original, modified, '', schema)) as JsonObject;
}

function diffMaps(original: JsonObject, modified: JsonObject, path: string, schema: MergeSchema): JsonObject {
  const patch: JsonObject = {};
  const keys = new Set([...Object.keys(original), ...Object.keys(modified)]);
  for (const key of keys) {
    const childPath = path ? `${path}.${key}` : key;
    const before = present(original[key]);
    const after = present(modified[key]);
    if (after === undefined) {
      if (before !== undefined) patch[key] = null;
      continue;
    }
    if (before === undefined) {
      patch[key] = structuredClone(after);
      continue;
    }
    if (isObject(before) && isObject(after)) {
      const nested = diffMaps(before, after, childPath, schema);
      if (Object.keys(nested).length > 0) patch[key] = nested;
      continue;
    }
    const strategy = schema[childPath];
    if (Array.isArray(before) && Array.isArray(after) && strategy !== undefined) {
      if (jsonEqual(before, after)) continue;
      if ('primitive' in strategy) diffPrimitiveList(patch, key, before, after);
      else diffKeyedList(patch, key, before, after, strategy.mergeKey);
      continue;
    }
    if (!jsonEqual(before, after)) patch[key] = structuredClone(after);
  }
  return patch;
}

function diffPrimitiveList(patch: JsonObject, key: string, before: JsonValue[], after: JsonValue[]): void {
  const added = after.filter((item) => !before.some((existing) => jsonEqual(existing, item)));
  const removed = before.filter((item) => !after.some((kept) => jsonEqual(kept, item)));
  patch[`$setElementOrder/${key}`] = structuredClone(after);
  if (added.length > 0) patch[key] = structuredClone(added);
  if (removed.length > 0) patch[`$deleteFromPrimitiveList/${key}`] = structuredClone(removed);
}

function diffKeyedList(patch: JsonObject, key: string, before: JsonValue[], after: JsonValue[], mergeKey: string): void {
  const keyOf = (item: JsonValue): JsonValue | undefined => (isObject(item) ? item[mergeKey] : undefined);
  const items: JsonValue[] = [];
  for (const item of after) {
    const previous = before.find((candidate) => jsonEqual(keyOf(candidate), keyOf(item)));
    if (previous === undefined || !isObject(previous) || !isObject(item)) {
      items.push(structuredClone(item));
      continue;
    }
    const nested = diffMaps(previous, item, '', {});
    if (Object.keys(nested).length > 0) items.push({ ...nested, [mergeKey]: structuredClone(keyOf(item)) as JsonValue });
  }
  for (const item of before) {
    const itemKey = keyOf(item);
    if (!after.some((candidate) => jsonEqual(keyOf(candidate), itemKey))) items.push({ $patch: 'delete', [mergeKey]: structuredClone(itemKey) as JsonValue });
  }
  patch[`$setElementOrder/${key}`] = after.map((item) => ({ [mergeKey]: structuredClone(keyOf(item)) ?? null }));
  if (items.length > 0) patch[key] = items;
}

function sortKeys(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isObject(value)) return value;
  const sorted: JsonObject = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortKeys(value[key] as JsonValue);
  return sorted;
}
