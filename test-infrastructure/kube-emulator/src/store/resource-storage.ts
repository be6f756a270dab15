/**
 * The objects of one storage (e.g. all Nodes) plus a bounded history of changes, which serves
 * watch resumption and consistent paginated lists at an older resourceVersion.
 */
import type { StoredObject } from '../resources/resource-definition.js';
import { RingBuffer } from '../util/ring-buffer.js';
import type { ChangeEvent } from './change-event.js';
import type { WatchSubscription } from './watch-subscription.js';

export const objectKey = (namespace: string | undefined, name: string): string => (namespace ? `${namespace}/${name}` : name);

const byKey = (left: string, right: string): number => (left < right ? -1 : left > right ? 1 : 0);

export class ResourceStorage {
  private readonly objects = new Map<string, StoredObject>();
  private sorted: string[] | undefined;
  private readonly history: RingBuffer<ChangeEvent>;
  /** Every change with a resourceVersion above this is still in the history. */
  private retainedAfter = 0;
  private lastChange = 0;
  readonly watchers = new Set<WatchSubscription>();

  constructor(
    readonly key: string,
    historySize: number,
  ) {
    this.history = new RingBuffer<ChangeEvent>(historySize);
  }

  get size(): number {
    return this.objects.size;
  }

  /** The oldest resourceVersion a watch may resume from. */
  get oldestResumableVersion(): number {
    return this.retainedAfter;
  }

  get(key: string): StoredObject | undefined {
    return this.objects.get(key);
  }

  values(): IterableIterator<StoredObject> {
    return this.objects.values();
  }

  sortedKeys(): readonly string[] {
    this.sorted ??= [...this.objects.keys()].sort(byKey);
    return this.sorted;
  }

  apply(event: ChangeEvent): void {
    if (event.type === 'DELETED') {
      this.objects.delete(event.key);
      this.sorted = undefined;
    } else {
      if (!this.objects.has(event.key)) this.sorted = undefined;
      this.objects.set(event.key, event.object);
    }
    this.lastChange = event.resourceVersion;
    const evicted = this.history.push(event);
    if (evicted) this.retainedAfter = evicted.resourceVersion;
  }

  /** Changes after `resourceVersion`, oldest first; undefined when some of them were evicted. */
  eventsSince(resourceVersion: number): ChangeEvent[] | undefined {
    if (resourceVersion < this.retainedAfter) return undefined;
    const events: ChangeEvent[] = [];
    for (let index = this.history.length - 1; index >= 0; index--) {
      const event = this.history.at(index);
      if (event.resourceVersion <= resourceVersion) break;
      events.push(event);
    }
    return events.reverse();
  }

  /**
   * The objects as they were at `resourceVersion` (keys sorted), rebuilt by undoing later changes;
   * undefined when the history no longer reaches back that far.
   */
  snapshot(resourceVersion: number): { objects: ReadonlyMap<string, StoredObject>; keys: readonly string[] } | undefined {
    if (resourceVersion >= this.lastChange) return { objects: this.objects, keys: this.sortedKeys() };
    const later = this.eventsSince(resourceVersion);
    if (!later) return undefined;
    const objects = new Map(this.objects);
    for (let index = later.length - 1; index >= 0; index--) {
      const event = later[index] as ChangeEvent;
      if (event.type === 'ADDED' || !event.previous) objects.delete(event.key);
      else objects.set(event.key, event.previous);
    }
    return { objects, keys: [...objects.keys()].sort(byKey) };
  }

  /** Forgets the history: resuming from any earlier resourceVersion now answers 410. */
  compact(currentResourceVersion: number): void {
    this.history.clear();
    this.retainedAfter = currentResourceVersion;
  }
}
