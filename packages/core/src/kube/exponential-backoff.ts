/**
 * Exponential backoff with a reset after a healthy period (client-go's
 * `NewExponentialBackoffManager`): delays double from `initialMs` up to `maxMs`; a failure more
 * than `resetAfterMs` after the previous one starts again from `initialMs`. Up to `jitter`
 * (fraction) is added at random.
 */
export interface ExponentialBackoffOptions {
  initialMs: number;
  maxMs: number;
  resetAfterMs: number;
  jitter?: number;
  random?: () => number;
  now?: () => number;
}

export class ExponentialBackoff {
  readonly #options: ExponentialBackoffOptions;
  #lastFailureAt = -Infinity;
  #lastDelayMs = 0;

  constructor(options: ExponentialBackoffOptions) {
    this.#options = options;
  }

  /** Records a failure and returns how long to wait before the next attempt. */
  next(): number {
    const now = (this.#options.now ?? Date.now)();
    const healthy = now - this.#lastFailureAt > this.#options.resetAfterMs;
    this.#lastDelayMs = healthy ? this.#options.initialMs : Math.min(this.#lastDelayMs * 2, this.#options.maxMs);
    this.#lastFailureAt = now;
    const jitter = 1 + (this.#options.random ?? Math.random)() * (this.#options.jitter ?? 0);
    return Math.min(Math.round(this.#lastDelayMs * jitter), this.#options.maxMs);
  }
}
