/**
 * Parsers for annotation values with upstream's Go semantics (strconv.ParseBool/ParseInt,
 * `getKeyValuePropertiesFromAnnotation`, `getPortSets`). Failures become InvalidAnnotationError.
 */
import { parseGoBool } from '@ccm/core/util';
import { InvalidAnnotationError } from '../../errors.js';

export type Annotations = Readonly<Record<string, string>>;

export function has(annotations: Annotations, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(annotations, key);
}

export function get(annotations: Annotations, key: string): string | undefined {
  return has(annotations, key) ? annotations[key] : undefined;
}

/** A boolean annotation; empty or absent gives `fallback`. */
export function booleanAnnotation(annotations: Annotations, key: string, fallback: boolean): boolean {
  const value = get(annotations, key) ?? '';
  if (value === '') return fallback;
  const parsed = parseGoBool(value);
  if (parsed === undefined) throw new InvalidAnnotationError(key, value, 'expected a boolean (true or false)');
  return parsed;
}

/** An integer annotation (Go strconv.ParseInt base 10); empty or absent gives undefined. */
export function integerAnnotation(annotations: Annotations, key: string, minimum?: number): number | undefined {
  const value = get(annotations, key);
  if (value === undefined || value === '') return undefined;
  if (!/^[+-]?\d+$/.test(value)) throw new InvalidAnnotationError(key, value, 'expected an integer');
  const parsed = Number.parseInt(value, 10);
  if (!Number.isSafeInteger(parsed)) throw new InvalidAnnotationError(key, value, 'integer out of range');
  if (minimum !== undefined && parsed < minimum) throw new InvalidAnnotationError(key, value, `must be at least ${minimum}`);
  return parsed;
}

/** Comma-separated list, entries trimmed, empty entries dropped. */
export function listAnnotation(annotations: Annotations, key: string): string[] {
  return (get(annotations, key) ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/**
 * `k1=v1,k2=,k3` (upstream `getKeyValuePropertiesFromAnnotation`): a bare key or `k=` gives an
 * empty value; for `k=v=w` the value is `v`; entries without a key are ignored.
 */
export function keyValueAnnotation(annotations: Annotations, key: string): Record<string, string> {
  const result: Record<string, string> = {};
  const value = get(annotations, key);
  if (value === undefined) return result;
  for (const entry of value.trim().split(',')) {
    const parts = entry.trim().split('=');
    const name = parts[0] ?? '';
    if (name === '') continue;
    result[name] = parts.length >= 2 ? (parts[1] ?? '') : '';
  }
  return result;
}

/** Ports named by `aws-load-balancer-ssl-ports`; undefined means every port. */
export interface PortSelection {
  numbers: Set<number>;
  names: Set<string>;
}

export function portSelection(annotations: Annotations, key: string): PortSelection | undefined {
  const value = get(annotations, key) ?? '';
  if (value === '' || value === '*') return undefined;
  const selection: PortSelection = { numbers: new Set(), names: new Set() };
  for (const raw of value.split(',')) {
    const item = raw.trim();
    if (/^[+-]?\d+$/.test(item)) selection.numbers.add(Number.parseInt(item, 10));
    else selection.names.add(item);
  }
  return selection;
}

export function selectsPort(selection: PortSelection | undefined, port: number, name: string): boolean {
  return selection === undefined || selection.numbers.has(port) || selection.names.has(name);
}
