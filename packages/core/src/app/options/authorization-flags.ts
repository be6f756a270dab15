import { alwaysAllowPathsProblem } from '../delegated-auth/always-allow-paths.js';
import { defineFlagGroup } from './flag-definition.js';

/**
 * Upstream `authorization` section (k8s.io/apiserver DelegatingAuthorizationOptions with the
 * controller managers' settings: the kubeconfig is optional, `system:masters` is always allowed).
 * Implemented in `app/delegated-auth/`.
 */
export const authorizationFlags = defineFlagGroup('authorization', {
  authorizationKubeconfig: {
    name: 'authorization-kubeconfig',
    type: 'string',
    default: '',
    help: 'kubeconfig file pointing at the \'core\' kubernetes server with enough rights to create subjectaccessreviews.authorization.k8s.io. This is optional. If empty, all requests not skipped by authorization are forbidden.',
  },
  authorizationAlwaysAllowPaths: {
    name: 'authorization-always-allow-paths',
    type: 'stringList',
    default: ['/healthz', '/readyz', '/livez'],
    check: alwaysAllowPathsProblem,
    help: 'A list of HTTP paths to skip during authorization, i.e. these are authorized without contacting the \'core\' kubernetes server.',
  },
  authorizationWebhookCacheAuthorizedTtlMs: {
    name: 'authorization-webhook-cache-authorized-ttl',
    type: 'duration',
    default: 10_000,
    help: 'The duration to cache \'authorized\' responses from the webhook authorizer.',
  },
  authorizationWebhookCacheUnauthorizedTtlMs: {
    name: 'authorization-webhook-cache-unauthorized-ttl',
    type: 'duration',
    default: 10_000,
    help: 'The duration to cache \'unauthorized\' responses from the webhook authorizer.',
  },
});
