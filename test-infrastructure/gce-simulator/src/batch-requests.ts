import { GceError } from './gce-error.js';

/** One HTTP request inside a multipart/mixed batch body (Google's batch format). */
export interface BatchPart {
  method: string;
  /** Path and query, e.g. `/compute/v1/projects/p/zones/z/instanceGroups?alt=json`. */
  target: string;
  /** Lower-cased: the part's MIME headers (content-id) and the inner request's headers. */
  headers: Record<string, string>;
  body: string;
}

function splitHeaders(text: string): { headers: Record<string, string>; rest: string } {
  const normalized = text.replace(/\r\n/g, '\n');
  const end = normalized.indexOf('\n\n');
  const head = end < 0 ? normalized : normalized.slice(0, end);
  const rest = end < 0 ? '' : normalized.slice(end + 2);
  const headers: Record<string, string> = {};
  for (const line of head.split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, rest };
}

export function parseBatchRequest(text: string, boundary: string): BatchPart[] {
  const parts = text.split(`--${boundary}`).slice(1);
  const requests: BatchPart[] = [];
  for (const raw of parts) {
    if (raw.startsWith('--')) break;
    const mime = splitHeaders(raw.replace(/^\r?\n/, ''));
    const inner = mime.rest.replace(/^\n+/, '');
    const newline = inner.indexOf('\n');
    const requestLine = (newline < 0 ? inner : inner.slice(0, newline)).trim();
    const match = /^([A-Z]+)\s+(\S+)(?:\s+HTTP\/[\d.]+)?$/.exec(requestLine);
    if (match === null) throw new GceError('badRequest', `Invalid batch part request line: ${JSON.stringify(requestLine)}`);
    const request = splitHeaders(newline < 0 ? '' : inner.slice(newline + 1));
    let target = match[2] ?? '/';
    if (/^https?:\/\//.test(target)) target = new URL(target).pathname + new URL(target).search;
    requests.push({ method: match[1] ?? 'GET', target, headers: { ...request.headers, ...mime.headers }, body: request.rest.trim() });
  }
  return requests;
}

const REASONS: Record<number, string> = { 200: 'OK', 204: 'No Content', 400: 'Bad Request', 401: 'Unauthorized', 404: 'Not Found', 409: 'Conflict', 412: 'Precondition Failed', 500: 'Internal Server Error', 501: 'Not Implemented' };

export function renderBatchResponse(answers: { contentId: string | undefined; status: number; body: unknown }[], boundary: string): string {
  const chunks = answers.map((answer) => {
    const json = answer.body === undefined ? '' : JSON.stringify(answer.body);
    const contentId = answer.contentId === undefined ? '' : `Content-ID: ${answer.contentId.replace(/^<?/, '<response-')}\r\n`;
    return (
      `--${boundary}\r\nContent-Type: application/http\r\n${contentId}\r\n` +
      `HTTP/1.1 ${answer.status} ${REASONS[answer.status] ?? 'Error'}\r\nContent-Type: application/json; charset=UTF-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}\r\n`
    );
  });
  return `${chunks.join('')}--${boundary}--\r\n`;
}
