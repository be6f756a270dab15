import { describe, expect, it } from 'vitest';
import { judgeSoak, leastSquaresSlope, type MemorySample } from './soak-statistics.js';

const sample = (minute: number, rssBytes: number): MemorySample => ({ minute, rssBytes, heapUsedBytes: rssBytes / 2, eventLoopLagP99Ms: 1, eventLoopLagMaxMs: 2 });

describe('leastSquaresSlope', () => {
  it('is the slope of a straight line', () => {
    expect(leastSquaresSlope([0, 1, 2, 3].map((x) => ({ x, y: 5 + 3 * x })))).toBeCloseTo(3);
  });
  it('fits noisy points', () => {
    expect(leastSquaresSlope([{ x: 0, y: 1 }, { x: 1, y: 3 }, { x: 2, y: 2 }, { x: 3, y: 4 }])).toBeCloseTo(0.8);
  });
  it('is undefined without two distinct x', () => {
    expect(leastSquaresSlope([{ x: 1, y: 1 }])).toBeUndefined();
    expect(leastSquaresSlope([{ x: 1, y: 1 }, { x: 1, y: 2 }])).toBeUndefined();
  });
});

describe('judgeSoak', () => {
  const flatAfterWarmUp = [sample(1, 50e6), sample(3, 90e6), ...[5, 6, 7, 8, 9, 10].map((minute) => sample(minute, 100e6 + (minute % 2) * 1e5))];
  it('ignores growth during the warm-up and passes a flat line after it', () => {
    const verdict = judgeSoak(flatAfterWarmUp, 5, 256 * 1024);
    expect(verdict.passed).toBe(true);
    expect(verdict.samplesAfterWarmUp).toBe(6);
  });
  it('fails when RSS keeps growing after the warm-up', () => {
    const growing = [5, 6, 7, 8, 9, 10].map((minute) => sample(minute, 100e6 + minute * 1024 * 1024));
    const verdict = judgeSoak(growing, 5, 256 * 1024);
    expect(verdict.passed).toBe(false);
    expect(verdict.rssSlopeBytesPerMinute).toBeCloseTo(1024 * 1024);
    expect(verdict.reason).toMatch(/1\.0 MiB\/min/);
  });
  it('fails when the run ended before enough samples after the warm-up', () => {
    expect(judgeSoak([sample(1, 1), sample(5, 1)], 5, 1).passed).toBe(false);
  });
});
