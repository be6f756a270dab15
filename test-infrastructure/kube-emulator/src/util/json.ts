/** Helpers for plain JSON data (what the API stores): objects, arrays, strings, numbers, booleans, null. */

export type JsonMap = Record<string, unknown>;

export function isPlainObject(value: unknown): value is JsonMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A deep copy of JSON data; faster than structuredClone for plain trees. */
export function cloneJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item: unknown) => cloneJson(item)) as T;
  if (isPlainObject(value)) {
    const copy: JsonMap = {};
    for (const key of Object.keys(value)) copy[key] = cloneJson(value[key]);
    return copy as T;
  }
  return value;
}

export function deepEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (Array.isArray(left)) {
    if (!Array.isArray(right) || left.length !== right.length) return false;
    for (let index = 0; index < left.length; index++) if (!deepEqual(left[index], right[index])) return false;
    return true;
  }
  if (isPlainObject(left)) {
    if (!isPlainObject(right)) return false;
    const leftKeys = Object.keys(left);
    if (leftKeys.length !== Object.keys(right).length) return false;
    for (const key of leftKeys) {
      if (!Object.prototype.hasOwnProperty.call(right, key)) return false;
      if (!deepEqual(left[key], right[key])) return false;
    }
    return true;
  }
  return false;
}

/** Freezes a JSON tree so that stored revisions can be shared safely between the store, history and watchers. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value as object)) deepFreeze(child);
  }
  return value;
}

/** Reads a nested value by path; undefined when any step is missing. */
export function getPath(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const segment of path) {
    if (!isPlainObject(current)) return undefined;
    current = current[segment];
  }
  return current;
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Removes null-valued keys from every object in the tree (the API treats `null` as "unset"). */
export function dropNulls(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) dropNulls(item);
  } else if (isPlainObject(value)) {
    for (const key of Object.keys(value)) {
      if (value[key] === null) delete value[key];
      else dropNulls(value[key]);
    }
  }
}
