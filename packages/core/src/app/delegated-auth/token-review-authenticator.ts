/**
 * Bearer tokens checked with a TokenReview (upstream `bearertoken` over the webhook token
 * authenticator): no bearer token is no opinion; a token the API server does not accept is a
 * failure ("invalid bearer token", a 401 even where anonymous requests are allowed).
 */
import type { Logger } from '../../logging/logger.js';
import { headerValues, NO_OPINION, type AuthenticationRequest, type Authenticator, type AuthenticatorResult } from './authenticator.js';
import { readBearerToken } from './bearer-token.js';
import type { TokenReviewer } from './token-reviewer.js';

export function tokenReviewAuthenticator(reviewer: TokenReviewer, logger: Logger): Authenticator {
  return {
    name: 'token-review',
    async authenticate(request: AuthenticationRequest): Promise<AuthenticatorResult> {
      const token = readBearerToken(headerValues(request, 'authorization'));
      if (token === undefined) return NO_OPINION;
      try {
        const verdict = await reviewer.review(token);
        if (verdict.authenticated) return { kind: 'authenticated', user: verdict.user, by: 'token-review' };
        return { kind: 'failed', reason: verdict.error ? `invalid bearer token: ${verdict.error}` : 'invalid bearer token' };
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        logger.warn('TokenReview failed', { reason });
        return { kind: 'failed', reason: `TokenReview failed: ${reason}` };
      }
    },
  };
}
