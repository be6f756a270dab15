import { describe, expect, it } from 'vitest';
import { formatGoDuration, parseGoDuration } from './go-duration.js';

describe('parseGoDuration', () => {
  it.each([
    ['0', 0],
    ['5s', 5_000],
    ['1m30s', 90_000],
    ['5m0s', 300_000],
    ['300ms', 300],
    ['1h', 3_600_000],
    ['12h0m0s', 43_200_000],
    ['1.5h', 5_400_000],
    ['.5s', 500],
    ['1.s', 1_000],
    ['-2s', -2_000],
    ['+2s', 2_000],
    ['1500us', 1.5],
    ['1500µs', 1.5],
    ['2000000ns', 2],
    ['1h1m1s1ms', 3_661_001],
  ])('%s = %d ms', (text, expected) => {
    expect(parseGoDuration(text)).toBe(expected);
  });

  it.each([
    ['', 'time: invalid duration ""'],
    ['5', 'time: missing unit in duration "5"'],
    ['5x', 'time: unknown unit "x" in duration "5x"'],
    ['s', 'time: invalid duration "s"'],
    ['1m 30s', 'time: unknown unit "m " in duration "1m 30s"'],
    ['-', 'time: invalid duration "-"'],
  ])('%j is rejected', (text, message) => {
    expect(() => parseGoDuration(text)).toThrow(message);
  });
});

describe('formatGoDuration', () => {
  it.each([
    [0, '0s'],
    [300, '300ms'],
    [1.5, '1.5ms'],
    [0.0015, '1.5µs'],
    [0.000001, '1ns'],
    [2_000, '2s'],
    [1_500, '1.5s'],
    [90_000, '1m30s'],
    [300_000, '5m0s'],
    [43_200_000, '12h0m0s'],
    [3_661_001, '1h1m1.001s'],
    [-2_000, '-2s'],
  ])('%d ms = %s', (milliseconds, expected) => {
    expect(formatGoDuration(milliseconds)).toBe(expected);
  });
});

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
