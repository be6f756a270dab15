/** Validation shared by ConfigMaps and Secrets: data keys, total size and `immutable`. */
import { fieldErrors, type FieldError } from '../api/field-error.js';
import type { KubeObject } from '../api/kube-object.js';
import { deepEqual, isPlainObject } from '../util/json.js';
import type { StoredObject } from './resource-definition.js';

const configKeyPattern = /^[-._a-zA-Z0-9]+$/;

export function configKeyErrors(key: string): string[] {
  const errors: string[] = [];
  if (key.length > 253) errors.push('must be no more than 253 characters');
  if (!configKeyPattern.test(key)) {
    errors.push("a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')");
  }
  if (key === '.' || key === '..') errors.push(`must not be '${key}'`);
  else if (key.startsWith('..')) errors.push("must not start with '..'");
  return errors;
}

export function validateDataKeys(object: KubeObject, fields: readonly string[]): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Map<string, string>();
  for (const field of fields) {
    const data = object[field];
    if (!isPlainObject(data)) continue;
    for (const key of Object.keys(data)) {
      for (const message of configKeyErrors(key)) errors.push(fieldErrors.invalid(`${field}[${key}]`, key, message));
      const other = seen.get(key);
      if (other) errors.push(fieldErrors.invalid(`${field}[${key}]`, key, `duplicate of key present in ${other}`));
      seen.set(key, field);
    }
  }
  return errors;
}

export function validateImmutable(object: KubeObject, old: StoredObject, fields: readonly string[]): FieldError[] {
  if (old['immutable'] !== true) return [];
  const errors: FieldError[] = [];
  if (object['immutable'] !== true) errors.push(fieldErrors.forbidden('immutable', 'field is immutable when `immutable` is set'));
  for (const field of fields) {
    if (!deepEqual(object[field], old[field])) errors.push(fieldErrors.forbidden(field, 'field is immutable when `immutable` is set'));
  }
  return errors;
}

export function dataSize(object: KubeObject, fields: readonly string[]): number {
  let size = 0;
  for (const field of fields) {
    const data = object[field];
    if (!isPlainObject(data)) continue;
    for (const [key, value] of Object.entries(data)) size += key.length + (typeof value === 'string' ? value.length : 0);
  }
  return size;
}

export function countEntries(object: KubeObject, fields: readonly string[]): number {
  return fields.reduce((total, field) => total + (isPlainObject(object[field]) ? Object.keys(object[field]).length : 0), 0);
}
