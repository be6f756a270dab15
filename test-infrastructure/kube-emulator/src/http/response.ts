/** Writing responses: JSON bodies, Status errors, plain text. */
import type { ServerResponse } from 'node:http';
import { KubeStatusError, statusErrors } from '../api/status-error.js';

const commonHeaders = { 'Cache-Control': 'no-cache, private' };

export function writeBody(response: ServerResponse, statusCode: number, body: string, contentType = 'application/json', extraHeaders: Record<string, string> = {}): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  response.writeHead(statusCode, { ...commonHeaders, 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body), ...extraHeaders });
  response.end(body);
}

export function writeJson(response: ServerResponse, statusCode: number, value: unknown): void {
  writeBody(response, statusCode, JSON.stringify(value));
}

export function writeText(response: ServerResponse, statusCode: number, text: string): void {
  writeBody(response, statusCode, text, 'text/plain; charset=utf-8', { 'X-Content-Type-Options': 'nosniff' });
}

/** Answers any thrown value: a KubeStatusError as its Status, anything else as a 500. */
export function writeError(response: ServerResponse, error: unknown): void {
  const failure = error instanceof KubeStatusError ? error : statusErrors.internal(error instanceof Error ? error.message : String(error));
  const headers: Record<string, string> = {};
  const retryAfter = failure.status.details?.retryAfterSeconds;
  if (retryAfter !== undefined && (failure.code === 429 || failure.code === 503 || failure.code === 504)) headers['Retry-After'] = String(retryAfter);
  writeBody(response, failure.code, JSON.stringify(failure.status), 'application/json', headers);
}
