/**
 * The served form of stored revisions. Revisions are immutable, so their JSON is computed once
 * per served version and shared by every list, get and watcher.
 */
import type { KubeObject } from '../api/kube-object.js';
import { groupVersion, type ResourceDefinition, type StoredObject } from '../resources/resource-definition.js';
import { cloneJson, deepFreeze } from '../util/json.js';

interface Served {
  object: KubeObject;
  json?: string;
}

const servedCache = new WeakMap<StoredObject, Map<ResourceDefinition, Served>>();

function served(definition: ResourceDefinition, stored: StoredObject): Served {
  let perDefinition = servedCache.get(stored);
  if (!perDefinition) {
    perDefinition = new Map();
    servedCache.set(stored, perDefinition);
  }
  let entry = perDefinition.get(definition);
  if (!entry) {
    entry = { object: definition.conversion ? deepFreeze(definition.conversion.fromStorage(stored)) : (stored as KubeObject) };
    perDefinition.set(definition, entry);
  }
  return entry;
}

/** The served form without apiVersion/kind (as list items are rendered). Do not mutate. */
export function servedObject(definition: ResourceDefinition, stored: StoredObject): KubeObject {
  return served(definition, stored).object;
}

/** JSON of the served form without apiVersion/kind. */
export function bareJson(definition: ResourceDefinition, stored: StoredObject): string {
  const entry = served(definition, stored);
  entry.json ??= JSON.stringify(entry.object);
  return entry.json;
}

export function typeMetaPrefix(definition: ResourceDefinition): string {
  return `{"kind":${JSON.stringify(definition.kind)},"apiVersion":${JSON.stringify(groupVersion(definition))}`;
}

/** JSON of the served form with apiVersion/kind first, as GET and watch events render objects. */
export function typedJson(definition: ResourceDefinition, stored: StoredObject): string {
  const bare = bareJson(definition, stored);
  return bare === '{}' ? `${typeMetaPrefix(definition)}}` : `${typeMetaPrefix(definition)},${bare.slice(1)}`;
}

/** A mutable copy of the served form with apiVersion/kind, for in-process callers. */
export function typedObject<T = KubeObject>(definition: ResourceDefinition, stored: StoredObject): T {
  return { kind: definition.kind, apiVersion: groupVersion(definition), ...cloneJson(servedObject(definition, stored)) } as T;
}
