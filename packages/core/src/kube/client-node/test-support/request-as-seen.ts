import type { RecordedRequest } from './fake-api-server.js';

/**
 * What the server saw of a request, for comparing two transports: method, path, query, body and
 * the headers our requests set (fetch adds some of its own, e.g. accept-encoding, not compared).
 */
export const requestAsSeen = (request: RecordedRequest | undefined) => ({
  method: request?.method,
  path: request?.path,
  query: request?.query.toString(),
  body: request?.body,
  contentType: request?.headers['content-type'],
  contentLength: request?.headers['content-length'],
  accept: request?.headers.accept,
  userAgent: request?.headers['user-agent'],
  authorization: request?.headers.authorization,
});
