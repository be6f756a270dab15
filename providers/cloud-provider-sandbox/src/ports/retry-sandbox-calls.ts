import { setTimeout as sleep } from 'node:timers/promises';
import { SandboxApiError } from './sandbox-api-error.js';
import type { SandboxCallWrapper } from './wrap-sandbox-cloud-port.js';

/** A function, so TypeScript does not narrow `aborted` across awaits. */
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

export interface RetryPolicy {
  /** Total attempts, the first included. Default 4. */
  attempts?: number;
  /** First backoff; doubles per attempt. Default 200 ms. */
  baseDelayMs?: number;
  /** Cap for backoff and for the cloud's Retry-After. Default 5 s. */
  maxDelayMs?: number;
  /**
   * Whether throttled calls are retried here (default true). False when a cloud API budget in
   * front of the client already retries them with its own backoff.
   */
  retryThrottled?: boolean;
  /** Injected for tests; must reject when `signal` aborts. */
  sleep?: (delayMs: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Retries retryable sandbox failures (throttling, 5xx, network) with exponential backoff, or
 * after the cloud's Retry-After when it sent one. Other errors pass straight through; an abort
 * of the caller's signal ends the wait.
 */
export function retrySandboxCalls(policy: RetryPolicy = {}): SandboxCallWrapper {
  const attempts = policy.attempts ?? 4;
  const baseDelayMs = policy.baseDelayMs ?? 200;
  const maxDelayMs = policy.maxDelayMs ?? 5_000;
  const wait = policy.sleep ?? ((delayMs: number, signal?: AbortSignal) => sleep(delayMs, undefined, signal === undefined ? {} : { signal }));
  return async (_operation, call, signal) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        if (!(error instanceof SandboxApiError) || !error.retryable || attempt >= attempts || isAborted(signal)) throw error;
        if (error.kind === 'Throttled' && policy.retryThrottled === false) throw error;
        const backoffMs = baseDelayMs * 2 ** (attempt - 1);
        try {
          await wait(Math.min(maxDelayMs, error.retryAfterMs ?? backoffMs), signal);
        } catch (waitError) {
          throw isAborted(signal) ? signal!.reason : waitError;
        }
      }
    }
  };
}
