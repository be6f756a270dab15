/**
 * The port pipeline of the sandbox provider (core's `composeCloudPort`), applied once to the
 * sandbox port in the composition root: retries of failed (5xx) and unreachable calls by their
 * kind, the provider's cloud API budget (rate limit, adaptive backoff, throttling retried after
 * Retry-After), and the cloud API observer timing each attempt. Operation names are the port's
 * method names (`listRoutes`), as the metrics have always been labelled.
 */
import { composeCloudPort, type CloudApiBudget, type CloudApiErrorClassifier, type CloudApiErrorKind, type CloudApiObserver, type CloudRetryPolicy } from '@ccm/core/cloud';
import { SandboxApiError, type SandboxApiErrorKind } from './sandbox-api-error.js';
import type { SandboxCloudPort } from './sandbox-cloud-port.js';

/** Backoff of retries: 200 ms doubling per attempt, at most 5 s (also the cap of a Retry-After), no jitter. */
export const SANDBOX_RETRY_DEFAULTS = { initialDelayMs: 200, maxDelayMs: 5_000, jitter: 'none' } as const satisfies CloudRetryPolicy;

const CORE_KIND: Readonly<Record<SandboxApiErrorKind, CloudApiErrorKind>> = {
  NotFound: 'not-found',
  AlreadyExists: 'conflict',
  InvalidArgument: 'invalid',
  InvalidState: 'conflict',
  Throttled: 'throttled',
  ServerError: 'transient',
  Unavailable: 'transient',
  Unexpected: 'unknown',
};

/** The pipeline's view of a sandbox error: its kind in core's words, retryability and Retry-After as the HTTP adapter decided. */
export const classifySandboxApiError: CloudApiErrorClassifier = (error) => {
  if (!(error instanceof SandboxApiError)) return undefined;
  const verdict = { kind: CORE_KIND[error.kind], retryable: error.retryable };
  return error.retryAfterMs === undefined ? verdict : { ...verdict, retryAfterMs: error.retryAfterMs };
};

export interface SandboxPortPipeline {
  observer?: CloudApiObserver;
  /** Without one (a config built in code), throttled calls are retried by the retry stage too. */
  budget?: CloudApiBudget;
  /** Attempts per call, the first included; 1 = no retries. */
  attempts: number;
  /** Injected for tests; must reject when `signal` aborts. */
  sleep?: (delayMs: number, signal?: AbortSignal) => Promise<void>;
}

/** `port` with every call through the sandbox pipeline: retry -> budget -> observer -> port. */
export function composeSandboxPort(port: SandboxCloudPort, pipeline: SandboxPortPipeline): SandboxCloudPort {
  const retry: CloudRetryPolicy = { ...SANDBOX_RETRY_DEFAULTS, maxAttempts: pipeline.attempts, classify: classifySandboxApiError, ...(pipeline.sleep === undefined ? {} : { sleep: pipeline.sleep }) };
  return composeCloudPort(port, {
    ...(pipeline.observer === undefined ? {} : { observer: pipeline.observer }),
    ...(pipeline.budget === undefined ? {} : { budget: pipeline.budget }),
    ...(pipeline.attempts > 1 ? { retry } : {}),
  });
}
