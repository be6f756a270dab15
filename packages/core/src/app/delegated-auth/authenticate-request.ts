/**
 * The authenticator chain of upstream's `DelegatingAuthenticatorConfig.New()` for controller
 * managers: request-header, then client certificate, then bearer token (TokenReview), tried in
 * order until one authenticates; the user then gets `system:authenticated`. When none does, a
 * failure of any (a bad token, a certificate signed by an unknown CA) fails the request with 401;
 * otherwise (no credentials at all) the request is anonymous (`system:anonymous`,
 * `system:unauthenticated`), and authorization decides.
 */
import type { AuthenticationRequest, Authenticator, AuthenticatorResult } from './authenticator.js';
import { ANONYMOUS_USER, withAuthenticatedGroup, type UserInfo } from './user-info.js';

export type AuthenticationOutcome =
  | { readonly kind: 'authenticated'; readonly user: UserInfo; readonly by: string }
  /** `reasons`: why each failing authenticator refused, for the log (never a credential). */
  | { readonly kind: 'unauthenticated'; readonly reasons: readonly string[] };

export interface AuthenticationPolicy {
  /** Upstream's delegated authentication for controller managers allows anonymous requests. */
  readonly anonymous: boolean;
}

/**
 * The pure part: the outcome of the results the chain produced, in order (the chain stops at the
 * first `authenticated`, so at most the last result is one).
 */
export function decideAuthentication(results: readonly AuthenticatorResult[], policy: AuthenticationPolicy): AuthenticationOutcome {
  const reasons: string[] = [];
  for (const result of results) {
    if (result.kind === 'authenticated') return { kind: 'authenticated', user: withAuthenticatedGroup(result.user), by: result.by };
    if (result.kind === 'failed') reasons.push(result.reason);
  }
  if (reasons.length > 0 || !policy.anonymous) return { kind: 'unauthenticated', reasons };
  return { kind: 'authenticated', user: ANONYMOUS_USER, by: 'anonymous' };
}

export async function authenticateRequest(authenticators: readonly Authenticator[], request: AuthenticationRequest, policy: AuthenticationPolicy): Promise<AuthenticationOutcome> {
  const results: AuthenticatorResult[] = [];
  for (const authenticator of authenticators) {
    const result = await authenticator.authenticate(request);
    results.push(result);
    if (result.kind === 'authenticated') break;
  }
  return decideAuthentication(results, policy);
}
