/**
 * client-go's EventCorrelator (tools/record/events_cache.go), in three steps per event:
 * 1. spam filter: a token bucket per (source, object, type): burst 25, one token per 5 min;
 *    events beyond it are dropped;
 * 2. aggregator: once an (source, object, type, reason) produced 10 distinct messages within
 *    10 min, further ones become "(combined from similar events): <message>";
 * 3. deduplication: a repeat of an identical event becomes a patch of the existing Event
 *    (count + 1, lastTimestamp) instead of a new Event.
 *
 * Each step keeps a 4096-entry LRU, as client-go does. Unlike client-go, entries that can no longer
 * change an outcome are also dropped, once a minute: an aggregate record older than the 10-minute
 * window (it would start afresh), a spam bucket that has refilled (the same as a new one), and an
 * observation not seen for an hour (the API server's default `--event-ttl`: its Event is gone, and
 * a patch of it would be answered 404 and become a create). client-go's caches fill up to 4096
 * entries with the keys of Nodes and Services long deleted; in a churning cluster that is a slow
 * climb of several MiB (seen in the soak).
 */
import type { CoreV1Event } from '@kubernetes/client-node';
import { LruCache } from './lru-cache.js';
import { TokenBucket } from './token-bucket.js';

export const SPAM_FILTER_BURST = 25;
export const SPAM_FILTER_QPS = 1 / 300;
export const AGGREGATE_MAX_EVENTS = 10;
export const AGGREGATE_INTERVAL_MS = 600_000;
export const EVENT_CACHE_SIZE = 4096;
export const COMBINED_MESSAGE_PREFIX = '(combined from similar events): ';
/** The API server's default `--event-ttl`: an Event not written for this long is gone. */
export const OBSERVATION_TTL_MS = 3_600_000;
/** How often the caches drop what can no longer change an outcome. */
export const EVENT_CACHE_SWEEP_INTERVAL_MS = 60_000;

export type CorrelationResult =
  /** Dropped by the spam filter. */
  | { action: 'skip' }
  /** First occurrence: create `event`. */
  | { action: 'create'; event: CoreV1Event; key: string }
  /** Repeat: patch the Event `event.metadata.name` with `patch`; create `event` if it is gone. */
  | { action: 'patch'; event: CoreV1Event; patch: { count: number; lastTimestamp: string; message: string }; key: string };

interface Observation {
  lastSeenMs: number;
  count: number;
  firstTimestamp: Date | undefined;
  name: string;
  resourceVersion: string | undefined;
}

interface AggregateRecord {
  messages: Set<string>;
  lastTimestampMs: number;
}

const join = (parts: Array<string | undefined>): string => parts.map((part) => part ?? '').join('\u0000');

function objectParts(event: CoreV1Event): Array<string | undefined> {
  const object = event.involvedObject;
  return [event.source?.component, event.source?.host, object.kind, object.namespace, object.name, object.uid, object.apiVersion];
}

export class EventCorrelator {
  readonly #now: () => Date;
  readonly #spamBuckets = new LruCache<string, TokenBucket>(EVENT_CACHE_SIZE);
  readonly #aggregates = new LruCache<string, AggregateRecord>(EVENT_CACHE_SIZE);
  readonly #observations = new LruCache<string, Observation>(EVENT_CACHE_SIZE);
  #lastSweepMs: number;

  constructor(now: () => Date = () => new Date()) {
    this.#now = now;
    this.#lastSweepMs = now().getTime();
  }

  /** Entries held by the spam filter, the aggregator and the deduplication (for tests and the soak). */
  cachedEntries(): { spamBuckets: number; aggregates: number; observations: number } {
    return { spamBuckets: this.#spamBuckets.size, aggregates: this.#aggregates.size, observations: this.#observations.size };
  }

  /** Decides what to do with a freshly made event (count 1, first == last timestamp). */
  correlate(input: CoreV1Event): CorrelationResult {
    const event = structuredClone(input);
    this.#sweep(this.#now().getTime());
    if (!this.#allowedBySpamFilter(event)) return { action: 'skip' };
    const key = this.#aggregate(event);
    const previous = this.#observations.get(key);
    const lastTimestamp = event.lastTimestamp ?? this.#now();
    if (previous === undefined) {
      this.#observations.set(key, { lastSeenMs: lastTimestamp.getTime(), count: 1, firstTimestamp: event.firstTimestamp, name: event.metadata?.name ?? '', resourceVersion: undefined });
      return { action: 'create', event, key };
    }
    const count = previous.count + 1;
    event.count = count;
    if (previous.firstTimestamp !== undefined) event.firstTimestamp = previous.firstTimestamp;
    event.metadata = { ...event.metadata, name: previous.name };
    if (previous.resourceVersion !== undefined) event.metadata.resourceVersion = previous.resourceVersion;
    this.#observations.set(key, { ...previous, lastSeenMs: lastTimestamp.getTime(), count });
    return { action: 'patch', event, key, patch: { count, lastTimestamp: lastTimestamp.toISOString(), message: event.message ?? '' } };
  }

  /** Records the server's view (name, resourceVersion) after a successful write. */
  updateState(key: string, written: CoreV1Event): void {
    const previous = this.#observations.get(key);
    this.#observations.set(key, {
      lastSeenMs: previous?.lastSeenMs ?? this.#now().getTime(),
      count: written.count ?? previous?.count ?? 1,
      firstTimestamp: written.firstTimestamp ?? previous?.firstTimestamp,
      name: written.metadata?.name ?? previous?.name ?? '',
      resourceVersion: written.metadata?.resourceVersion,
    });
  }

  #sweep(now: number): void {
    if (now - this.#lastSweepMs < EVENT_CACHE_SWEEP_INTERVAL_MS) return;
    this.#lastSweepMs = now;
    this.#aggregates.deleteWhere((record) => now - record.lastTimestampMs > AGGREGATE_INTERVAL_MS);
    this.#spamBuckets.deleteWhere((bucket) => bucket.available() >= SPAM_FILTER_BURST);
    this.#observations.deleteWhere((observation) => now - observation.lastSeenMs > OBSERVATION_TTL_MS);
  }

  #allowedBySpamFilter(event: CoreV1Event): boolean {
    const key = join([...objectParts(event), event.type]);
    let bucket = this.#spamBuckets.get(key);
    if (bucket === undefined) {
      bucket = new TokenBucket({ qps: SPAM_FILTER_QPS, burst: SPAM_FILTER_BURST, now: () => this.#now().getTime() });
      this.#spamBuckets.set(key, bucket);
    }
    return bucket.tryTake();
  }

  /** Returns the dedupe key, rewriting the message when similar events are being combined. */
  #aggregate(event: CoreV1Event): string {
    const aggregateKey = join([...objectParts(event), event.type, event.reason, event.reportingComponent, event.reportingInstance]);
    const fullKey = join([...objectParts(event), event.involvedObject.fieldPath, event.type, event.reason, event.message]);
    const now = this.#now().getTime();
    let record = this.#aggregates.get(aggregateKey);
    if (record === undefined || now - record.lastTimestampMs > AGGREGATE_INTERVAL_MS) record = { messages: new Set(), lastTimestampMs: now };
    record.messages.add(event.message ?? '');
    record.lastTimestampMs = now;
    this.#aggregates.set(aggregateKey, record);
    if (record.messages.size < AGGREGATE_MAX_EVENTS) return fullKey;
    // Like client-go, keep the message set below the limit (drop an arbitrary one).
    const dropped = record.messages.values().next();
    if (!dropped.done) record.messages.delete(dropped.value);
    event.message = `${COMBINED_MESSAGE_PREFIX}${event.message ?? ''}`;
    return aggregateKey;
  }
}
