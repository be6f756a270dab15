/**
 * A token bucket like Go's `golang.org/x/time/rate.Limiter` (what client-go uses for its
 * client-side QPS/burst and the work queue's overall limiter): tokens refill at `qps` per second
 * up to `burst`; a reservation always succeeds and says how long to wait, so the bucket can go
 * into debt and later callers wait longer.
 */
export interface TokenBucketOptions {
  /** Tokens added per second. `Infinity` disables limiting. */
  qps: number;
  /** Bucket size: how many takes may happen at once after an idle period. */
  burst: number;
  /** Millisecond clock (default `Date.now`, so fake timers control it). */
  now?: () => number;
}

export class TokenBucket {
  readonly qps: number;
  readonly burst: number;
  readonly #now: () => number;
  #tokens: number;
  #updatedAt: number;

  constructor(options: TokenBucketOptions) {
    if (!(options.qps > 0)) throw new RangeError(`token bucket qps must be > 0, got ${options.qps}`);
    if (!(options.burst >= 1)) throw new RangeError(`token bucket burst must be >= 1, got ${options.burst}`);
    this.qps = options.qps;
    this.burst = options.burst;
    this.#now = options.now ?? Date.now;
    this.#tokens = options.burst;
    this.#updatedAt = this.#now();
  }

  /** Takes a token now if one is available, without going into debt. */
  tryTake(): boolean {
    if (this.qps === Infinity) return true;
    this.#refill();
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }

  /** Milliseconds until `tryTake` would succeed (0 when a token is available now). */
  msUntilAvailable(): number {
    if (this.qps === Infinity) return 0;
    this.#refill();
    return this.#tokens >= 1 ? 0 : Math.ceil(((1 - this.#tokens) / this.qps) * 1000);
  }

  /** Reserves a token and returns how many milliseconds the caller must wait before using it. */
  reserve(): number {
    if (this.qps === Infinity) return 0;
    this.#refill();
    this.#tokens -= 1;
    return this.#tokens >= 0 ? 0 : Math.ceil((-this.#tokens / this.qps) * 1000);
  }

  /**
   * Waits for a token (reserving it first, so waiters are served in call order). Rejects with
   * `signal.reason` if aborted while waiting; the reservation is then returned to the bucket.
   */
  async take(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    const delay = this.reserve();
    if (delay <= 0) return;
    await new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        clearTimeout(timer);
        this.#tokens = Math.min(this.burst, this.#tokens + 1);
        reject(signal?.reason as Error);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, delay);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Tokens currently available (may be negative while in debt). */
  available(): number {
    if (this.qps === Infinity) return this.burst;
    this.#refill();
    return this.#tokens;
  }

  #refill(): void {
    const now = this.#now();
    const elapsed = Math.max(0, now - this.#updatedAt);
    this.#updatedAt = now;
    this.#tokens = Math.min(this.burst, this.#tokens + (elapsed / 1000) * this.qps);
  }
}
