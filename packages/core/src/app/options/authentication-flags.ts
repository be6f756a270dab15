import { defineFlagGroup } from './flag-definition.js';

/** Upstream `RequestHeaderAuthenticationOptions.Validate`: no empty (or blank) entry. */
const noBlankEntry =
  (flag: string) =>
  (values: readonly string[]): string | undefined =>
    values.some((value) => value.trim() === '') ? `empty value in ${JSON.stringify(flag)}` : undefined;

/**
 * Upstream `authentication` section (k8s.io/apiserver DelegatingAuthenticationOptions with the
 * controller managers' settings: the kubeconfig is optional, anonymous requests are allowed).
 * Implemented in `app/delegated-auth/`.
 */
export const authenticationFlags = defineFlagGroup('authentication', {
  authenticationKubeconfig: {
    name: 'authentication-kubeconfig',
    type: 'string',
    default: '',
    help: 'kubeconfig file pointing at the \'core\' kubernetes server with enough rights to create tokenreviews.authentication.k8s.io. This is optional. If empty, all token requests are considered to be anonymous and no client CA is looked up in the cluster.',
  },
  authenticationSkipLookup: {
    name: 'authentication-skip-lookup',
    type: 'bool',
    default: false,
    help: 'If false, the authentication-kubeconfig will be used to lookup missing authentication configuration from the cluster.',
  },
  authenticationTokenWebhookCacheTtlMs: {
    name: 'authentication-token-webhook-cache-ttl',
    type: 'duration',
    default: 10_000,
    help: 'The duration to cache responses from the webhook token authenticator.',
  },
  authenticationTolerateLookupFailure: {
    name: 'authentication-tolerate-lookup-failure',
    type: 'bool',
    default: false,
    help: 'If true, failures to look up missing authentication configuration from the cluster are not considered fatal. Note that this can result in authentication that treats all requests as anonymous.',
  },
  clientCaFile: {
    name: 'client-ca-file',
    type: 'string',
    default: '',
    help: 'If set, any request presenting a client certificate signed by one of the authorities in the client-ca-file is authenticated with an identity corresponding to the CommonName of the client certificate.',
  },
  requestheaderClientCaFile: {
    name: 'requestheader-client-ca-file',
    type: 'string',
    default: '',
    help: 'Root certificate bundle to use to verify client certificates on incoming requests before trusting usernames in headers specified by --requestheader-username-headers. WARNING: generally do not depend on authorization being already done for incoming requests.',
  },
  requestheaderAllowedNames: {
    name: 'requestheader-allowed-names',
    type: 'stringList',
    check: noBlankEntry('requestheader-allowed-names'),
    default: [],
    help: 'List of client certificate common names to allow to provide usernames in headers specified by --requestheader-username-headers. If empty, any client certificate validated by the authorities in --requestheader-client-ca-file is allowed.',
  },
  requestheaderUsernameHeaders: {
    name: 'requestheader-username-headers',
    type: 'stringList',
    check: noBlankEntry('requestheader-username-headers'),
    default: ['x-remote-user'],
    help: 'List of request headers to inspect for usernames. X-Remote-User is common.',
  },
  requestheaderUidHeaders: {
    name: 'requestheader-uid-headers',
    type: 'stringList',
    check: noBlankEntry('requestheader-uid-headers'),
    default: [],
    help: 'List of request headers to inspect for UIDs. X-Remote-Uid is suggested.',
  },
  requestheaderGroupHeaders: {
    name: 'requestheader-group-headers',
    type: 'stringList',
    check: noBlankEntry('requestheader-group-headers'),
    default: ['x-remote-group'],
    help: 'List of request headers to inspect for groups. X-Remote-Group is suggested.',
  },
  requestheaderExtraHeadersPrefix: {
    name: 'requestheader-extra-headers-prefix',
    type: 'stringList',
    check: noBlankEntry('requestheader-extra-headers-prefix'),
    default: ['x-remote-extra-'],
    help: 'List of request header prefixes to inspect. X-Remote-Extra- is suggested.',
  },
});
