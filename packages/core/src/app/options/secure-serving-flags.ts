import { isIP } from 'node:net';
import { portOrZero } from './flag-checks.js';
import { nodeTlsOptions, TlsOptionsError } from '../serving/tls-options.js';
import { defineFlagGroup } from './flag-definition.js';

const TLS_VERSIONS = ['VersionTLS10', 'VersionTLS11', 'VersionTLS12', 'VersionTLS13'] as const;

const checkIp = (value: string): string | undefined => (value !== '' && isIP(value) === 0 ? `failed to parse IP: ${JSON.stringify(value)}` : undefined);

/** Upstream `secure serving` section (k8s.io/apiserver SecureServingOptions); serves /healthz, /metrics, /configz. */
export const secureServingFlags = defineFlagGroup(
  'secure serving',
  {
    bindAddress: {
      name: 'bind-address',
      type: 'string',
      valueName: 'ip',
      default: '0.0.0.0',
      check: checkIp,
      help: 'The IP address on which to listen for the --secure-port port. The associated interface(s) must be reachable by the rest of the cluster, and by CLI/web clients. If blank or an unspecified address (0.0.0.0 or ::), all interfaces and IP address families will be used.',
    },
    securePort: {
      name: 'secure-port',
      type: 'int',
      default: 10258,
      check: portOrZero,
      help: 'The port on which to serve HTTPS with authentication and authorization. If 0, don\'t serve HTTPS at all.',
    },
    certDir: {
      name: 'cert-dir',
      type: 'string',
      default: '',
      help: 'The directory where the TLS certs are located. If --tls-cert-file and --tls-private-key-file are provided, this flag will be ignored.',
    },
    tlsCertFile: {
      name: 'tls-cert-file',
      type: 'string',
      default: '',
      help: 'File containing the default x509 Certificate for HTTPS. (CA cert, if any, concatenated after server cert). If HTTPS serving is enabled, and --tls-cert-file and --tls-private-key-file are not provided, a self-signed certificate and key are generated for the public address and saved to the directory specified by --cert-dir.',
    },
    tlsPrivateKeyFile: {
      name: 'tls-private-key-file',
      type: 'string',
      default: '',
      help: 'File containing the default x509 private key matching --tls-cert-file.',
    },
    tlsMinVersion: {
      name: 'tls-min-version',
      type: 'string',
      default: '',
      help: `Minimum TLS version supported. Possible values: ${TLS_VERSIONS.join(', ')}`,
      check: (value) => (value === '' || (TLS_VERSIONS as readonly string[]).includes(value) ? undefined : `unsupported TLS version (use one of ${TLS_VERSIONS.join(', ')})`),
    },
    tlsCipherSuites: {
      name: 'tls-cipher-suites',
      type: 'stringList',
      default: [],
      help: 'Comma-separated list of cipher suites for the server. If omitted, the default Go cipher suites will be used.',
    },
    tlsCurvePreferences: {
      name: 'tls-curve-preferences',
      type: 'stringList',
      default: [],
      help: 'Comma-separated list of elliptic curves for the server.',
    },
    tlsSniCertKey: {
      name: 'tls-sni-cert-key',
      type: 'stringList',
      valueName: 'namedCertKey',
      default: [],
      help: 'A pair of x509 certificate and private key file paths, optionally suffixed with a list of domain patterns which are fully qualified domain names, possibly with prefixed wildcard segments.',
      ignored: 'SNI certificates are not supported; one certificate is served',
    },
    http2MaxStreamsPerConnection: {
      name: 'http2-max-streams-per-connection',
      type: 'int',
      default: 0,
      help: 'The limit that the server gives to clients for the maximum number of streams in an HTTP/2 connection. Zero means to use golang\'s default.',
      ignored: 'the server speaks HTTP/1.1 only',
    },
    disableHttp2Serving: {
      name: 'disable-http2-serving',
      type: 'bool',
      default: false,
      help: 'If true, HTTP2 serving will be disabled.',
      ignored: 'the server speaks HTTP/1.1 only',
    },
    permitPortSharing: {
      name: 'permit-port-sharing',
      type: 'bool',
      default: false,
      help: 'If true, SO_REUSEPORT will be used when binding the port, which allows more than one instance to bind on the same address and port.',
      ignored: 'SO_REUSEPORT is not available on Node.js 20',
    },
    permitAddressSharing: {
      name: 'permit-address-sharing',
      type: 'bool',
      default: false,
      help: 'If true, SO_REUSEADDR will be used when binding the port. This allows binding to wildcard IPs like 0.0.0.0 and specific IPs in parallel, and it avoids waiting for the kernel to release sockets in TIME_WAIT state.',
      ignored: 'Node.js always binds with SO_REUSEADDR',
    },
  },
  {
    validate(values) {
      const errors: string[] = [];
      if ((values.tlsCertFile === '') !== (values.tlsPrivateKeyFile === '')) {
        errors.push('--tls-cert-file and --tls-private-key-file must be given together');
      }
      // Upstream refuses unknown cipher suites when it applies the serving options (not with --secure-port=0).
      if (values.securePort > 0) {
        try {
          nodeTlsOptions({ cipherSuites: values.tlsCipherSuites, curvePreferences: values.tlsCurvePreferences });
        } catch (error) {
          if (!(error instanceof TlsOptionsError)) throw error;
          errors.push(error.message);
        }
      }
      return errors;
    },
  },
);
