/**
 * Every failure of an Azure SDK call leaves the adapter as an `AzureApiError` with a kind and a
 * retryability decided here, where it is born. The message names the operation, the HTTP status
 * and the ARM error code; it never carries request bodies or credentials.
 */
import { AzureApiError, type AzureApiErrorKind } from '../azure-api-error.js';

interface RestErrorShape {
  name?: string;
  message?: string;
  code?: string;
  statusCode?: number;
  response?: { headers?: { get?(name: string): string | undefined } };
}

/** Entra (identity) failures: wrong tenant, client or secret, or no token endpoint. */
const CREDENTIAL_ERROR_NAMES = new Set(['AuthenticationError', 'AuthenticationRequiredError', 'CredentialUnavailableError', 'AggregateAuthenticationError', 'AzureCredentialSetupError']);

function kindOfStatus(status: number | undefined, code: string): { kind: AzureApiErrorKind; retryable: boolean } {
  if (status === 429 || code === 'TooManyRequests' || code === 'SubscriptionRequestsThrottled') return { kind: 'Throttled', retryable: true };
  if (status === 404 || code === 'ResourceNotFound' || code === 'NotFound' || code === 'ResourceGroupNotFound') return { kind: 'NotFound', retryable: false };
  if (status === 412 || code === 'PreconditionFailed') return { kind: 'PreconditionFailed', retryable: false };
  if (status === 409 || code === 'Conflict' || code === 'AnotherOperationInProgress') return { kind: 'Conflict', retryable: true };
  if (status === 401 || status === 403) return { kind: 'Unauthorized', retryable: false };
  if (status === 400) return { kind: 'Invalid', retryable: false };
  if (status !== undefined && status >= 500) return { kind: 'Unavailable', retryable: true };
  if (status === undefined) return { kind: 'Unavailable', retryable: true };
  return { kind: 'Unknown', retryable: false };
}

/** Retry-After in ms (seconds or an HTTP date), when ARM sent one. */
export function retryAfterMsOf(error: unknown, now: number = Date.now()): number | undefined {
  const header = (error as RestErrorShape | undefined)?.response?.headers?.get?.('retry-after');
  if (header === undefined || header === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(header.trim())) return Math.round(Number(header) * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The provider's error for an SDK failure of `operation` (`<service>.<method>`). */
export function toAzureApiError(error: unknown, operation: string): AzureApiError {
  if (error instanceof AzureApiError) return error;
  const shape = (typeof error === 'object' && error !== null ? error : {}) as RestErrorShape;
  if (shape.name !== undefined && CREDENTIAL_ERROR_NAMES.has(shape.name)) {
    // Entra's message names the tenant and client and the AADSTS code, never the secret.
    // A throttled (429) or failing (5xx) token endpoint is retried like ARM; a refusal is not.
    const { kind, retryable } = shape.statusCode === 429 ? { kind: 'Throttled' as const, retryable: true } : shape.statusCode !== undefined && shape.statusCode >= 500 ? { kind: 'Unavailable' as const, retryable: true } : { kind: 'Unauthorized' as const, retryable: false };
    return new AzureApiError(`could not get an Entra token: ${firstLine(shape.message)}`, { kind, code: shape.name, operation, retryable, ...(shape.statusCode === undefined ? {} : { httpStatus: shape.statusCode }), cause: error });
  }
  if (shape.name === 'AbortError') return new AzureApiError('aborted', { kind: 'Unknown', code: 'AbortError', operation, retryable: false, cause: error });
  const code = typeof shape.code === 'string' ? shape.code : '';
  const { kind, retryable } = kindOfStatus(shape.statusCode, code);
  const retryAfterMs = retryAfterMsOf(error);
  const status = shape.statusCode === undefined ? 'no HTTP answer' : `HTTP ${shape.statusCode}`;
  return new AzureApiError(`${status}${code === '' ? '' : ` ${code}`}: ${firstLine(shape.message)}`, {
    kind,
    code,
    operation,
    retryable,
    ...(shape.statusCode === undefined ? {} : { httpStatus: shape.statusCode }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    cause: error,
  });
}

function firstLine(message: string | undefined): string {
  return (message ?? 'unknown error').split('\n')[0] ?? '';
}

/** Runs one SDK call, turning its failure into an `AzureApiError`. */
export async function callAzure<T>(operation: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toAzureApiError(error, operation);
  }
}
