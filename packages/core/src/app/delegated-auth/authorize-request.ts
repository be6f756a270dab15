/**
 * The authorizer union of upstream's `DelegatingAuthorizationOptions` for controller managers:
 * members of `system:masters` are allowed; then the always-allow paths; then a
 * SubjectAccessReview (when there is an authorization client). The first allow or deny wins;
 * when every authorizer has no opinion the request is forbidden, with their reasons; when one
 * failed (the review could not be made) and none allowed, the request fails (500), as upstream.
 */
import type { NonResourceAccess, SubjectAccessReviewer } from './subject-access-reviewer.js';
import { MASTERS_GROUP } from './user-info.js';

export type AuthorizerResult =
  | { readonly decision: 'allow' | 'deny' | 'no-opinion'; readonly reason: string; readonly error?: undefined }
  | { readonly decision: 'no-opinion'; readonly reason: string; readonly error: string };

export type AuthorizationOutcome =
  | { readonly kind: 'allowed'; readonly reason: string }
  | { readonly kind: 'forbidden'; readonly reason: string }
  | { readonly kind: 'error'; readonly error: string };

export interface Authorizer {
  readonly name: string;
  authorize(access: NonResourceAccess): Promise<AuthorizerResult>;
}

/** The pure union (upstream `union.New` + `WithAuthorization`) over the results, in order. */
export function decideAuthorization(results: readonly AuthorizerResult[]): AuthorizationOutcome {
  const reasons: string[] = [];
  const errors: string[] = [];
  for (const result of results) {
    if (result.error !== undefined) errors.push(result.error);
    if (result.reason !== '') reasons.push(result.reason);
    if (result.decision === 'allow') return { kind: 'allowed', reason: result.reason };
    // A deny ends the union with its own reason; upstream ignores earlier authorizers' errors then.
    if (result.decision === 'deny') return { kind: 'forbidden', reason: result.reason };
  }
  if (errors.length > 0) return { kind: 'error', error: errors.length === 1 ? (errors[0] as string) : `[${errors.join(', ')}]` };
  return { kind: 'forbidden', reason: reasons.join('\n') };
}

export async function authorizeRequest(authorizers: readonly Authorizer[], access: NonResourceAccess): Promise<AuthorizationOutcome> {
  const results: AuthorizerResult[] = [];
  for (const authorizer of authorizers) {
    const result = await authorizer.authorize(access);
    results.push(result);
    if (result.decision !== 'no-opinion') break;
  }
  return decideAuthorization(results);
}

/** Upstream `authorizerfactory.NewPrivilegedGroups(system:masters)`. */
export function privilegedGroupsAuthorizer(groups: readonly string[] = [MASTERS_GROUP]): Authorizer {
  return {
    name: 'privileged-groups',
    authorize: (access) => Promise.resolve(access.user.groups.some((group) => groups.includes(group)) ? { decision: 'allow', reason: '' } : { decision: 'no-opinion', reason: '' }),
  };
}

export function alwaysAllowPathsAuthorizer(matches: (path: string) => boolean): Authorizer {
  return {
    name: 'always-allow-paths',
    authorize: (access) => Promise.resolve(matches(access.path) ? { decision: 'allow', reason: '' } : { decision: 'no-opinion', reason: '' }),
  };
}

/** Upstream's webhook authorizer: allowed, denied, or no opinion with the review's reason. */
export function subjectAccessReviewAuthorizer(reviewer: SubjectAccessReviewer): Authorizer {
  return {
    name: 'subject-access-review',
    async authorize(access: NonResourceAccess): Promise<AuthorizerResult> {
      try {
        const verdict = await reviewer.review(access);
        if (verdict.allowed) return { decision: 'allow', reason: verdict.reason };
        return { decision: verdict.denied ? 'deny' : 'no-opinion', reason: verdict.reason };
      } catch (error) {
        return { decision: 'no-opinion', reason: '', error: error instanceof Error ? error.message : String(error) };
      }
    },
  };
}
