/**
 * The retry stage: a failed call is sent again when its error says so, decided where the error
 * was born (a `CloudApiError`'s kind and `retryable`, read by `classify`). Exponential backoff
 * (full jitter by default), or the cloud's Retry-After when it sent one; an abort of the
 * caller's signal ends the waiting. Other errors pass through untouched.
 */
import { sleepOrThrowOnAbort } from '../util/abortable-sleep.js';
import { classifyCloudApiError, type CloudApiErrorClassifier, type CloudApiErrorKind } from './cloud-api-error.js';
import type { PortAround } from './wrap-port.js';

export interface CloudRetryPolicy {
  /** Attempts per call, the first included. Default 4. */
  maxAttempts?: number;
  /** Backoff before the second attempt; doubles with every attempt. Default 100 ms. */
  initialDelayMs?: number;
  /** Cap of the backoff and of a Retry-After. Default 20 s. */
  maxDelayMs?: number;
  /** `full`: a random delay up to the backoff (default); `none`: the backoff itself. */
  jitter?: 'full' | 'none';
  /**
   * Kinds this stage retries (a retryable error of another kind passes through). Default every
   * kind; `composeCloudPort` leaves `throttled` to the budget when it has one.
   */
  kinds?: readonly CloudApiErrorKind[];
  /** Reads kind, retryability and Retry-After off an error. Default `classifyCloudApiError`. */
  classify?: CloudApiErrorClassifier;
  /** Injected for tests: randomness in [0, 1), and a sleep that rejects when `signal` aborts. */
  random?: () => number;
  sleep?: (delayMs: number, signal?: AbortSignal) => Promise<void>;
  /** Called before each wait (logs). */
  onRetry?(details: { operation: string; attempt: number; delayMs: number; error: unknown }): void;
}

export const CLOUD_RETRY_DEFAULTS = {
  maxAttempts: 4,
  initialDelayMs: 100,
  maxDelayMs: 20_000,
  jitter: 'full',
} as const;

/** The backoff before attempt `attempt + 1`: capped exponential, with full jitter or none. */
export function retryBackoffMs(attempt: number, policy: Pick<CloudRetryPolicy, 'initialDelayMs' | 'maxDelayMs' | 'jitter'>, random: () => number = Math.random): number {
  const initialDelayMs = policy.initialDelayMs ?? CLOUD_RETRY_DEFAULTS.initialDelayMs;
  const maxDelayMs = policy.maxDelayMs ?? CLOUD_RETRY_DEFAULTS.maxDelayMs;
  const step = Math.min(maxDelayMs, initialDelayMs * 2 ** (attempt - 1));
  return (policy.jitter ?? CLOUD_RETRY_DEFAULTS.jitter) === 'full' ? Math.floor(random() * step) : step;
}

/** A function, so TypeScript does not narrow `aborted` across awaits. */
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

export function retryCalls(policy: CloudRetryPolicy = {}): PortAround {
  const maxAttempts = Math.max(1, Math.floor(policy.maxAttempts ?? CLOUD_RETRY_DEFAULTS.maxAttempts));
  const maxDelayMs = policy.maxDelayMs ?? CLOUD_RETRY_DEFAULTS.maxDelayMs;
  const kinds = policy.kinds === undefined ? undefined : new Set(policy.kinds);
  const classify = policy.classify ?? classifyCloudApiError;
  const random = policy.random ?? Math.random;
  const sleep = policy.sleep ?? sleepOrThrowOnAbort;
  return async (call, invoke) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await invoke();
      } catch (error) {
        const verdict = classify(error);
        if (verdict === undefined || !verdict.retryable || (kinds !== undefined && !kinds.has(verdict.kind))) throw error;
        if (attempt >= maxAttempts || isAborted(call.signal)) throw error;
        const delayMs = verdict.retryAfterMs === undefined ? retryBackoffMs(attempt, policy, random) : Math.min(maxDelayMs, verdict.retryAfterMs);
        policy.onRetry?.({ operation: call.operation, attempt, delayMs, error });
        try {
          await sleep(delayMs, call.signal);
        } catch (waitError) {
          throw isAborted(call.signal) ? call.signal?.reason : waitError;
        }
      }
    }
  };
}
