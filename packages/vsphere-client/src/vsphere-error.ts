/**
 * Errors of the vSphere client: one class with a `kind` discriminant. SOAP faults keep their VIM
 * type name (`faultType`); the kind groups the types callers branch on. Retryability is decided
 * here, where the error is born: transport failures and timeouts are retryable, faults are not.
 */
export type VsphereErrorKind =
  /** The managed object does not exist (any more): `ManagedObjectNotFound`. */
  | 'ManagedObjectNotFound'
  /** The session is missing or expired: `NotAuthenticated`. The client logs in again by itself. */
  | 'NotAuthenticated'
  /** Wrong user name or password (SOAP `InvalidLogin`, REST session 401). */
  | 'InvalidLogin'
  /** `InvalidArgument` / `InvalidRequest` / `InvalidType`: the request was malformed. */
  | 'InvalidArgument'
  /** `InvalidProperty`: a property path does not exist on the type. */
  | 'InvalidProperty'
  /** `NoPermission`: the user lacks a privilege. */
  | 'NoPermission'
  /** `NotFound` faults and REST 404. */
  | 'NotFound'
  /** Any other SOAP fault, or a REST error status. */
  | 'Unknown'
  /** The connection failed (DNS, refused, reset, TLS verification). */
  | 'Transport'
  /** The server answered HTTP without a SOAP envelope or JSON body we understand. */
  | 'InvalidResponse'
  /** The request took longer than the client's timeout. */
  | 'Timeout'
  /** The caller aborted the request. */
  | 'Aborted';

export interface VsphereErrorDetails {
  kind: VsphereErrorKind;
  /** The VIM method or REST operation, e.g. `RetrievePropertiesEx`, `GET tag`. */
  operation: string;
  /** The VIM fault type (`ManagedObjectNotFound`), when it was a SOAP fault. */
  faultType?: string;
  /** HTTP status, when there was a response. */
  httpStatus?: number;
  /** The managed object a fault is about (`VirtualMachine:vm-42`). */
  object?: string;
  /** Overrides the default retryability of the kind (a TLS verification failure is `Transport` but final). */
  retryable?: boolean;
  cause?: unknown;
}

export class VsphereError extends Error {
  readonly kind: VsphereErrorKind;
  readonly operation: string;
  readonly faultType: string | undefined;
  readonly httpStatus: number | undefined;
  readonly object: string | undefined;
  readonly #retryable: boolean | undefined;

  constructor(message: string, details: VsphereErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'VsphereError';
    this.kind = details.kind;
    this.operation = details.operation;
    this.faultType = details.faultType;
    this.httpStatus = details.httpStatus;
    this.object = details.object;
    this.#retryable = details.retryable;
  }

  /** A short, bounded label (metrics): the kind. */
  get code(): VsphereErrorKind {
    return this.kind;
  }

  /** Worth retrying as is: the network or server hiccuped; faults are answers, not hiccups. */
  get retryable(): boolean {
    if (this.#retryable !== undefined) return this.#retryable;
    return this.kind === 'Transport' || this.kind === 'Timeout' || (this.kind === 'InvalidResponse' && (this.httpStatus ?? 0) >= 500);
  }
}

/** True when `error` (or an error in its cause chain) is a VsphereError of that kind. */
export function isVsphereError(error: unknown, kind?: VsphereErrorKind): error is VsphereError {
  return findVsphereError(error, kind) !== undefined;
}

export function findVsphereError(error: unknown, kind?: VsphereErrorKind): VsphereError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 16 && current instanceof Error; depth++) {
    if (current instanceof VsphereError && (kind === undefined || current.kind === kind)) return current;
    current = current.cause;
  }
  return undefined;
}

/** VIM fault type -> kind. Subtypes we meet in practice are listed explicitly. */
export function kindOfFault(faultType: string | undefined): VsphereErrorKind {
  switch (faultType) {
    case 'ManagedObjectNotFound':
      return 'ManagedObjectNotFound';
    case 'NotAuthenticated':
      return 'NotAuthenticated';
    case 'InvalidLogin':
    case 'PasswordExpired':
      return 'InvalidLogin';
    case 'InvalidArgument':
    case 'InvalidRequest':
    case 'InvalidType':
      return 'InvalidArgument';
    case 'InvalidProperty':
      return 'InvalidProperty';
    case 'NoPermission':
      return 'NoPermission';
    case 'NotFound':
      return 'NotFound';
    default:
      return 'Unknown';
  }
}
