/**
 * API errors as `Status` objects (kind Status, apiVersion v1), with the codes, reasons and
 * message shapes kube-apiserver uses. Every failure the emulator answers is a KubeStatusError.
 */
import { aggregateFieldErrors, type FieldError } from './field-error.js';

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface KubeStatus {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

export class KubeStatusError extends Error {
  readonly status: KubeStatus;

  constructor(code: number, reason: string, message: string, details?: StatusDetails) {
    super(message);
    this.name = 'KubeStatusError';
    this.status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
    if (details) this.status.details = details;
  }

  get code(): number {
    return this.status.code;
  }

  get reason(): string {
    return this.status.reason ?? '';
  }
}

/** A resource as named in messages: `nodes` for the core group, `leases.coordination.k8s.io` otherwise. */
export interface GroupResource {
  group: string;
  resource: string;
}

export const qualifiedResource = (target: GroupResource): string =>
  target.group ? `${target.resource}.${target.group}` : target.resource;

const resourceDetails = (target: GroupResource, name: string, uid?: string): StatusDetails => {
  const details: StatusDetails = { name };
  if (target.group) details.group = target.group;
  details.kind = target.resource;
  if (uid) details.uid = uid;
  return details;
};

export const statusErrors = {
  badRequest(message: string): KubeStatusError {
    return new KubeStatusError(400, 'BadRequest', message);
  },
  notFound(target: GroupResource, name: string): KubeStatusError {
    return new KubeStatusError(404, 'NotFound', `${qualifiedResource(target)} "${name}" not found`, resourceDetails(target, name));
  },
  /** 404 for a path that names no resource. */
  routeNotFound(): KubeStatusError {
    return new KubeStatusError(404, 'NotFound', 'the server could not find the requested resource', {});
  },
  alreadyExists(target: GroupResource, name: string): KubeStatusError {
    return new KubeStatusError(409, 'AlreadyExists', `${qualifiedResource(target)} "${name}" already exists`, resourceDetails(target, name));
  },
  conflict(target: GroupResource, name: string, cause: string): KubeStatusError {
    return new KubeStatusError(409, 'Conflict', `Operation cannot be fulfilled on ${qualifiedResource(target)} "${name}": ${cause}`, resourceDetails(target, name));
  },
  staleResourceVersion(target: GroupResource, name: string): KubeStatusError {
    return statusErrors.conflict(target, name, 'the object has been modified; please apply your changes to the latest version and try again');
  },
  invalid(kind: { group: string; kind: string }, name: string, errors: readonly FieldError[]): KubeStatusError {
    const qualifiedKind = kind.group ? `${kind.kind}.${kind.group}` : kind.kind;
    const details: StatusDetails = { name };
    if (kind.group) details.group = kind.group;
    details.kind = kind.kind;
    details.causes = errors.map((error) => ({ reason: error.type, message: error.body, field: error.field }));
    return new KubeStatusError(422, 'Invalid', `${qualifiedKind} "${name}" is invalid: ${aggregateFieldErrors(errors)}`, details);
  },
  /** 422 without field causes, as for a failed JSON patch operation. */
  unprocessable(message: string): KubeStatusError {
    return new KubeStatusError(422, 'Invalid', message, {});
  },
  forbidden(target: GroupResource, name: string, message: string): KubeStatusError {
    return new KubeStatusError(403, 'Forbidden', `${qualifiedResource(target)} "${name}" is forbidden: ${message}`, resourceDetails(target, name));
  },
  methodNotAllowed(): KubeStatusError {
    return new KubeStatusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});
  },
  notAcceptable(): KubeStatusError {
    return new KubeStatusError(406, 'NotAcceptable', 'only the following media types are accepted: application/json, application/yaml, application/json;as=Table;v=v1;g=meta.k8s.io', {});
  },
  expired(message: string): KubeStatusError {
    return new KubeStatusError(410, 'Expired', message);
  },
  requestEntityTooLarge(limit: number): KubeStatusError {
    return new KubeStatusError(413, 'RequestEntityTooLarge', `the request body is too large: limit is ${limit} bytes`);
  },
  unsupportedMediaType(message: string): KubeStatusError {
    return new KubeStatusError(415, 'UnsupportedMediaType', message, {});
  },
  tooManyRequests(retryAfterSeconds: number, message = 'Too many requests, please try again later.'): KubeStatusError {
    return new KubeStatusError(429, 'TooManyRequests', message, { retryAfterSeconds });
  },
  internal(message: string): KubeStatusError {
    return new KubeStatusError(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] });
  },
  serviceUnavailable(message: string): KubeStatusError {
    return new KubeStatusError(503, 'ServiceUnavailable', message, {});
  },
  resourceVersionTooLarge(requested: number, current: number): KubeStatusError {
    return new KubeStatusError(504, 'Timeout', `Timeout: Too large resource version: ${requested}, current: ${current}`, {
      causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
      retryAfterSeconds: 1,
    });
  },
};

/** What a DELETE answers once the object is gone (kube omits `code` here). */
export interface SuccessStatus {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Success';
  details: StatusDetails;
}

export function successStatus(details: StatusDetails): SuccessStatus {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details };
}
