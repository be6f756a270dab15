/**
 * One HTTP exchange with timeout and cancellation, mapping failures to `VsphereError`:
 * caller abort -> `Aborted`, our timeout -> `Timeout`, connection/TLS failure -> `Transport`
 * (certificate problems are not retryable: retrying cannot fix them).
 */
import { deadlineSignal } from '@ccm/deadline-signal';
import { VsphereError } from '../vsphere-error.js';
import type { HttpFetch, HttpRequestInit, HttpResponse } from './http-fetch.js';

export interface SendRequestOptions {
  fetch: HttpFetch;
  url: string;
  init: Omit<HttpRequestInit, 'signal'>;
  /** For messages: `RetrievePropertiesEx`, `POST session`. */
  operation: string;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

export interface SentResponse {
  response: HttpResponse;
  body: string;
}

const CERTIFICATE_ERROR = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|THUMBPRINT|SSL|certificate/i;

export async function sendRequest(options: SendRequestOptions): Promise<SentResponse> {
  if (options.signal?.aborted) throw abortedError(options);
  const deadline = deadlineSignal(options.signal, options.timeoutMs);
  const signal = deadline.signal;
  try {
    const response = await options.fetch(options.url, { ...options.init, signal });
    const body = await response.text();
    return { response, body };
  } catch (error) {
    if (options.signal?.aborted) throw abortedError(options, error);
    if (deadline.timedOut()) {
      throw new VsphereError(`${options.operation}: no answer from ${hostOf(options.url)} within ${options.timeoutMs} ms`, {
        kind: 'Timeout',
        operation: options.operation,
        cause: error,
      });
    }
    const reason = describeTransportFailure(error);
    throw new VsphereError(`${options.operation}: cannot reach ${hostOf(options.url)}: ${reason}`, {
      kind: 'Transport',
      operation: options.operation,
      retryable: !CERTIFICATE_ERROR.test(reason),
      cause: error,
    });
  } finally {
    deadline.dispose();
  }
}

function abortedError(options: SendRequestOptions, cause?: unknown): VsphereError {
  return new VsphereError(`${options.operation}: aborted`, { kind: 'Aborted', operation: options.operation, cause: cause ?? options.signal?.reason });
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** `fetch failed` hides the reason in `cause` (often nested); surface its code and message. */
export function describeTransportFailure(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    const text = typeof code === 'string' && !current.message.includes(code) ? `${code}: ${current.message}` : current.message;
    if (text !== 'fetch failed' && !parts.includes(text)) parts.push(text);
    current = current.cause;
  }
  return parts.length > 0 ? parts.join(': ') : String(error);
}
