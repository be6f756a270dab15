/**
 * One resource type (nodes or services) of the in-memory API server. Objects are kept in wire
 * form and every write follows API-server rules: optimistic concurrency on resourceVersion,
 * the main resource ignores status changes, the status subresource changes only status, no-op
 * writes do not bump the resourceVersion, and deletion waits for finalizers.
 */
import { randomUUID } from 'node:crypto';
import { fromWire, jsonEqual, type JsonObject, type JsonValue, KubeApiError, type PatchType, toJson, toWire, type WireModel } from '@ccm/core/kube';
import { applyPatch, PatchError, type PatchSchema } from './apply-patch.js';
import type { InMemoryInformer } from './in-memory-informer.js';

export interface InMemoryResourceOptions<T> {
  /** Plural resource name used in error messages (`nodes`). */
  resource: string;
  kind: string;
  model: WireModel;
  namespaced: boolean;
  schema: PatchSchema;
  informer: InMemoryInformer<T>;
  nextResourceVersion: () => string;
  now: () => Date;
}

type Subresource = 'main' | 'status';

const metadataOf = (object: JsonObject): JsonObject => {
  const metadata = object.metadata;
  if (typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata)) return metadata;
  const created: JsonObject = {};
  object.metadata = created;
  return created;
};

const stringField = (object: JsonObject, field: string): string | undefined => {
  const value = object[field];
  return typeof value === 'string' ? value : undefined;
};

const finalizersOf = (object: JsonObject): string[] => {
  const finalizers = metadataOf(object).finalizers;
  return Array.isArray(finalizers) ? finalizers.filter((item): item is string => typeof item === 'string') : [];
};

export class InMemoryResource<T> {
  readonly #options: InMemoryResourceOptions<T>;
  readonly #objects = new Map<string, JsonObject>();

  constructor(options: InMemoryResourceOptions<T>) {
    this.#options = options;
  }

  key(namespace: string | undefined, name: string): string {
    return this.#options.namespaced ? `${namespace ?? ''}/${name}` : name;
  }

  /** The stored object as a fresh typed copy, or undefined. */
  peek(key: string): T | undefined {
    const stored = this.#objects.get(key);
    return stored === undefined ? undefined : fromWire<T>(stored, this.#options.model);
  }

  list(): T[] {
    return [...this.#objects.values()].map((stored) => fromWire<T>(stored, this.#options.model));
  }

  create(object: T): T {
    const wire = this.#stamp(toWire(object, this.#options.model));
    const metadata = metadataOf(wire);
    const name = stringField(metadata, 'name');
    if (!name) throw new KubeApiError(`${this.#options.resource}: metadata.name: Required value: name is required`, 422, 'Invalid');
    if (this.#options.namespaced && !stringField(metadata, 'namespace')) metadata.namespace = 'default';
    if (!this.#options.namespaced) delete metadata.namespace;
    const key = this.key(stringField(metadata, 'namespace'), name);
    if (this.#objects.has(key)) throw new KubeApiError(`${this.#options.resource} "${name}" already exists`, 409, 'AlreadyExists');
    metadata.uid = stringField(metadata, 'uid') ?? randomUUID();
    metadata.creationTimestamp = stringField(metadata, 'creationTimestamp') ?? this.#options.now().toISOString();
    metadata.resourceVersion = this.#options.nextResourceVersion();
    delete metadata.deletionTimestamp;
    this.#objects.set(key, wire);
    this.#options.informer.deliverAdd(key, fromWire<T>(wire, this.#options.model));
    return fromWire<T>(wire, this.#options.model);
  }

  get(key: string, name: string): T {
    return fromWire<T>(this.#require(key, name), this.#options.model);
  }

  /** PUT: the whole object (status ignored); a stale resourceVersion is a 409 Conflict. */
  update(object: T): T {
    const incoming = this.#stamp(toWire(object, this.#options.model));
    const metadata = metadataOf(incoming);
    const name = stringField(metadata, 'name') ?? '';
    if (this.#options.namespaced && !stringField(metadata, 'namespace')) metadata.namespace = 'default';
    const key = this.key(stringField(metadata, 'namespace'), name);
    const current = this.#require(key, name);
    return this.#commit(key, name, current, incoming, 'main');
  }

  patch(key: string, name: string, patch: unknown, type: PatchType, subresource: Subresource): T {
    const current = this.#require(key, name);
    let patched: JsonValue;
    try {
      patched = applyPatch(current, toJson(patch), type, this.#options.schema);
    } catch (error) {
      if (error instanceof PatchError) throw new KubeApiError(`${this.#options.resource} "${name}" is invalid: ${error.message}`, 422, 'Invalid', { cause: error });
      throw error;
    }
    if (typeof patched !== 'object' || patched === null || Array.isArray(patched)) {
      throw new KubeApiError(`${this.#options.resource} "${name}": patch did not produce an object`, 422, 'Invalid');
    }
    return this.#commit(key, name, current, this.#stamp(patched), subresource);
  }

  /** DELETE: removes the object, or only sets deletionTimestamp while finalizers remain. */
  delete(key: string, name: string): void {
    const current = this.#require(key, name);
    if (finalizersOf(current).length === 0) {
      this.#remove(key);
      return;
    }
    if (metadataOf(current).deletionTimestamp !== undefined) return;
    const next = structuredClone(current);
    const metadata = metadataOf(next);
    metadata.deletionTimestamp = this.#options.now().toISOString();
    metadata.deletionGracePeriodSeconds = 0;
    metadata.resourceVersion = this.#options.nextResourceVersion();
    this.#objects.set(key, next);
    this.#options.informer.deliverUpdate(key, fromWire<T>(next, this.#options.model));
  }

  /** Removes the object at once, ignoring finalizers (test setup helper). */
  forceRemove(key: string): boolean {
    if (!this.#objects.has(key)) return false;
    this.#remove(key);
    return true;
  }

  #remove(key: string): void {
    this.#objects.delete(key);
    this.#options.informer.deliverDelete(key);
  }

  #require(key: string, name: string): JsonObject {
    const stored = this.#objects.get(key);
    if (stored === undefined) throw new KubeApiError(`${this.#options.resource} "${name}" not found`, 404, 'NotFound');
    return stored;
  }

  #stamp(object: JsonObject): JsonObject {
    object.apiVersion = 'v1';
    object.kind = this.#options.kind;
    return object;
  }

  #commit(key: string, name: string, current: JsonObject, candidate: JsonObject, subresource: Subresource): T {
    const currentMetadata = metadataOf(current);
    const requestedVersion = stringField(metadataOf(candidate), 'resourceVersion');
    if (requestedVersion !== undefined && requestedVersion !== '' && requestedVersion !== currentMetadata.resourceVersion) {
      throw new KubeApiError(
        `Operation cannot be fulfilled on ${this.#options.resource} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
        409,
        'Conflict',
      );
    }
    let next: JsonObject;
    if (subresource === 'status') {
      next = structuredClone(current);
      if (candidate.status === undefined) delete next.status;
      else next.status = candidate.status;
    } else {
      next = structuredClone(candidate);
      if (current.status === undefined) delete next.status;
      else next.status = structuredClone(current.status);
      const metadata = metadataOf(next);
      for (const field of ['name', 'namespace', 'uid', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'generation']) {
        if (currentMetadata[field] === undefined) delete metadata[field];
        else metadata[field] = structuredClone(currentMetadata[field]) as JsonValue;
      }
      if (currentMetadata.deletionTimestamp !== undefined) {
        const added = finalizersOf(next).filter((finalizer) => !finalizersOf(current).includes(finalizer));
        if (added.length > 0) {
          throw new KubeApiError(
            `${this.#options.resource} "${name}" is forbidden: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers ${JSON.stringify(added)}`,
            422,
            'Invalid',
          );
        }
      }
    }
    metadataOf(next).resourceVersion = currentMetadata.resourceVersion ?? null;
    if (jsonEqual(next, current)) return fromWire<T>(current, this.#options.model);
    if (currentMetadata.deletionTimestamp !== undefined && finalizersOf(next).length === 0) {
      this.#remove(key);
      return fromWire<T>(next, this.#options.model);
    }
    metadataOf(next).resourceVersion = this.#options.nextResourceVersion();
    this.#objects.set(key, next);
    this.#options.informer.deliverUpdate(key, fromWire<T>(next, this.#options.model));
    return fromWire<T>(next, this.#options.model);
  }
}
