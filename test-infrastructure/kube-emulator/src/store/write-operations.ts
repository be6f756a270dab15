/**
 * Create, update, patch and delete with kube-apiserver's rules: optimistic concurrency,
 * status subresource isolation, finalizers, validation (422), defaults, no-op detection.
 */
import { randomUUID } from 'node:crypto';
import { fieldErrors, type FieldError } from '../api/field-error.js';
import type { KubeObject } from '../api/kube-object.js';
import { statusErrors, type GroupResource } from '../api/status-error.js';
import { namespaceStorageKey } from '../resources/namespace-resource.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../resources/object-meta-validation.js';
import type { ResourceDefinition, StoredObject } from '../resources/resource-definition.js';
import { cloneJson, deepEqual, deepFreeze } from '../util/json.js';
import { formatTime } from '../util/time.js';
import { cleanMetadata, decodeBody, generateName, normalizeTimes, orderFields } from './object-preparation.js';
import type { ObjectStore } from './object-store.js';
import { finalizeNamespaceIfEmpty } from './namespace-lifecycle.js';

export interface WriteOptions {
  /** `?dryRun=All`: run every check, persist nothing. */
  dryRun?: boolean;
}

export interface UpdateOptions extends WriteOptions {
  subresource?: 'status';
}

export const groupResource = (definition: ResourceDefinition): GroupResource => ({ group: definition.group, resource: definition.plural });

function failIfInvalid(definition: ResourceDefinition, name: string, errors: readonly FieldError[]): void {
  if (errors.length > 0) throw statusErrors.invalid({ group: definition.group, kind: definition.kind }, name, errors);
}

function requireNamespace(store: ObjectStore, definition: ResourceDefinition, namespace: string, name: string): void {
  const namespaceDefinition = store.definitions.find((candidate) => candidate.storageKey === namespaceStorageKey);
  if (!namespaceDefinition) return;
  const found = store.get(namespaceDefinition, undefined, namespace);
  if (!found) throw statusErrors.notFound({ group: '', resource: 'namespaces' }, namespace);
  if (found.metadata.deletionTimestamp) {
    const message = `unable to create new content in namespace ${namespace} because it is being terminated`;
    const error = statusErrors.forbidden(groupResource(definition), name, message);
    error.status.details = { ...error.status.details, causes: [{ reason: 'NamespaceTerminating', message, field: 'metadata.namespace' }] };
    throw error;
  }
}

/** Applies the request's namespace to the object: fills it in, or rejects a mismatch (400). */
function applyNamespace(definition: ResourceDefinition, object: KubeObject, namespace: string | undefined): void {
  if (!definition.namespaced) {
    delete object.metadata.namespace;
    return;
  }
  const given = object.metadata.namespace;
  if (given && namespace && given !== namespace) throw statusErrors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
  object.metadata.namespace = given || namespace;
}

export function createObject(store: ObjectStore, definition: ResourceDefinition, namespace: string | undefined, body: unknown, options: WriteOptions = {}): StoredObject {
  const object = decodeBody(definition, body);
  applyNamespace(definition, object, namespace);
  const metadata = object.metadata;
  if (metadata.resourceVersion) throw statusErrors.badRequest('resourceVersion should not be set on objects to be created');
  if (!metadata.name && metadata.generateName) {
    metadata.name = generateName(metadata.generateName);
    for (let attempt = 0; attempt < 8 && store.get(definition, metadata.namespace, metadata.name); attempt++) metadata.name = generateName(metadata.generateName);
  }
  metadata.uid = randomUUID();
  metadata.creationTimestamp = formatTime(store.now());
  metadata.generation = 1;
  delete metadata.deletionTimestamp;
  delete metadata.deletionGracePeriodSeconds;
  delete metadata.resourceVersion;
  cleanMetadata(object);
  normalizeTimes(definition, object);
  definition.prepareForCreate?.(object, store.context);
  const name = metadata.name ?? '';
  failIfInvalid(definition, name, [
    ...validateObjectMeta(metadata, definition.namespaced, definition.validateName),
    ...(definition.validate?.(object, store.context) ?? []),
    ...(definition.validateCreate?.(object, store.context) ?? []),
  ]);
  if (definition.namespaced) requireNamespace(store, definition, metadata.namespace ?? '', name);
  if (store.get(definition, metadata.namespace, name)) throw statusErrors.alreadyExists(groupResource(definition), name);
  definition.renderDefaults?.(object);
  failIfInvalid(definition, name, definition.allocate?.(object, undefined, store.context) ?? []);
  const prepared = orderFields(object);
  if (options.dryRun) return deepFreeze(prepared);
  return store.commit(definition, 'ADDED', prepared, undefined);
}

export function updateObject(store: ObjectStore, definition: ResourceDefinition, namespace: string | undefined, name: string, body: unknown, options: UpdateOptions = {}): StoredObject {
  const object = decodeBody(definition, body);
  if (object.metadata.name !== name) throw statusErrors.badRequest(`the name of the object (${object.metadata.name ?? ''}) does not match the name on the URL (${name})`);
  applyNamespace(definition, object, namespace);
  const old = store.get(definition, namespace, name);
  if (!old) {
    if (definition.allowCreateOnUpdate && !options.subresource) {
      delete object.metadata.resourceVersion;
      return createObject(store, definition, namespace, withTypeMeta(definition, object), options);
    }
    throw statusErrors.notFound(groupResource(definition), name);
  }
  const requested = object.metadata.resourceVersion;
  if (requested && requested !== old.metadata.resourceVersion) throw statusErrors.staleResourceVersion(groupResource(definition), name);
  return applyUpdate(store, definition, old, object, options);
}

function withTypeMeta(definition: ResourceDefinition, object: KubeObject): KubeObject {
  const external = definition.conversion ? definition.conversion.fromStorage(object) : object;
  return { ...external, apiVersion: definition.group ? `${definition.group}/${definition.version}` : definition.version, kind: definition.kind };
}

/** Takes the status from `candidate` and everything else from `old` (writes to the status subresource). */
function statusOnly(old: StoredObject, candidate: KubeObject): KubeObject {
  const result = cloneJson(old) as KubeObject;
  if (candidate['status'] === undefined) delete result['status'];
  else result['status'] = candidate['status'];
  return result;
}

/** The shared second half of update and patch: `candidate` is a mutable storage-form object. */
export function applyUpdate(store: ObjectStore, definition: ResourceDefinition, old: StoredObject, input: KubeObject, options: UpdateOptions): StoredObject {
  let candidate = input;
  const name = old.metadata.name ?? '';
  if (definition.hasStatus) {
    if (options.subresource === 'status') candidate = statusOnly(old, candidate);
    else if (old['status'] === undefined) delete candidate['status'];
    else candidate['status'] = cloneJson(old['status']);
  }
  const metadata = candidate.metadata;
  if (metadata.uid && metadata.uid !== old.metadata.uid) failIfInvalid(definition, name, [fieldErrors.invalid('metadata.uid', metadata.uid, 'field is immutable')]);
  metadata.name = old.metadata.name;
  metadata.namespace = old.metadata.namespace;
  metadata.uid = old.metadata.uid;
  metadata.creationTimestamp = old.metadata.creationTimestamp;
  metadata.generation = old.metadata.generation;
  metadata.resourceVersion = old.metadata.resourceVersion;
  if (old.metadata.deletionTimestamp) {
    metadata.deletionTimestamp = old.metadata.deletionTimestamp;
    metadata.deletionGracePeriodSeconds = old.metadata.deletionGracePeriodSeconds;
  } else {
    delete metadata.deletionTimestamp;
    delete metadata.deletionGracePeriodSeconds;
  }
  cleanMetadata(candidate);
  normalizeTimes(definition, candidate);
  definition.prepareForUpdate?.(candidate, old, store.context);
  failIfInvalid(definition, name, [
    ...validateObjectMeta(metadata, definition.namespaced, definition.validateName),
    ...validateObjectMetaUpdate(candidate, old as KubeObject),
    ...(definition.validate?.(candidate, store.context) ?? []),
    ...(definition.validateUpdate?.(candidate, old, store.context) ?? []),
  ]);
  definition.renderDefaults?.(candidate);
  if (!deepEqual(candidate['spec'], old['spec'])) metadata.generation = (old.metadata.generation ?? 0) + 1;
  const prepared = orderFields(candidate);
  if (deepEqual(prepared, old)) return old;
  failIfInvalid(definition, name, definition.allocate?.(prepared, old, store.context) ?? []);
  const finalized = old.metadata.deletionTimestamp && (prepared.metadata.finalizers ?? []).length === 0;
  if (options.dryRun) return deepFreeze(prepared);
  if (finalized && !(definition.storageKey === namespaceStorageKey && namespaceHasContent(store, name))) {
    // Emptying the finalizers of an object being deleted removes it; watchers see the last stored
    // state, and the writer gets the object as it wrote it (as kube-apiserver answers).
    const removed = removeObject(store, definition, old);
    return deepFreeze({ ...prepared, metadata: { ...prepared.metadata, resourceVersion: removed.metadata.resourceVersion } }) as StoredObject;
  }
  return store.commit(definition, 'MODIFIED', prepared, old);
}

function namespaceHasContent(store: ObjectStore, namespace: string): boolean {
  for (const storage of store.allStorages()) {
    for (const key of storage.sortedKeys()) if (key.startsWith(`${namespace}/`)) return true;
  }
  return false;
}

/** Removes an object for good and lets a terminating namespace finish once it is empty. */
export function removeObject(store: ObjectStore, definition: ResourceDefinition, old: StoredObject): StoredObject {
  const removed = store.commit(definition, 'DELETED', old as KubeObject, old);
  if (definition.namespaced && old.metadata.namespace) finalizeNamespaceIfEmpty(store, old.metadata.namespace);
  return removed;
}
