/**
 * Client-side rate limiting and retries shared by every cloud call (upstream: SDK standard
 * retries plus the region-wide `CrossRequestRetryDelay`).
 *
 * - `AdaptiveRateLimiter`: a token bucket (GCRA) shared by all ports. Each throttling answer
 *   halves the rate (down to `minRatePerSecond`); each success raises it a little again
 *   (up to `maxRatePerSecond`).
 * - `withRetries`: retries errors the adapter marked retryable (throttling, 5xx, network) with
 *   exponential backoff and full jitter; throttling backs off from a longer base delay.
 */
import { asAwsApiError } from '../errors.js';
import { abortableSleep, type Sleep } from '../sleep.js';
import { decoratePort } from './decorate-port.js';

export { abortableSleep, type Sleep };

export interface RateLimiterOptions {
  maxRatePerSecond?: number;
  minRatePerSecond?: number;
  burst?: number;
  now?: () => number;
  sleep?: Sleep;
}

export class AdaptiveRateLimiter {
  readonly #maxRate: number;
  readonly #minRate: number;
  readonly #burst: number;
  readonly #now: () => number;
  readonly #sleep: Sleep;
  #rate: number;
  /** GCRA theoretical arrival time, in ms. */
  #theoreticalArrival = 0;

  constructor(options: RateLimiterOptions = {}) {
    this.#maxRate = options.maxRatePerSecond ?? 50;
    this.#minRate = options.minRatePerSecond ?? 0.5;
    this.#burst = options.burst ?? 100;
    this.#now = options.now ?? Date.now;
    this.#sleep = options.sleep ?? abortableSleep;
    this.#rate = this.#maxRate;
  }

  get ratePerSecond(): number {
    return this.#rate;
  }

  /** Milliseconds the caller must wait for its slot (the slot is reserved). */
  reserve(): number {
    const now = this.#now();
    const interval = 1000 / this.#rate;
    const arrival = Math.max(this.#theoreticalArrival, now);
    const allowedAt = arrival - (this.#burst - 1) * interval;
    this.#theoreticalArrival = arrival + interval;
    return Math.max(0, allowedAt - now);
  }

  async acquire(signal?: AbortSignal): Promise<void> {
    const wait = this.reserve();
    if (wait > 0) await this.#sleep(wait, signal);
  }

  onThrottled(): void {
    this.#rate = Math.max(this.#minRate, this.#rate / 2);
  }

  onSuccess(): void {
    if (this.#rate < this.#maxRate) this.#rate = Math.min(this.#maxRate, this.#rate + this.#maxRate / 50);
  }
}

export interface RetryOptions {
  maxAttempts?: number;
  baseDelayMs?: number;
  throttledBaseDelayMs?: number;
  maxDelayMs?: number;
  random?: () => number;
  sleep?: Sleep;
  onRetry?: (details: { operation: string; attempt: number; delayMs: number; error: unknown }) => void;
}

/** Full-jitter exponential backoff delay for a retry after `attempt` failed attempts. */
export function backoffDelay(attempt: number, baseDelayMs: number, maxDelayMs: number, random: () => number): number {
  return Math.floor(random() * Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1)));
}

export function withRetries<T extends object>(port: T, service: string, limiter: AdaptiveRateLimiter, options: RetryOptions = {}): T {
  const maxAttempts = options.maxAttempts ?? 8;
  const baseDelayMs = options.baseDelayMs ?? 100;
  const throttledBaseDelayMs = options.throttledBaseDelayMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 20_000;
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? abortableSleep;
  return decoratePort(port, service, async (operation, signal, invoke) => {
    for (let attempt = 1; ; attempt++) {
      await limiter.acquire(signal);
      try {
        const result = await invoke();
        limiter.onSuccess();
        return result;
      } catch (error) {
        const apiError = asAwsApiError(error);
        const throttled = apiError?.kind === 'Throttled';
        if (throttled) limiter.onThrottled();
        if (!apiError?.retryable || attempt >= maxAttempts || signal?.aborted) throw error;
        const delayMs = backoffDelay(attempt, throttled ? throttledBaseDelayMs : baseDelayMs, maxDelayMs, random);
        options.onRetry?.({ operation, attempt, delayMs, error });
        await sleep(delayMs, signal);
      }
    }
  });
}
