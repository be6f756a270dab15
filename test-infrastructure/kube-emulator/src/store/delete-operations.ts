/** DELETE and deletecollection, with preconditions and finalizers. */
import type { KubeObject } from '../api/kube-object.js';
import { statusErrors } from '../api/status-error.js';
import { namespaceStorageKey } from '../resources/namespace-resource.js';
import type { ResourceDefinition, StoredObject } from '../resources/resource-definition.js';
import { cloneJson } from '../util/json.js';
import { formatTime } from '../util/time.js';
import { deleteNamespace } from './namespace-lifecycle.js';
import type { ObjectStore } from './object-store.js';
import { groupResource, removeObject, type WriteOptions } from './write-operations.js';

export interface DeleteOptions extends WriteOptions {
  preconditions?: { uid?: string; resourceVersion?: string };
}

export interface DeleteResult {
  /** The object as it is now: the last state when removed, or the state with deletionTimestamp when finalizers hold it. */
  object: StoredObject;
  /** True when the object is gone; false when finalizers keep it. */
  deleted: boolean;
}

function checkPreconditions(definition: ResourceDefinition, old: StoredObject, preconditions: DeleteOptions['preconditions']): void {
  const name = old.metadata.name ?? '';
  if (preconditions?.uid && preconditions.uid !== old.metadata.uid) {
    throw statusErrors.conflict(groupResource(definition), name, `Precondition failed: UID in precondition: ${preconditions.uid}, UID in object meta: ${old.metadata.uid ?? ''}`);
  }
  if (preconditions?.resourceVersion && preconditions.resourceVersion !== old.metadata.resourceVersion) {
    throw statusErrors.conflict(
      groupResource(definition),
      name,
      `Precondition failed: ResourceVersion in precondition: ${preconditions.resourceVersion}, ResourceVersion in object meta: ${old.metadata.resourceVersion ?? ''}`,
    );
  }
}

export function deleteObject(store: ObjectStore, definition: ResourceDefinition, namespace: string | undefined, name: string, options: DeleteOptions = {}): DeleteResult {
  const old = store.get(definition, namespace, name);
  if (!old) throw statusErrors.notFound(groupResource(definition), name);
  checkPreconditions(definition, old, options.preconditions);
  if (options.dryRun) return { object: old, deleted: (old.metadata.finalizers ?? []).length === 0 };
  if (definition.storageKey === namespaceStorageKey) {
    return deleteNamespace(store, definition, old, (contentDefinition, contentNamespace, contentName) => {
      deleteObject(store, contentDefinition, contentNamespace, contentName);
    });
  }
  if ((old.metadata.finalizers ?? []).length > 0) {
    if (old.metadata.deletionTimestamp) return { object: old, deleted: false };
    const deleting = cloneJson(old) as KubeObject;
    deleting.metadata.deletionTimestamp = formatTime(store.now());
    deleting.metadata.deletionGracePeriodSeconds = 0;
    if (deleting.metadata.generation !== undefined) deleting.metadata.generation += 1;
    return { object: store.commit(definition, 'MODIFIED', deleting, old), deleted: false };
  }
  return { object: removeObject(store, definition, old), deleted: true };
}

export function deleteCollection(store: ObjectStore, definition: ResourceDefinition, targets: readonly StoredObject[], options: DeleteOptions = {}): StoredObject[] {
  const results: StoredObject[] = [];
  for (const target of targets) {
    const name = target.metadata.name ?? '';
    if (!store.get(definition, target.metadata.namespace, name)) continue;
    results.push(deleteObject(store, definition, target.metadata.namespace, name, { dryRun: options.dryRun }).object);
  }
  return results;
}
