import { describe, expect, it } from 'vitest';
import { DEFAULT_CONTROLLER_CONFIG } from '../../controllers/controller.js';
import { buildControllerConfig } from './build-controller-config.js';
import { CLOUD_CONTROLLER_MANAGER_FLAG_GROUPS, type CloudControllerManagerOptions } from './cloud-controller-manager-flags.js';
import { defineFlagGroup, type FlagDefinition } from './flag-definition.js';
import { FlagError } from './flag-error.js';
import { parseCommandLine, type CommandLine } from './parse-command-line.js';

function run(argv: string[], settings: Parameters<typeof parseCommandLine>[1] = {}): Extract<CommandLine, { kind: 'run' }> {
  const result = parseCommandLine(argv, settings);
  if (result.kind !== 'run') throw new Error(`expected run, got ${result.kind}`);
  return result;
}

function flagError(argv: string[]): FlagError {
  try {
    parseCommandLine(argv);
  } catch (error) {
    if (error instanceof FlagError) return error;
    throw error;
  }
  throw new Error('expected a FlagError');
}

/** Upstream TestDefaultFlags, for the options this runtime has. */
const EXPECTED_DEFAULTS: CloudControllerManagerOptions = {
  profiling: true,
  contentionProfiling: false,
  enableLeaderMigration: false,
  leaderMigrationConfig: '',
  minResyncPeriodMs: 12 * 3_600_000,
  kubeApiContentType: 'application/vnd.kubernetes.protobuf',
  kubeApiQps: 20,
  kubeApiBurst: 30,
  controllerStartIntervalMs: 0,
  controllers: ['*'],
  leaderElect: true,
  leaderElectLeaseDurationMs: 15_000,
  leaderElectRenewDeadlineMs: 10_000,
  leaderElectRetryPeriodMs: 2_000,
  leaderElectResourceLock: 'leases',
  leaderElectResourceName: 'cloud-controller-manager',
  leaderElectResourceNamespace: 'kube-system',
  cloudProvider: '',
  cloudConfig: '',
  externalCloudVolumePlugin: '',
  useServiceAccountCredentials: false,
  allowUntaggedCloud: false,
  routeReconciliationPeriodMs: 10_000,
  nodeMonitorPeriodMs: 5_000,
  clusterName: 'kubernetes',
  clusterCidr: '',
  allocateNodeCidrs: false,
  cidrAllocatorType: 'RangeAllocator',
  configureCloudRoutes: true,
  nodeSyncPeriodMs: 0,
  featureGates: [],
  concurrentNodeSyncs: 1,
  concurrentNodeStatusUpdates: 0,
  concurrentServiceSyncs: 1,
  webhooks: [],
  webhookBindAddress: '0.0.0.0',
  webhookSecurePort: 10260,
  webhookCertDir: '',
  webhookTlsCertFile: '',
  webhookTlsPrivateKeyFile: '',
  webhookTlsCipherSuites: [],
  webhookTlsCurvePreferences: [],
  webhookTlsMinVersion: '',
  webhookTlsSniCertKey: [],
  webhookDisableHttp2Serving: false,
  bindAddress: '0.0.0.0',
  securePort: 10258,
  certDir: '',
  tlsCertFile: '',
  tlsPrivateKeyFile: '',
  tlsMinVersion: '',
  tlsCipherSuites: [],
  tlsCurvePreferences: [],
  tlsSniCertKey: [],
  http2MaxStreamsPerConnection: 0,
  disableHttp2Serving: false,
  permitPortSharing: false,
  permitAddressSharing: false,
  authenticationKubeconfig: '',
  authenticationSkipLookup: false,
  authenticationTokenWebhookCacheTtlMs: 10_000,
  authenticationTolerateLookupFailure: false,
  clientCaFile: '',
  requestheaderClientCaFile: '',
  requestheaderAllowedNames: [],
  requestheaderUsernameHeaders: ['x-remote-user'],
  requestheaderUidHeaders: [],
  requestheaderGroupHeaders: ['x-remote-group'],
  requestheaderExtraHeadersPrefix: ['x-remote-extra-'],
  authorizationKubeconfig: '',
  authorizationAlwaysAllowPaths: ['/healthz', '/readyz', '/livez'],
  authorizationWebhookCacheAuthorizedTtlMs: 10_000,
  authorizationWebhookCacheUnauthorizedTtlMs: 10_000,
  master: '',
  kubeconfig: '',
  nodeStatusUpdateFrequencyMs: 300_000,
  version: 'false',
  help: false,
  verbosity: 0,
  loggingFormat: 'text',
  vmodule: [],
  logFlushFrequencyMs: 5_000,
  logJsonSplitStream: false,
  logJsonInfoBufferSize: '0',
  logTextSplitStream: false,
  logTextInfoBufferSize: '0',
};

describe('defaults (upstream TestDefaultFlags)', () => {
  it('gives every flag its upstream default', () => {
    expect(run([]).options).toEqual(EXPECTED_DEFAULTS);
  });

  it('builds the default controller config', () => {
    expect(buildControllerConfig(run([]).options)).toEqual(DEFAULT_CONTROLLER_CONFIG);
  });

  it('lets a provider bin set the default cloud provider', () => {
    expect(run([], { defaultCloudProvider: 'aws' }).options.cloudProvider).toBe('aws');
    expect(run(['--cloud-provider=gce'], { defaultCloudProvider: 'aws' }).options.cloudProvider).toBe('gce');
  });
});

/** Upstream TestAddFlags: every supported flag set to a non-default value, in both syntaxes. */
const EVERY_FLAG: [string, string, Partial<CloudControllerManagerOptions>][] = [
  ['cloud-provider', 'gce', { cloudProvider: 'gce' }],
  ['cloud-config', '/cloud-config', { cloudConfig: '/cloud-config' }],
  ['kubeconfig', '/kubeconfig', { kubeconfig: '/kubeconfig' }],
  ['master', 'https://192.168.4.20', { master: 'https://192.168.4.20' }],
  ['controllers', 'foo,bar', { controllers: ['foo', 'bar'] }],
  ['leader-elect', 'false', { leaderElect: false }],
  ['leader-elect-lease-duration', '30s', { leaderElectLeaseDurationMs: 30_000 }],
  ['leader-elect-renew-deadline', '15s', { leaderElectRenewDeadlineMs: 15_000 }],
  ['leader-elect-retry-period', '5s', { leaderElectRetryPeriodMs: 5_000 }],
  ['leader-elect-resource-lock', 'configmap', { leaderElectResourceLock: 'configmap' }],
  ['leader-elect-resource-name', 'my-ccm', { leaderElectResourceName: 'my-ccm' }],
  ['leader-elect-resource-namespace', 'ccm', { leaderElectResourceNamespace: 'ccm' }],
  ['cluster-name', 'k8s', { clusterName: 'k8s' }],
  ['cluster-cidr', '1.2.3.4/24', { clusterCidr: '1.2.3.4/24' }],
  ['configure-cloud-routes', 'false', { configureCloudRoutes: false }],
  ['allocate-node-cidrs', 'true', { allocateNodeCidrs: true }],
  ['cidr-allocator-type', 'CloudAllocator', { cidrAllocatorType: 'CloudAllocator' }],
  ['node-monitor-period', '10s', { nodeMonitorPeriodMs: 10_000 }],
  ['node-status-update-frequency', '10m', { nodeStatusUpdateFrequencyMs: 600_000 }],
  ['concurrent-service-syncs', '5', { concurrentServiceSyncs: 5 }],
  ['concurrent-node-syncs', '5', { concurrentNodeSyncs: 5 }],
  ['concurrent-node-status-updates', '3', { concurrentNodeStatusUpdates: 3 }],
  ['route-reconciliation-period', '30s', { routeReconciliationPeriodMs: 30_000 }],
  ['min-resync-period', '100m', { minResyncPeriodMs: 6_000_000 }],
  ['kube-api-qps', '50.5', { kubeApiQps: 50.5 }],
  ['kube-api-burst', '100', { kubeApiBurst: 100 }],
  ['kube-api-content-type', 'application/json', { kubeApiContentType: 'application/json' }],
  ['controller-start-interval', '2m', { controllerStartIntervalMs: 120_000 }],
  ['secure-port', '10001', { securePort: 10001 }],
  ['bind-address', '192.168.4.10', { bindAddress: '192.168.4.10' }],
  ['cert-dir', '/a/b/c', { certDir: '/a/b/c' }],
  ['tls-cert-file', '/tls.crt', { tlsCertFile: '/tls.crt' }],
  ['tls-private-key-file', '/tls.key', { tlsPrivateKeyFile: '/tls.key' }],
  ['tls-min-version', 'VersionTLS13', { tlsMinVersion: 'VersionTLS13' }],
  ['use-service-account-credentials', 'true', { useServiceAccountCredentials: true }],
  ['allow-untagged-cloud', 'true', { allowUntaggedCloud: true }],
  ['node-sync-period', '30s', { nodeSyncPeriodMs: 30_000 }],
  ['external-cloud-volume-plugin', 'gce', { externalCloudVolumePlugin: 'gce' }],
  ['profiling', 'false', { profiling: false }],
  ['contention-profiling', 'true', { contentionProfiling: true }],
  ['enable-leader-migration', 'true', { enableLeaderMigration: true }],
  ['leader-migration-config', '/migration.yaml', { leaderMigrationConfig: '/migration.yaml' }],
  ['v', '4', { verbosity: 4 }],
  ['logging-format', 'json', { loggingFormat: 'json' }],
  ['feature-gates', 'CloudControllerManagerWebhook=true', { featureGates: ['CloudControllerManagerWebhook=true'] }],
  ['authentication-kubeconfig', '/auth.kubeconfig', { authenticationKubeconfig: '/auth.kubeconfig' }],
  ['authentication-skip-lookup', 'true', { authenticationSkipLookup: true }],
  ['authentication-token-webhook-cache-ttl', '10m', { authenticationTokenWebhookCacheTtlMs: 600_000 }],
  ['authentication-tolerate-lookup-failure', 'true', { authenticationTolerateLookupFailure: true }],
  ['client-ca-file', '/ca.crt', { clientCaFile: '/ca.crt' }],
  ['requestheader-client-ca-file', '/rh.crt', { requestheaderClientCaFile: '/rh.crt' }],
  ['requestheader-allowed-names', 'front-proxy', { requestheaderAllowedNames: ['front-proxy'] }],
  ['requestheader-username-headers', 'x-user', { requestheaderUsernameHeaders: ['x-user'] }],
  ['requestheader-uid-headers', 'x-uid', { requestheaderUidHeaders: ['x-uid'] }],
  ['requestheader-group-headers', 'x-group', { requestheaderGroupHeaders: ['x-group'] }],
  ['requestheader-extra-headers-prefix', 'x-extra-', { requestheaderExtraHeadersPrefix: ['x-extra-'] }],
  ['authorization-kubeconfig', '/authz.kubeconfig', { authorizationKubeconfig: '/authz.kubeconfig' }],
  ['authorization-always-allow-paths', '', { authorizationAlwaysAllowPaths: [] }],
  ['authorization-webhook-cache-authorized-ttl', '1m', { authorizationWebhookCacheAuthorizedTtlMs: 60_000 }],
  ['authorization-webhook-cache-unauthorized-ttl', '1m', { authorizationWebhookCacheUnauthorizedTtlMs: 60_000 }],
  ['webhooks', 'foo,-bar', { webhooks: ['foo', '-bar'] }],
  ['webhook-bind-address', '192.168.4.11', { webhookBindAddress: '192.168.4.11' }],
  ['webhook-secure-port', '10300', { webhookSecurePort: 10300 }],
  ['webhook-cert-dir', '/webhook', { webhookCertDir: '/webhook' }],
  ['tls-cipher-suites', 'TLS_AES_128_GCM_SHA256', { tlsCipherSuites: ['TLS_AES_128_GCM_SHA256'] }],
  ['tls-sni-cert-key', '/a.crt,/a.key', { tlsSniCertKey: ['/a.crt', '/a.key'] }],
  ['http2-max-streams-per-connection', '47', { http2MaxStreamsPerConnection: 47 }],
  ['permit-port-sharing', 'true', { permitPortSharing: true }],
  ['vmodule', 'foo=2', { vmodule: ['foo=2'] }],
  ['log-flush-frequency', '1s', { logFlushFrequencyMs: 1_000 }],
];

describe('every flag (upstream TestAddFlags)', () => {
  it.each(EVERY_FLAG)('--%s=%s', (name, value, expected) => {
    const { options, flags } = run([`--${name}=${value}`]);
    expect(options).toEqual({ ...EXPECTED_DEFAULTS, ...expected });
    expect(flags.isSet(name)).toBe(true);
  });

  it.each(EVERY_FLAG.filter(([name]) => !['leader-elect', 'configure-cloud-routes', 'allocate-node-cidrs', 'use-service-account-credentials', 'allow-untagged-cloud', 'profiling', 'contention-profiling', 'enable-leader-migration', 'authentication-skip-lookup', 'authentication-tolerate-lookup-failure', 'permit-port-sharing'].includes(name)))(
    '--%s %s (value as the next argument)',
    (name, value, expected) => {
      expect(run([`--${name}`, value]).options).toEqual({ ...EXPECTED_DEFAULTS, ...expected });
    },
  );

  it('parses all of them together', () => {
    const argv = EVERY_FLAG.map(([name, value]) => `--${name}=${value}`);
    const expected = Object.assign({ ...EXPECTED_DEFAULTS }, ...EVERY_FLAG.map(([, , values]) => values)) as CloudControllerManagerOptions;
    expect(run(argv).options).toEqual(expected);
  });

  it('covers every core flag that is not an alias of a covered one', () => {
    const covered = new Set(EVERY_FLAG.map(([name]) => name));
    const uncovered = CLOUD_CONTROLLER_MANAGER_FLAG_GROUPS.flatMap((group) => Object.values(group.flags) as FlagDefinition[])
      .map((definition) => definition.name)
      .filter((name) => !covered.has(name));
    // Covered by dedicated tests below (help, version) or of the same kind as a covered flag.
    expect(uncovered.sort()).toEqual([
      'disable-http2-serving',
      'help',
      'log-json-info-buffer-size',
      'log-json-split-stream',
      'log-text-info-buffer-size',
      'log-text-split-stream',
      'permit-address-sharing',
      'tls-curve-preferences',
      'version',
      'webhook-disable-http2-serving',
      'webhook-tls-cert-file',
      'webhook-tls-cipher-suites',
      'webhook-tls-curve-preferences',
      'webhook-tls-min-version',
      'webhook-tls-private-key-file',
      'webhook-tls-sni-cert-key',
    ]);
  });
});

describe('pflag syntax', () => {
  it.each([
    [['--leader-elect'], { leaderElect: true }],
    [['--leader-elect=false'], { leaderElect: false }],
    [['--leader-elect=F'], { leaderElect: false }],
    [['--leader-elect=0'], { leaderElect: false }],
    [['--configure-cloud-routes=false', '--configure-cloud-routes'], { configureCloudRoutes: true }],
    [['-v', '3'], { verbosity: 3 }],
    [['-v=3'], { verbosity: 3 }],
    [['-v3'], { verbosity: 3 }],
    [['--v=3'], { verbosity: 3 }],
    [['--v', '3'], { verbosity: 3 }],
    [['--controllers=a', '--controllers', 'b,c'], { controllers: ['a', 'b', 'c'] }],
    [['--controllers='], { controllers: [] }],
    [['--controllers=*,-route'], { controllers: ['*', '-route'] }],
    [['--cluster-name=a=b'], { clusterName: 'a=b' }],
    [['--cloud-config', '--not-a-flag-value'], { cloudConfig: '--not-a-flag-value' }],
    [['--cluster-name='], { clusterName: '' }],
    [['--bind-address='], { bindAddress: '' }],
    [['--bind-address=::'], { bindAddress: '::' }],
    [['--kube-api-burst=0x10'], { kubeApiBurst: 16 }],
    [['--cloud-provider=a', '--cloud-provider=b'], { cloudProvider: 'b' }],
    [['--', ''], {}],
  ] as [string[], Partial<CloudControllerManagerOptions>][])('%j', (argv, expected) => {
    expect(run(argv).options).toEqual({ ...EXPECTED_DEFAULTS, ...expected });
  });

  it('reports deprecated flags', () => {
    expect(run(['--node-sync-period=1s', '--allow-untagged-cloud']).flags.warnings).toEqual([
      'Flag --node-sync-period has been deprecated, This flag is currently no-op and will be deleted.',
      'Flag --allow-untagged-cloud has been deprecated, This flag is deprecated and will be removed in a future release. A cluster-id will be required on cloud instances.',
    ]);
  });

  it('recognises help and version', () => {
    expect(parseCommandLine(['--help']).kind).toBe('help');
    expect(parseCommandLine(['-h']).kind).toBe('help');
    expect(parseCommandLine(['--cloud-provider=x', '-h', 'positional']).kind).toBe('help');
    expect(parseCommandLine(['--version'])).toEqual({ kind: 'version', raw: false });
    expect(parseCommandLine(['--version=raw'])).toEqual({ kind: 'version', raw: true });
    expect(parseCommandLine(['--version=false']).kind).toBe('run');
  });
});

describe('flag errors', () => {
  it.each([
    [['--foo'], 'unknown flag: --foo', '--foo', undefined],
    [['--foo=bar'], 'unknown flag: --foo', '--foo', undefined],
    [['-x'], "unknown shorthand flag: 'x' in -x", '-x', undefined],
    [['-vx'], 'invalid argument "x" for "-v, --v" flag: strconv.ParseInt: parsing "x": invalid syntax', '-v, --v', 'x'],
    [['--kube-api-burst=abc'], 'invalid argument "abc" for "--kube-api-burst" flag: strconv.ParseInt: parsing "abc": invalid syntax', '--kube-api-burst', 'abc'],
    [['--kube-api-burst=3000000000'], 'invalid argument "3000000000" for "--kube-api-burst" flag: strconv.ParseInt: parsing "3000000000": value out of range', '--kube-api-burst', '3000000000'],
    [['--kube-api-qps=fast'], 'invalid argument "fast" for "--kube-api-qps" flag: strconv.ParseFloat: parsing "fast": invalid syntax', '--kube-api-qps', 'fast'],
    [['--leader-elect=maybe'], 'invalid argument "maybe" for "--leader-elect" flag: strconv.ParseBool: parsing "maybe": invalid syntax', '--leader-elect', 'maybe'],
    [['--node-monitor-period=5'], 'invalid argument "5" for "--node-monitor-period" flag: time: missing unit in duration "5"', '--node-monitor-period', '5'],
    [['--node-monitor-period', '5x'], 'invalid argument "5x" for "--node-monitor-period" flag: time: unknown unit "x" in duration "5x"', '--node-monitor-period', '5x'],
    [['--bind-address=localhost'], 'invalid argument "localhost" for "--bind-address" flag: failed to parse IP: "localhost"', '--bind-address', 'localhost'],
    [['--logging-format=xml'], 'invalid argument "xml" for "--logging-format" flag: unsupported log format (use text or json)', '--logging-format', 'xml'],
    [['--feature-gates=Foo'], 'invalid argument "Foo" for "--feature-gates" flag: missing bool value for Foo', '--feature-gates', 'Foo'],
    [['--controllers="a'], 'invalid argument "\\"a" for "--controllers" flag: parse error: extraneous or missing " in quoted-field', '--controllers', '"a'],
    [['--secure-port=70000'], 'invalid argument "70000" for "--secure-port" flag: 70000 must be between 0 and 65535, inclusive. 0 for turning off secure port', '--secure-port', '70000'],
    [['--secure-port', '-1'], 'invalid argument "-1" for "--secure-port" flag: -1 must be between 0 and 65535, inclusive. 0 for turning off secure port', '--secure-port', '-1'],
    [['--node-monitor-period=-5s'], 'invalid argument "-5s" for "--node-monitor-period" flag: must be greater than zero (got -5s)', '--node-monitor-period', '-5s'],
    [['--node-monitor-period=0s'], 'invalid argument "0s" for "--node-monitor-period" flag: must be greater than zero (got 0s)', '--node-monitor-period', '0s'],
    [['--node-status-update-frequency=-1m'], 'invalid argument "-1m" for "--node-status-update-frequency" flag: must be greater than zero (got -1m0s)', '--node-status-update-frequency', '-1m'],
    [['--route-reconciliation-period=0'], 'invalid argument "0" for "--route-reconciliation-period" flag: must be greater than zero (got 0s)', '--route-reconciliation-period', '0'],
    [['--controller-start-interval=-1s'], 'invalid argument "-1s" for "--controller-start-interval" flag: cannot be negative (got -1s)', '--controller-start-interval', '-1s'],
    [['--concurrent-node-syncs=0'], 'invalid argument "0" for "--concurrent-node-syncs" flag: must be greater than 0 (got 0)', '--concurrent-node-syncs', '0'],
    [['--concurrent-node-status-updates=-1'], 'invalid argument "-1" for "--concurrent-node-status-updates" flag: must be 0 (use --concurrent-node-syncs) or more (got -1)', '--concurrent-node-status-updates', '-1'],
    [['--cluster-cidr=bad'], 'invalid argument "bad" for "--cluster-cidr" flag: invalid CIDR "bad" in --cluster-cidr', '--cluster-cidr', 'bad'],
    [['--cluster-cidr=10.0.0.0/40'], 'invalid argument "10.0.0.0/40" for "--cluster-cidr" flag: invalid CIDR "10.0.0.0/40" in --cluster-cidr', '--cluster-cidr', '10.0.0.0/40'],
    [
      ['--cluster-cidr=10.0.0.0/16,10.1.0.0/16'],
      'invalid argument "10.0.0.0/16,10.1.0.0/16" for "--cluster-cidr" flag: --cluster-cidr has 2 CIDRs of one IP family: more than one CIDR is only allowed for dual-stack (one IPv4 and one IPv6 CIDR)',
      '--cluster-cidr',
      '10.0.0.0/16,10.1.0.0/16',
    ],
    [['--cloud-provider'], 'flag needs an argument: --cloud-provider', '--cloud-provider', undefined],
    [['-v'], "flag needs an argument: 'v' in -v", '-v', undefined],
    [['---foo'], 'bad flag syntax: ---foo', '---foo', undefined],
    [['--=x'], 'bad flag syntax: --=x', '--=x', undefined],
    [['--version=v1.2.3'], 'invalid argument "v1.2.3" for "--version" flag: use --version, --version=raw or --version=false', '--version', 'v1.2.3'],
    [['extra'], '"cloud-controller-manager" does not take any arguments, got ["extra"]', undefined, undefined],
    [['--leader-elect', 'false'], '"cloud-controller-manager" does not take any arguments, got ["false"]', undefined, undefined],
    [['--', 'a', 'b'], '"cloud-controller-manager" does not take any arguments, got ["a","b"]', undefined, undefined],
  ])('%j', (argv, message, flag, value) => {
    const error = flagError(argv);
    expect(error.message).toBe(message);
    expect(error.flag).toBe(flag);
    expect(error.value).toBe(value);
  });
});

describe('provider flags', () => {
  const providerFlags = defineFlagGroup(
    'sandbox',
    {
      apiEndpoint: { name: 'sandbox-endpoint', type: 'string', default: 'http://127.0.0.1:1', help: 'Endpoint.' },
      retries: { name: 'sandbox-retries', type: 'int', default: 3, help: 'Retries.' },
    },
    { validate: (values) => (values.retries < 0 ? ['--sandbox-retries cannot be negative'] : []) },
  );

  it('parses provider flags through the same registry', () => {
    const { flags } = run(['--sandbox-retries', '5', '--cloud-provider=sandbox'], { additionalFlags: [providerFlags] });
    expect(flags.valuesOf(providerFlags)).toEqual({ apiEndpoint: 'http://127.0.0.1:1', retries: 5 });
    expect(flags.validateGroups()).toEqual([]);
    expect(run(['--sandbox-retries=-1'], { additionalFlags: [providerFlags] }).flags.validateGroups()).toEqual(['--sandbox-retries cannot be negative']);
  });

  it('a stringArray flag (pflag StringArray) takes one entry per use, commas kept', () => {
    const arrays = defineFlagGroup('x', { agents: { name: 'agent', type: 'stringArray', default: [], help: '' } });
    expect(run(['--agent=a,b', '--agent', 'c'], { additionalFlags: [arrays] }).flags.valuesOf(arrays).agents).toEqual(['a,b', 'c']);
    expect(run([], { additionalFlags: [arrays] }).flags.valuesOf(arrays).agents).toEqual([]);
  });

  it('tells a flag given its default value from one given another value', () => {
    const { flags } = run(['--sandbox-retries=3', '--sandbox-endpoint=http://other', '--controllers=*'], { additionalFlags: [providerFlags] });
    expect(flags.isSet('sandbox-retries')).toBe(true);
    expect(flags.differsFromDefault('sandbox-retries')).toBe(false);
    expect(flags.differsFromDefault('sandbox-endpoint')).toBe(true);
    expect(flags.differsFromDefault('controllers')).toBe(false);
    expect(run(['--controllers=*,-route'], {}).flags.differsFromDefault('controllers')).toBe(true);
  });

  it('rejects a provider flag that collides with a core flag', () => {
    const clashing = defineFlagGroup('x', { name: { name: 'cluster-name', type: 'string', default: '', help: '' } });
    expect(() => parseCommandLine([], { additionalFlags: [clashing] })).toThrow('flag --cluster-name is declared twice');
  });
});
