import { describe, expect, it } from 'vitest';
import { SandboxRequestGate } from './sandbox-request-gate.js';
import { seededRandom } from './seeded-random.js';

describe('seededRandom', () => {
  it('repeats its sequence for a seed', () => {
    const first = seededRandom(7);
    const second = seededRandom(7);
    const values = Array.from({ length: 5 }, () => first());
    expect(Array.from({ length: 5 }, () => second())).toEqual(values);
    expect(values.every((value) => value >= 0 && value < 1)).toBe(true);
    expect(seededRandom(8)()).not.toBe(values[0]);
  });
});

describe('SandboxRequestGate', () => {
  it('throttles over the rate limit and counts per operation', () => {
    let now = 0;
    const gate = new SandboxRequestGate({ rateLimit: { qps: 1, burst: 2 }, now: () => now });
    expect(gate.decide('instances.get').kind).toBe('proceed');
    gate.record('instances.get', true);
    expect(gate.decide('instances.get').kind).toBe('proceed');
    gate.record('instances.get', false);
    const throttled = gate.decide('routes.list');
    expect(throttled).toMatchObject({ kind: 'throttled', retryAfterMs: 1000 });
    now = 1000;
    expect(gate.decide('routes.list').kind).toBe('proceed');
    gate.record('routes.list', true);
    const calls = gate.calls();
    expect(calls.operations['instances.get']).toEqual({ requests: 2, succeeded: 1, failed: 1, throttled: 0, injectedErrors: 0 });
    expect(calls.operations['routes.list']).toEqual({ requests: 2, succeeded: 1, failed: 0, throttled: 1, injectedErrors: 0 });
    expect(calls.operations['loadBalancers.create'].requests).toBe(0);
    expect(calls.total).toEqual({ requests: 4, succeeded: 2, failed: 1, throttled: 1, injectedErrors: 0 });
    gate.resetCounters();
    expect(gate.calls().total.requests).toBe(0);
    gate.setRateLimit(undefined);
    expect(gate.rateLimit()).toBeUndefined();
  });

  it('fails a seeded share of calls, reproducibly', () => {
    const outcomes = (seed: number): string[] => {
      const gate = new SandboxRequestGate({ errorRate: 0.5, seed });
      return Array.from({ length: 40 }, () => gate.decide('instances.get').kind);
    };
    const first = outcomes(42);
    expect(outcomes(42)).toEqual(first);
    const injected = first.filter((kind) => kind === 'inject').length;
    expect(injected).toBeGreaterThan(5);
    expect(injected).toBeLessThan(35);
    expect(() => new SandboxRequestGate({ errorRate: 2 })).toThrow(RangeError);
  });

  it.each([
    { rateLimit: { qps: 0, burst: 1 }, message: 'qps must be a positive number' },
    { rateLimit: { qps: Infinity, burst: 1 }, message: 'qps must be a positive number' },
    { rateLimit: { qps: 1, burst: 0 }, message: 'burst must be a positive integer' },
    { rateLimit: { qps: 1, burst: 1.5 }, message: 'burst must be a positive integer' },
  ])('rejects the rate limit $rateLimit', ({ rateLimit, message }) => {
    expect(() => new SandboxRequestGate({ rateLimit })).toThrow(new RangeError(message));
    expect(() => new SandboxRequestGate().setRateLimit(rateLimit)).toThrow(new RangeError(message));
  });

  it('injects targeted errors for a number of calls', () => {
    const gate = new SandboxRequestGate();
    gate.injectErrors({ operation: 'loadBalancers.create', count: 2, code: 'Throttling' });
    expect(gate.decide('instances.get').kind).toBe('proceed');
    const first = gate.decide('loadBalancers.create');
    expect(first.kind === 'inject' && first.error.code).toBe('Throttling');
    expect(gate.decide('loadBalancers.create').kind).toBe('inject');
    expect(gate.decide('loadBalancers.create').kind).toBe('proceed');
    gate.injectErrors({});
    gate.clearInjectedErrors();
    expect(gate.decide('routes.create').kind).toBe('proceed');
    expect(gate.calls().operations['loadBalancers.create'].injectedErrors).toBe(2);
    expect(() => gate.injectErrors({ count: 0 })).toThrow(RangeError);
  });
});
