import { describe, expect, it } from 'vitest';
import { initialProbeState, isProbeSuccessStatus, observeProbe, probeTimes, probeTiming, restartBackOffMs, type ProbeKind, type ProbeOutcome } from './probe-schedule.js';

describe('probeTiming', () => {
  it.each([
    { probe: {}, expected: { initialDelayMs: 0, periodMs: 10_000, timeoutMs: 1_000, successThreshold: 1, failureThreshold: 3 } },
    {
      probe: { initialDelaySeconds: 20, periodSeconds: 10, timeoutSeconds: 5, failureThreshold: 3 },
      expected: { initialDelayMs: 20_000, periodMs: 10_000, timeoutMs: 5_000, successThreshold: 1, failureThreshold: 3 },
    },
    { probe: { periodSeconds: 1, successThreshold: 2, failureThreshold: 1 }, expected: { initialDelayMs: 0, periodMs: 1_000, timeoutMs: 1_000, successThreshold: 2, failureThreshold: 1 } },
  ])('applies the API defaults to $probe', ({ probe, expected }) => {
    expect(probeTiming(probe)).toEqual(expected);
  });
});

describe('probeTimes', () => {
  it.each([
    { name: 'readiness of the manifests (no delay, every 10 s)', probe: { periodSeconds: 10 }, expected: [0, 10_000, 20_000] },
    { name: 'liveness of the manifests (20 s delay, every 10 s)', probe: { initialDelaySeconds: 20, periodSeconds: 10 }, expected: [20_000, 30_000, 40_000] },
    { name: 'a delay between ticks waits for the next tick', probe: { initialDelaySeconds: 15, periodSeconds: 10 }, expected: [20_000, 30_000, 40_000] },
    { name: 'period 1 s, delay 2 s', probe: { initialDelaySeconds: 2, periodSeconds: 1 }, expected: [2_000, 3_000, 4_000] },
  ])('$name', ({ probe, expected }) => {
    expect(probeTimes(probeTiming(probe), 3)).toEqual(expected);
  });
});

interface ProbeCase {
  name: string;
  kind: ProbeKind;
  probe: { failureThreshold?: number; successThreshold?: number };
  outcomes: ProbeOutcome[];
  /** Published result after each outcome. */
  results: ProbeOutcome[];
  /** Indexes of the outcomes after which the container is killed. */
  kills: number[];
}

describe('observeProbe (the prober worker)', () => {
  const cases: ProbeCase[] = [
    { name: 'readiness starts failed and passes on the first success', kind: 'readiness', probe: {}, outcomes: ['failure', 'success'], results: ['failure', 'success'], kills: [] },
    {
      name: 'readiness stays ready through fewer failures than the threshold',
      kind: 'readiness',
      probe: { failureThreshold: 3 },
      outcomes: ['success', 'failure', 'failure', 'success', 'failure', 'failure', 'failure'],
      results: ['success', 'success', 'success', 'success', 'success', 'success', 'failure'],
      kills: [],
    },
    {
      name: 'readiness with successThreshold 2 needs two successes in a row',
      kind: 'readiness',
      probe: { successThreshold: 2 },
      outcomes: ['success', 'failure', 'success', 'success'],
      results: ['failure', 'failure', 'failure', 'success'],
      kills: [],
    },
    {
      name: 'liveness kills after failureThreshold failures in a row, then holds',
      kind: 'liveness',
      probe: { failureThreshold: 3 },
      outcomes: ['failure', 'failure', 'failure', 'failure', 'success'],
      results: ['success', 'success', 'failure', 'failure', 'failure'],
      kills: [2],
    },
    {
      name: 'a success between failures resets the liveness count',
      kind: 'liveness',
      probe: { failureThreshold: 2 },
      outcomes: ['failure', 'success', 'failure', 'success'],
      results: ['success', 'success', 'success', 'success'],
      kills: [],
    },
    { name: 'liveness failureThreshold 1 kills at the first failure', kind: 'liveness', probe: { failureThreshold: 1 }, outcomes: ['success', 'failure'], results: ['success', 'failure'], kills: [1] },
  ];
  it.each(cases)('$name', ({ kind, probe, outcomes, results, kills }) => {
    const timing = probeTiming(probe);
    let state = initialProbeState(kind);
    const seenResults: ProbeOutcome[] = [];
    const seenKills: number[] = [];
    outcomes.forEach((outcome, index) => {
      const observed = observeProbe(kind, timing, state, outcome);
      state = observed.state;
      seenResults.push(state.result);
      if (observed.kill) seenKills.push(index);
    });
    expect(seenResults).toEqual(results);
    expect(seenKills).toEqual(kills);
  });
});

describe('restartBackOffMs (the kubelet crash-loop back-off)', () => {
  it.each([
    { restart: 1, expected: 0 },
    { restart: 2, expected: 10_000 },
    { restart: 3, expected: 20_000 },
    { restart: 4, expected: 40_000 },
    { restart: 6, expected: 160_000 },
    { restart: 7, expected: 300_000 },
    { restart: 20, expected: 300_000 },
  ])('restart $restart waits $expected ms', ({ restart, expected }) => {
    expect(restartBackOffMs(restart)).toBe(expected);
  });

  it('scales with a shortened back-off', () => {
    expect([1, 2, 3, 4].map((restart) => restartBackOffMs(restart, { initialMs: 100, maxMs: 250 }))).toEqual([0, 100, 200, 250]);
  });
});

describe('isProbeSuccessStatus', () => {
  it.each([
    [199, false],
    [200, true],
    [302, true],
    [399, true],
    [400, false],
    [500, false],
  ])('%i -> %s', (status, expected) => {
    expect(isProbeSuccessStatus(status)).toBe(expected);
  });
});
