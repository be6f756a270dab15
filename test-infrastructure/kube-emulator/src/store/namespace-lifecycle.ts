/**
 * What kube's namespace controller does, done synchronously: a deleted namespace turns
 * Terminating, its content is deleted (honouring finalizers), and it disappears once empty.
 */
import type { KubeObject } from '../api/kube-object.js';
import { statusErrors } from '../api/status-error.js';
import { immortalNamespaces, namespaceStorageKey } from '../resources/namespace-resource.js';
import type { ResourceDefinition, StoredObject } from '../resources/resource-definition.js';
import { cloneJson, isPlainObject } from '../util/json.js';
import { formatTime } from '../util/time.js';
import type { ObjectStore } from './object-store.js';

export function namespaceDefinition(store: ObjectStore): ResourceDefinition | undefined {
  return store.definitions.find((definition) => definition.storageKey === namespaceStorageKey);
}

function contentKeys(store: ObjectStore, namespace: string): Array<{ definition: ResourceDefinition; name: string }> {
  const found: Array<{ definition: ResourceDefinition; name: string }> = [];
  for (const storage of store.allStorages()) {
    const definition = store.definitions.find((candidate) => candidate.storageKey === storage.key);
    if (!definition?.namespaced) continue;
    for (const key of storage.sortedKeys()) {
      if (key.startsWith(`${namespace}/`)) found.push({ definition, name: key.slice(namespace.length + 1) });
    }
  }
  return found;
}

/** Removes a terminating namespace once nothing is left in it and its finalizers are gone. */
export function finalizeNamespaceIfEmpty(store: ObjectStore, namespace: string): void {
  const definition = namespaceDefinition(store);
  if (!definition) return;
  const current = store.get(definition, undefined, namespace);
  if (!current?.metadata.deletionTimestamp) return;
  if ((current.metadata.finalizers ?? []).length > 0) return;
  if (contentKeys(store, namespace).length > 0) return;
  store.commit(definition, 'DELETED', current as KubeObject, current);
}

/** DELETE of a namespace. Returns the namespace's state afterwards and whether it is gone. */
export function deleteNamespace(
  store: ObjectStore,
  definition: ResourceDefinition,
  old: StoredObject,
  deleteContent: (definition: ResourceDefinition, namespace: string, name: string) => void,
): { object: StoredObject; deleted: boolean } {
  const name = old.metadata.name ?? '';
  if (immortalNamespaces.includes(name)) throw statusErrors.forbidden({ group: '', resource: 'namespaces' }, name, 'this namespace may not be deleted');
  if (old.metadata.deletionTimestamp) return { object: old, deleted: false };
  const terminating = cloneJson(old) as KubeObject;
  terminating.metadata.deletionTimestamp = formatTime(store.now());
  terminating.metadata.deletionGracePeriodSeconds = 0;
  terminating['status'] = { ...(isPlainObject(terminating['status']) ? terminating['status'] : {}), phase: 'Terminating' };
  let latest = store.commit(definition, 'MODIFIED', terminating, old);
  for (const item of contentKeys(store, name)) deleteContent(item.definition, name, item.name);
  finalizeNamespaceIfEmpty(store, name);
  const after = store.get(definition, undefined, name);
  if (after) latest = after;
  return { object: latest, deleted: after === undefined };
}
