import type { IncomingMessage, ServerResponse } from 'node:http';
import { SandboxCloudError } from './sandbox-cloud-error.js';

const MAX_BODY_BYTES = 1024 * 1024;

/** Reads a JSON body; an empty body is `{}`. Bad JSON or a non-object is InvalidArgument. */
export async function readJsonBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new SandboxCloudError('InvalidArgument', 'request body too large');
    chunks.push(buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new SandboxCloudError('InvalidArgument', 'request body is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new SandboxCloudError('InvalidArgument', 'request body must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (status === 204) {
    response.writeHead(204, headers).end();
    return;
  }
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers }).end(text);
}

export function sendError(response: ServerResponse, error: SandboxCloudError, headers: Record<string, string> = {}): void {
  sendJson(response, error.status, error.toBody(), headers);
}

/** `?tag=key=value&tag=...` as an equality filter, or undefined when there is none. */
export function tagFilterFromQuery(query: URLSearchParams): Record<string, string> | undefined {
  const tags = query.getAll('tag');
  if (tags.length === 0) return undefined;
  const filter: Record<string, string> = {};
  for (const tag of tags) {
    const separator = tag.indexOf('=');
    if (separator <= 0) throw new SandboxCloudError('InvalidArgument', `tag filter ${JSON.stringify(tag)} must be key=value`);
    filter[tag.slice(0, separator)] = tag.slice(separator + 1);
  }
  return filter;
}
