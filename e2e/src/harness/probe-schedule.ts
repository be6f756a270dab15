/**
 * Pure: how the kubelet's prober (pkg/kubelet/prober/worker.go) turns probe outcomes into a
 * container's ready state and liveness kills, and the back-off between restarts
 * (pkg/kubelet/kuberuntime: 10 s doubling, capped at 5 minutes).
 */
import type { Probe } from './pod-spec.js';

/** A probe's timing with the API defaults applied (pkg/apis/core/v1/defaults.go). */
export interface ProbeTiming {
  initialDelayMs: number;
  periodMs: number;
  timeoutMs: number;
  successThreshold: number;
  failureThreshold: number;
}

export function probeTiming(probe: Probe): ProbeTiming {
  return {
    initialDelayMs: (probe.initialDelaySeconds ?? 0) * 1000,
    periodMs: (probe.periodSeconds ?? 10) * 1000,
    timeoutMs: (probe.timeoutSeconds ?? 1) * 1000,
    successThreshold: probe.successThreshold ?? 1,
    failureThreshold: probe.failureThreshold ?? 3,
  };
}

/**
 * The prober worker probes at once when it starts (with the container) and then on every tick of
 * its period; a probe within `initialDelaySeconds` of the container's start is skipped (the
 * result stays the initial one). The first `count` times (ms after the container started) at
 * which a probe really runs.
 */
export function probeTimes(timing: ProbeTiming, count: number): number[] {
  const times: number[] = [];
  for (let tick = 0; times.length < count; tick += 1) {
    const at = tick * timing.periodMs;
    if (at >= timing.initialDelayMs) times.push(at);
  }
  return times;
}

export type ProbeKind = 'liveness' | 'readiness';
export type ProbeOutcome = 'success' | 'failure';

/** What a worker remembers between probes of one container. */
export interface ProbeState {
  /** The published result (readiness starts as failure, liveness as success). */
  result: ProbeOutcome;
  /** The last raw outcome and how many times in a row it came. */
  lastOutcome: ProbeOutcome | undefined;
  run: number;
  /** After a liveness failure the worker holds until the container is replaced. */
  onHold: boolean;
}

export function initialProbeState(kind: ProbeKind): ProbeState {
  return { result: kind === 'readiness' ? 'failure' : 'success', lastOutcome: undefined, run: 0, onHold: false };
}

/** One probe outcome applied: the new state, and whether the container must be killed (liveness). */
export function observeProbe(kind: ProbeKind, timing: ProbeTiming, state: ProbeState, outcome: ProbeOutcome): { state: ProbeState; kill: boolean } {
  if (state.onHold) return { state, kill: false };
  const run = state.lastOutcome === outcome ? state.run + 1 : 1;
  const next: ProbeState = { ...state, lastOutcome: outcome, run };
  if ((outcome === 'failure' && run < timing.failureThreshold) || (outcome === 'success' && run < timing.successThreshold)) return { state: next, kill: false };
  next.result = outcome;
  if (kind === 'liveness' && outcome === 'failure') return { state: { ...next, onHold: true, run: 0 }, kill: true };
  return { state: next, kill: false };
}

/** The kubelet's crash-loop back-off (flowcontrol.Backoff): 10 s, doubling, at most 300 s. */
export const RESTART_BACK_OFF = { initialMs: 10_000, maxMs: 300_000 } as const;

/**
 * Milliseconds between a container's exit and restart number `restart` (1 for the first). The
 * kubelet restarts a container that has no back-off entry at once and starts the entry at 10 s
 * (`doBackOff`: not `IsInBackOffSince`, then `Next`); each later exit waits the current entry,
 * which then doubles up to the cap.
 */
export function restartBackOffMs(restart: number, backOff: { initialMs: number; maxMs: number } = RESTART_BACK_OFF): number {
  if (restart <= 1) return 0;
  return Math.min(backOff.initialMs * 2 ** (restart - 2), backOff.maxMs);
}

/** An HTTP status a kubelet httpGet probe counts as success: 200 <= status < 400. */
export function isProbeSuccessStatus(status: number): boolean {
  return status >= 200 && status < 400;
}
