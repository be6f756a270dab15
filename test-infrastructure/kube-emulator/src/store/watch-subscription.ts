/**
 * One watcher's view of a storage: its namespace and selectors, and the kube rule that an
 * object entering the selection is ADDED and one leaving it is DELETED.
 */
import type { ResourceDefinition, StoredObject } from '../resources/resource-definition.js';
import type { FieldSelector } from '../selectors/field-selector.js';
import type { LabelSelector } from '../selectors/label-selector.js';
import type { ChangeEvent, ChangeType } from './change-event.js';

export interface WatchTarget {
  /** The served definition (its version decides the representation sent). */
  definition: ResourceDefinition;
  namespace?: string;
  labelSelector: LabelSelector;
  fieldSelector: FieldSelector;
}

export interface WatchSink {
  send(type: ChangeType, object: StoredObject): void;
}

export function targetMatches(target: WatchTarget, object: StoredObject): boolean {
  if (target.namespace !== undefined && object.metadata.namespace !== target.namespace) return false;
  if (!target.labelSelector.empty && !target.labelSelector.matches(object.metadata.labels)) return false;
  if (target.fieldSelector.empty) return true;
  const selectors = target.definition.fieldSelectors;
  return target.fieldSelector.matches((field) => selectors[field]?.(object) ?? '');
}

/** The previous state re-stamped with the event's resourceVersion (what kube sends when an object leaves a selection). */
function withResourceVersion(object: StoredObject, resourceVersion: number): StoredObject {
  return Object.freeze({ ...object, metadata: Object.freeze({ ...object.metadata, resourceVersion: String(resourceVersion) }) });
}

export class WatchSubscription {
  constructor(
    readonly target: WatchTarget,
    private readonly sink: WatchSink,
  ) {}

  matches(object: StoredObject): boolean {
    return targetMatches(this.target, object);
  }

  deliver(event: ChangeEvent): void {
    if (event.type === 'DELETED') {
      if (this.matches(event.object)) this.sink.send('DELETED', event.object);
      return;
    }
    const now = this.matches(event.object);
    const before = event.previous !== undefined && this.matches(event.previous);
    if (now && before) this.sink.send('MODIFIED', event.object);
    else if (now) this.sink.send('ADDED', event.object);
    else if (before && event.previous) this.sink.send('DELETED', withResourceVersion(event.previous, event.resourceVersion));
  }

  sendInitial(object: StoredObject): void {
    if (this.matches(object)) this.sink.send('ADDED', object);
  }
}
