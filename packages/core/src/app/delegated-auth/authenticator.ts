/**
 * One way of telling who sent a request (request header, client certificate, bearer token).
 * Each answers like upstream's `authenticator.Request`: a user; "not mine" (no opinion, the
 * next authenticator is asked); or a failure (the credentials were there but are not valid).
 */
import type { X509Certificate } from 'node:crypto';
import type { UserInfo } from './user-info.js';

/** What authenticators read from a request. */
export interface AuthenticationRequest {
  /** Lower-case names, every value as sent (Node's `IncomingMessage.headersDistinct`: repeats are not comma-joined). */
  readonly headers: Readonly<Record<string, readonly string[] | undefined>>;
  /** The client certificate chain, leaf first; empty without a client certificate. */
  readonly peerCertificates: readonly X509Certificate[];
}

export type AuthenticatorResult =
  | { readonly kind: 'authenticated'; readonly user: UserInfo; readonly by: string }
  | { readonly kind: 'no-opinion' }
  /** `reason` is for the log and never contains a credential. */
  | { readonly kind: 'failed'; readonly reason: string };

export interface Authenticator {
  /** For logs: `request-header`, `x509`, `token-review`. */
  readonly name: string;
  authenticate(request: AuthenticationRequest): Promise<AuthenticatorResult>;
}

export const NO_OPINION: AuthenticatorResult = { kind: 'no-opinion' };

/** Every value of a header, in order; `[]` when absent. */
export function headerValues(request: AuthenticationRequest, name: string): readonly string[] {
  return request.headers[name.toLowerCase()] ?? [];
}
