import { describe, expect, it } from 'vitest';
import { cpuSecondsOfProcStat } from './bench-environment.js';
import { memoryPerNodeKilobytes } from './scenarios/node-storm.js';

describe('cpuSecondsOfProcStat', () => {
  it.each([
    ['a plain command', '12742 (cat) R 12698 12698 21008 0 -1 4194304 102 0 0 0 250 31 0 0 20 0 1 0 2435934 3133440 413', 2.81],
    ['a command with spaces and parentheses', '7 (node (ccm) x) S 1 7 7 0 -1 4194560 5 0 0 0 12 8 0 0 20 0 11 0 100 1 1', 0.2],
    ['a truncated line', '7 (node) S 1 7', undefined],
  ])('%s', (_name, stat, seconds) => {
    if (seconds === undefined) expect(cpuSecondsOfProcStat(stat)).toBeUndefined();
    else expect(cpuSecondsOfProcStat(stat)).toBeCloseTo(seconds, 6);
  });
});

describe('memoryPerNodeKilobytes', () => {
  it.each<[string, number | undefined, number | undefined, number, number | undefined]>([
    ['the growth per node', 100 * 1024 * 1024, 150 * 1024 * 1024, 5_000, 10.24],
    ['no growth', 100 * 1024 * 1024, 100 * 1024 * 1024, 10, 0],
    ['nothing without the RSS before', undefined, 150 * 1024 * 1024, 10, undefined],
    ['nothing without the peak', 1, undefined, 10, undefined],
    ['nothing for no nodes', 1, 2, 0, undefined],
  ])('%s', (_name, before, peak, nodes, expected) => {
    expect(memoryPerNodeKilobytes(before, peak, nodes)).toBe(expected);
  });
});
