import type { BenchCcm, BenchEnvironment } from '../bench-environment.js';
import { sleep } from '../../harness/wait-for.js';

/**
 * Waits until neither the cloud nor the kube API has seen a request from the CCM for `quietMs`
 * (watches and the lifecycle controller's reads aside: only cloud calls and kube writes count).
 * Resolves with the `performance.now()` of the last activity seen.
 */
export async function waitForQuiet(environment: BenchEnvironment, ccm: BenchCcm, timeoutMs: number, quietMs = 1_500): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  let last = await activity(environment);
  let quietSince = performance.now();
  while (performance.now() - quietSince < quietMs) {
    if (performance.now() > deadline) throw new Error(`the CCM did not go quiet within ${timeoutMs} ms\n${ccm.process.report(30)}`);
    ccm.assertRunning();
    await sleep(100);
    const current = await activity(environment);
    if (current !== last) {
      last = current;
      quietSince = performance.now();
    }
  }
  return quietSince;
}

async function activity(environment: BenchEnvironment): Promise<string> {
  const calls = await environment.cloudCalls();
  return `${calls.calls}/${environment.kube.requestCounts().writes}`;
}
