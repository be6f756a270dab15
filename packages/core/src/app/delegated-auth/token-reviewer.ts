/**
 * The TokenReview port (`authentication.k8s.io/v1`) and its TTL cache. The cache is keyed by an
 * HMAC of the token with a key made at start, so no token is kept in memory or logs; like
 * upstream's cached token authenticator (`cacheErrs=false`), it keeps "authenticated" and plain
 * "not authenticated" answers for the TTL, never failures (a thrown error, or an answer carrying
 * `status.error`), and concurrent reviews of one token share one request.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { UserInfo } from './user-info.js';

export type TokenReviewVerdict =
  | { readonly authenticated: true; readonly user: UserInfo }
  /** `error`: the API server's `status.error` (the reason it could not decide), if any. */
  | { readonly authenticated: false; readonly error?: string };

export interface TokenReviewer {
  /** Throws when the review could not be made (transport, 5xx, forbidden). */
  review(token: string): Promise<TokenReviewVerdict>;
}

export interface CachedTokenReviewerOptions {
  /** `--authentication-token-webhook-cache-ttl`; 0 disables the cache. */
  ttlMs: number;
  now?: () => number;
  /** Bound of the cache (oldest entries are dropped first). */
  maxEntries?: number;
}

const DEFAULT_MAX_ENTRIES = 4096;

export function cachedTokenReviewer(reviewer: TokenReviewer, options: CachedTokenReviewerOptions): TokenReviewer {
  if (options.ttlMs <= 0) return reviewer;
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const hmacKey = randomBytes(32);
  const entries = new Map<string, { verdict: TokenReviewVerdict; expiresAt: number }>();
  const inFlight = new Map<string, Promise<TokenReviewVerdict>>();
  const keyOf = (token: string): string => createHmac('sha256', hmacKey).update(token).digest('base64');

  return {
    review(token: string): Promise<TokenReviewVerdict> {
      const key = keyOf(token);
      const cached = entries.get(key);
      if (cached !== undefined) {
        if (cached.expiresAt > now()) return Promise.resolve(cached.verdict);
        entries.delete(key);
      }
      const pending = inFlight.get(key);
      if (pending !== undefined) return pending;
      const request = reviewer.review(token).then((verdict) => {
        if (verdict.authenticated || verdict.error === undefined) {
          entries.set(key, { verdict, expiresAt: now() + options.ttlMs });
          if (entries.size > maxEntries) {
            const oldest = entries.keys().next();
            if (!oldest.done) entries.delete(oldest.value);
          }
        }
        return verdict;
      });
      inFlight.set(key, request);
      const forget = (): void => {
        inFlight.delete(key);
      };
      request.then(forget, forget);
      return request;
    },
  };
}
