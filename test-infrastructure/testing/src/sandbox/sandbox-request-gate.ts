import { TokenBucket } from '@ccm/core/kube';
import { SandboxCloudError, type SandboxErrorCode } from './sandbox-cloud-error.js';
import { SANDBOX_OPERATIONS, type SandboxOperation } from './sandbox-operations.js';
import { seededRandom } from './seeded-random.js';

export interface RateLimit {
  qps: number;
  burst: number;
}

/** A bucket of `burst` tokens refilled at `qps` per second, on the gate's clock. Throws RangeError. */
function rateLimitBucket(rateLimit: RateLimit, now: () => number): TokenBucket {
  if (!(rateLimit.qps > 0) || !Number.isFinite(rateLimit.qps)) throw new RangeError('qps must be a positive number');
  if (!Number.isInteger(rateLimit.burst) || rateLimit.burst < 1) throw new RangeError('burst must be a positive integer');
  return new TokenBucket({ qps: rateLimit.qps, burst: rateLimit.burst, now });
}

/** A fault to inject into the next `count` matching calls. */
export interface InjectedErrorRule {
  /** Only this operation; every operation when left out. */
  operation?: SandboxOperation;
  /** How many calls fail. Default 1. */
  count?: number;
  /** Default `InternalError` (HTTP 500). `Throttling` answers 429 with Retry-After. */
  code?: SandboxErrorCode;
  message?: string;
}

export interface OperationCounters {
  /** Every request, whatever its outcome: succeeded + failed + throttled + injectedErrors. */
  requests: number;
  succeeded: number;
  /** Answered with an error by the cloud itself (NotFound, AlreadyExists, ...). */
  failed: number;
  /** Refused by the rate limiter (HTTP 429). */
  throttled: number;
  /** Failed by `errorRate` or an injected rule. */
  injectedErrors: number;
}

export interface SandboxCallCounts {
  total: OperationCounters;
  operations: Record<SandboxOperation, OperationCounters>;
}

export type GateDecision =
  | { kind: 'proceed' }
  | { kind: 'throttled'; retryAfterMs: number; error: SandboxCloudError }
  | { kind: 'inject'; error: SandboxCloudError };

export interface SandboxRequestGateOptions {
  latencyMs?: number;
  rateLimit?: RateLimit;
  /** Probability in [0, 1] that a call fails with HTTP 500. */
  errorRate?: number;
  /** Seed of the error-rate random sequence. Default 1. */
  seed?: number;
  /** Clock in milliseconds. Default `performance.now`. */
  now?: () => number;
}

const zeroCounters = (): OperationCounters => ({ requests: 0, succeeded: 0, failed: 0, throttled: 0, injectedErrors: 0 });

function checkErrorRate(errorRate: number): number {
  if (!(errorRate >= 0 && errorRate <= 1)) throw new RangeError('errorRate must be between 0 and 1');
  return errorRate;
}

function checkLatency(latencyMs: number): number {
  if (!(latencyMs >= 0) || !Number.isFinite(latencyMs)) throw new RangeError('latencyMs must be a non-negative number');
  return latencyMs;
}

/**
 * Decides, per cloud API call, whether it is throttled (token bucket), failed on purpose
 * (seeded error rate or injected rules) or allowed through, and counts the outcomes.
 * No I/O: the HTTP server asks it before every call and reports the result after.
 */
export class SandboxRequestGate {
  readonly #now: () => number;
  #latencyMs: number;
  #bucket: TokenBucket | undefined;
  #errorRate: number;
  #random: () => number;
  #seed: number;
  #rules: Array<Required<Pick<InjectedErrorRule, 'count' | 'code'>> & InjectedErrorRule> = [];
  #counters = new Map<SandboxOperation, OperationCounters>();

  constructor(options: SandboxRequestGateOptions = {}) {
    this.#now = options.now ?? (() => performance.now());
    this.#latencyMs = checkLatency(options.latencyMs ?? 0);
    this.#bucket = options.rateLimit === undefined ? undefined : rateLimitBucket(options.rateLimit, this.#now);
    this.#errorRate = checkErrorRate(options.errorRate ?? 0);
    this.#seed = options.seed ?? 1;
    this.#random = seededRandom(this.#seed);
  }

  get latencyMs(): number {
    return this.#latencyMs;
  }

  get errorRate(): number {
    return this.#errorRate;
  }

  setLatency(latencyMs: number): void {
    this.#latencyMs = checkLatency(latencyMs);
  }

  /** `undefined` removes the limit. A new limit starts with a full bucket. */
  setRateLimit(rateLimit: RateLimit | undefined): void {
    this.#bucket = rateLimit === undefined ? undefined : rateLimitBucket(rateLimit, this.#now);
  }

  rateLimit(): RateLimit | undefined {
    return this.#bucket === undefined ? undefined : { qps: this.#bucket.qps, burst: this.#bucket.burst };
  }

  /** Sets the error rate; with a seed, the random sequence restarts from it. */
  setErrorRate(errorRate: number, seed?: number): void {
    this.#errorRate = checkErrorRate(errorRate);
    if (seed !== undefined) {
      this.#seed = seed;
      this.#random = seededRandom(seed);
    }
  }

  injectErrors(rule: InjectedErrorRule): void {
    const count = rule.count ?? 1;
    if (!Number.isInteger(count) || count < 1) throw new RangeError('count must be a positive integer');
    this.#rules.push({ ...rule, count, code: rule.code ?? 'InternalError' });
  }

  clearInjectedErrors(): void {
    this.#rules = [];
  }

  decide(operation: SandboxOperation): GateDecision {
    const counters = this.#countersOf(operation);
    counters.requests++;
    if (this.#bucket !== undefined) {
      if (!this.#bucket.tryTake()) {
        counters.throttled++;
        return { kind: 'throttled', retryAfterMs: this.#bucket.msUntilAvailable(), error: new SandboxCloudError('Throttling', 'Rate exceeded: too many requests, slow down') };
      }
    }
    const ruleIndex = this.#rules.findIndex((rule) => rule.operation === undefined || rule.operation === operation);
    if (ruleIndex >= 0) {
      const rule = this.#rules[ruleIndex]!;
      rule.count--;
      if (rule.count === 0) this.#rules.splice(ruleIndex, 1);
      counters.injectedErrors++;
      return { kind: 'inject', error: new SandboxCloudError(rule.code, rule.message ?? `injected ${rule.code} for ${operation}`) };
    }
    if (this.#errorRate > 0 && this.#random() < this.#errorRate) {
      counters.injectedErrors++;
      return { kind: 'inject', error: new SandboxCloudError('InternalError', `injected internal error for ${operation}`) };
    }
    return { kind: 'proceed' };
  }

  /** Records the outcome of a call that `decide` let through. */
  record(operation: SandboxOperation, succeeded: boolean): void {
    const counters = this.#countersOf(operation);
    if (succeeded) counters.succeeded++;
    else counters.failed++;
  }

  calls(): SandboxCallCounts {
    const total = zeroCounters();
    const operations = {} as Record<SandboxOperation, OperationCounters>;
    for (const operation of SANDBOX_OPERATIONS) {
      const counters = { ...(this.#counters.get(operation) ?? zeroCounters()) };
      operations[operation] = counters;
      for (const key of Object.keys(total) as Array<keyof OperationCounters>) total[key] += counters[key];
    }
    return { total, operations };
  }

  resetCounters(): void {
    this.#counters.clear();
  }

  #countersOf(operation: SandboxOperation): OperationCounters {
    let counters = this.#counters.get(operation);
    if (counters === undefined) {
      counters = zeroCounters();
      this.#counters.set(operation, counters);
    }
    return counters;
  }
}
