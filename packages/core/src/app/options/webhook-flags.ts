import { defineFlagGroup } from './flag-definition.js';

const NOT_IMPLEMENTED = 'the cloud-controller-manager admission webhook server (alpha upstream, behind the CloudControllerManagerWebhook feature gate) is not implemented';

/** Upstream `webhook` and `webhook serving` sections (options/webhook.go), accepted but ignored. */
export const webhookFlags = defineFlagGroup('webhook', {
  webhooks: {
    name: 'webhooks',
    type: 'stringList',
    default: [],
    help: "A list of webhooks to enable. '*' enables all on-by-default webhooks, 'foo' enables the webhook named 'foo', '-foo' disables the webhook named 'foo'.",
    ignored: NOT_IMPLEMENTED,
  },
});

export const webhookServingFlags = defineFlagGroup('webhook serving', {
  webhookBindAddress: {
    name: 'webhook-bind-address',
    type: 'string',
    valueName: 'ip',
    default: '0.0.0.0',
    help: 'The IP address on which to listen for the --webhook-secure-port port.',
    ignored: NOT_IMPLEMENTED,
  },
  webhookSecurePort: {
    name: 'webhook-secure-port',
    type: 'int',
    default: 10260,
    help: 'Secure port to serve cloud provider webhooks. If 0, don\'t serve webhooks at all.',
    ignored: NOT_IMPLEMENTED,
  },
  webhookCertDir: {
    name: 'webhook-cert-dir',
    type: 'string',
    default: '',
    help: 'The directory where the TLS certs are located. If --webhook-tls-cert-file and --webhook-tls-private-key-file are provided, this flag will be ignored.',
    ignored: NOT_IMPLEMENTED,
  },
  webhookTlsCertFile: {
    name: 'webhook-tls-cert-file',
    type: 'string',
    default: '',
    help: 'File containing the default x509 Certificate for HTTPS of the webhook server.',
    ignored: NOT_IMPLEMENTED,
  },
  webhookTlsPrivateKeyFile: {
    name: 'webhook-tls-private-key-file',
    type: 'string',
    default: '',
    help: 'File containing the default x509 private key matching --webhook-tls-cert-file.',
    ignored: NOT_IMPLEMENTED,
  },
  webhookTlsCipherSuites: {
    name: 'webhook-tls-cipher-suites',
    type: 'stringList',
    default: [],
    help: 'Comma-separated list of cipher suites for the webhook server.',
    ignored: NOT_IMPLEMENTED,
  },
  webhookTlsCurvePreferences: {
    name: 'webhook-tls-curve-preferences',
    type: 'stringList',
    default: [],
    help: 'Comma-separated list of elliptic curves for the webhook server.',
    ignored: NOT_IMPLEMENTED,
  },
  webhookTlsMinVersion: {
    name: 'webhook-tls-min-version',
    type: 'string',
    default: '',
    help: 'Minimum TLS version supported by the webhook server.',
    ignored: NOT_IMPLEMENTED,
  },
  webhookTlsSniCertKey: {
    name: 'webhook-tls-sni-cert-key',
    type: 'stringList',
    valueName: 'namedCertKey',
    default: [],
    help: 'A pair of x509 certificate and private key file paths for the webhook server, optionally suffixed with a list of domain patterns.',
    ignored: NOT_IMPLEMENTED,
  },
  webhookDisableHttp2Serving: {
    name: 'webhook-disable-http2-serving',
    type: 'bool',
    default: false,
    help: 'If true, HTTP2 serving will be disabled for the webhook server.',
    ignored: NOT_IMPLEMENTED,
  },
});
