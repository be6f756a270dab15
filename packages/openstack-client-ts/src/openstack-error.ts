/**
 * Errors of the OpenStack client: one class with a `kind` discriminant, the HTTP status and the
 * request id (`x-openstack-request-id` / `x-compute-request-id`) when there was a response.
 * The message comes from the service's fault body, whatever its shape:
 *   Keystone `{"error": {"code", "title", "message"}}`; Neutron `{"NeutronError": {"type", "message"}}`;
 *   Nova `{"itemNotFound": {"code", "message"}}` (any single key); Octavia `{"faultcode", "faultstring"}`;
 *   WSGI/webob `{"title", "description"}` or plain text.
 * Retryability is decided here, where the error is born.
 */
export type OpenStackErrorKind =
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'Conflict'
  | 'OverLimit'
  | 'ServerError'
  | 'ServiceUnavailable'
  | 'UnexpectedStatus'
  /** The catalog has no endpoint for the service type, region and interface. */
  | 'EndpointNotFound'
  /** A load balancer went to ERROR while we waited. */
  | 'ProvisioningFailed'
  /** A load balancer stayed PENDING_* longer than the wait allowed. */
  | 'ProvisioningTimeout'
  /** Bad options given to the client (no credentials, unreadable CA file). */
  | 'InvalidConfiguration'
  | 'InvalidResponse'
  | 'Transport'
  | 'Timeout'
  | 'Aborted';

export interface OpenStackErrorDetails {
  kind: OpenStackErrorKind;
  /** `GET network /v2.0/ports`, `POST identity /v3/auth/tokens`. */
  operation: string;
  httpStatus?: number;
  requestId?: string;
  /** The fault's own type name when it has one: Neutron `PortNotFound`, Nova `itemNotFound`. */
  faultType?: string;
  retryable?: boolean;
  cause?: unknown;
}

export class OpenStackError extends Error {
  readonly kind: OpenStackErrorKind;
  readonly operation: string;
  readonly httpStatus: number | undefined;
  readonly requestId: string | undefined;
  readonly faultType: string | undefined;
  readonly retryable: boolean;

  constructor(message: string, details: OpenStackErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'OpenStackError';
    this.kind = details.kind;
    this.operation = details.operation;
    this.httpStatus = details.httpStatus;
    this.requestId = details.requestId;
    this.faultType = details.faultType;
    this.retryable = details.retryable ?? defaultRetryable(details.kind);
  }
}

function defaultRetryable(kind: OpenStackErrorKind): boolean {
  return kind === 'Transport' || kind === 'Timeout' || kind === 'ServerError' || kind === 'ServiceUnavailable' || kind === 'ProvisioningTimeout';
}

export function isOpenStackError(error: unknown, kind?: OpenStackErrorKind): error is OpenStackError {
  return error instanceof OpenStackError && (kind === undefined || error.kind === kind);
}

/** The kind for an HTTP error status. */
export function kindForStatus(status: number): OpenStackErrorKind {
  if (status === 400) return 'BadRequest';
  if (status === 401) return 'Unauthorized';
  if (status === 403) return 'Forbidden';
  if (status === 404) return 'NotFound';
  if (status === 409) return 'Conflict';
  if (status === 413 || status === 429) return 'OverLimit';
  if (status === 503) return 'ServiceUnavailable';
  if (status >= 500) return 'ServerError';
  return 'UnexpectedStatus';
}

export interface ParsedFault {
  message: string;
  faultType?: string;
}

/** The message (and type) in an OpenStack fault body; the raw text (shortened) when it is not JSON. */
export function parseFaultBody(body: string): ParsedFault {
  const trimmed = body.trim();
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return { message: shorten(stripHtml(trimmed)) };
  }
  if (parsed === null || typeof parsed !== 'object') return { message: shorten(trimmed) };
  const object = parsed as Record<string, unknown>;
  // Octavia (WSME): {"faultcode": "Client", "faultstring": "...", "debuginfo": null}
  if (typeof object['faultstring'] === 'string') return { message: object['faultstring'], ...(typeof object['faultcode'] === 'string' ? { faultType: object['faultcode'] } : {}) };
  // Neutron: {"NeutronError": {"type": "PortNotFound", "message": "...", "detail": ""}}
  const neutron = object['NeutronError'];
  if (neutron !== null && typeof neutron === 'object') {
    const fault = neutron as Record<string, unknown>;
    return { message: String(fault['message'] ?? ''), ...(typeof fault['type'] === 'string' ? { faultType: fault['type'] } : {}) };
  }
  // Keystone: {"error": {"code": 401, "title": "Unauthorized", "message": "..."}}
  const keystone = object['error'];
  if (keystone !== null && typeof keystone === 'object') {
    const fault = keystone as Record<string, unknown>;
    return { message: String(fault['message'] ?? fault['title'] ?? ''), ...(typeof fault['title'] === 'string' ? { faultType: fault['title'] } : {}) };
  }
  // webob: {"title": "Not Found", "description": "..."}
  if (typeof object['description'] === 'string') return { message: object['description'], ...(typeof object['title'] === 'string' ? { faultType: object['title'] } : {}) };
  // Nova: {"itemNotFound": {"code": 404, "message": "..."}} (one key naming the fault)
  const keys = Object.keys(object);
  if (keys.length === 1) {
    const inner = object[keys[0]!];
    if (inner !== null && typeof inner === 'object' && typeof (inner as Record<string, unknown>)['message'] === 'string') {
      return { message: (inner as Record<string, string>)['message']!, faultType: keys[0]! };
    }
  }
  if (typeof object['message'] === 'string') return { message: object['message'] };
  return { message: shorten(trimmed) };
}

function stripHtml(text: string): string {
  return text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
}

function shorten(text: string): string {
  return text.length > 300 ? `${text.slice(0, 300)}...` : text;
}

/**
 * Octavia answers 409 while a load balancer is PENDING_*: "Load Balancer X is immutable and
 * cannot be updated." or "Invalid state PENDING_UPDATE of loadbalancer resource X". Worth
 * retrying once it is ACTIVE again; other conflicts (an address in use) are not.
 */
export function isImmutableConflict(status: number, message: string): boolean {
  return status === 409 && /is immutable|Invalid state PENDING_/i.test(message);
}
