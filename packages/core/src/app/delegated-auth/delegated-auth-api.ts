/**
 * What delegated authentication and authorization need from the Kubernetes API, declared by
 * their consumer: TokenReviews, SubjectAccessReviews and the authentication ConfigMap. The
 * runtime implements it over client-node (`kube/client-node/client-node-delegated-auth-api.ts`);
 * unit tests use fakes.
 */
import type { ConfigMapData } from './authentication-config-map.js';
import type { SubjectAccessReviewer } from './subject-access-reviewer.js';
import type { TokenReviewer } from './token-reviewer.js';

export interface AuthenticationConfigMapApi {
  /** `undefined` when the ConfigMap does not exist; throws on any other failure (forbidden, unreachable). */
  read(): Promise<ConfigMapData>;
  /**
   * Keeps `onChange` informed of the ConfigMap's data (`undefined` once deleted), retrying with
   * backoff on failures, until `signal` aborts.
   */
  watch(onChange: (data: ConfigMapData) => void, signal: AbortSignal): void;
}

export interface DelegatedAuthenticationApi {
  readonly tokenReviewer: TokenReviewer;
  readonly authenticationConfigMap: AuthenticationConfigMapApi;
}

export interface DelegatedAuthorizationApi {
  readonly subjectAccessReviewer: SubjectAccessReviewer;
}
