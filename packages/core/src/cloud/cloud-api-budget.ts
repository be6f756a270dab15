/**
 * The cloud API budget: one per provider, built in the provider's composition root and shared by
 * every controller, so that together they never send more than the provider's share of the
 * cloud's rate limit.
 *
 *   const observer = createCloudApiObserver(context.metrics, 'aws');
 *   const budget = new CloudApiBudget({ provider: 'aws', qps: 10, burst: 20, metrics: context.metrics, observer });
 *   const reply = await budget.call('DescribeInstances', ({ signal }) => ec2.send(command, { abortSignal: signal }));
 *
 * Every attempt first takes a token from an adaptive, first-come-first-served token bucket
 * (`AdaptiveRateLimiter`). When the cloud throttles an attempt (decided by the provider's
 * classifier), the bucket's rate is cut and the attempt is retried after an exponential,
 * jittered backoff (never sooner than the cloud's Retry-After), queueing again behind everyone
 * else; other errors pass through untouched. The observer, when given, times each attempt (the
 * budget wraps the observer, so time spent waiting for a token is not counted as API latency).
 */
import type { Logger } from '../logging/logger.js';
import type { MetricsSink } from '../metrics/metrics-sink.js';
import { sleepOrThrowOnAbort } from '../util/abortable-sleep.js';
import { AdaptiveRateLimiter } from './adaptive-rate-limiter.js';
import { cloudApiBudgetMetrics, type CloudApiBudgetMetrics } from './cloud-api-budget-metrics.js';
import { findCloudApiError } from './cloud-api-error.js';
import type { CloudApiObserver } from './cloud-api-observer.js';
import { defaultThrottlingClassifier, type ThrottlingClassifier } from './throttling-classifier.js';

export interface CloudApiBudgetOptions {
  /** Provider name: the `provider` label of the metrics. */
  provider: string;
  /** Requests per second for the provider as a whole. Default 10. */
  qps?: number;
  /** Requests allowed at once after an idle period. Default 2 x qps. */
  burst?: number;
  /**
   * Decides which errors are throttling and reads their Retry-After: the provider's own
   * classifier decides alone. Without one, a `CloudApiError` in the error's cause chain decides
   * first (kind `throttled` is throttling, with its `retryAfterMs`; any other kind is not), then
   * `defaultThrottlingClassifier`.
   */
  classify?: ThrottlingClassifier;
  /** Attempts per call, the first included, when the cloud keeps throttling. Default 5. */
  maxAttempts?: number;
  /** First retry backoff; doubles per attempt, with up to 50% taken off at random. Default 500 ms. */
  initialBackoffMs?: number;
  /** Cap of the backoff. Default 30 s. */
  maxBackoffMs?: number;
  /** Cap of a Retry-After the cloud sends (protects against absurd values). Default 60 s. */
  maxRetryAfterMs?: number;
  /** AIMD tuning; see `AdaptiveRateLimiterOptions`. */
  minQps?: number;
  decreaseFactor?: number;
  recoveryQpsPerSecond?: number;
  decreaseIntervalMs?: number;
  /** Where the budget's metrics go (declared once per sink). */
  metrics?: MetricsSink;
  /** Times every attempt (request duration and error counters per operation). */
  observer?: CloudApiObserver;
  logger?: Logger;
  /** Injected for tests: clock, randomness in [0, 1). */
  now?: () => number;
  random?: () => number;
}

export interface CloudApiAttempt {
  /** 1 for the first attempt. */
  attempt: number;
  /** The caller's signal, if any; pass it on to the SDK. */
  signal: AbortSignal | undefined;
}

export interface CloudApiCallOptions {
  /** Aborts waiting for a token or a backoff (rejects with `signal.reason`). */
  signal?: AbortSignal;
}

export const CLOUD_API_BUDGET_DEFAULTS = {
  qps: 10,
  burstPerQps: 2,
  maxAttempts: 5,
  initialBackoffMs: 500,
  maxBackoffMs: 30_000,
  maxRetryAfterMs: 60_000,
} as const;

/** What the budget has done so far (for logs, the benchmark and tests). */
export interface CloudApiBudgetStats {
  /** Attempts sent to the cloud. */
  requests: number;
  /** Attempts the cloud throttled. */
  throttled: number;
  /** Calls that failed because the cloud kept throttling through every attempt. */
  exhausted: number;
  /** The current rate, requests per second. */
  qps: number;
}

export class CloudApiBudget {
  readonly provider: string;
  readonly limiter: AdaptiveRateLimiter;
  readonly #classify: ThrottlingClassifier;
  /** Whether the provider gave its own classifier (which then decides alone). */
  readonly #ownClassifier: boolean;
  readonly #maxAttempts: number;
  readonly #initialBackoffMs: number;
  readonly #maxBackoffMs: number;
  readonly #maxRetryAfterMs: number;
  readonly #metrics: CloudApiBudgetMetrics | undefined;
  readonly #observer: CloudApiObserver | undefined;
  readonly #logger: Logger | undefined;
  readonly #now: () => number;
  readonly #random: () => number;
  #requests = 0;
  #throttled = 0;
  #exhausted = 0;

  constructor(options: CloudApiBudgetOptions) {
    const qps = options.qps ?? CLOUD_API_BUDGET_DEFAULTS.qps;
    const burst = options.burst ?? Math.max(1, Math.ceil(qps * CLOUD_API_BUDGET_DEFAULTS.burstPerQps));
    this.provider = options.provider;
    this.#classify = options.classify ?? defaultThrottlingClassifier;
    this.#ownClassifier = options.classify !== undefined;
    this.#maxAttempts = Math.max(1, Math.floor(options.maxAttempts ?? CLOUD_API_BUDGET_DEFAULTS.maxAttempts));
    this.#initialBackoffMs = options.initialBackoffMs ?? CLOUD_API_BUDGET_DEFAULTS.initialBackoffMs;
    this.#maxBackoffMs = options.maxBackoffMs ?? CLOUD_API_BUDGET_DEFAULTS.maxBackoffMs;
    this.#maxRetryAfterMs = options.maxRetryAfterMs ?? CLOUD_API_BUDGET_DEFAULTS.maxRetryAfterMs;
    this.#observer = options.observer;
    this.#logger = options.logger;
    this.#now = options.now ?? Date.now;
    this.#random = options.random ?? Math.random;
    this.#metrics = options.metrics === undefined ? undefined : cloudApiBudgetMetrics(options.metrics);
    this.limiter = new AdaptiveRateLimiter({
      qps,
      burst,
      ...(options.minQps === undefined ? {} : { minQps: options.minQps }),
      ...(options.decreaseFactor === undefined ? {} : { decreaseFactor: options.decreaseFactor }),
      ...(options.recoveryQpsPerSecond === undefined ? {} : { recoveryQpsPerSecond: options.recoveryQpsPerSecond }),
      ...(options.decreaseIntervalMs === undefined ? {} : { decreaseIntervalMs: options.decreaseIntervalMs }),
      onRateChange: (rate) => this.#metrics?.currentRate.set({ provider: this.provider }, rate),
      now: this.#now,
    });
    this.#metrics?.currentRate.set({ provider: this.provider }, qps);
  }

  /** The current rate, requests per second. */
  get qps(): number {
    return this.limiter.qps;
  }

  stats(): CloudApiBudgetStats {
    return { requests: this.#requests, throttled: this.#throttled, exhausted: this.#exhausted, qps: this.limiter.qps };
  }

  /**
   * Runs `request` within the budget: waits for a token, sends, and retries throttled attempts.
   * Resolves with the first successful result; rejects with the request's own error (the last
   * throttling error once the attempts are used up) or with `signal.reason` when aborted.
   */
  async call<T>(operation: string, request: (attempt: CloudApiAttempt) => Promise<T>, options: CloudApiCallOptions = {}): Promise<T> {
    const signal = options.signal;
    for (let attempt = 1; ; attempt++) {
      const waitStarted = this.#now();
      await this.limiter.acquire(signal);
      this.#metrics?.waitSeconds.observe({ provider: this.provider }, (this.#now() - waitStarted) / 1000);
      this.#requests++;
      this.#metrics?.requests.inc({ provider: this.provider, operation });
      const send = (): Promise<T> => request({ attempt, signal });
      try {
        const result = await (this.#observer ? this.#observer.observe(operation, send) : send());
        this.limiter.succeeded();
        return result;
      } catch (error) {
        const verdict = this.#classifySafely(error);
        if (verdict === undefined) throw error;
        this.#throttled++;
        this.#metrics?.throttled.inc({ provider: this.provider, operation });
        const retryAfterMs = verdict.retryAfterMs === undefined ? undefined : Math.min(verdict.retryAfterMs, this.#maxRetryAfterMs);
        this.limiter.throttled(retryAfterMs);
        if (attempt >= this.#maxAttempts || signal?.aborted) {
          this.#exhausted++;
          this.#logger?.warn(`cloud API ${operation} still throttled after ${attempt} attempts; giving up`, { provider: this.provider, operation });
          throw error;
        }
        const delayMs = Math.max(this.#backoffMs(attempt), retryAfterMs ?? 0);
        this.#logger?.verbose(2, `cloud API ${operation} throttled; retrying in ${delayMs}ms at ${this.limiter.qps.toFixed(2)} requests/s`, {
          provider: this.provider,
          operation,
          attempt,
        });
        await sleepOrThrowOnAbort(delayMs, signal);
      }
    }
  }

  /** `fn` with every call running through the budget under `operation`. */
  wrap<Arguments extends unknown[], T>(operation: string, fn: (...parameters: Arguments) => Promise<T>): (...parameters: Arguments) => Promise<T> {
    return (...parameters) => this.call(operation, () => fn(...parameters));
  }

  /** Rejects every caller waiting for a token (shutdown). */
  close(reason: unknown = new Error(`cloud API budget of ${this.provider} closed`)): void {
    this.limiter.close(reason);
  }

  /** Exponential backoff with "equal jitter": half the step is fixed, half random. */
  #backoffMs(attempt: number): number {
    const step = Math.min(this.#maxBackoffMs, this.#initialBackoffMs * 2 ** (attempt - 1));
    return Math.round(step / 2 + (this.#random() * step) / 2);
  }

  #classifySafely(error: unknown): ReturnType<ThrottlingClassifier> {
    const typed = this.#ownClassifier ? undefined : findCloudApiError(error);
    if (typed !== undefined) {
      if (typed.cloudKind !== 'throttled') return undefined;
      return typed.retryAfterMs === undefined ? {} : { retryAfterMs: typed.retryAfterMs };
    }
    try {
      return this.#classify(error);
    } catch {
      return undefined;
    }
  }
}
