/**
 * What the secure port answers a request, from its authentication and authorization outcomes
 * (pure; the HTTP layer only writes it). The bodies are upstream's: a `metav1.Status` as JSON for
 * 401 (`Unauthorized`) and 403 (`forbidden: User "<name>" cannot <verb> path "<path>"`, plus
 * `: <reason>` when the authorizers gave one), and `Internal Server Error: "<uri>": <error>` as
 * plain text when the authorizer could not decide.
 */
import type { AuthenticationOutcome } from './authenticate-request.js';
import type { AuthorizationOutcome } from './authorize-request.js';
import type { UserInfo } from './user-info.js';
import { goQuote } from '../../logging/go-quote.js';

export type AccessDecision =
  | { readonly kind: 'serve'; readonly user: UserInfo }
  | { readonly kind: 'deny'; readonly status: 401 | 403 | 500; readonly contentType: string; readonly body: string };

export interface AccessRequest {
  readonly verb: string;
  readonly path: string;
  /** The request URI as received (path and query), for the 500 body. */
  readonly uri: string;
}

/** `authorization` is only consulted when authentication succeeded. */
export function decideAccess(request: AccessRequest, authentication: AuthenticationOutcome, authorization: AuthorizationOutcome | undefined): AccessDecision {
  if (authentication.kind === 'unauthenticated') {
    return { kind: 'deny', status: 401, contentType: 'application/json', body: statusBody(401, 'Unauthorized', 'Unauthorized', false) };
  }
  if (authorization === undefined) throw new Error('decideAccess: an authenticated request needs an authorization outcome');
  switch (authorization.kind) {
    case 'allowed':
      return { kind: 'serve', user: authentication.user };
    case 'forbidden': {
      const message = `forbidden: User ${goQuote(authentication.user.name)} cannot ${request.verb} path ${goQuote(request.path)}${authorization.reason === '' ? '' : `: ${authorization.reason}`}`;
      return { kind: 'deny', status: 403, contentType: 'application/json', body: statusBody(403, 'Forbidden', message, true) };
    }
    case 'error':
      return { kind: 'deny', status: 500, contentType: 'text/plain; charset=utf-8', body: `Internal Server Error: ${goQuote(request.uri)}: ${authorization.error}\n` };
  }
}

/**
 * A `metav1.Status` failure as the apimachinery JSON serializer writes it: fields in Go struct
 * order, HTML-safe escaping, a trailing newline. Forbidden carries empty `details` (upstream
 * `NewForbidden`); Unauthorized none.
 */
function statusBody(code: number, reason: string, message: string, withDetails: boolean): string {
  const status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    ...(withDetails ? { details: {} } : {}),
    code,
  };
  return `${goJson(status)}\n`;
}

/** JSON with Go's `encoding/json` escaping of `<`, `>`, `&`, U+2028 and U+2029. */
export function goJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
