/**
 * The HTTP side of delegated auth: each request of the secure port is authenticated and
 * authorized before the routes see it; a denied request gets upstream's 401, 403 or 500 answer.
 * The client certificate chain is read from the TLS socket (once per connection).
 */
import { X509Certificate } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';
import type { Logger } from '../../logging/logger.js';
import type { AccessRequest } from './access-decision.js';
import type { AuthenticationRequest } from './authenticator.js';
import type { DelegatedAuth } from './create-delegated-auth.js';
import { sendResponse as send } from '../serving/send-response.js';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

export function protectHandler(auth: Pick<DelegatedAuth, 'check'>, handler: Handler, logger: Logger): Handler {
  return (request, response) => {
    const access = accessRequestOf(request);
    auth
      .check(authenticationRequestOf(request), access)
      .then((decision) => {
        if (decision.kind === 'serve') {
          handler(request, response);
          return;
        }
        send(response, decision.status, decision.contentType, decision.body);
      })
      .catch((error: unknown) => {
        logger.error('Delegated authentication or authorization failed', { path: access.path, err: error });
        if (!response.headersSent) send(response, 500, 'text/plain; charset=utf-8', 'Internal Server Error\n');
        else response.destroy();
      });
  };
}

/** The request as authorization sees it: lower-case method, decoded path (Go's `URL.Path`). */
export function accessRequestOf(request: Pick<IncomingMessage, 'method' | 'url'>): AccessRequest {
  const uri = request.url ?? '/';
  let path: string;
  try {
    path = new URL(uri, 'https://localhost').pathname;
  } catch {
    path = uri.split('?', 1)[0] ?? uri;
  }
  try {
    path = decodeURIComponent(path);
  } catch {
    // keep the encoded form
  }
  return { verb: (request.method ?? 'GET').toLowerCase(), path, uri };
}

export function authenticationRequestOf(request: IncomingMessage): AuthenticationRequest {
  return { headers: request.headersDistinct, peerCertificates: peerCertificates(request.socket) };
}

const chains = new WeakMap<object, readonly X509Certificate[]>();

/** The client's certificate chain, leaf first (what it sent; never completed from a trust store). */
export function peerCertificates(socket: object): readonly X509Certificate[] {
  const known = chains.get(socket);
  if (known !== undefined) return known;
  const tls = socket as Partial<Pick<TLSSocket, 'getPeerCertificate'>>;
  const chain: X509Certificate[] = [];
  if (typeof tls.getPeerCertificate === 'function') {
    let current: DetailedPeerCertificate | undefined = tls.getPeerCertificate(true) as DetailedPeerCertificate | undefined;
    const seen = new Set<DetailedPeerCertificate>();
    while (current?.raw !== undefined && !seen.has(current) && chain.length < 10) {
      seen.add(current);
      try {
        chain.push(new X509Certificate(current.raw));
      } catch {
        break;
      }
      current = current.issuerCertificate;
    }
  }
  chains.set(socket, chain);
  return chain;
}
