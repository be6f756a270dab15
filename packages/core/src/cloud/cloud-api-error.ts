/**
 * A failed cloud API call, typed where it is born (the provider's SDK adapter), so that every
 * stage of the port pipeline decides from the kind, never from a message:
 *
 *   throw new CloudApiError('throttled', 'ec2.describeInstances', 'Request limit exceeded', { code: 'RequestLimitExceeded', cause: error });
 *
 * The kind says what the cloud answered, independent of its spelling (the cloud's own code stays
 * in `code`); `retryable` defaults from the kind and may be overruled at birth (a TLS
 * verification failure is a transport failure that retrying cannot fix).
 *
 * A provider throws it, or a thin subclass that keeps its own finer word for the failure
 * (`new AwsApiError(...)` with kind `DependencyViolation`): the subclass is a
 * `CloudApiError<Kind>` whose `kind` is the provider's word and whose `cloudKind` is core's, from
 * the provider's table (`defineCloudApiErrorKinds`). Every stage decides by `cloudKind`.
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

export function isCloudApiErrorKind(value: string): value is CloudApiErrorKind {
  return (CLOUD_API_ERROR_KINDS as readonly string[]).includes(value);
}

export interface CloudApiErrorDetails {
  /** The cloud's own error code (`InvalidInstanceID.NotFound`, `ManagedObjectNotFound`), when it sent one. */
  code?: string;
  httpStatus?: number;
  /** Overrides the kind's default retryability. */
  retryable?: boolean;
  /** How long the cloud asked us to wait (Retry-After), in ms. */
  retryAfterMs?: number;
  cause?: unknown;
  /** Core's kind when `kind` is a provider's own word (given by the provider's subclass). */
  cloudKind?: CloudApiErrorKind;
  /** What the message starts with. Default `<operation>: `. */
  messagePrefix?: string;
}

export class CloudApiError<Kind extends string = CloudApiErrorKind> extends Error {
  /** What the cloud answered: core's kind, or a provider subclass's own finer word for it. */
  readonly kind: Kind;
  /** Core's kind: what every stage of the pipeline decides by. */
  readonly cloudKind: CloudApiErrorKind;
  /** The port operation that failed, e.g. `ec2.describeInstances`. */
  readonly operation: string;
  readonly code: string | undefined;
  readonly httpStatus: number | undefined;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;

  constructor(kind: Kind, operation: string, message: string, details: CloudApiErrorDetails = {}) {
    super(`${details.messagePrefix ?? `${operation}: `}${message}`, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'CloudApiError';
    this.kind = kind;
    this.cloudKind = details.cloudKind ?? (isCloudApiErrorKind(kind) ? kind : 'unknown');
    this.operation = operation;
    this.code = details.code;
    this.httpStatus = details.httpStatus;
    this.retryable = details.retryable ?? RETRYABLE_CLOUD_API_ERROR_KINDS.has(this.cloudKind);
    this.retryAfterMs = details.retryAfterMs;
  }

  /** The first error of this class (`AwsApiError.find(error)`) in the cause chain of `error`. */
  static find<Found extends CloudApiError<string>>(this: abstract new (...args: never[]) => Found, error: unknown): Found | undefined {
    return findCause(error, this);
  }

  /** Whether the cause chain of `error` holds an error of this class whose `kind` is `kind`. */
  static hasKind<Found extends CloudApiError<string>>(this: abstract new (...args: never[]) => Found, error: unknown, kind: Found['kind']): boolean {
    return findCause(error, this)?.kind === kind;
  }

  /** Whether the first error of this class in the cause chain of `error` carries the cloud's error `code` (`InvalidGroup.Duplicate`). */
  static hasCode<Found extends CloudApiError<string>>(this: abstract new (...args: never[]) => Found, error: unknown, code: string): boolean {
    return findCause(error, this)?.code === code;
  }
}

/**
 * A provider's words for cloud API failures, each with core's kind: the table a thin subclass of
 * `CloudApiError` is born from (`{ NotFound: 'not-found', DependencyViolation: 'conflict' }`).
 */
export type CloudApiErrorKinds<Kind extends string> = Readonly<Record<Kind, CloudApiErrorKind>>;

/** What a provider's SDK adapter knows when it types a failure. */
export interface ProviderApiErrorDetails<Kind extends string> extends Omit<CloudApiErrorDetails, 'cloudKind' | 'retryable' | 'messagePrefix'> {
  kind: Kind;
  /** `<service>.<operation>`, e.g. `ec2.describeInstances`. */
  operation: string;
  /** Decided where the error is born. */
  retryable: boolean;
}

/** Checks the table at compile time and keeps its literal keys: `defineCloudApiErrorKinds({ NotFound: 'not-found' })`. */
export function defineCloudApiErrorKinds<const Kinds extends Record<string, CloudApiErrorKind>>(kinds: Kinds): Kinds {
  return kinds;
}

/**
 * The thin subclass a provider's SDK adapter throws, from its table of words:
 *
 *   export class AwsApiError extends providerApiErrorClass('AwsApiError', AWS_API_ERROR_KINDS) {}
 *   throw new AwsApiError('DependencyViolation: in use', { kind: 'DependencyViolation', code, operation: 'ec2.deleteSecurityGroup', retryable: false, cause });
 *
 * `kind` is the provider's word, `cloudKind` core's from the table; `AwsApiError.find(error)`
 * and `AwsApiError.hasKind(error, 'NotFound')` search the cause chain.
 */
export function providerApiErrorClass<Kind extends string>(name: string, kinds: CloudApiErrorKinds<Kind>) {
  return class ProviderApiError extends CloudApiError<Kind> {
    constructor(message: string, details: ProviderApiErrorDetails<Kind>) {
      super(details.kind, details.operation, message, { ...details, cloudKind: kinds[details.kind] });
      this.name = name;
    }
  };
}

/** How deep the `cause` chain is searched (errors wrapped by our own layers). */
const MAX_CAUSE_DEPTH = 16;

/** The first error of `type` in the cause chain of `error` (the one cause-chain search of the providers). */
export function findCause<Found extends Error>(error: unknown, type: abstract new (...args: never[]) => Found, matches: (found: Found) => boolean = () => true): Found | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && current instanceof Error; depth++) {
    if (current instanceof type && matches(current)) return current;
    current = current.cause;
  }
  return undefined;
}

/** The first `CloudApiError` (or subclass) in the cause chain of `error` (of core's `kind`, when given). */
export function findCloudApiError(error: unknown, kind?: CloudApiErrorKind): CloudApiError<string> | undefined {
  return findCause(error, CloudApiError<string>, (found) => kind === undefined || found.cloudKind === kind);
}

export function isCloudApiError(error: unknown, kind?: CloudApiErrorKind): boolean {
  return findCloudApiError(error, kind) !== undefined;
}

/**
 * `shouldFallBack` of a coalescer: a failed batch is asked key by key unless the cloud throttled
 * it (splitting a throttled call into many would only make it worse).
 */
export function notThrottled(error: unknown): boolean {
  return !isCloudApiError(error, 'throttled');
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
  return found.retryAfterMs === undefined ? { kind: found.cloudKind, retryable: found.retryable } : { kind: found.cloudKind, retryable: found.retryable, retryAfterMs: found.retryAfterMs };
};

/** Socket and undici error codes meaning the cloud API could not be reached (retryable where they are born). */
export const NETWORK_ERROR_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * The network error code (`ECONNREFUSED`, ...) in the cause chain of `error`: an object's `code`,
 * or named in its message (SDKs that flatten the socket error into text); undefined when none.
 */
export function findNetworkErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && current !== null && typeof current === 'object'; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && NETWORK_ERROR_CODES.has(code)) return code;
    if (typeof message === 'string') {
      for (const candidate of NETWORK_ERROR_CODES) if (message.includes(candidate)) return candidate;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
