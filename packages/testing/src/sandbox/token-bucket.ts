/** A token bucket: `burst` tokens, refilled at `qps` per second. Time comes from the caller. */
export class TokenBucket {
  readonly qps: number;
  readonly burst: number;
  #tokens: number;
  #updatedAtMs: number;

  constructor(qps: number, burst: number, nowMs: number) {
    if (!(qps > 0) || !Number.isFinite(qps)) throw new RangeError('qps must be a positive number');
    if (!Number.isInteger(burst) || burst < 1) throw new RangeError('burst must be a positive integer');
    this.qps = qps;
    this.burst = burst;
    this.#tokens = burst;
    this.#updatedAtMs = nowMs;
  }

  /** Takes one token, or says how long until one is available. */
  take(nowMs: number): { allowed: true } | { allowed: false; retryAfterMs: number } {
    this.#refill(nowMs);
    if (this.#tokens >= 1) {
      this.#tokens -= 1;
      return { allowed: true };
    }
    return { allowed: false, retryAfterMs: Math.ceil(((1 - this.#tokens) / this.qps) * 1000) };
  }

  #refill(nowMs: number): void {
    const elapsedMs = Math.max(0, nowMs - this.#updatedAtMs);
    this.#tokens = Math.min(this.burst, this.#tokens + (elapsedMs / 1000) * this.qps);
    this.#updatedAtMs = nowMs;
  }
}
