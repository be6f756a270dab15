/**
 * Typed errors of the OpenStack provider. Every error carries a `kind` callers branch on and keeps
 * the original error as `cause`. The SDK adapters (`ports/sdk/`) turn every client failure into an
 * `OpenStackApiError` (`ports/sdk/sdk-errors.ts`); retryability is decided there, never guessed
 * later from a message.
 */

/** What went wrong with a Keystone, Nova, Neutron or Octavia call. */
export type OpenStackApiErrorKind =
  | 'NotFound'
  | 'Conflict'
  /** HTTP 413/429: over the rate or absolute limit. */
  | 'Throttled'
  | 'Invalid'
  /** 401/403: wrong credentials, expired token that could not be renewed, missing role. */
  | 'Unauthorized'
  /** 5xx, transport failures, timeouts, a load balancer still PENDING_*. */
  | 'Unavailable'
  /** The catalog has no endpoint for the service, region and interface. */
  | 'EndpointNotFound'
  /** A load balancer went to ERROR while we waited. */
  | 'ProvisioningFailed'
  | 'Unknown';

export interface OpenStackApiErrorDetails {
  kind: OpenStackApiErrorKind;
  /** `<service>.<operation>`, e.g. `compute.listServers`. */
  operation: string;
  retryable: boolean;
  httpStatus?: number;
  /** `x-openstack-request-id`, for the operator to find the call in the service logs. */
  requestId?: string;
  /** The fault type of the service (`PortNotFound`, `itemNotFound`), or ''. */
  faultType?: string;
  cause?: unknown;
}

export class OpenStackApiError extends Error {
  readonly kind: OpenStackApiErrorKind;
  readonly operation: string;
  readonly retryable: boolean;
  readonly httpStatus: number | undefined;
  readonly requestId: string | undefined;
  readonly faultType: string;

  constructor(message: string, details: OpenStackApiErrorDetails) {
    super(`${details.operation}: ${message}`, { cause: details.cause });
    this.name = 'OpenStackApiError';
    this.kind = details.kind;
    this.operation = details.operation;
    this.retryable = details.retryable;
    this.httpStatus = details.httpStatus;
    this.requestId = details.requestId;
    this.faultType = details.faultType ?? '';
  }
}

/** Finds an OpenStackApiError in the cause chain. */
export function asOpenStackApiError(error: unknown): OpenStackApiError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 16 && current instanceof Error; depth++) {
    if (current instanceof OpenStackApiError) return current;
    current = current.cause;
  }
  return undefined;
}

export function isOpenStackErrorKind(error: unknown, kind: OpenStackApiErrorKind): boolean {
  return asOpenStackApiError(error)?.kind === kind;
}

/** The cloud holds something the provider cannot work with (two servers with a node's name, a server without addresses). */
export class CloudStateError extends Error {
  readonly kind = 'CloudState' as const;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CloudStateError';
  }
}

/** The effective config cannot be used (an unreadable CA file); names the key. */
export class OpenStackConfigurationError extends Error {
  readonly kind = 'Configuration' as const;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OpenStackConfigurationError';
  }
}
