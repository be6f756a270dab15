/**
 * The Kubernetes strategic merge patch on wire-form JSON values, driven by a small schema of
 * list merge strategies (the `patchStrategy`/`patchMergeKey` struct tags of the Go types).
 */
import { jsonEqual, type JsonObject, type JsonValue } from '@ccm/core/kube';
import { PatchError } from './patch-error.js';

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const clone = <T extends JsonValue>(value: T): T => structuredClone(value);

const deepEqual = jsonEqual;

/**
 * How a list field is merged by a strategic merge patch: `mergeKey` for lists of objects merged
 * item by item (e.g. conditions by `type`), `primitive` for lists of scalars merged as a set
 * (e.g. finalizers). Lists not in the schema are replaced atomically (e.g. taints).
 */
export type ListMergeStrategy = { mergeKey: string } | { primitive: true };

/** List strategies by dotted field path from the object root (`status.conditions`). */
export type StrategicMergeSchema = Readonly<Record<string, ListMergeStrategy>>;

const objectMetaLists: StrategicMergeSchema = {
  'metadata.finalizers': { primitive: true },
  'metadata.ownerReferences': { mergeKey: 'uid' },
};

/** core/v1 Node: the lists with a strategic merge strategy (spec.taints is atomic). */
export const NODE_MERGE_SCHEMA: StrategicMergeSchema = {
  ...objectMetaLists,
  'spec.podCIDRs': { primitive: true },
  'status.addresses': { mergeKey: 'type' },
  'status.conditions': { mergeKey: 'type' },
};

/** core/v1 Service: the lists with a strategic merge strategy (status.loadBalancer.ingress is atomic). */
export const SERVICE_MERGE_SCHEMA: StrategicMergeSchema = {
  ...objectMetaLists,
  'spec.ports': { mergeKey: 'port' },
  'status.conditions': { mergeKey: 'type' },
};


const DIRECTIVE = '$patch';
const RETAIN_KEYS = '$retainKeys';
const SET_ELEMENT_ORDER = '$setElementOrder/';
const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList/';

/**
 * Strategic merge patch: like a merge patch, but lists named in `schema` merge by key (objects) or
 * as sets (scalars). Supports the directives `$patch: replace|delete|merge` (maps and list items),
 * `$retainKeys`, `$setElementOrder/<list>` and `$deleteFromPrimitiveList/<list>`.
 */
export function applyStrategicMergePatch(target: JsonValue, patch: JsonValue, schema: StrategicMergeSchema): JsonValue {
  if (!isObject(patch)) throw new PatchError('strategic merge patch must be a JSON object');
  const merged = mergeMap(isObject(target) ? target : {}, patch, '', schema);
  return merged ?? {};
}

/** Returns the merged map, or undefined when the patch deletes it (`$patch: delete`). */
function mergeMap(original: JsonObject, patch: JsonObject, path: string, schema: StrategicMergeSchema): JsonObject | undefined {
  const directive = patch[DIRECTIVE];
  if (directive === 'delete') return undefined;
  if (directive === 'replace') return stripDirectives(withoutKey(patch, DIRECTIVE));
  if (directive !== undefined && directive !== 'merge') throw new PatchError(`unknown patch directive ${JSON.stringify(directive)} at ${path || '<root>'}`);

  const result = clone(original);
  const orders: Array<[string, JsonValue]> = [];
  for (const [key, value] of Object.entries(patch)) {
    if (key === DIRECTIVE || key === RETAIN_KEYS) continue;
    if (key.startsWith(SET_ELEMENT_ORDER)) {
      orders.push([key.slice(SET_ELEMENT_ORDER.length), value]);
      continue;
    }
    if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
      const field = key.slice(DELETE_FROM_PRIMITIVE_LIST.length);
      if (!Array.isArray(value)) throw new PatchError(`${key} must be a list`);
      const current = result[field];
      if (Array.isArray(current)) result[field] = current.filter((item) => !value.some((removed) => deepEqual(item, removed)));
      continue;
    }
    const childPath = path ? `${path}.${key}` : key;
    if (value === null) {
      delete result[key];
    } else if (isObject(value)) {
      const merged = mergeMap(isObject(result[key]) ? (result[key] as JsonObject) : {}, value, childPath, schema);
      if (merged === undefined) delete result[key];
      else result[key] = merged;
    } else if (Array.isArray(value)) {
      const strategy = schema[childPath];
      const current = result[key];
      // Like Go's strategicpatch: a list missing from the original takes the patch value as sent.
      if (strategy !== undefined && !Array.isArray(current)) assertMergeKeys(value, strategy, childPath);
      result[key] = strategy === undefined || !Array.isArray(current) ? stripDirectives(value) : mergeList(current, value, strategy, childPath);
    } else {
      result[key] = value;
    }
  }
  for (const [field, order] of orders) {
    const strategy = schema[path ? `${path}.${field}` : field];
    const current = result[field];
    if (Array.isArray(order) && Array.isArray(current) && strategy !== undefined) result[field] = applyElementOrder(current, order, strategy);
  }
  const retainKeys = patch[RETAIN_KEYS];
  if (retainKeys !== undefined) {
    if (!Array.isArray(retainKeys)) throw new PatchError(`${RETAIN_KEYS} must be a list at ${path || '<root>'}`);
    for (const key of Object.keys(result)) if (!retainKeys.includes(key)) delete result[key];
  }
  return result;
}

function assertMergeKeys(patch: JsonValue[], strategy: ListMergeStrategy, path: string): void {
  if ('primitive' in strategy) return;
  for (const item of patch) {
    if (!isObject(item)) throw new PatchError(`${path}: list items must be objects with merge key ${strategy.mergeKey}`);
    if (item[strategy.mergeKey] === undefined && item[DIRECTIVE] === undefined) throw new PatchError(`${path}: list item has no merge key ${strategy.mergeKey}`);
  }
}

function mergeList(original: JsonValue[], patch: JsonValue[], strategy: ListMergeStrategy, path: string): JsonValue[] {
  if ('primitive' in strategy) {
    const result = clone(original);
    for (const item of patch) if (!result.some((existing) => deepEqual(existing, item))) result.push(item);
    return result;
  }
  const { mergeKey } = strategy;
  if (patch.some((item) => isObject(item) && item[DIRECTIVE] === 'replace')) {
    return patch.filter((item) => !(isObject(item) && item[DIRECTIVE] === 'replace')).map((item) => stripDirectives(item));
  }
  let result = clone(original);
  for (const item of patch) {
    if (!isObject(item)) throw new PatchError(`${path}: list items must be objects with merge key ${mergeKey}`);
    const keyValue = item[mergeKey];
    if (keyValue === undefined) throw new PatchError(`${path}: list item has no merge key ${mergeKey}`);
    const index = result.findIndex((existing) => isObject(existing) && deepEqual(existing[mergeKey], keyValue));
    if (item[DIRECTIVE] === 'delete') {
      result = result.filter((existing) => !(isObject(existing) && deepEqual(existing[mergeKey], keyValue)));
      continue;
    }
    if (index >= 0) {
      const merged = mergeMap(result[index] as JsonObject, item, path, {});
      if (merged === undefined) result.splice(index, 1);
      else result[index] = merged;
    } else {
      result.push(stripDirectives(item));
    }
  }
  return result;
}

/** Orders `list` like `order` (items of `order` first, in its order), keeping the others after. */
function applyElementOrder(list: JsonValue[], order: JsonValue[], strategy: ListMergeStrategy): JsonValue[] {
  const identity = (item: JsonValue): JsonValue | undefined =>
    'primitive' in strategy ? item : isObject(item) ? item[strategy.mergeKey] : undefined;
  const orderedKeys = order.map((entry) => ('primitive' in strategy ? entry : isObject(entry) ? entry[strategy.mergeKey] : undefined));
  const rank = (item: JsonValue): number => {
    const index = orderedKeys.findIndex((key) => key !== undefined && deepEqual(key, identity(item)));
    return index < 0 ? orderedKeys.length : index;
  };
  return list
    .map((item, position) => ({ item, position, rank: rank(item) }))
    .sort((left, right) => left.rank - right.rank || left.position - right.position)
    .map((entry) => entry.item);
}

function withoutKey(object: JsonObject, key: string): JsonObject {
  const copy = { ...object };
  delete copy[key];
  return copy;
}

/**
 * Removes directive keys; like Go's `removeDirectives`, a list item carrying `$patch` (e.g. the
 * `{"$patch": "replace"}` marker sent into a list the original does not have) is dropped.
 */
function stripDirectives<T extends JsonValue>(value: T): T {
  if (Array.isArray(value)) return value.filter((item) => !(isObject(item) && DIRECTIVE in item)).map((item) => stripDirectives(item)) as T;
  if (!isObject(value)) return value;
  const result: JsonObject = {};
  for (const [key, item] of Object.entries(value)) {
    if (key.startsWith('$')) continue;
    result[key] = stripDirectives(item);
  }
  return result as T;
}

