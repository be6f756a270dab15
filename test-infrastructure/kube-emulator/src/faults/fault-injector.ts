/**
 * Fault injection for tests: fail the next N matching requests (500/503, or 429 with
 * Retry-After), add latency, drop open watches, forget watch history (forcing 410s), and choose
 * how an expired watch is answered. Steerable in-process and over HTTP under /__emulator/faults.
 */

export type InjectedFailureStatus = 429 | 500 | 503;
export type DropWatchesMode = 'end' | 'reset';
/** `error-event`: 200 with an in-stream ERROR event (what kube's watch cache does); `http-status`: an HTTP 410. */
export type ExpiredWatchResponse = 'error-event' | 'http-status';

export interface RequestMatch {
  /** HTTP method, e.g. `PATCH`; any when omitted. */
  method?: string;
  /** Tested against the request path including the query string, e.g. /\/api\/v1\/nodes/. */
  path?: RegExp | string;
}

export interface FailureOptions extends RequestMatch {
  /** 500 (default), 503, or 429. */
  status?: InjectedFailureStatus;
  /** For 429 (default 1): the Retry-After header and details.retryAfterSeconds. */
  retryAfterSeconds?: number;
  message?: string;
}

export interface InjectedFailure {
  status: InjectedFailureStatus;
  retryAfterSeconds: number;
  message: string;
}

interface FailureRule extends InjectedFailure {
  remaining: number;
  method?: string;
  path?: RegExp;
}

interface LatencyRule {
  milliseconds: number;
  method?: string;
  path?: RegExp;
}

export interface FaultState {
  failures: Array<{ remaining: number; status: number; method?: string; path?: string; retryAfterSeconds: number }>;
  latencies: Array<{ milliseconds: number; method?: string; path?: string }>;
  expiredWatchResponse: ExpiredWatchResponse;
  openWatches: number;
}

export interface FaultTargets {
  dropWatches(mode: DropWatchesMode): number;
  compactHistory(): number;
  openWatches(): number;
}

const toPattern = (path: RegExp | string | undefined): RegExp | undefined => (path === undefined ? undefined : typeof path === 'string' ? new RegExp(path) : path);

function ruleMatches(rule: { method?: string; path?: RegExp }, method: string, path: string): boolean {
  if (rule.method && rule.method.toUpperCase() !== method.toUpperCase()) return false;
  if (rule.path) {
    rule.path.lastIndex = 0;
    if (!rule.path.test(path)) return false;
  }
  return true;
}

export class FaultInjector {
  private failures: FailureRule[] = [];
  private latencies: LatencyRule[] = [];
  private expiredResponse: ExpiredWatchResponse;

  constructor(
    private readonly targets: FaultTargets,
    private readonly defaultExpiredResponse: ExpiredWatchResponse = 'error-event',
  ) {
    this.expiredResponse = defaultExpiredResponse;
  }

  /** Fails the next `count` requests matching `options` (all requests when no match is given). */
  failNext(count: number, options: FailureOptions = {}): void {
    if (!Number.isInteger(count) || count < 1) throw new RangeError(`count must be a positive integer, got ${count}`);
    const status = options.status ?? 500;
    if (status !== 429 && status !== 500 && status !== 503) throw new RangeError(`status must be 429, 500 or 503, got ${String(status)}`);
    const rule: FailureRule = {
      remaining: count,
      status,
      retryAfterSeconds: options.retryAfterSeconds ?? 1,
      message: options.message ?? (status === 429 ? 'Too many requests, please try again later.' : 'injected fault'),
    };
    if (options.method) rule.method = options.method;
    const path = toPattern(options.path);
    if (path) rule.path = path;
    this.failures.push(rule);
  }

  /** Adds `milliseconds` of latency to every matching request (rules add up). */
  addLatency(milliseconds: number, match: RequestMatch = {}): void {
    if (!Number.isFinite(milliseconds) || milliseconds < 0) throw new RangeError(`milliseconds must be a non-negative number, got ${milliseconds}`);
    const rule: LatencyRule = { milliseconds };
    if (match.method) rule.method = match.method;
    const path = toPattern(match.path);
    if (path) rule.path = path;
    this.latencies.push(rule);
  }

  /** Closes every open watch stream ('end' cleanly, 'reset' by destroying the connection). Returns how many. */
  dropWatches(mode: DropWatchesMode = 'end'): number {
    return this.targets.dropWatches(mode);
  }

  /** Forgets the watch history: resuming from any earlier resourceVersion now gets 410. Returns the current resourceVersion. */
  compactHistory(): number {
    return this.targets.compactHistory();
  }

  setExpiredWatchResponse(mode: ExpiredWatchResponse): void {
    this.expiredResponse = mode;
  }

  get expiredWatchResponse(): ExpiredWatchResponse {
    return this.expiredResponse;
  }

  /** Clears failures and latency and restores the expired-watch response. */
  reset(): void {
    this.failures = [];
    this.latencies = [];
    this.expiredResponse = this.defaultExpiredResponse;
  }

  state(): FaultState {
    return {
      failures: this.failures.map((rule) => ({
        remaining: rule.remaining,
        status: rule.status,
        retryAfterSeconds: rule.retryAfterSeconds,
        ...(rule.method ? { method: rule.method } : {}),
        ...(rule.path ? { path: rule.path.source } : {}),
      })),
      latencies: this.latencies.map((rule) => ({ milliseconds: rule.milliseconds, ...(rule.method ? { method: rule.method } : {}), ...(rule.path ? { path: rule.path.source } : {}) })),
      expiredWatchResponse: this.expiredResponse,
      openWatches: this.targets.openWatches(),
    };
  }

  /** Consumes and returns the failure for this request, if one is pending. */
  takeFailure(method: string, path: string): InjectedFailure | undefined {
    const rule = this.failures.find((candidate) => ruleMatches(candidate, method, path));
    if (!rule) return undefined;
    rule.remaining--;
    if (rule.remaining <= 0) this.failures = this.failures.filter((candidate) => candidate !== rule);
    return { status: rule.status, retryAfterSeconds: rule.retryAfterSeconds, message: rule.message };
  }

  latencyFor(method: string, path: string): number {
    return this.latencies.reduce((total, rule) => (ruleMatches(rule, method, path) ? total + rule.milliseconds : total), 0);
  }
}
