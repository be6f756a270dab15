/**
 * ARM's request throttling, simplified to one token bucket per subscription for reads and one for
 * writes: over the rate ARM answers 429 `TooManyRequests` with `Retry-After`. Off unless configured.
 */
export interface ThrottleSettings {
  /** Sustained requests per second. */
  requestsPerSecond: number;
  /** Bucket size (requests allowed at once). Default: requestsPerSecond. */
  burst?: number;
}

class TokenBucket {
  private tokens: number;
  private updatedAt: number;

  constructor(
    private readonly rate: number,
    private readonly size: number,
    private readonly now: () => number,
  ) {
    this.tokens = size;
    this.updatedAt = now();
  }

  /** 0 when a token was taken, else the seconds until one is available. */
  take(): number {
    const now = this.now();
    this.tokens = Math.min(this.size, this.tokens + ((now - this.updatedAt) / 1000) * this.rate);
    this.updatedAt = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - this.tokens) / this.rate));
  }

  remaining(): number {
    return Math.floor(this.tokens);
  }
}

export class RequestThrottle {
  private buckets: { read: TokenBucket; write: TokenBucket } | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  configure(settings: ThrottleSettings | undefined): void {
    if (settings === undefined) {
      this.buckets = undefined;
      return;
    }
    if (!(settings.requestsPerSecond > 0)) throw new Error(`throttle requestsPerSecond must be positive, got ${settings.requestsPerSecond}`);
    const size = settings.burst ?? Math.max(1, Math.ceil(settings.requestsPerSecond));
    this.buckets = { read: new TokenBucket(settings.requestsPerSecond, size, this.now), write: new TokenBucket(settings.requestsPerSecond, size, this.now) };
  }

  /** `{ retryAfterSeconds }` when the request must be refused, else the remaining-requests header. */
  admit(write: boolean): { retryAfterSeconds: number } | { headers: Record<string, string> } {
    if (!this.buckets) return { headers: {} };
    const bucket = write ? this.buckets.write : this.buckets.read;
    const wait = bucket.take();
    if (wait > 0) return { retryAfterSeconds: wait };
    return { headers: { [write ? 'x-ms-ratelimit-remaining-subscription-writes' : 'x-ms-ratelimit-remaining-subscription-reads']: String(bucket.remaining()) } };
  }
}
