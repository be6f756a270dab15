/**
 * A failed cloud API call, typed where it is born (the provider's SDK adapter), so that every
 * stage of the port pipeline decides from the kind, never from a message:
 *
 *   throw new CloudApiError('throttled', 'ec2.describeInstances', 'Request limit exceeded', { code: 'RequestLimitExceeded', cause: error });
 *
 * The kind says what the cloud answered, independent of its spelling (the cloud's own code stays
 * in `code`); `retryable` defaults from the kind and may be overruled at birth (a TLS
 * verification failure is a transport failure that retrying cannot fix). Providers may subclass
 * it for their own fields.
 */
export type CloudApiErrorKind =
  /** The cloud asked us to slow down (HTTP 429, AWS `RequestLimitExceeded`, ...). The budget retries it. */
  | 'throttled'
  /** The network or the server hiccuped (5xx, reset, timeout): the same call may succeed later. */
  | 'transient'
  /** The resource does not exist (any more). */
  | 'not-found'
  /** The resource's state forbids the change (already exists, still in use, wrong state). */
  | 'conflict'
  /** The request was malformed or named something invalid. */
  | 'invalid'
  /** Credentials are wrong or lack a permission. */
  | 'unauthorized'
  /** The caller gave up (its signal aborted): no problem of the cloud. */
  | 'aborted'
  /** Anything else. */
  | 'unknown';

export const CLOUD_API_ERROR_KINDS: readonly CloudApiErrorKind[] = ['throttled', 'transient', 'not-found', 'conflict', 'invalid', 'unauthorized', 'aborted', 'unknown'];

/** Kinds worth sending again as they are. */
export const RETRYABLE_CLOUD_API_ERROR_KINDS: ReadonlySet<CloudApiErrorKind> = new Set<CloudApiErrorKind>(['throttled', 'transient']);

export interface CloudApiErrorDetails {
  /** The cloud's own error code (`InvalidInstanceID.NotFound`, `ManagedObjectNotFound`), when it sent one. */
  code?: string;
  httpStatus?: number;
  /** Overrides the kind's default retryability. */
  retryable?: boolean;
  /** How long the cloud asked us to wait (Retry-After), in ms. */
  retryAfterMs?: number;
  cause?: unknown;
}

export class CloudApiError extends Error {
  readonly kind: CloudApiErrorKind;
  /** The port operation that failed, e.g. `ec2.describeInstances`. */
  readonly operation: string;
  readonly code: string | undefined;
  readonly httpStatus: number | undefined;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;

  constructor(kind: CloudApiErrorKind, operation: string, message: string, details: CloudApiErrorDetails = {}) {
    super(`${operation}: ${message}`, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'CloudApiError';
    this.kind = kind;
    this.operation = operation;
    this.code = details.code;
    this.httpStatus = details.httpStatus;
    this.retryable = details.retryable ?? RETRYABLE_CLOUD_API_ERROR_KINDS.has(kind);
    this.retryAfterMs = details.retryAfterMs;
  }
}

/** How deep the `cause` chain is searched (errors wrapped by our own layers). */
const MAX_CAUSE_DEPTH = 16;

/** The first `CloudApiError` in the cause chain of `error` (of `kind`, when given). */
export function findCloudApiError(error: unknown, kind?: CloudApiErrorKind): CloudApiError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && current instanceof Error; depth++) {
    if (current instanceof CloudApiError && (kind === undefined || current.kind === kind)) return current;
    current = current.cause;
  }
  return undefined;
}

export function isCloudApiError(error: unknown, kind?: CloudApiErrorKind): boolean {
  return findCloudApiError(error, kind) !== undefined;
}

/** What the pipeline needs to know about a failure: its kind, whether to retry, how long to wait. */
export interface CloudApiErrorVerdict {
  kind: CloudApiErrorKind;
  retryable: boolean;
  retryAfterMs?: number;
}

/** Tells the pipeline about an error; `undefined` for errors it does not recognise (never retried). */
export type CloudApiErrorClassifier = (error: unknown) => CloudApiErrorVerdict | undefined;

/** The default classifier: the `CloudApiError` in the cause chain, if any. */
export const classifyCloudApiError: CloudApiErrorClassifier = (error) => {
  const found = findCloudApiError(error);
  if (found === undefined) return undefined;
  return found.retryAfterMs === undefined ? { kind: found.kind, retryable: found.retryable } : { kind: found.kind, retryable: found.retryable, retryAfterMs: found.retryAfterMs };
};
