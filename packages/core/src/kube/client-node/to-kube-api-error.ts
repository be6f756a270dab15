/**
 * Translates what client-node throws into KubeApiError: an ApiException carries the HTTP code and
 * the response body as a JSON string (a metav1.Status we parse for reason and message); anything
 * else (connection refused, reset, timeout, a watch stream that failed) is a transport error with
 * statusCode 0.
 */
import { ApiException } from '@kubernetes/client-node';
import { KubeApiError } from '../kube-api-error.js';

interface StatusBody {
  message?: unknown;
  reason?: unknown;
  code?: unknown;
}

function parseStatus(body: unknown): StatusBody | undefined {
  if (typeof body === 'object' && body !== null) return body as StatusBody;
  if (typeof body !== 'string' || body.trim() === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === 'object' && parsed !== null ? (parsed as StatusBody) : undefined;
  } catch {
    return undefined;
  }
}

/** Status reason by HTTP code, for bodies that carry none (client-go `reasonForError` defaults). */
const REASON_BY_CODE: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  409: 'Conflict',
  410: 'Expired',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

/** `description` says what was attempted (`patch node n1`); used for transport errors and bodiless answers. */
export function toKubeApiError(error: unknown, description: string): KubeApiError {
  if (error instanceof KubeApiError) return error;
  if (error instanceof ApiException) {
    const code = error.code;
    const status = parseStatus(error.body);
    const reason = typeof status?.reason === 'string' && status.reason !== '' ? status.reason : (REASON_BY_CODE[code] ?? '');
    const message =
      typeof status?.message === 'string' && status.message !== ''
        ? status.message
        : `${description}: the server responded with ${code}${reason ? ` (${reason})` : ''}`;
    return new KubeApiError(message, code, reason, { cause: error });
  }
  const statusCode = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof statusCode === 'number' && statusCode > 0) {
    return new KubeApiError(`${description}: the server responded with ${statusCode}`, statusCode, REASON_BY_CODE[statusCode] ?? '', { cause: error });
  }
  const detail = error instanceof Error ? describeTransportError(error) : String(error);
  return new KubeApiError(`${description}: ${detail}`, 0, '', { cause: error });
}

/** fetch wraps socket errors as `TypeError: fetch failed` with the real reason in `cause`. */
function describeTransportError(error: Error): string {
  const cause = error.cause;
  if (cause instanceof Error && cause.message && cause.message !== error.message) return `${error.message}: ${cause.message}`;
  return error.message;
}
