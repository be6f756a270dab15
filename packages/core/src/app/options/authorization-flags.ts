import { defineFlagGroup } from './flag-definition.js';

const NOT_IMPLEMENTED = 'delegated authorization is not implemented: every request is served without authorization (protect the port with a NetworkPolicy)';

/** Upstream `authorization` section (k8s.io/apiserver DelegatingAuthorizationOptions), accepted but ignored. */
export const authorizationFlags = defineFlagGroup('authorization', {
  authorizationKubeconfig: {
    name: 'authorization-kubeconfig',
    type: 'string',
    default: '',
    help: 'kubeconfig file pointing at the \'core\' kubernetes server with enough rights to create subjectaccessreviews.authorization.k8s.io. This is optional. If empty, all requests not skipped by authorization are forbidden.',
    ignored: NOT_IMPLEMENTED,
  },
  authorizationAlwaysAllowPaths: {
    name: 'authorization-always-allow-paths',
    type: 'stringList',
    default: ['/healthz', '/readyz', '/livez'],
    help: 'A list of HTTP paths to skip during authorization, i.e. these are authorized without contacting the \'core\' kubernetes server.',
    ignored: NOT_IMPLEMENTED,
  },
  authorizationWebhookCacheAuthorizedTtlMs: {
    name: 'authorization-webhook-cache-authorized-ttl',
    type: 'duration',
    default: 10_000,
    help: 'The duration to cache \'authorized\' responses from the webhook authorizer.',
    ignored: NOT_IMPLEMENTED,
  },
  authorizationWebhookCacheUnauthorizedTtlMs: {
    name: 'authorization-webhook-cache-unauthorized-ttl',
    type: 'duration',
    default: 10_000,
    help: 'The duration to cache \'unauthorized\' responses from the webhook authorizer.',
    ignored: NOT_IMPLEMENTED,
  },
});
