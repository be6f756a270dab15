/** Building blocks shared by the resource definitions. */
import type { KubeObject } from '../api/kube-object.js';
import { statusErrors, type KubeStatusError } from '../api/status-error.js';
import { humanDuration } from '../util/time.js';
import type { StoredObject, TableColumn, Verb } from './resource-definition.js';

export const allVerbs: readonly Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export function metadataFieldSelectors(namespaced: boolean): Record<string, (object: StoredObject) => string> {
  const selectors: Record<string, (object: StoredObject) => string> = { 'metadata.name': (object) => object.metadata.name ?? '' };
  if (namespaced) selectors['metadata.namespace'] = (object) => object.metadata.namespace ?? '';
  return selectors;
}

export function column(name: string, type: TableColumn['type'], description: string, priority = 0, format = ''): TableColumn {
  return { name, type, format, description, priority };
}

export const nameColumn: TableColumn = column(
  'Name',
  'string',
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated.',
  0,
  'name',
);

export const ageColumn: TableColumn = column(
  'Age',
  'string',
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.',
);

export function age(timestamp: unknown, now: Date): string {
  if (typeof timestamp !== 'string') return '<unknown>';
  const parsed = Date.parse(timestamp);
  return Number.isNaN(parsed) ? '<unknown>' : humanDuration(now.getTime() - parsed);
}

export const objectAge = (object: KubeObject, now: Date): string => age(object.metadata.creationTimestamp, now);

/** Reads a string field, '' when missing or not a string. */
export function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function ensureObject(parent: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = parent[key];
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  const created: Record<string, unknown> = {};
  parent[key] = created;
  return created;
}

/** A body whose JSON types do not fit the API type: kube fails decoding with a 400. */
export function decodeError(kind: string, groupVersion: string, message: string): KubeStatusError {
  return statusErrors.badRequest(`${kind} in version "${groupVersion}" cannot be handled as a ${kind}: ${message}`);
}

/** Throws a decode error unless `value` is undefined or satisfies `check`. */
export function expectType(kind: string, groupVersion: string, path: string, value: unknown, expected: 'object' | 'array' | 'string' | 'integer' | 'boolean'): void {
  if (value === undefined) return;
  const ok =
    expected === 'object' ? typeof value === 'object' && value !== null && !Array.isArray(value)
    : expected === 'array' ? Array.isArray(value)
    : expected === 'integer' ? Number.isInteger(value)
    : typeof value === expected;
  if (!ok) {
    const actual = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
    throw decodeError(kind, groupVersion, `json: cannot unmarshal ${actual} into Go struct field ${path} of type ${expected}`);
  }
}
