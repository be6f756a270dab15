/**
 * Reading a CCM child process's klog output in end-to-end tests: its lines, stack-trace lines,
 * line times, and the check that core's per-node retries back off.
 */
import { expect } from 'vitest';
import type { CcmInstance } from '../../../../e2e/src/harness/test-cluster.js';

/** core's node work queue: upstream DefaultControllerRateLimiter, 5 ms doubling per failure. */
export const NODE_QUEUE_BASE_DELAY_MS = 5;

export function outputLines(ccm: CcmInstance): string[] {
  return ccm.process.output().split('\n').filter((line) => line !== '');
}

/** Lines of a JavaScript stack trace (`    at fn (file:1:2)`). */
export function stackTraceLines(lines: readonly string[]): string[] {
  return lines.filter((line) => /^\s+at\s/.test(line));
}

/** Epoch-free milliseconds of a klog line's time of day (`E1121 23:25:12.935282 ...`). */
export function klogTimeMs(line: string): number {
  const match = /^[IWEF]\d{4} (\d{2}):(\d{2}):(\d{2})\.(\d{6}) /.exec(line);
  if (match === null) throw new Error(`not a klog line: ${line}`);
  const [hours, minutes, seconds, micros] = match.slice(1).map(Number) as [number, number, number, number];
  return ((hours * 60 + minutes) * 60 + seconds) * 1000 + micros / 1000;
}

/**
 * core's retries of one node back off exponentially. After the k-th failure the node is
 * requeued 5 ms * 2^k later; with no other event for the node, the k-th gap between two
 * failed-sync lines is at least that (10% slack), and a span of T ms holds at most
 * log2(T / 4.5 + 1) + 1 lines. Each node event while the retries run (`extraEnqueues`: the
 * kubelet's create and status patch) starts one attempt out of turn, whose requeue runs beside
 * the others: gaps are then not checked one by one, and the bound grows by one per event, plus
 * one.
 */
export function expectBackoff(syncErrors: readonly string[], extraEnqueues: number): void {
  expect(syncErrors.length).toBeGreaterThan(0);
  const times = syncErrors.map(klogTimeMs);
  const gaps = times.slice(1).map((time, index) => {
    let gap = time - (times[index] ?? time);
    if (gap < 0) gap += 24 * 3_600_000; // midnight
    return gap;
  });
  const described = `gaps between failed syncs: ${gaps.map((value) => value.toFixed(1)).join(', ')} ms`;
  if (extraEnqueues === 0) {
    gaps.forEach((gap, index) => {
      expect(gap, `gap ${index} (${described})`).toBeGreaterThanOrEqual(NODE_QUEUE_BASE_DELAY_MS * 0.9 * 2 ** index);
    });
  }
  const span = gaps.reduce((sum, gap) => sum + gap, 0);
  const bound = Math.floor(Math.log2(span / (NODE_QUEUE_BASE_DELAY_MS * 0.9) + 1)) + 1 + (extraEnqueues === 0 ? 0 : extraEnqueues + 1);
  expect(syncErrors.length, `failed syncs in ${span.toFixed(0)} ms (${described})`).toBeLessThanOrEqual(bound);
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
