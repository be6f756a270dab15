/** Freezes `value` and everything reachable from it; returns it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key]);
  }
  return value;
}

/**
 * A deeply frozen copy of `value` plus an untouched copy to compare with afterwards: a provider
 * that writes to its input throws (ES modules are strict), one that keeps a reference and
 * changes it later is caught by the comparison.
 */
export function frozenInput<T>(value: T): { input: T; original: T } {
  return { input: deepFreeze(structuredClone(value)), original: structuredClone(value) };
}
