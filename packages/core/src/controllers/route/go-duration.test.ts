import { describe, expect, it } from 'vitest';
import { formatGoDuration } from './go-duration.js';

describe('formatGoDuration (Go time.Duration.String)', () => {
  it.each([
    [0, '0s'],
    [0.0005, '500ns'],
    [0.0015, '1.5µs'],
    [1.5, '1.5ms'],
    [123.456789, '123.456789ms'],
    [1000, '1s'],
    [2250, '2.25s'],
    [60_000, '1m0s'],
    [63_500, '1m3.5s'],
    [3_600_000, '1h0m0s'],
    [-1.5, '-1.5ms'],
  ])('%d ms -> %s', (milliseconds, text) => {
    expect(formatGoDuration(milliseconds)).toBe(text);
  });
});
