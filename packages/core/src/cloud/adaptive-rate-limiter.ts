/**
 * A token bucket whose rate adapts to the cloud's throttling (AIMD): each throttling response
 * cuts the rate by `decreaseFactor` (at most once per `decreaseIntervalMs`, so a burst of
 * throttled calls that were in flight together counts once) and empties the bucket; while calls
 * succeed the rate climbs back by `recoveryQpsPerSecond` per second up to the configured `qps`.
 * A Retry-After from the cloud pauses the whole bucket until then.
 *
 * Waiters are served strictly first come, first served, one token each, so a crowd of callers
 * (retries included) drains at the current rate instead of stampeding when tokens appear.
 */

export interface AdaptiveRateLimiterOptions {
  /** Configured (and maximum) rate, requests per second; finite and > 0. */
  qps: number;
  /** Bucket size: requests allowed at once after an idle period; >= 1. */
  burst: number;
  /** Lowest rate the decreases go to. Default qps / 16 (four halvings). */
  minQps?: number;
  /** Multiplier applied to the rate on throttling, in (0, 1). Default 0.5. */
  decreaseFactor?: number;
  /** Rate regained per second without throttling. Default qps / 20 (half the rate back in 10 s). */
  recoveryQpsPerSecond?: number;
  /** At most one decrease per this many ms. Default 1000. */
  decreaseIntervalMs?: number;
  /** Called whenever the rate changes. */
  onRateChange?: (qps: number) => void;
  /** Millisecond clock (default `Date.now`, so fake timers control it). */
  now?: () => number;
}

interface Waiter {
  resolve(): void;
  reject(reason: unknown): void;
  release(): void;
}

export class AdaptiveRateLimiter {
  readonly maxQps: number;
  readonly burst: number;
  readonly minQps: number;
  readonly #decreaseFactor: number;
  readonly #recoveryQpsPerSecond: number;
  readonly #decreaseIntervalMs: number;
  readonly #onRateChange: ((qps: number) => void) | undefined;
  readonly #now: () => number;
  readonly #waiters = new Set<Waiter>();
  #qps: number;
  #tokens: number;
  #refilledAt: number;
  #pausedUntil = 0;
  #lastDecreaseAt = -Infinity;
  #recoveredAt: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerDueAt = Infinity;

  constructor(options: AdaptiveRateLimiterOptions) {
    if (!(Number.isFinite(options.qps) && options.qps > 0)) throw new RangeError(`rate limiter qps must be a finite number > 0, got ${options.qps}`);
    if (!(Number.isFinite(options.burst) && options.burst >= 1)) throw new RangeError(`rate limiter burst must be >= 1, got ${options.burst}`);
    const decreaseFactor = options.decreaseFactor ?? 0.5;
    if (!(decreaseFactor > 0 && decreaseFactor < 1)) throw new RangeError(`rate limiter decreaseFactor must be in (0, 1), got ${decreaseFactor}`);
    const minQps = options.minQps ?? options.qps / 16;
    if (!(minQps > 0 && minQps <= options.qps)) throw new RangeError(`rate limiter minQps must be in (0, qps], got ${minQps}`);
    const recovery = options.recoveryQpsPerSecond ?? options.qps / 20;
    if (!(Number.isFinite(recovery) && recovery >= 0)) throw new RangeError(`rate limiter recoveryQpsPerSecond must be >= 0, got ${recovery}`);
    this.maxQps = options.qps;
    this.burst = Math.floor(options.burst);
    this.minQps = minQps;
    this.#decreaseFactor = decreaseFactor;
    this.#recoveryQpsPerSecond = recovery;
    this.#decreaseIntervalMs = options.decreaseIntervalMs ?? 1000;
    this.#onRateChange = options.onRateChange;
    this.#now = options.now ?? Date.now;
    this.#qps = options.qps;
    this.#tokens = this.burst;
    this.#refilledAt = this.#now();
    this.#recoveredAt = this.#refilledAt;
  }

  /** The current (possibly reduced) rate, requests per second. */
  get qps(): number {
    return this.#qps;
  }

  /** Callers waiting for a token. */
  get waiting(): number {
    return this.#waiters.size;
  }

  /** Tokens in the bucket now (fractional while refilling). */
  available(): number {
    this.#refill();
    return this.#tokens;
  }

  /**
   * Waits for a token, behind every earlier caller. Rejects with `signal.reason` when aborted
   * while waiting (no token is used then).
   */
  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    this.#refill();
    if (this.#waiters.size === 0 && this.#now() >= this.#pausedUntil && this.#tokens >= 1) {
      this.#tokens -= 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        this.#waiters.delete(waiter);
        reject(signal?.reason);
        this.#serve();
      };
      const waiter: Waiter = { resolve, reject, release: () => signal?.removeEventListener('abort', onAbort) };
      this.#waiters.add(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#serve();
    });
  }

  /**
   * The cloud throttled a call: cut the rate (once per decrease interval), empty the bucket and,
   * when the cloud said how long to wait, hold every caller until then.
   */
  throttled(retryAfterMs?: number): void {
    this.#refill();
    const now = this.#now();
    if (now - this.#lastDecreaseAt >= this.#decreaseIntervalMs) {
      this.#lastDecreaseAt = now;
      this.#setRate(Math.max(this.minQps, this.#qps * this.#decreaseFactor));
    }
    this.#tokens = Math.min(this.#tokens, 0);
    if (retryAfterMs !== undefined && retryAfterMs > 0) this.#pausedUntil = Math.max(this.#pausedUntil, now + retryAfterMs);
    // Recovery starts when traffic may flow again, not during a pause.
    this.#recoveredAt = Math.max(now, this.#pausedUntil);
    this.#serve();
  }

  /** A call went through without throttling: regain rate for the time since the last change. */
  succeeded(): void {
    const now = this.#now();
    if (this.#qps >= this.maxQps) {
      this.#recoveredAt = now;
      return;
    }
    this.#refill();
    const regained = (this.#recoveryQpsPerSecond * Math.max(0, now - this.#recoveredAt)) / 1000;
    this.#recoveredAt = now;
    if (regained > 0) this.#setRate(Math.min(this.maxQps, this.#qps + regained));
    this.#serve();
  }

  /** Rejects every waiter with `reason` and stops the timer. */
  close(reason: unknown): void {
    this.#clearTimer();
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const waiter of waiters) {
      waiter.release();
      waiter.reject(reason);
    }
  }

  #setRate(qps: number): void {
    if (qps === this.#qps) return;
    this.#qps = qps;
    this.#onRateChange?.(qps);
  }

  /** Tokens accrue at the current rate, but not during a Retry-After pause (no burst after it). */
  #refill(): void {
    const now = this.#now();
    const elapsed = Math.max(0, now - Math.max(this.#refilledAt, this.#pausedUntil));
    this.#refilledAt = now;
    this.#tokens = Math.min(this.burst, this.#tokens + (elapsed / 1000) * this.#qps);
  }

  /** Hands tokens to waiters in order, then arms the timer for the next one. */
  #serve(): void {
    this.#refill();
    const now = this.#now();
    while (this.#waiters.size > 0 && now >= this.#pausedUntil && this.#tokens >= 1) {
      const waiter = this.#waiters.values().next().value as Waiter;
      this.#waiters.delete(waiter);
      this.#tokens -= 1;
      waiter.release();
      waiter.resolve();
    }
    if (this.#waiters.size === 0) {
      this.#clearTimer();
      return;
    }
    const tokenDueAt = now + Math.ceil(((1 - this.#tokens) / this.#qps) * 1000);
    const dueAt = Math.max(this.#pausedUntil, tokenDueAt);
    if (this.#timer !== undefined && this.#timerDueAt === dueAt) return;
    this.#clearTimer();
    this.#timerDueAt = dueAt;
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        this.#timerDueAt = Infinity;
        this.#serve();
      },
      Math.max(0, dueAt - now),
    );
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerDueAt = Infinity;
  }
}
