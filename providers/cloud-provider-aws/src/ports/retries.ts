/**
 * Retries of transient AWS failures other than throttling: 5xx answers and network errors (the
 * SDK adapter marks them retryable where they are born). Sits outside the cloud API budget, so
 * every attempt takes a token again; throttling is left to the budget, which has already retried
 * it, so it is never retried twice. Exponential backoff with full jitter.
 */
import { sleepOrThrowOnAbort } from '@ccm/core';
import { asAwsApiError } from '../errors.js';
import { decoratePort } from './decorate-port.js';

/** A setTimeout promise that rejects with the signal's reason when aborted. */
export type Sleep = (milliseconds: number, signal?: AbortSignal) => Promise<void>;

export interface RetryOptions {
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  random?: () => number;
  sleep?: Sleep;
  onRetry?: (details: { operation: string; attempt: number; delayMs: number; error: unknown }) => void;
}

/** Full-jitter exponential backoff delay for a retry after `attempt` failed attempts. */
export function backoffDelay(attempt: number, baseDelayMs: number, maxDelayMs: number, random: () => number): number {
  return Math.floor(random() * Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1)));
}

export function withRetries<T extends object>(port: T, service: string, options: RetryOptions = {}): T {
  const maxAttempts = options.maxAttempts ?? 8;
  const baseDelayMs = options.baseDelayMs ?? 100;
  const maxDelayMs = options.maxDelayMs ?? 20_000;
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? sleepOrThrowOnAbort;
  return decoratePort(port, service, async (operation, signal, invoke) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await invoke();
      } catch (error) {
        const apiError = asAwsApiError(error);
        if (!apiError?.retryable || apiError.kind === 'Throttled' || attempt >= maxAttempts || signal?.aborted) throw error;
        const delayMs = backoffDelay(attempt, baseDelayMs, maxDelayMs, random);
        options.onRetry?.({ operation, attempt, delayMs, error });
        await sleep(delayMs, signal);
      }
    }
  });
}
