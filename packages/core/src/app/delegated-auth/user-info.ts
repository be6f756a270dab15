/**
 * Who a request comes from, as Kubernetes authenticators describe it (k8s.io/apiserver
 * `user.Info`): the name, an optional UID, groups and extra attributes. It is what a
 * SubjectAccessReview is asked about.
 */
export interface UserInfo {
  readonly name: string;
  readonly uid: string;
  readonly groups: readonly string[];
  readonly extra: Readonly<Record<string, readonly string[]>>;
}

/** The user and group of a request that carried no credentials (anonymous authentication). */
export const ANONYMOUS_USER_NAME = 'system:anonymous';
export const UNAUTHENTICATED_GROUP = 'system:unauthenticated';
/** Added to every authenticated (non-anonymous) user, as upstream's AuthenticatedGroupAdder does. */
export const AUTHENTICATED_GROUP = 'system:authenticated';
/** Upstream's `AlwaysAllowGroups` for controller managers: members skip SubjectAccessReview. */
export const MASTERS_GROUP = 'system:masters';

export const ANONYMOUS_USER: UserInfo = { name: ANONYMOUS_USER_NAME, uid: '', groups: [UNAUTHENTICATED_GROUP], extra: {} };

export function userInfo(name: string, details: { uid?: string; groups?: readonly string[]; extra?: Readonly<Record<string, readonly string[]>> } = {}): UserInfo {
  return { name, uid: details.uid ?? '', groups: details.groups ?? [], extra: details.extra ?? {} };
}

/** `system:authenticated` appended unless present, or the user is anonymous (upstream `group.AuthenticatedGroupAdder`). */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.name === ANONYMOUS_USER_NAME) return user;
  if (user.groups.includes(AUTHENTICATED_GROUP) || user.groups.includes(UNAUTHENTICATED_GROUP)) return user;
  return { ...user, groups: [...user.groups, AUTHENTICATED_GROUP] };
}
