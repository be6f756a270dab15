/**
 * An EventRecorder for tests: it keeps every call (no aggregation, no spam filter) with the
 * ObjectReference the real recorder would build, so tests can assert reasons, messages and the
 * involved object (e.g. `apiVersion: 'v1'` on Node events).
 */
import type { V1ObjectReference } from '@kubernetes/client-node';
import { eventNamespaceFor, type EventRecorder, type EventSubject, type EventType, objectReferenceFor } from '@ccm/core/kube';

/** One `event(...)` call as recorded. */
export interface RecordedEvent {
  /** The component passed to `eventRecorder(component)` (event `source.component`). */
  component: string;
  /** Namespace the Event would be written to (`default` for cluster-scoped objects). */
  namespace: string;
  involvedObject: V1ObjectReference;
  type: EventType;
  reason: string;
  message: string;
  timestamp: Date;
}

/** Criteria for {@link RecordingEventLog.find}; every given field must match. */
export interface RecordedEventFilter {
  component?: string;
  type?: EventType;
  reason?: string;
  /** Name of the involved object. */
  name?: string;
  kind?: string;
}

/** The shared list of events recorded by every recorder of one in-memory cluster. */
export class RecordingEventLog {
  readonly #events: RecordedEvent[] = [];
  readonly #now: () => Date;

  /** @param now clock used for `timestamp` (defaults to the real clock). */
  constructor(now: () => Date = () => new Date()) {
    this.#now = now;
  }

  /** All recorded events, oldest first (a copy). */
  get events(): RecordedEvent[] {
    return [...this.#events];
  }

  /** A recorder reporting as `component`, appending to this log. */
  recorder(component: string): EventRecorder {
    return {
      event: (subject: EventSubject, type: EventType, reason: string, message: string): void => {
        const involvedObject = objectReferenceFor(subject);
        this.#events.push({ component, namespace: eventNamespaceFor(involvedObject), involvedObject, type, reason, message, timestamp: this.#now() });
      },
    };
  }

  /** Events matching every field of `filter`. */
  find(filter: RecordedEventFilter = {}): RecordedEvent[] {
    return this.#events.filter(
      (event) =>
        (filter.component === undefined || event.component === filter.component) &&
        (filter.type === undefined || event.type === filter.type) &&
        (filter.reason === undefined || event.reason === filter.reason) &&
        (filter.name === undefined || event.involvedObject.name === filter.name) &&
        (filter.kind === undefined || event.involvedObject.kind === filter.kind),
    );
  }

  /** Forgets every recorded event. */
  clear(): void {
    this.#events.length = 0;
  }
}
