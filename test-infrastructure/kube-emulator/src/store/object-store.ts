/**
 * The in-memory store: one ResourceStorage per storage key, a single global resourceVersion,
 * and synchronous fan-out of every committed change to watchers and listeners.
 */
import { statusErrors } from '../api/status-error.js';
import type { KubeObject } from '../api/kube-object.js';
import type { ResourceContext, ResourceDefinition, StoredObject } from '../resources/resource-definition.js';
import { deepFreeze } from '../util/json.js';
import type { ChangeEvent, ChangeType } from './change-event.js';
import { objectKey, ResourceStorage } from './resource-storage.js';
import { WatchSubscription, type WatchSink, type WatchTarget } from './watch-subscription.js';

export interface ObjectStoreOptions {
  definitions: readonly ResourceDefinition[];
  /** Changes kept per storage for watch resumption (older resourceVersions answer 410). */
  watchHistorySize: number;
  clock?: () => Date;
}

export type ChangeListener = (event: ChangeEvent, storageKey: string) => void;

export class ObjectStore {
  private revision = 0;
  private readonly storages = new Map<string, ResourceStorage>();
  private readonly listeners = new Set<ChangeListener>();
  readonly definitions: readonly ResourceDefinition[];
  readonly context: ResourceContext;
  readonly now: () => Date;

  constructor(options: ObjectStoreOptions) {
    this.definitions = options.definitions;
    this.now = options.clock ?? (() => new Date());
    for (const definition of options.definitions) {
      if (!this.storages.has(definition.storageKey)) this.storages.set(definition.storageKey, new ResourceStorage(definition.storageKey, options.watchHistorySize));
    }
    this.context = {
      now: this.now,
      listStored: (storageKey) => [...(this.storages.get(storageKey)?.values() ?? [])],
    };
  }

  get resourceVersion(): number {
    return this.revision;
  }

  storage(definition: ResourceDefinition): ResourceStorage {
    const storage = this.storages.get(definition.storageKey);
    if (!storage) throw new Error(`no storage for ${definition.storageKey}`);
    return storage;
  }

  allStorages(): IterableIterator<ResourceStorage> {
    return this.storages.values();
  }

  get(definition: ResourceDefinition, namespace: string | undefined, name: string): StoredObject | undefined {
    return this.storage(definition).get(objectKey(definition.namespaced ? namespace : undefined, name));
  }

  /**
   * Commits a write: stamps the next resourceVersion, freezes the revision, records the change
   * and delivers it. For DELETED, `object` is the last state (re-stamped with the new version).
   */
  commit(definition: ResourceDefinition, type: ChangeType, object: KubeObject, previous: StoredObject | undefined): StoredObject {
    const storage = this.storage(definition);
    const resourceVersion = ++this.revision;
    const stored = type === 'DELETED' ? { ...object, metadata: { ...object.metadata } } : object;
    stored.metadata.resourceVersion = String(resourceVersion);
    deepFreeze(stored);
    const key = objectKey(definition.namespaced ? stored.metadata.namespace : undefined, stored.metadata.name ?? '');
    const event: ChangeEvent = { type, resourceVersion, key, object: stored, previous };
    storage.apply(event);
    for (const watcher of storage.watchers) watcher.deliver(event);
    for (const listener of this.listeners) {
      try {
        listener(event, storage.key);
      } catch (error) {
        // The write has happened; a failing listener must not turn it into an error for the writer.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
    return stored;
  }

  /**
   * Starts a watch. `from: 'now-with-state'` sends the current objects as ADDED first (a watch
   * without resourceVersion or with "0"); a number resumes after that resourceVersion from the
   * history. Throws 410 Expired when the history no longer reaches back that far.
   */
  watch(target: WatchTarget, from: 'now-with-state' | number, sink: WatchSink): () => void {
    const storage = this.storage(target.definition);
    const subscription = new WatchSubscription(target, sink);
    if (from === 'now-with-state') {
      for (const key of storage.sortedKeys()) {
        const object = storage.get(key);
        if (object) subscription.sendInitial(object);
      }
    } else {
      if (from > this.revision) throw statusErrors.resourceVersionTooLarge(from, this.revision);
      const events = storage.eventsSince(from);
      if (!events) throw statusErrors.expired(`too old resource version: ${from} (${storage.oldestResumableVersion + 1})`);
      for (const event of events) subscription.deliver(event);
    }
    storage.watchers.add(subscription);
    return () => {
      storage.watchers.delete(subscription);
    };
  }

  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Drops every storage's history so that any resumption from an older resourceVersion gets 410. */
  compactHistory(): void {
    for (const storage of this.storages.values()) storage.compact(this.revision);
  }

  watcherCount(): number {
    let count = 0;
    for (const storage of this.storages.values()) count += storage.watchers.size;
    return count;
  }
}
