/**
 * Waiting for Octavia's provisioning status (upstream `waitLoadbalancerActive`: check, then 1 s
 * growing by 1.2 per step, 23 steps by default, about 5.4 minutes; env `OCCM_WAIT_LB_ACTIVE_STEPS`
 * changes the steps). Before upstream's schedule come a few quick checks (250 ms apart): most
 * changes of a child finish in well under a second, and every change waits for the previous one. Octavia refuses every change while a load balancer is PENDING_*, so each
 * change waits for ACTIVE first. ERROR is a `ProvisioningFailed` error (not retried at once; the
 * controller's next sync fails the same way, as upstream, until an operator repairs or deletes it); still PENDING_* after the last
 * step is `Unavailable` (retryable).
 */
import { OpenStackApiError } from '../../errors.js';
import type { CallOptions } from '@ccm/core/cloud';
import type { OctaviaLoadBalancer, OctaviaPort } from '../../ports/octavia-port.js';

export interface ProvisioningWaitSettings {
  /** Checks `quickDelayMs` apart before the upstream schedule starts (not counted in `steps`). */
  quickChecks: number;
  quickDelayMs: number;
  steps: number;
  initialDelayMs: number;
  factor: number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const DEFAULT_WAIT_STEPS = 23;

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export const DEFAULT_PROVISIONING_WAIT: ProvisioningWaitSettings = { quickChecks: 3, quickDelayMs: 250, steps: DEFAULT_WAIT_STEPS, initialDelayMs: 1000, factor: 1.2, sleep: abortableSleep };

/** The steps from `OCCM_WAIT_LB_ACTIVE_STEPS` (a positive integer), else the default. */
export function waitStepsFromEnvironment(environment: Readonly<Record<string, string | undefined>>): number {
  const value = environment['OCCM_WAIT_LB_ACTIVE_STEPS'];
  if (value === undefined || !/^\d+$/.test(value.trim()) || Number(value) < 1) return DEFAULT_WAIT_STEPS;
  return Number(value);
}

async function poll<T>(
  settings: ProvisioningWaitSettings,
  id: string,
  target: string,
  read: () => Promise<{ done: true; value: T } | { done: false; status: string }>,
  options?: CallOptions,
): Promise<T> {
  let delay = settings.initialDelayMs;
  let last = 'unknown';
  for (let quick = 0; quick < settings.quickChecks; quick++) {
    const outcome = await read();
    if (outcome.done) return outcome.value;
    last = outcome.status;
    if (last === 'ERROR') break;
    await settings.sleep(settings.quickDelayMs, options?.signal);
  }
  for (let step = 0; step < settings.steps; step++) {
    const outcome = await read();
    if (outcome.done) return outcome.value;
    last = outcome.status;
    if (last === 'ERROR') {
      throw new OpenStackApiError(`load balancer ${id} went to ERROR while waiting for ${target}`, { kind: 'ProvisioningFailed', operation: 'loadbalancer.waitProvisioningStatus', retryable: false });
    }
    if (step < settings.steps - 1) {
      await settings.sleep(Math.round(delay), options?.signal);
      delay *= settings.factor;
    }
  }
  throw new OpenStackApiError(`load balancer ${id} is still ${last} after ${settings.steps} checks (waiting for ${target})`, { kind: 'Unavailable', operation: 'loadbalancer.waitProvisioningStatus', retryable: true });
}

export function waitForActive(octavia: OctaviaPort, settings: ProvisioningWaitSettings, id: string, options?: CallOptions): Promise<OctaviaLoadBalancer> {
  return poll(settings, id, 'ACTIVE', async () => {
    const found = await octavia.getLoadBalancer(id, options);
    if (found === undefined) throw new OpenStackApiError(`load balancer ${id} disappeared while waiting for ACTIVE`, { kind: 'NotFound', operation: 'loadbalancer.waitProvisioningStatus', retryable: true });
    return found.provisioningStatus === 'ACTIVE' ? { done: true, value: found } : { done: false, status: found.provisioningStatus };
  }, options);
}

export function waitForDeleted(octavia: OctaviaPort, settings: ProvisioningWaitSettings, id: string, options?: CallOptions): Promise<void> {
  return poll(settings, id, 'DELETED', async () => {
    const found = await octavia.getLoadBalancer(id, options);
    return found === undefined || found.provisioningStatus === 'DELETED' ? { done: true, value: undefined } : { done: false, status: found.provisioningStatus };
  }, options);
}
