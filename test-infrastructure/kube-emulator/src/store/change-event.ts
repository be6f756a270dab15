import type { StoredObject } from '../resources/resource-definition.js';

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One committed write, as kept in the watch history and delivered to watchers. */
export interface ChangeEvent {
  readonly type: ChangeType;
  readonly resourceVersion: number;
  /** `namespace/name` or `name`. */
  readonly key: string;
  /** The new revision; for DELETED the last state, carrying the deletion's resourceVersion. */
  readonly object: StoredObject;
  /** The revision before the write (undefined for ADDED). */
  readonly previous: StoredObject | undefined;
}
