/**
 * Typed errors of the provider interface (upstream `cloud.go` sentinels and `api.RetryError`).
 *
 * Upstream compares sentinels by identity; we compare by `kind`, walking the `cause` chain so
 * wrapped errors keep the sentinel's meaning (`errors.Is` semantics).
 */
export type CloudErrorKind =
  | 'InstanceNotFound'
  | 'NotImplemented'
  | 'ImplementedElsewhere'
  | 'Retry'
  /**
   * The provider cannot use the user's input (a Service annotation or field) as things stand: the
   * check may depend on cloud state (an annotated subnet that does not exist yet, more EIPs than
   * the subnets found), so the service controller retries it with backoff (5 s to 300 s) like any
   * other error, as upstream retries every error that is not a RetryError.
   */
  | 'InvalidInput'
  /**
   * The input is wrong whatever the cloud does (a malformed value, an unknown enum value, fields
   * that contradict each other): retrying cannot help until the Service changes. The service
   * controller reports it (Warning event, one log line) and does not requeue; a change of the
   * Service or of a node syncs it again. Never use it for a check against cloud state.
   * Providers may mark their own errors by setting `kind = 'PermanentInvalidInput'` on any Error
   * in the cause chain.
   */
  | 'PermanentInvalidInput';

export class CloudProviderError extends Error {
  readonly kind: CloudErrorKind;
  constructor(kind: CloudErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
    this.name = `${kind}Error`;
  }
}

/** Upstream message: "instance not found". */
export class InstanceNotFoundError extends CloudProviderError {
  constructor(message = 'instance not found', options?: { cause?: unknown }) {
    super('InstanceNotFound', message, options);
  }
}

/** Upstream message: "unimplemented". */
export class NotImplementedError extends CloudProviderError {
  constructor(message = 'unimplemented', options?: { cause?: unknown }) {
    super('NotImplemented', message, options);
  }
}

/** Upstream message: "implemented by alternate to cloud provider". */
export class ImplementedElsewhereError extends CloudProviderError {
  constructor(message = 'implemented by alternate to cloud provider', options?: { cause?: unknown }) {
    super('ImplementedElsewhere', message, options);
  }
}

/**
 * A provider asks the controller to retry after a fixed delay instead of exponential backoff
 * (upstream `api.NewRetryError(msg, d)`). `retryAfterMs` is in milliseconds.
 */
export class RetryError extends CloudProviderError {
  readonly retryAfterMs: number;
  constructor(message: string, retryAfterMs: number, options?: { cause?: unknown }) {
    super('Retry', message, options);
    this.retryAfterMs = retryAfterMs;
  }
}

export interface InvalidServiceConfigurationDetails {
  /** The annotation (or field path) at fault, when known. */
  annotation?: string;
  /** The offending value, when known (never a secret). */
  value?: string;
  cause?: unknown;
}

/**
 * A Service's annotation or field has a value the provider cannot use now (`kind`
 * `InvalidInput`): retried with backoff, since the check may depend on cloud state. The message
 * names the annotation or field and the value.
 */
export class InvalidServiceConfigurationError extends CloudProviderError {
  /** The annotation (or field path) at fault, when known. */
  readonly annotation: string | undefined;
  /** The offending value, when known (never a secret). */
  readonly value: string | undefined;
  constructor(message: string, details: InvalidServiceConfigurationDetails = {}, kind: 'InvalidInput' | 'PermanentInvalidInput' = 'InvalidInput') {
    super(kind, message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'InvalidServiceConfigurationError';
    this.annotation = details.annotation;
    this.value = details.value;
  }
}

/**
 * A Service's annotation or field is wrong whatever the cloud does (`kind`
 * `PermanentInvalidInput`): a malformed value, an unknown choice, contradicting fields. Not
 * retried until the Service (or a node) changes. Checks against cloud state must use
 * {@link InvalidServiceConfigurationError} instead.
 */
export class PermanentInvalidServiceConfigurationError extends InvalidServiceConfigurationError {
  constructor(message: string, details: InvalidServiceConfigurationDetails = {}) {
    super(message, details, 'PermanentInvalidInput');
    this.name = 'PermanentInvalidServiceConfigurationError';
  }
}

/** Finds the first error of `kind` in the cause chain of `error` (like Go's errors.As). */
export function findCloudError(error: unknown, kind: CloudErrorKind): CloudProviderError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 32 && current !== undefined && current !== null; depth++) {
    if (current instanceof CloudProviderError && current.kind === kind) return current;
    if (typeof current === 'object' && current !== null && 'kind' in current && (current as { kind: unknown }).kind === kind && current instanceof Error) {
      return current as CloudProviderError;
    }
    current = current instanceof Error ? current.cause : undefined;
  }
  return undefined;
}

export const isInstanceNotFound = (error: unknown): boolean => findCloudError(error, 'InstanceNotFound') !== undefined;
export const isNotImplemented = (error: unknown): boolean => findCloudError(error, 'NotImplemented') !== undefined;
export const isImplementedElsewhere = (error: unknown): boolean => findCloudError(error, 'ImplementedElsewhere') !== undefined;
/** True when `error` or its cause chain holds an error of kind `InvalidInput` (any Error with that `kind`). */
export const isInvalidInput = (error: unknown): boolean => findCloudError(error, 'InvalidInput') !== undefined;
/** True when `error` or its cause chain holds an error of kind `PermanentInvalidInput`: retrying cannot help. */
export const isPermanentInvalidInput = (error: unknown): boolean => findCloudError(error, 'PermanentInvalidInput') !== undefined;
export function asRetryError(error: unknown): RetryError | undefined {
  const found = findCloudError(error, 'Retry');
  return found instanceof RetryError ? found : undefined;
}

/**
 * The cloud holds something the provider cannot work with on its own (two servers with a node's
 * name, a VM without a NIC, several route tables): no failed call, so no `CloudApiError`.
 */
export class CloudStateError extends Error {
  readonly kind = 'CloudState' as const;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CloudStateError';
  }
}
