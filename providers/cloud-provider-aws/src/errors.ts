/**
 * Typed errors of the AWS provider. Every error carries a `kind` callers branch on and keeps the
 * original error as `cause`. Retryability is decided where the error is born (the SDK adapter for
 * cloud API errors), never guessed later from a message.
 */
import { InvalidServiceConfigurationError, PermanentInvalidServiceConfigurationError } from '@ccm/core/provider';

/** What went wrong with a cloud API call, independent of the AWS error code spelling. */
export type AwsApiErrorKind =
  | 'NotFound'
  | 'Throttled'
  | 'Invalid'
  | 'Conflict'
  | 'DependencyViolation'
  | 'Unauthorized'
  | 'Unavailable'
  | 'Unknown';

export interface AwsApiErrorDetails {
  kind: AwsApiErrorKind;
  /** The AWS error code (`InvalidInstanceID.NotFound`, `RequestLimitExceeded`, ...), or '' when there is none. */
  code: string;
  /** `<service>.<operation>`, e.g. `ec2.describeInstances`. */
  operation: string;
  retryable: boolean;
  httpStatus?: number;
  cause?: unknown;
}

export class AwsApiError extends Error {
  readonly kind: AwsApiErrorKind;
  readonly code: string;
  readonly operation: string;
  readonly retryable: boolean;
  readonly httpStatus: number | undefined;

  constructor(message: string, details: AwsApiErrorDetails) {
    super(`${details.operation}: ${message}`, { cause: details.cause });
    this.name = 'AwsApiError';
    this.kind = details.kind;
    this.code = details.code;
    this.operation = details.operation;
    this.retryable = details.retryable;
    this.httpStatus = details.httpStatus;
  }
}

/** Finds an AwsApiError in the cause chain. */
export function asAwsApiError(error: unknown): AwsApiError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 16 && current instanceof Error; depth++) {
    if (current instanceof AwsApiError) return current;
    current = current.cause;
  }
  return undefined;
}

export function isAwsErrorKind(error: unknown, kind: AwsApiErrorKind): boolean {
  return asAwsApiError(error)?.kind === kind;
}

export function isAwsErrorCode(error: unknown, code: string): boolean {
  return asAwsApiError(error)?.code === code;
}

/**
 * A Service annotation holds a value that is wrong whatever the cloud does (malformed, an unknown
 * choice, contradicting another field). Thrown before any cloud change: the service controller
 * reports it as a Warning event and does not retry until the Service (or a node) changes (core
 * kind `PermanentInvalidInput`).
 */
export class InvalidAnnotationError extends PermanentInvalidServiceConfigurationError {
  declare readonly annotation: string;
  declare readonly value: string;

  constructor(annotation: string, value: string, reason: string, options?: { cause?: unknown }) {
    super(`invalid value ${JSON.stringify(value)} for annotation ${annotation}: ${reason}`, { annotation, value, cause: options?.cause });
    this.name = 'InvalidAnnotationError';
  }
}

/**
 * A Service annotation does not match the cloud as it is now: a named subnet not found (yet), or
 * fewer subnets found than EIP allocations / private IPs annotated. The cloud can change, so this
 * is core kind `InvalidInput`: a Warning event, then retried with backoff (upstream requeues every
 * such error with 5 s - 300 s backoff).
 */
export class UnresolvedAnnotationError extends InvalidServiceConfigurationError {
  declare readonly annotation: string;
  declare readonly value: string;

  constructor(annotation: string, value: string, reason: string, options?: { cause?: unknown }) {
    super(`annotation ${annotation}=${JSON.stringify(value)} does not match the cloud: ${reason}`, { annotation, value, cause: options?.cause });
    this.name = 'UnresolvedAnnotationError';
  }
}

/**
 * The Service spec asks for something AWS load balancers cannot do (mixed protocols, affinity,
 * loadBalancerIP...): wrong whatever the cloud does, so core kind `PermanentInvalidInput`, not
 * retried until the Service changes.
 */
export class UnsupportedServiceError extends PermanentInvalidServiceConfigurationError {
  constructor(message: string) {
    super(message);
    this.name = 'UnsupportedServiceError';
  }
}

/** A cloud resource we would change is not tagged as owned by this cluster. */
export class NotOwnedError extends Error {
  readonly kind = 'NotOwned' as const;
  readonly resource: string;

  constructor(resource: string, reason: string) {
    super(`refusing to change ${resource}: ${reason}`);
    this.name = 'NotOwnedError';
    this.resource = resource;
  }
}

/** The cloud is in a state we cannot resolve on our own (several route tables, no subnets...). */
export class CloudStateError extends Error {
  readonly kind = 'CloudState' as const;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CloudStateError';
  }
}
