import { describe, expect, it } from 'vitest';
import { ExponentialBackoff } from './exponential-backoff.js';

describe('ExponentialBackoff', () => {
  it('doubles up to the maximum and resets after a healthy period', () => {
    let now = 0;
    const backoff = new ExponentialBackoff({ initialMs: 200, maxMs: 1000, resetAfterMs: 60_000, now: () => now });
    const delays = Array.from({ length: 5 }, () => backoff.next());
    expect(delays).toEqual([200, 400, 800, 1000, 1000]);
    now += 60_001;
    expect(backoff.next()).toBe(200);
  });

  it('adds bounded jitter', () => {
    const backoff = new ExponentialBackoff({ initialMs: 100, maxMs: 1000, resetAfterMs: 1000, jitter: 0.2, random: () => 0.5, now: () => 0 });
    expect(backoff.next()).toBe(110);
  });
});
