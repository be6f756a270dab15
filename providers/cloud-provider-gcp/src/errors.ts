/**
 * Typed errors of the GCE provider. Every Compute API failure leaves the SDK adapter as a
 * `GceApiError` with a `kind` callers branch on; retryability is decided there, where it is born.
 */

/** What went wrong with a Compute API call, independent of HTTP status and `errors[].reason` spelling. */
export type GceApiErrorKind =
  | 'NotFound'
  | 'AlreadyExists'
  /** HTTP 400 "being used by" / `resourceInUseByAnotherResource`. */
  | 'InUse'
  /** HTTP 412 `conditionNotMet`: a fingerprint was stale; re-read and retry. */
  | 'PreconditionFailed'
  | 'Throttled'
  | 'Invalid'
  | 'Unauthorized'
  | 'Unavailable'
  | 'Unknown';

export interface GceApiErrorDetails {
  kind: GceApiErrorKind;
  /** The first `errors[].reason` (`notFound`, `alreadyExists`, `rateLimitExceeded`, ...), or ''. */
  reason: string;
  /** `compute.<method>`, e.g. `compute.insertRoute`. */
  operation: string;
  retryable: boolean;
  httpStatus?: number;
  cause?: unknown;
}

export class GceApiError extends Error {
  readonly kind: GceApiErrorKind;
  readonly reason: string;
  readonly operation: string;
  readonly retryable: boolean;
  readonly httpStatus: number | undefined;

  constructor(message: string, details: GceApiErrorDetails) {
    super(`${details.operation}: ${message}`, { cause: details.cause });
    this.name = 'GceApiError';
    this.kind = details.kind;
    this.reason = details.reason;
    this.operation = details.operation;
    this.retryable = details.retryable;
    this.httpStatus = details.httpStatus;
  }
}

/** Finds a GceApiError in the cause chain. */
export function asGceApiError(error: unknown): GceApiError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 16 && current instanceof Error; depth++) {
    if (current instanceof GceApiError) return current;
    current = current.cause;
  }
  return undefined;
}

export function isGceErrorKind(error: unknown, kind: GceApiErrorKind): boolean {
  return asGceApiError(error)?.kind === kind;
}

/** The cloud is not in a state the provider can work with (no hosts found, a size mismatch after an update). */
export class GceCloudStateError extends Error {
  readonly kind = 'CloudState';
  constructor(message: string) {
    super(message);
    this.name = 'GceCloudStateError';
  }
}
