import { MetricsRegistry } from '../app/metrics/prometheus-metrics-sink.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Coalescer, type CoalescerOptions } from './coalescer.js';
import { CoalescerBatchFailedError, CoalescerClosedError, CoalescerKeyNotFoundError, isCoalescerError } from './coalescer-errors.js';
import { createCoalescerMetrics } from './coalescer-metrics.js';

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A batch loader that answers `value-<key>` for every key, recording each call's keys. */
function echoLoader(): { calls: string[][]; batchLoad: CoalescerOptions<string, string>['batchLoad'] } {
  const calls: string[][] = [];
  return {
    calls,
    batchLoad: async (keys) => {
      calls.push([...keys]);
      return new Map(keys.map((key) => [key, `value-${key}`]));
    },
  };
}

/** A batch loader whose calls stay in flight until the test resolves `answers[i]`; each answers `key` for every key. */
function heldLoader(): { calls: string[][]; answers: Array<Deferred<void>>; batchLoad: CoalescerOptions<string, string>['batchLoad'] } {
  const calls: string[][] = [];
  const answers: Array<Deferred<void>> = [];
  return {
    calls,
    answers,
    batchLoad: (keys) => {
      calls.push([...keys]);
      const answer = deferred<void>();
      answers.push(answer);
      return answer.promise.then(() => new Map(keys.map((key) => [key, key])));
    },
  };
}

/** Collects a promise's outcome without an unhandled rejection. */
function settle<T>(promise: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  return promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}

describe('Coalescer', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends loads that arrive within the window as one batch call and fans the answers out', async () => {
    const loader = echoLoader();
    const coalescer = new Coalescer({ name: 'instances', batchLoad: loader.batchLoad, windowMs: 10 });
    const first = coalescer.load('a');
    await vi.advanceTimersByTimeAsync(4);
    const second = coalescer.load('b');
    await vi.advanceTimersByTimeAsync(5);
    expect(loader.calls).toEqual([]);
    const third = coalescer.load('c');
    await vi.advanceTimersByTimeAsync(1);
    expect(loader.calls).toEqual([['a', 'b', 'c']]);
    await expect(Promise.all([first, second, third])).resolves.toEqual(['value-a', 'value-b', 'value-c']);
  });

  it('measures the window from the oldest queued key, so a later key starts a new batch', async () => {
    const loader = echoLoader();
    const coalescer = new Coalescer({ name: 'instances', batchLoad: loader.batchLoad, windowMs: 10 });
    const first = coalescer.load('a');
    await vi.advanceTimersByTimeAsync(10);
    const second = coalescer.load('b');
    await vi.advanceTimersByTimeAsync(10);
    expect(loader.calls).toEqual([['a'], ['b']]);
    await Promise.all([first, second]);
  });

  it('coalesces loads of the same tick even with a zero window', async () => {
    const loader = echoLoader();
    const coalescer = new Coalescer({ name: 'instances', batchLoad: loader.batchLoad, windowMs: 0 });
    const loads = ['a', 'b', 'c'].map((key) => coalescer.load(key));
    await vi.advanceTimersByTimeAsync(0);
    expect(loader.calls).toEqual([['a', 'b', 'c']]);
    await Promise.all(loads);
  });

  it('sends a full batch at once, without waiting for the window, and splits at maxBatchSize', async () => {
    const loader = echoLoader();
    const coalescer = new Coalescer({ name: 'instances', batchLoad: loader.batchLoad, windowMs: 1_000, maxBatchSize: 100 });
    const keys = Array.from({ length: 250 }, (_, index) => `k${index}`);
    const loads = keys.map((key) => coalescer.load(key));
    await vi.advanceTimersByTimeAsync(0);
    expect(loader.calls.map((call) => call.length)).toEqual([100, 100]);
    expect(coalescer.queuedKeys).toBe(50);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(loader.calls.map((call) => call.length)).toEqual([100, 100, 50]);
    expect(loader.calls.flat()).toEqual(keys);
    await expect(Promise.all(loads)).resolves.toEqual(keys.map((key) => `value-${key}`));
  });

  it('with idleMs, waits while keys keep coming, sends after idleMs of quiet, and at the latest windowMs after the oldest key', async () => {
    const loader = echoLoader();
    const coalescer = new Coalescer({ name: 'instances', batchLoad: loader.batchLoad, windowMs: 100, idleMs: 10 });
    const loads = [coalescer.load('a')];
    for (const key of ['b', 'c', 'd']) {
      await vi.advanceTimersByTimeAsync(8);
      loads.push(coalescer.load(key));
    }
    // 33 ms after the first key and 9 ms after the last one: still gathering.
    await vi.advanceTimersByTimeAsync(9);
    expect(loader.calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(loader.calls).toEqual([['a', 'b', 'c', 'd']]);
    await Promise.all(loads);

    // A steady trickle never goes quiet: the batch leaves windowMs after its oldest key.
    const trickle: Promise<string>[] = [];
    for (let index = 0; index < 20; index++) {
      trickle.push(coalescer.load(`t${index}`));
      await vi.advanceTimersByTimeAsync(6);
    }
    expect(loader.calls.slice(1).map((call) => call.length)).toEqual([17]);
    await vi.advanceTimersByTimeAsync(10);
    expect(loader.calls.slice(1).map((call) => call.length)).toEqual([17, 3]);
    await Promise.all(trickle);
  });

  it('sends a key that is already queued or in flight only once and shares its answer', async () => {
    const answer = deferred<Map<string, string>>();
    const calls: string[][] = [];
    const deduplicated = vi.fn();
    const coalescer = new Coalescer<string, string>({
      name: 'instances',
      batchLoad: (keys) => {
        calls.push([...keys]);
        return answer.promise;
      },
      windowMs: 5,
      observer: { deduplicated },
    });
    const first = coalescer.load('a');
    const queuedTwin = coalescer.load('a');
    await vi.advanceTimersByTimeAsync(5);
    const inFlightTwin = coalescer.load('a');
    await vi.advanceTimersByTimeAsync(50);
    expect(calls).toEqual([['a']]);
    expect(deduplicated).toHaveBeenCalledTimes(2);
    answer.resolve(new Map([['a', 'value-a']]));
    await expect(Promise.all([first, queuedTwin, inFlightTwin])).resolves.toEqual(['value-a', 'value-a', 'value-a']);
    // Nothing is cached: a load after the answer asks the cloud again.
    answer.promise = Promise.resolve(new Map([['a', 'value-a2']]));
    const later = coalescer.load('a');
    await vi.advanceTimersByTimeAsync(5);
    expect(calls).toEqual([['a'], ['a']]);
    await later;
  });

  it('rejects only the key whose answer is an error', async () => {
    const notFound = new Error('instance i-b does not exist');
    const coalescer = new Coalescer<string, string>({
      name: 'instances',
      batchLoad: async (keys) => new Map<string, string | Error>(keys.map((key) => [key, key === 'b' ? notFound : `value-${key}`])),
    });
    const pending = ['a', 'b', 'c'].map((key) => settle(coalescer.load(key)));
    await vi.advanceTimersByTimeAsync(5);
    const results = await Promise.all(pending);
    expect(results).toEqual([{ value: 'value-a' }, { error: notFound }, { value: 'value-c' }]);
  });

  it('rejects a key missing from the answer with a typed not-found error', async () => {
    const coalescer = new Coalescer<string, string>({ name: 'instances', batchLoad: async () => new Map([['a', 'value-a']]) });
    const found = coalescer.load('a');
    const missing = settle(coalescer.load('zzz'));
    await vi.advanceTimersByTimeAsync(5);
    await expect(found).resolves.toBe('value-a');
    const { error } = await missing;
    expect(error).toBeInstanceOf(CoalescerKeyNotFoundError);
    expect(isCoalescerError(error, 'KeyNotFound')).toBe(true);
    expect((error as CoalescerKeyNotFoundError).key).toBe('zzz');
    expect((error as Error).message).toBe('instances: no result for "zzz" in the batch answer');
  });

  it('resolves a missing key through resolveMissing when given', async () => {
    const coalescer = new Coalescer<string, string | undefined>({
      name: 'instances',
      batchLoad: async () => new Map([['a', 'value-a']]),
      resolveMissing: () => undefined,
    });
    const loads = [coalescer.load('a'), coalescer.load('gone')];
    await vi.advanceTimersByTimeAsync(5);
    await expect(Promise.all(loads)).resolves.toEqual(['value-a', undefined]);
  });

  it('keeps an answer of undefined that the batch did return (has, not get)', async () => {
    const coalescer = new Coalescer<string, string | undefined>({ name: 'instances', batchLoad: async () => new Map([['a', undefined]]) });
    const load = coalescer.load('a');
    await vi.advanceTimersByTimeAsync(5);
    await expect(load).resolves.toBeUndefined();
  });

  it('falls back to single lookups when the batch call fails, each key settling on its own', async () => {
    const batchError = Object.assign(new Error('batch endpoint not supported'), { code: 'NotImplemented' });
    const singles: string[] = [];
    const batchFailed = vi.fn();
    const singleSent = vi.fn();
    const coalescer = new Coalescer<string, string>({
      name: 'instances',
      batchLoad: async () => {
        throw batchError;
      },
      singleLoad: async (key) => {
        singles.push(key);
        if (key === 'b') throw new Error('b is broken');
        return `single-${key}`;
      },
      observer: { batchFailed, singleSent },
    });
    const results = ['a', 'b', 'c'].map((key) => settle(coalescer.load(key)));
    await vi.advanceTimersByTimeAsync(5);
    expect(await Promise.all(results)).toEqual([{ value: 'single-a' }, { error: new Error('b is broken') }, { value: 'single-c' }]);
    expect(singles.sort()).toEqual(['a', 'b', 'c']);
    expect(batchFailed).toHaveBeenCalledWith(3, batchError, true);
    expect(singleSent).toHaveBeenCalledTimes(3);
  });

  it('bounds the fallback lookups of one failed batch by fallbackConcurrency', async () => {
    let inFlight = 0;
    let peak = 0;
    const coalescer = new Coalescer<string, string>({
      name: 'instances',
      batchLoad: () => Promise.reject(new Error('down')),
      singleLoad: async (key) => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 10));
        inFlight--;
        return key;
      },
      fallbackConcurrency: 2,
    });
    const loads = Array.from({ length: 7 }, (_, index) => coalescer.load(`k${index}`));
    await vi.advanceTimersByTimeAsync(100);
    await expect(Promise.all(loads)).resolves.toHaveLength(7);
    expect(peak).toBe(2);
  });

  it('rejects every key with the batch error as cause when there is no single lookup', async () => {
    const batchError = new Error('503 Service Unavailable');
    const coalescer = new Coalescer<string, string>({ name: 'instances', batchLoad: () => Promise.reject(batchError) });
    const results = ['a', 'b'].map((key) => settle(coalescer.load(key)));
    await vi.advanceTimersByTimeAsync(5);
    for (const { error } of await Promise.all(results)) {
      expect(error).toBeInstanceOf(CoalescerBatchFailedError);
      expect((error as CoalescerBatchFailedError).cause).toBe(batchError);
      expect((error as CoalescerBatchFailedError).batchSize).toBe(2);
      expect((error as Error).message).toBe('instances: batch lookup of 2 keys failed: 503 Service Unavailable');
    }
  });

  it('does not fall back when shouldFallBack refuses (e.g. throttling)', async () => {
    const throttled = Object.assign(new Error('Rate exceeded'), { code: 'RequestLimitExceeded' });
    const singleLoad = vi.fn(async (key: string) => key);
    const batchFailed = vi.fn();
    const coalescer = new Coalescer<string, string>({
      name: 'instances',
      batchLoad: () => Promise.reject(throttled),
      singleLoad,
      shouldFallBack: (error) => (error as { code?: string }).code !== 'RequestLimitExceeded',
      observer: { batchFailed },
    });
    const result = settle(coalescer.load('a'));
    await vi.advanceTimersByTimeAsync(5);
    expect((await result).error).toBeInstanceOf(CoalescerBatchFailedError);
    expect(singleLoad).not.toHaveBeenCalled();
    expect(batchFailed).toHaveBeenCalledWith(1, throttled, false);
  });

  it('treats a batchLoad that throws synchronously as a failed batch', async () => {
    const coalescer = new Coalescer<string, string>({
      name: 'instances',
      batchLoad: () => {
        throw new Error('bad request built');
      },
      singleLoad: async (key) => `single-${key}`,
    });
    const load = coalescer.load('a');
    await vi.advanceTimersByTimeAsync(5);
    await expect(load).resolves.toBe('single-a');
  });

  it('keeps at most maxConcurrentBatches calls in flight; queued keys then go out in bigger batches', async () => {
    const answers: Array<Deferred<Map<string, string>>> = [];
    const calls: string[][] = [];
    const coalescer = new Coalescer<string, string>({
      name: 'instances',
      batchLoad: (keys) => {
        calls.push([...keys]);
        const answer = deferred<Map<string, string>>();
        answers.push(answer);
        return answer.promise.then(() => new Map(keys.map((key) => [key, key])));
      },
      windowMs: 5,
      maxBatchSize: 10,
      maxConcurrentBatches: 2,
    });
    const loads: Array<Promise<string>> = [];
    for (let index = 0; index < 8; index++) {
      loads.push(coalescer.load(`k${index}`));
      await vi.advanceTimersByTimeAsync(5); // each key alone in its window
    }
    expect(calls).toEqual([['k0'], ['k1']]);
    expect(coalescer.batchesInFlight).toBe(2);
    expect(coalescer.queuedKeys).toBe(6);
    answers[0]!.resolve(new Map());
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual([['k0'], ['k1'], ['k2', 'k3', 'k4', 'k5', 'k6', 'k7']]);
    answers[1]!.resolve(new Map());
    answers[2]!.resolve(new Map());
    await expect(Promise.all(loads)).resolves.toEqual(['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7']);
    expect(coalescer.batchesInFlight).toBe(0);
  });

  it('overlaps full batches up to maxConcurrentFullBatches; a partial batch still waits for a maxConcurrentBatches slot', async () => {
    const { calls, answers, batchLoad } = heldLoader();
    const coalescer = new Coalescer<string, string>({
      name: 'instances',
      batchLoad,
      windowMs: 5,
      maxBatchSize: 3,
      maxConcurrentBatches: 1,
      maxConcurrentFullBatches: 2,
    });
    const keys = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    const loads = keys.map((key) => coalescer.load(key));
    await vi.advanceTimersByTimeAsync(0);
    // Two full batches go out at once; the third full batch would exceed the full batches' slots.
    expect(calls).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e', 'f'],
    ]);
    await vi.advanceTimersByTimeAsync(50);
    // The partial rest waits while any call is out (maxConcurrentBatches 1), window or not.
    expect(calls).toHaveLength(2);
    answers[0]!.resolve();
    await vi.advanceTimersByTimeAsync(50);
    expect(calls).toHaveLength(2);
    answers[1]!.resolve();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls[2]).toEqual(['g', 'h']);
    answers[2]!.resolve();
    await expect(Promise.all(loads)).resolves.toEqual(keys);
    expect(coalescer.batchesInFlight).toBe(0);
  });

  it('never lets maxConcurrentFullBatches lower maxConcurrentBatches', async () => {
    const { calls, answers, batchLoad } = heldLoader();
    const coalescer = new Coalescer<string, string>({
      name: 'instances',
      batchLoad,
      maxBatchSize: 1,
      maxConcurrentBatches: 3,
      maxConcurrentFullBatches: 1,
    });
    const loads = ['a', 'b', 'c'].map((key) => coalescer.load(key));
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual([['a'], ['b'], ['c']]);
    for (const answer of answers) answer.resolve();
    await expect(Promise.all(loads)).resolves.toEqual(['a', 'b', 'c']);
  });

  describe('abort signals', () => {
    it('rejects an already aborted load at once and sends nothing', async () => {
      const loader = echoLoader();
      const coalescer = new Coalescer({ name: 'instances', batchLoad: loader.batchLoad });
      const controller = new AbortController();
      controller.abort(new Error('stopping'));
      await expect(coalescer.load('a', { signal: controller.signal })).rejects.toThrow('stopping');
      await vi.advanceTimersByTimeAsync(10);
      expect(loader.calls).toEqual([]);
    });

    it('drops a queued key whose only caller aborted, and rejects just that caller', async () => {
      const loader = echoLoader();
      const coalescer = new Coalescer({ name: 'instances', batchLoad: loader.batchLoad, windowMs: 10 });
      const controller = new AbortController();
      const aborted = settle(coalescer.load('a', { signal: controller.signal }));
      const kept = coalescer.load('b');
      controller.abort(new Error('node deleted'));
      expect((await aborted).error).toEqual(new Error('node deleted'));
      await vi.advanceTimersByTimeAsync(10);
      expect(loader.calls).toEqual([['b']]);
      await expect(kept).resolves.toBe('value-b');
    });

    it('keeps a shared key alive while one of its callers still waits', async () => {
      const loader = echoLoader();
      const coalescer = new Coalescer({ name: 'instances', batchLoad: loader.batchLoad });
      const controller = new AbortController();
      const aborted = settle(coalescer.load('a', { signal: controller.signal }));
      const kept = coalescer.load('a');
      controller.abort(new Error('gave up'));
      await vi.advanceTimersByTimeAsync(5);
      expect((await aborted).error).toEqual(new Error('gave up'));
      await expect(kept).resolves.toBe('value-a');
      expect(loader.calls).toEqual([['a']]);
    });

    it('aborts the batch call when every caller of its keys gave up, and a new load starts afresh', async () => {
      const seenSignals: AbortSignal[] = [];
      const coalescer = new Coalescer<string, string>({
        name: 'instances',
        batchLoad: (keys, { signal }) => {
          seenSignals.push(signal);
          return new Promise((resolve) => setTimeout(() => resolve(new Map(keys.map((key) => [key, `value-${key}`]))), 100));
        },
      });
      const first = new AbortController();
      const second = new AbortController();
      const loads = [settle(coalescer.load('a', { signal: first.signal })), settle(coalescer.load('b', { signal: second.signal }))];
      await vi.advanceTimersByTimeAsync(5);
      first.abort(new Error('one'));
      expect(seenSignals[0]!.aborted).toBe(false);
      second.abort(new Error('two'));
      expect(seenSignals[0]!.aborted).toBe(true);
      expect((await Promise.all(loads)).map((result) => (result.error as Error).message)).toEqual(['one', 'two']);
      const fresh = coalescer.load('a');
      await vi.advanceTimersByTimeAsync(105);
      await expect(fresh).resolves.toBe('value-a');
      expect(seenSignals).toHaveLength(2);
      expect(seenSignals[1]!.aborted).toBe(false);
    });
  });

  it('supports object keys through keyId, also when the answer is keyed by new objects', async () => {
    interface InstanceKey {
      by: 'id' | 'name';
      value: string;
    }
    const calls: InstanceKey[][] = [];
    const coalescer = new Coalescer<InstanceKey, string>({
      name: 'instances',
      keyId: (key) => `${key.by}:${key.value}`,
      batchLoad: async (keys) => {
        calls.push([...keys]);
        return new Map(keys.map((key) => [{ ...key }, `${key.by}=${key.value}`]));
      },
    });
    const loads = [
      coalescer.load({ by: 'id', value: 'i-1' }),
      coalescer.load({ by: 'name', value: 'node-1' }),
      coalescer.load({ by: 'id', value: 'i-1' }),
    ];
    await vi.advanceTimersByTimeAsync(5);
    await expect(Promise.all(loads)).resolves.toEqual(['id=i-1', 'name=node-1', 'id=i-1']);
    expect(calls).toEqual([[{ by: 'id', value: 'i-1' }, { by: 'name', value: 'node-1' }]]);
  });

  it('close rejects queued keys, lets calls in flight finish and refuses new loads', async () => {
    const answer = deferred<Map<string, string>>();
    const coalescer = new Coalescer<string, string>({ name: 'instances', batchLoad: () => answer.promise, maxBatchSize: 1, maxConcurrentBatches: 1 });
    const inFlight = coalescer.load('a');
    const queued = settle(coalescer.load('b'));
    await vi.advanceTimersByTimeAsync(0);
    coalescer.close();
    expect((await queued).error).toBeInstanceOf(CoalescerClosedError);
    await expect(coalescer.load('c')).rejects.toBeInstanceOf(CoalescerClosedError);
    answer.resolve(new Map([['a', 'value-a']]));
    await expect(inFlight).resolves.toBe('value-a');
  });

  it('leaves no timer behind once every load has settled', async () => {
    const loader = echoLoader();
    const coalescer = new Coalescer({ name: 'instances', batchLoad: loader.batchLoad, windowMs: 20 });
    const loads = ['a', 'b'].map((key) => coalescer.load(key));
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(20);
    await Promise.all(loads);
    expect(vi.getTimerCount()).toBe(0);
    const controller = new AbortController();
    const aborted = settle(coalescer.load('c', { signal: controller.signal }));
    controller.abort();
    await aborted;
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects invalid settings', () => {
    const batchLoad = echoLoader().batchLoad;
    expect(() => new Coalescer({ name: 'x', batchLoad, maxBatchSize: 0 })).toThrow(RangeError);
    expect(() => new Coalescer({ name: 'x', batchLoad, windowMs: -1 })).toThrow(RangeError);
    expect(() => new Coalescer({ name: 'x', batchLoad, maxConcurrentBatches: Number.NaN })).toThrow(RangeError);
    expect(() => new Coalescer({ name: 'x', batchLoad, maxConcurrentFullBatches: 0 })).toThrow(RangeError);
  });

  it('reports batches, sizes, failures, single lookups and de-duplication as metrics', async () => {
    const registry = new MetricsRegistry();
    const observer = createCoalescerMetrics(registry, 'sandbox', 'instances');
    createCoalescerMetrics(registry, 'sandbox', 'other'); // a second coalescer on the same registry
    let fail = false;
    const coalescer = new Coalescer<string, string>({
      name: 'instances',
      batchLoad: async (keys) => {
        if (fail) throw new Error('down');
        return new Map(keys.map((key) => [key, key]));
      },
      singleLoad: async (key) => key,
      observer,
    });
    const loads = ['a', 'b', 'a'].map((key) => coalescer.load(key));
    await vi.advanceTimersByTimeAsync(5);
    await Promise.all(loads);
    fail = true;
    const failing = coalescer.load('c');
    await vi.advanceTimersByTimeAsync(5);
    await failing;
    const text = await registry.metrics();
    expect(text).toContain('cloudprovider_coalescer_batches_total{provider="sandbox",coalescer="instances"} 2');
    expect(text).toContain('cloudprovider_coalescer_batch_size_sum{provider="sandbox",coalescer="instances"} 3');
    expect(text).toContain('cloudprovider_coalescer_batch_failures_total{provider="sandbox",coalescer="instances",fallback="true"} 1');
    expect(text).toContain('cloudprovider_coalescer_single_lookups_total{provider="sandbox",coalescer="instances"} 1');
    expect(text).toContain('cloudprovider_coalescer_deduplicated_total{provider="sandbox",coalescer="instances"} 1');
  });
});
