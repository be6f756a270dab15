/**
 * Decides whether a failed cloud call was throttled, and for how long the cloud asked us to wait.
 * Providers pass a classifier to `CloudApiBudget`; `createThrottlingClassifier()` covers the
 * usual shapes (AWS SDK v3 errors, Google API errors, Azure and OpenStack HTTP errors, plain
 * HTTP 429) and takes extra codes for a provider's own throttling errors.
 */

/** A throttled call; `retryAfterMs` when the cloud said how long to wait (Retry-After). */
export interface ThrottlingVerdict {
  retryAfterMs?: number;
}

/** Returns a verdict for a throttling error, `undefined` for any other error. */
export type ThrottlingClassifier = (error: unknown) => ThrottlingVerdict | undefined;

/**
 * Error codes that mean "slow down". AWS: the SDK's throttling codes (EC2 uses
 * `RequestLimitExceeded`, ELB `Throttling`). Google: `rateLimitExceeded`,
 * `userRateLimitExceeded`. Azure: `TooManyRequests`, `SubscriptionRequestsThrottled`.
 */
export const DEFAULT_THROTTLING_CODES: readonly string[] = [
  'Throttling',
  'ThrottlingException',
  'ThrottledException',
  'RequestThrottledException',
  'TooManyRequestsException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'BandwidthLimitExceeded',
  'RequestThrottled',
  'SlowDown',
  'PriorRequestNotComplete',
  'EC2ThrottledException',
  'rateLimitExceeded',
  'userRateLimitExceeded',
  'TooManyRequests',
  'SubscriptionRequestsThrottled',
];

/** HTTP statuses that mean "slow down": 429 Too Many Requests. */
export const DEFAULT_THROTTLING_STATUSES: readonly number[] = [429];

export interface ThrottlingClassifierOptions {
  /** Codes added to `DEFAULT_THROTTLING_CODES`. */
  extraCodes?: Iterable<string>;
  /** Replaces `DEFAULT_THROTTLING_CODES`. */
  codes?: Iterable<string>;
  /** Replaces `DEFAULT_THROTTLING_STATUSES`. */
  statuses?: Iterable<number>;
  /** Millisecond clock for HTTP-date Retry-After values (default `Date.now`). */
  now?: () => number;
}

/** How deep the `cause` chain is searched (errors wrapped by our own layers). */
const MAX_CAUSE_DEPTH = 8;

export function createThrottlingClassifier(options: ThrottlingClassifierOptions = {}): ThrottlingClassifier {
  const codes = new Set([...(options.codes ?? DEFAULT_THROTTLING_CODES), ...(options.extraCodes ?? [])]);
  const statuses = new Set(options.statuses ?? DEFAULT_THROTTLING_STATUSES);
  const now = options.now ?? Date.now;
  return (error) => {
    let current: unknown = error;
    for (let depth = 0; depth < MAX_CAUSE_DEPTH && current !== null && typeof current === 'object'; depth++) {
      if (isThrottlingShape(current, codes, statuses)) {
        const retryAfterMs = findRetryAfterMs(current, now());
        return retryAfterMs === undefined ? {} : { retryAfterMs };
      }
      current = (current as { cause?: unknown }).cause;
    }
    return undefined;
  };
}

/** The classifier with the default codes and statuses. */
export const defaultThrottlingClassifier: ThrottlingClassifier = createThrottlingClassifier();

function isThrottlingShape(error: object, codes: ReadonlySet<string>, statuses: ReadonlySet<number>): boolean {
  const candidate = error as Record<string, unknown> & { $metadata?: { httpStatusCode?: unknown }; response?: { status?: unknown } };
  for (const code of [candidate['code'], candidate['Code'], candidate['name'], candidate['reason']]) {
    if (typeof code === 'string' && codes.has(code)) return true;
  }
  const googleErrors = candidate['errors'];
  if (Array.isArray(googleErrors) && googleErrors.some((entry) => typeof entry?.reason === 'string' && codes.has(entry.reason))) return true;
  for (const status of [candidate['statusCode'], candidate['status'], candidate.$metadata?.httpStatusCode, candidate.response?.status]) {
    const numeric = typeof status === 'string' && /^\d{3}$/.test(status) ? Number(status) : status;
    if (typeof numeric === 'number' && statuses.has(numeric)) return true;
  }
  return (candidate as { $retryable?: { throttling?: unknown } }).$retryable?.throttling === true;
}

/**
 * The wait the cloud asked for, in ms: a `retryAfterMs` / `retryAfterSeconds` property, or a
 * `Retry-After` header on `headers`, `$response.headers` or `response.headers` (plain object
 * or `Headers`).
 */
export function findRetryAfterMs(error: object, nowMs: number): number | undefined {
  const candidate = error as Record<string, unknown>;
  const direct = candidate['retryAfterMs'];
  if (typeof direct === 'number' && Number.isFinite(direct) && direct >= 0) return direct;
  const seconds = candidate['retryAfterSeconds'];
  if (typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const holders = [candidate, candidate['$response'], candidate['response']];
  for (const holder of holders) {
    if (holder === null || typeof holder !== 'object') continue;
    const value = readHeader((holder as { headers?: unknown }).headers, 'retry-after');
    if (value !== undefined) {
      const parsed = parseRetryAfter(value, nowMs);
      if (parsed !== undefined) return parsed;
    }
  }
  return undefined;
}

/** RFC 9110 Retry-After: delay-seconds or an HTTP-date. Returns ms from `nowMs` (>= 0), or undefined if unreadable. */
export function parseRetryAfter(value: string | number, nowMs: number): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value * 1000 : undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

function readHeader(headers: unknown, name: string): string | number | undefined {
  if (headers === null || typeof headers !== 'object') return undefined;
  const getter = (headers as { get?: unknown }).get;
  if (typeof getter === 'function') {
    const value: unknown = (getter as (key: string) => unknown).call(headers, name);
    return typeof value === 'string' ? value : undefined;
  }
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue;
    if (typeof value === 'string' || typeof value === 'number') return value;
    if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  }
  return undefined;
}
