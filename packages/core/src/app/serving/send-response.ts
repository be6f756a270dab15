import type { ServerResponse } from 'node:http';

/** Writes a whole answer of the secure port with upstream's headers (no body for HEAD). */
export function sendResponse(response: ServerResponse, status: number, contentType: string, body: string): void {
  response.statusCode = status;
  response.setHeader('Content-Type', contentType);
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Cache-Control', 'no-cache, private');
  response.setHeader('Content-Length', Buffer.byteLength(body));
  response.end(response.req.method === 'HEAD' ? undefined : body);
}
