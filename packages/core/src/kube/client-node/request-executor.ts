/**
 * Runs client-node calls with client-go's client-side behaviour: every request first takes a
 * token from the shared bucket (`--kube-api-qps`/`--kube-api-burst`, waiting rather than
 * failing), sends our User-Agent, and a 429 (or 5xx) answer carrying `Retry-After` is retried
 * after that many seconds, at most `maxRetries` times (client-go: 10). Errors come out as KubeApiError.
 */
import { ApiException, type ConfigurationOptions } from '@kubernetes/client-node';
import { setHeaderMiddleware } from '@kubernetes/client-node';
import type { Logger } from '../../logging/logger.js';
import type { TokenBucket } from '../token-bucket.js';
import type { RestClientMetrics } from './rest-client-metrics.js';
import { toKubeApiError } from './to-kube-api-error.js';
import { undiciRequestLibrary } from './undici-request-library.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a call does, for errors, logs and metrics. */
export interface RequestDescription {
  method: HttpMethod;
  /** `patch node n1`: prefixes transport error messages. */
  description: string;
  /** Content-Type to force (patches: client-node defaults to json-patch). */
  contentType?: string;
}

export interface RequestExecutorOptions {
  /** Shared by every request of one KubeAccess; undefined = unlimited. */
  bucket?: TokenBucket;
  userAgent: string;
  logger: Logger;
  /** Retries of answers with Retry-After (default 10, as client-go). */
  maxRetries?: number;
  /** Upper bound for one Retry-After wait (default 60 s). */
  maxRetryAfterMs?: number;
  sleep?: (ms: number) => Promise<void>;
  metrics?: RestClientMetrics;
}

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Seconds from a `Retry-After` header (integer seconds only, as client-go), or undefined. */
export function retryAfterSeconds(headers: Record<string, string> | undefined): number | undefined {
  if (headers === undefined) return undefined;
  const entry = Object.entries(headers).find(([name]) => name.toLowerCase() === 'retry-after');
  if (entry === undefined) return undefined;
  const value = entry[1].trim();
  if (!/^\d+$/.test(value)) return undefined;
  return Number(value);
}

export class RequestExecutor {
  readonly #options: RequestExecutorOptions;

  constructor(options: RequestExecutorOptions) {
    this.#options = options;
  }

  /**
   * Per-call client-node options: our User-Agent, plus a Content-Type when given (patches);
   * writes go through undici's `request()` rather than `fetch()` (`undici-request-library.ts`).
   */
  callOptions(contentType?: string, method: HttpMethod = 'GET'): ConfigurationOptions {
    const middleware = [setHeaderMiddleware('User-Agent', this.#options.userAgent)];
    if (contentType !== undefined) middleware.push(setHeaderMiddleware('Content-Type', contentType));
    return { middleware, middlewareMergeStrategy: 'append', ...(method === 'GET' ? {} : { httpApi: undiciRequestLibrary }) };
  }

  /** Takes a token (waiting if needed), runs `call`, retries Retry-After answers, translates errors. */
  async execute<T>(request: RequestDescription, call: (options: ConfigurationOptions) => Promise<T>): Promise<T> {
    const maxRetries = this.#options.maxRetries ?? 10;
    const maxRetryAfterMs = this.#options.maxRetryAfterMs ?? 60_000;
    const sleep = this.#options.sleep ?? defaultSleep;
    const metrics = this.#options.metrics;
    for (let attempt = 0; ; attempt += 1) {
      await this.throttle(request.method);
      const startedAt = performance.now();
      try {
        const result = await call(this.callOptions(request.contentType, request.method));
        metrics?.request(request.method, '200', (performance.now() - startedAt) / 1000);
        return result;
      } catch (error) {
        const code = error instanceof ApiException ? String(error.code) : '<error>';
        metrics?.request(request.method, code, (performance.now() - startedAt) / 1000);
        const seconds = error instanceof ApiException && (error.code === 429 || error.code >= 500) ? retryAfterSeconds(error.headers) : undefined;
        if (seconds === undefined || attempt >= maxRetries) throw toKubeApiError(error, request.description);
        const waitMs = Math.min(seconds * 1000, maxRetryAfterMs);
        this.#options.logger.verbose(2, 'Kubernetes API asked to retry later', {
          request: request.description,
          statusCode: (error as ApiException<unknown>).code,
          retryAfterMs: waitMs,
          attempt: attempt + 1,
        });
        await sleep(waitMs);
      }
    }
  }

  /** Takes a token from the shared bucket (also for requests made outside `execute`, e.g. watches). */
  async throttle(method: HttpMethod = 'GET'): Promise<void> {
    const bucket = this.#options.bucket;
    if (bucket === undefined) return;
    const startedAt = performance.now();
    await bucket.take();
    this.#options.metrics?.rateLimiterWait(method, (performance.now() - startedAt) / 1000);
  }
}
