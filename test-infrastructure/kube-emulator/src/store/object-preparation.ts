/** Turning a request body into a storage-form object, and the metadata housekeeping of every write. */
import { randomInt } from 'node:crypto';
import type { KubeObject } from '../api/kube-object.js';
import { statusErrors } from '../api/status-error.js';
import { decodeError } from '../resources/common.js';
import { groupVersion, type ResourceDefinition, type TimeField } from '../resources/resource-definition.js';
import { cloneJson, dropNulls, isPlainObject, type JsonMap } from '../util/json.js';
import { normalizeTimestamp } from '../util/time.js';

/** Validates apiVersion/kind and returns a mutable copy in storage form (no apiVersion/kind). */
export function decodeBody(definition: ResourceDefinition, body: unknown): KubeObject {
  const expectedVersion = groupVersion(definition);
  if (!isPlainObject(body)) throw decodeError(definition.kind, expectedVersion, `json: cannot unmarshal ${Array.isArray(body) ? 'array' : typeof body} into Go value of type struct`);
  const apiVersion = body['apiVersion'];
  if (apiVersion !== undefined && apiVersion !== '' && apiVersion !== expectedVersion) {
    throw statusErrors.badRequest(`the API version in the data (${String(apiVersion)}) does not match the expected API version (${expectedVersion})`);
  }
  const kind = body['kind'];
  if (kind !== undefined && kind !== '' && kind !== definition.kind) {
    throw statusErrors.badRequest(`the kind in the data (${String(kind)}) does not match the expected kind (${definition.kind})`);
  }
  const object = cloneJson(body);
  delete object['apiVersion'];
  delete object['kind'];
  if (object['metadata'] === undefined || object['metadata'] === null) object['metadata'] = {};
  if (!isPlainObject(object['metadata'])) throw decodeError(definition.kind, expectedVersion, 'json: cannot unmarshal into Go struct field .metadata of type v1.ObjectMeta');
  dropNulls(object);
  checkMetadataTypes(definition, object['metadata']);
  const typed = object as KubeObject;
  return definition.conversion ? definition.conversion.toStorage(typed) : typed;
}

function checkMetadataTypes(definition: ResourceDefinition, metadata: JsonMap): void {
  const expectedVersion = groupVersion(definition);
  const fail = (field: string, type: string): never => {
    throw decodeError(definition.kind, expectedVersion, `json: cannot unmarshal into Go struct field ObjectMeta.metadata.${field} of type ${type}`);
  };
  for (const field of ['name', 'generateName', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp']) {
    if (metadata[field] !== undefined && typeof metadata[field] !== 'string') fail(field, 'string');
  }
  for (const field of ['labels', 'annotations']) {
    const value = metadata[field];
    if (value === undefined) continue;
    if (!isPlainObject(value)) fail(field, 'map[string]string');
    else for (const entry of Object.values(value)) if (typeof entry !== 'string') fail(field, 'map[string]string');
  }
  const finalizers = metadata['finalizers'];
  if (finalizers !== undefined && (!Array.isArray(finalizers) || finalizers.some((item) => typeof item !== 'string'))) fail('finalizers', '[]string');
  if (metadata['ownerReferences'] !== undefined && !Array.isArray(metadata['ownerReferences'])) fail('ownerReferences', '[]v1.OwnerReference');
  if (metadata['generation'] !== undefined && !Number.isInteger(metadata['generation'])) fail('generation', 'int64');
}

/** Drops what clients may not set or kube never renders, and empty collections (omitempty). */
export function cleanMetadata(object: KubeObject): void {
  const metadata = object.metadata;
  delete metadata['managedFields'];
  delete metadata['selfLink'];
  for (const field of ['labels', 'annotations'] as const) {
    const value = metadata[field];
    if (value !== undefined && Object.keys(value).length === 0) delete metadata[field];
  }
  for (const field of ['finalizers', 'ownerReferences'] as const) {
    const value = metadata[field];
    if (Array.isArray(value) && value.length === 0) delete metadata[field];
  }
  if (metadata.finalizers) metadata.finalizers = [...new Set(metadata.finalizers)];
  if (metadata.generateName === '') delete metadata.generateName;
}

function normalizeAt(value: unknown, path: readonly string[], field: TimeField, fail: (message: string) => never): void {
  if (!isPlainObject(value)) return;
  const [head, ...rest] = path;
  if (head === undefined) return;
  if (rest.length === 0) {
    const current = value[head];
    if (current === undefined) return;
    if (typeof current !== 'string') fail(`json: cannot unmarshal ${typeof current} into Go value of type time`);
    else {
      const result = normalizeTimestamp(current, field.precision);
      if ('error' in result) fail(result.error);
      else value[head] = result.value;
    }
    return;
  }
  const child = value[head];
  if (rest[0] === '*') {
    if (Array.isArray(child)) for (const item of child) normalizeAt(item, rest.slice(1), field, fail);
    return;
  }
  normalizeAt(child, rest, field, fail);
}

/** Parses and re-renders the resource's timestamps like the apiserver's codec (UTC, fixed precision). */
export function normalizeTimes(definition: ResourceDefinition, object: KubeObject): void {
  const fail = (message: string): never => {
    throw decodeError(definition.kind, groupVersion(definition), message);
  };
  for (const field of definition.timeFields) normalizeAt(object, field.path, field, fail);
}

const nameSuffixAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

/** `generateName` + 5 random characters, like the apiserver's SimpleNameGenerator. */
export function generateName(base: string): string {
  let suffix = '';
  for (let index = 0; index < 5; index++) suffix += nameSuffixAlphabet[randomInt(nameSuffixAlphabet.length)];
  return `${base.length > 58 ? base.slice(0, 58) : base}${suffix}`;
}

const metadataOrder = [
  'name', 'generateName', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp',
  'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers',
];
const topLevelOrder = ['metadata', 'spec', 'status'];

function ordered(value: JsonMap, order: readonly string[]): JsonMap {
  const result: JsonMap = {};
  for (const key of order) if (key in value) result[key] = value[key];
  for (const key of Object.keys(value)) if (!(key in result)) result[key] = value[key];
  return result;
}

/** Renders fields in the order Go structs serialise them (metadata, spec, status; name first...). */
export function orderFields(object: KubeObject): KubeObject {
  const result = ordered(object, topLevelOrder) as KubeObject;
  result.metadata = ordered(object.metadata, metadataOrder);
  return result;
}
