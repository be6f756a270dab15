/**
 * Direct, typed access to the emulator's objects for tests: the same rules as the HTTP API
 * (validation, resourceVersion, finalizers, watch events), without a round trip. Failures throw
 * KubeStatusError. Objects returned are copies in the served form (with apiVersion and kind).
 */
import type { KubeObject } from './api/kube-object.js';
import { statusErrors } from './api/status-error.js';
import { resolveResource } from './resources/resource-table.js';
import type { ResourceDefinition } from './resources/resource-definition.js';
import type { ChangeType } from './store/change-event.js';
import { deleteObject } from './store/delete-operations.js';
import { listObjects } from './store/list-objects.js';
import type { ObjectStore } from './store/object-store.js';
import { patchObject, type PatchType } from './store/patch-operation.js';
import { parseSelectors } from './store/selector-parsing.js';
import { typedObject } from './store/serialization.js';
import { createObject, updateObject } from './store/write-operations.js';

export interface ListSelection {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

export interface WriteSettings {
  dryRun?: boolean;
}

export interface ObjectChange {
  type: ChangeType;
  /** The storage's resource, e.g. `nodes`, `leases.coordination.k8s.io`. */
  resource: string;
  resourceVersion: string;
  object: KubeObject;
}

export interface DeleteOutcome<T> {
  /** False when finalizers keep the object (it now carries deletionTimestamp). */
  deleted: boolean;
  object: T;
}

/** `resource` accepts what kubectl does: `nodes`, `node`, `no`, `leases.coordination.k8s.io`, `events.events.k8s.io`. */
export class ObjectAccess {
  constructor(private readonly store: ObjectStore) {}

  private definition(resource: string): ResourceDefinition {
    const definition = resolveResource(resource, this.store.definitions);
    if (!definition) throw statusErrors.badRequest(`the server doesn't have a resource type "${resource}"`);
    return definition;
  }

  resourceVersion(): string {
    return String(this.store.resourceVersion);
  }

  get<T = KubeObject>(resource: string, name: string, namespace?: string): T | undefined {
    const definition = this.definition(resource);
    const stored = this.store.get(definition, namespace, name);
    return stored ? typedObject<T>(definition, stored) : undefined;
  }

  list<T = KubeObject>(resource: string, selection: ListSelection = {}): T[] {
    const definition = this.definition(resource);
    const selectors = parseSelectors(definition, selection.labelSelector, selection.fieldSelector);
    const request = selection.namespace !== undefined ? { namespace: selection.namespace, ...selectors } : selectors;
    return listObjects(this.store, definition, request).items.map((item) => typedObject<T>(definition, item));
  }

  create<T = KubeObject>(resource: string, object: object, settings: WriteSettings & { namespace?: string } = {}): T {
    const definition = this.definition(resource);
    const namespace = settings.namespace ?? (object as KubeObject).metadata?.namespace ?? (definition.namespaced ? 'default' : undefined);
    return typedObject<T>(definition, createObject(this.store, definition, namespace, object, settings));
  }

  /** PUT semantics: a stale metadata.resourceVersion is a 409; an empty one updates unconditionally. */
  update<T = KubeObject>(resource: string, object: object, settings: WriteSettings & { subresource?: 'status' } = {}): T {
    const definition = this.definition(resource);
    const metadata = (object as KubeObject).metadata ?? {};
    const namespace = metadata.namespace ?? (definition.namespaced ? 'default' : undefined);
    return typedObject<T>(definition, updateObject(this.store, definition, namespace, metadata.name ?? '', object, settings));
  }

  patch<T = KubeObject>(resource: string, name: string, patch: unknown, type: PatchType, settings: WriteSettings & { namespace?: string; subresource?: 'status' } = {}): T {
    const definition = this.definition(resource);
    const namespace = settings.namespace ?? (definition.namespaced ? 'default' : undefined);
    return typedObject<T>(definition, patchObject(this.store, definition, namespace, name, type, patch, settings));
  }

  delete<T = KubeObject>(resource: string, name: string, settings: WriteSettings & { namespace?: string; preconditions?: { uid?: string; resourceVersion?: string } } = {}): DeleteOutcome<T> {
    const definition = this.definition(resource);
    const namespace = settings.namespace ?? (definition.namespaced ? 'default' : undefined);
    const result = deleteObject(this.store, definition, namespace, name, settings);
    return { deleted: result.deleted, object: typedObject<T>(definition, result.object) };
  }

  /** Calls `listener` synchronously after every committed change. Returns an unsubscribe function. */
  onChange(listener: (change: ObjectChange) => void): () => void {
    return this.store.onChange((event, storageKey) => {
      const definition = this.store.definitions.find((candidate) => candidate.storageKey === storageKey);
      if (!definition) return;
      const resource = definition.group ? `${definition.plural}.${definition.group}` : definition.plural;
      listener({ type: event.type, resource, resourceVersion: String(event.resourceVersion), object: typedObject(definition, event.object) });
    });
  }
}
