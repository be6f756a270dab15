import type { CoreV1Event } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { AGGREGATE_INTERVAL_MS, EventCorrelator, OBSERVATION_TTL_MS, SPAM_FILTER_BURST } from './event-correlator.js';

const MINUTE = 60_000;

function clock() {
  let now = new Date('2026-03-01T00:00:00.000Z').getTime();
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

function event(name: string, message = 'Synced', reason = 'Synced'): CoreV1Event {
  return {
    metadata: { name: `${name}.1`, namespace: 'default' },
    involvedObject: { kind: 'Node', name, uid: `uid-${name}` },
    reason,
    message,
    type: 'Normal',
    source: { component: 'cloud-node-controller' },
    count: 1,
  };
}

describe('EventCorrelator caches', () => {
  it('drop what cannot change an outcome any more: aggregates after 10 minutes, refilled spam buckets, observations after an hour', () => {
    const time = clock();
    const correlator = new EventCorrelator(time.now);
    for (let index = 0; index < 100; index++) correlator.correlate(event(`node-${index}`));
    expect(correlator.cachedEntries()).toEqual({ spamBuckets: 100, aggregates: 100, observations: 100 });
    // One token taken from each bucket: refilled after 5 minutes; the aggregates live 10 minutes.
    time.advance(6 * MINUTE);
    correlator.correlate(event('other'));
    expect(correlator.cachedEntries()).toEqual({ spamBuckets: 1, aggregates: 101, observations: 101 });
    time.advance(AGGREGATE_INTERVAL_MS);
    correlator.correlate(event('other'));
    expect(correlator.cachedEntries()).toEqual({ spamBuckets: 1, aggregates: 1, observations: 101 });
    time.advance(OBSERVATION_TTL_MS);
    correlator.correlate(event('other'));
    expect(correlator.cachedEntries()).toEqual({ spamBuckets: 1, aggregates: 1, observations: 1 });
  });

  it('keeps deduplicating an event seen within the hour, across sweeps', () => {
    const time = clock();
    const correlator = new EventCorrelator(time.now);
    expect(correlator.correlate(event('n1')).action).toBe('create');
    for (let index = 0; index < 5; index++) {
      time.advance(30 * MINUTE);
      const result = correlator.correlate(event('n1'));
      expect(result.action).toBe('patch');
      expect(result.action === 'patch' && result.patch.count).toBe(index + 2);
    }
  });

  it('keeps a spam bucket that has not refilled: a flapping object stays limited', () => {
    const time = clock();
    const correlator = new EventCorrelator(time.now);
    for (let index = 0; index < SPAM_FILTER_BURST; index++) expect(correlator.correlate(event('flapping', `message ${index}`, `Reason${index}`)).action).not.toBe('skip');
    time.advance(2 * MINUTE);
    expect(correlator.correlate(event('flapping', 'one more', 'Another')).action).toBe('skip');
    expect(correlator.cachedEntries().spamBuckets).toBe(1);
  });
});
