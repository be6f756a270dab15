/**
 * The SubjectAccessReview port (`authorization.k8s.io/v1`, non-resource attributes) and its TTL
 * cache (upstream's webhook authorizer: an allowed answer is kept for
 * `--authorization-webhook-cache-authorized-ttl`, any other for `-unauthorized-ttl`; failures are
 * never kept). The key is the whole review spec, so a user's groups and extra count.
 */
import type { UserInfo } from './user-info.js';

export interface NonResourceAccess {
  readonly user: UserInfo;
  /** The lower-case HTTP method: `get` for GET (upstream `RequestInfoFactory` for non-API paths). */
  readonly verb: string;
  readonly path: string;
}

export interface SubjectAccessReviewVerdict {
  readonly allowed: boolean;
  /** Explicitly denied (no other authorizer may allow). */
  readonly denied: boolean;
  readonly reason: string;
}

export interface SubjectAccessReviewer {
  /** Throws when the review could not be made. */
  review(access: NonResourceAccess): Promise<SubjectAccessReviewVerdict>;
}

export interface CachedSubjectAccessReviewerOptions {
  authorizedTtlMs: number;
  unauthorizedTtlMs: number;
  now?: () => number;
  maxEntries?: number;
}

const DEFAULT_MAX_ENTRIES = 8192;

/** The cache key: everything the review is about, in a stable order. */
export function subjectAccessReviewKey(access: NonResourceAccess): string {
  const extra = Object.keys(access.user.extra)
    .sort()
    .map((key) => [key, access.user.extra[key] ?? []]);
  return JSON.stringify([access.user.name, access.user.uid, access.user.groups, extra, access.verb, access.path]);
}

export function cachedSubjectAccessReviewer(reviewer: SubjectAccessReviewer, options: CachedSubjectAccessReviewerOptions): SubjectAccessReviewer {
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const entries = new Map<string, { verdict: SubjectAccessReviewVerdict; expiresAt: number }>();
  return {
    async review(access: NonResourceAccess): Promise<SubjectAccessReviewVerdict> {
      const key = subjectAccessReviewKey(access);
      const cached = entries.get(key);
      if (cached !== undefined) {
        if (cached.expiresAt > now()) return cached.verdict;
        entries.delete(key);
      }
      const verdict = await reviewer.review(access);
      const ttl = verdict.allowed ? options.authorizedTtlMs : options.unauthorizedTtlMs;
      if (ttl > 0) {
        entries.set(key, { verdict, expiresAt: now() + ttl });
        if (entries.size > maxEntries) {
          const oldest = entries.keys().next();
          if (!oldest.done) entries.delete(oldest.value);
        }
      }
      return verdict;
    },
  };
}
