/**
 * One HTTP exchange with a timeout and cancellation; failures become `OpenStackError`s:
 * caller abort -> Aborted, our timeout -> Timeout, connection failure -> Transport (certificate
 * problems are final: retrying cannot fix them), an error status -> the kind of the status with
 * the fault body's message and the request id.
 */
import { deadlineSignal } from '@ccm/deadline-signal';
import { fetch as undiciFetch, type Dispatcher } from 'undici';
import { isImmutableConflict, kindForStatus, OpenStackError, parseFaultBody } from '../openstack-error.js';

export interface HttpRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  /** JSON-encoded when an object. */
  body?: unknown;
  /** Statuses that are not errors; default every 2xx. */
  expectedStatuses?: readonly number[];
  /** For messages: `GET network /v2.0/ports`. */
  operation: string;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  body: string;
  /** Parsed JSON body, undefined when empty. */
  json: unknown;
  requestId: string | undefined;
}

/** What the transport sends through; tests may inject their own. */
export type FetchFunction = (url: string, init: { method: string; headers: Record<string, string>; body?: string; signal: AbortSignal; dispatcher?: Dispatcher }) => Promise<Response>;

export interface HttpTransportOptions {
  dispatcher?: Dispatcher;
  /** Per request; default 60 s (upstream `[Metadata] request-timeout`). */
  timeoutMs?: number;
  /** `User-Agent`; default `openstack-client-ts`. */
  userAgent?: string;
  fetch?: FetchFunction;
}

const CERTIFICATE_ERROR = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|SSL|certificate/i;

export class HttpTransport {
  readonly #options: HttpTransportOptions;

  constructor(options: HttpTransportOptions = {}) {
    this.#options = options;
  }

  async send(request: HttpRequest): Promise<HttpResponse> {
    if (request.signal?.aborted) throw new OpenStackError(`${request.operation}: aborted`, { kind: 'Aborted', operation: request.operation });
    const timeoutMs = this.#options.timeoutMs ?? 60_000;
    const deadline = deadlineSignal(request.signal, timeoutMs);
    const signal = deadline.signal;
    const headers: Record<string, string> = { Accept: 'application/json', 'User-Agent': this.#options.userAgent ?? 'openstack-client-ts', ...request.headers };
    let body: string | undefined;
    if (request.body !== undefined) {
      body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const fetchFunction: FetchFunction = this.#options.fetch ?? ((url, init) => undiciFetch(url, init as Parameters<typeof undiciFetch>[1]) as unknown as Promise<Response>);
    let response: Response;
    let text: string;
    try {
      response = await fetchFunction(request.url, { method: request.method, headers, ...(body === undefined ? {} : { body }), signal, ...(this.#options.dispatcher ? { dispatcher: this.#options.dispatcher } : {}) });
      text = await response.text();
    } catch (error) {
      if (request.signal?.aborted) throw new OpenStackError(`${request.operation}: aborted`, { kind: 'Aborted', operation: request.operation, cause: error });
      if (deadline.timedOut()) throw new OpenStackError(`${request.operation}: no answer within ${timeoutMs / 1000} s`, { kind: 'Timeout', operation: request.operation, cause: error });
      const detail = describeCause(error);
      throw new OpenStackError(`${request.operation}: ${detail}`, { kind: 'Transport', operation: request.operation, retryable: !CERTIFICATE_ERROR.test(detail), cause: error });
    } finally {
      deadline.dispose();
    }
    const requestId = response.headers.get('x-openstack-request-id') ?? response.headers.get('x-compute-request-id') ?? undefined;
    const expected = request.expectedStatuses ? request.expectedStatuses.includes(response.status) : response.status >= 200 && response.status < 300;
    if (!expected) {
      const fault = parseFaultBody(text);
      const kind = kindForStatus(response.status);
      const retryable = kind === 'OverLimit' ? response.status === 429 : isImmutableConflict(response.status, fault.message) ? true : response.status === 501 ? false : undefined;
      throw new OpenStackError(`${request.operation}: HTTP ${response.status}${fault.message === '' ? '' : `: ${fault.message}`}${requestId === undefined ? '' : ` (request ${requestId})`}`, {
        kind,
        operation: request.operation,
        httpStatus: response.status,
        ...(requestId === undefined ? {} : { requestId }),
        ...(fault.faultType === undefined ? {} : { faultType: fault.faultType }),
        ...(retryable === undefined ? {} : { retryable }),
      });
    }
    let json: unknown;
    if (text.trim() !== '') {
      try {
        json = JSON.parse(text);
      } catch (error) {
        throw new OpenStackError(`${request.operation}: HTTP ${response.status} with a body that is not JSON`, { kind: 'InvalidResponse', operation: request.operation, httpStatus: response.status, ...(requestId === undefined ? {} : { requestId }), cause: error });
      }
    }
    return { status: response.status, headers: response.headers, body: text, json, requestId };
  }
}

function describeCause(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    parts.push(code === undefined ? current.message : `${current.message} (${code})`);
    current = current.cause;
  }
  return parts.join(': ') || String(error);
}
