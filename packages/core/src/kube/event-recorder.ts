/**
 * client-go's event broadcaster + recorder (tools/record): `recorder(component).event(...)`
 * never blocks nor throws; events go into a bounded queue (1000, dropped with a warning when
 * full) that one worker writes to the API through an EventSink, after the EventCorrelator
 * (spam filter, aggregation, dedupe). A repeat patches the existing Event (count,
 * lastTimestamp), falling back to a create when it is gone. Transport errors are retried (12
 * tries, 10 s apart); API errors are logged and the event dropped.
 */
import type { CoreV1Event } from '@kubernetes/client-node';
import type { Logger } from '../logging/logger.js';
import { errorMessage } from '../util/error-message.js';
import { EventCorrelator } from './event-correlator.js';
import { KubeApiError } from './kube-api-error.js';
import { eventNamespaceFor, objectReferenceFor } from './object-reference.js';
import type { EventRecorder, EventSubject, EventType } from './ports.js';

/** Where events are written (core/v1 Events). Errors should be KubeApiError. */
export interface EventSink {
  create(namespace: string, event: CoreV1Event): Promise<CoreV1Event>;
  /** Strategic merge patch of an existing Event. */
  patch(namespace: string, name: string, patch: { count: number; lastTimestamp: string; message: string }): Promise<CoreV1Event>;
}

export interface EventBroadcasterOptions {
  sink: EventSink;
  logger: Logger;
  /** Injectable clock (tests). */
  now?: () => Date;
  /** Injectable sleep between retries (tests). */
  sleep?: (ms: number) => Promise<void>;
  /** `source.host` / `reportingInstance`; upstream CCM leaves it empty. */
  host?: string;
  queueLength?: number;
  maxTries?: number;
  retryIntervalMs?: number;
}

interface PendingEvent {
  event: CoreV1Event;
}

const defaultSleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
  });

export class EventBroadcaster {
  readonly #options: EventBroadcasterOptions;
  readonly #now: () => Date;
  readonly #correlator: EventCorrelator;
  readonly #queue: PendingEvent[] = [];
  readonly #idleWaiters: Array<() => void> = [];
  #working = false;
  #stopped = false;
  #lastNanos = 0n;

  constructor(options: EventBroadcasterOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
    this.#correlator = new EventCorrelator(this.#now);
  }

  /** A recorder whose events carry `source.component` and `reportingComponent` = `component`. */
  recorder(component: string): EventRecorder {
    return {
      event: (subject: EventSubject, type: EventType, reason: string, message: string): void => {
        try {
          this.#enqueue(this.#makeEvent(component, subject, type, reason, message));
        } catch (error) {
          this.#options.logger.error('Could not record event', { component, reason, error: errorMessage(error) });
        }
      },
    };
  }

  /** Resolves once every queued event has been handled (tests, orderly shutdown). */
  flush(): Promise<void> {
    if (!this.#working && this.#queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /** Stops writing; queued events are dropped, later ones ignored. */
  shutdown(): void {
    this.#stopped = true;
    this.#queue.length = 0;
    if (!this.#working) this.#notifyIdle();
  }

  #makeEvent(component: string, subject: EventSubject, type: EventType, reason: string, message: string): CoreV1Event {
    const involvedObject = objectReferenceFor(subject);
    const now = this.#now();
    const host = this.#options.host;
    // client-go names events `<object>.<UnixNano hex>`; our clock has ms precision, so keep
    // names strictly increasing to avoid AlreadyExists for events made in the same millisecond.
    let nanos = BigInt(now.getTime()) * 1_000_000n;
    if (nanos <= this.#lastNanos) nanos = this.#lastNanos + 1n;
    this.#lastNanos = nanos;
    return {
      metadata: { name: `${involvedObject.name ?? ''}.${nanos.toString(16)}`, namespace: eventNamespaceFor(involvedObject) },
      involvedObject,
      reason,
      message,
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
      type,
      source: host ? { component, host } : { component },
      reportingComponent: component,
      reportingInstance: host ?? '',
    };
  }

  #enqueue(event: CoreV1Event): void {
    if (this.#stopped) return;
    this.#options.logger.verbose(3, 'Event occurred', {
      object: `${event.involvedObject.namespace ? `${event.involvedObject.namespace}/` : ''}${event.involvedObject.name ?? ''}`,
      kind: event.involvedObject.kind,
      apiVersion: event.involvedObject.apiVersion,
      type: event.type,
      reason: event.reason,
      message: event.message,
    });
    if (this.#queue.length >= (this.#options.queueLength ?? 1000)) {
      this.#options.logger.warn('Event queue full, dropping event', { reason: event.reason, object: event.involvedObject.name });
      return;
    }
    this.#queue.push({ event });
    if (!this.#working) void this.#work();
  }

  async #work(): Promise<void> {
    this.#working = true;
    try {
      for (let next = this.#queue.shift(); next !== undefined && !this.#stopped; next = this.#queue.shift()) {
        await this.#recordToSink(next.event);
      }
    } finally {
      this.#working = false;
      this.#notifyIdle();
    }
  }

  #notifyIdle(): void {
    for (const waiter of this.#idleWaiters.splice(0)) waiter();
  }

  async #recordToSink(fresh: CoreV1Event): Promise<void> {
    const correlation = this.#correlator.correlate(fresh);
    if (correlation.action === 'skip') {
      this.#options.logger.verbose(4, 'Event dropped by the spam filter', { reason: fresh.reason, object: fresh.involvedObject.name });
      return;
    }
    const maxTries = this.#options.maxTries ?? 12;
    for (let attempt = 1; !this.#stopped; attempt += 1) {
      const outcome = await this.#write(correlation);
      if (outcome === 'done') return;
      if (attempt >= maxTries) {
        this.#options.logger.error('Unable to write event (retry limit exceeded!)', { reason: fresh.reason, object: fresh.involvedObject.name });
        return;
      }
      await (this.#options.sleep ?? defaultSleep)(this.#options.retryIntervalMs ?? 10_000);
    }
  }

  async #write(correlation: Exclude<ReturnType<EventCorrelator['correlate']>, { action: 'skip' }>): Promise<'done' | 'retry'> {
    const { event, key } = correlation;
    const namespace = event.metadata?.namespace ?? 'default';
    try {
      let written: CoreV1Event | undefined;
      if (correlation.action === 'patch') {
        try {
          written = await this.#options.sink.patch(namespace, event.metadata?.name ?? '', correlation.patch);
        } catch (error) {
          if (!(error instanceof KubeApiError && error.isNotFound)) throw error;
        }
      }
      if (written === undefined) {
        const toCreate = structuredClone(event);
        if (toCreate.metadata) delete toCreate.metadata.resourceVersion;
        if (correlation.action === 'patch') toCreate.lastTimestamp = new Date(correlation.patch.lastTimestamp);
        written = await this.#options.sink.create(namespace, toCreate);
      }
      this.#correlator.updateState(key, written);
      return 'done';
    } catch (error) {
      const message = errorMessage(error);
      if (error instanceof KubeApiError && error.statusCode !== 0) {
        if (error.isAlreadyExists) this.#options.logger.verbose(5, 'Server rejected event (will not retry!)', { reason: event.reason, error: message });
        else this.#options.logger.error('Server rejected event (will not retry!)', { reason: event.reason, object: event.involvedObject.name, error: message });
        return 'done';
      }
      this.#options.logger.warn('Unable to write event (may retry after sleeping)', { reason: event.reason, object: event.involvedObject.name, error: message });
      return 'retry';
    }
  }
}
