import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TempDirectory, createTestRegistry, runCommand } from './test-support/command-harness.js';
import { CLOUD_CONTROLLER_MANAGER_FLAG_GROUPS } from './options/cloud-controller-manager-flags.js';
import type { FlagDefinition } from './options/flag-definition.js';
import { parseCommandLine } from './options/parse-command-line.js';

/**
 * Every flag of the upstream cloud-controller-manager command at the pinned upstream commit
 * (docs/testing.md: k8s.io/cloud-provider `46666112f4`, with k8s.io/controller-manager,
 * k8s.io/apiserver and k8s.io/component-base of the same tree), listed from the source of the
 * function that registers it, with a value upstream accepts. An upstream manifest must start
 * with any of them: each is implemented, or accepted with a one-time warning and an "ignored"
 * row in docs/flags.md.
 */
const UPSTREAM_FLAGS: Record<string, ReadonlyArray<readonly [flag: string, value: string | undefined]>> = {
  // k8s.io/controller-manager options/debugging.go DebuggingOptions.AddFlags
  'controller-manager options/debugging.go': [
    ['profiling', 'false'],
    ['contention-profiling', 'true'],
  ],
  // k8s.io/controller-manager pkg/leadermigration/options/options.go LeaderMigrationOptions.AddFlags
  'controller-manager pkg/leadermigration/options/options.go': [
    ['enable-leader-migration', 'true'],
    ['leader-migration-config', ''],
  ],
  // k8s.io/controller-manager options/generic.go GenericControllerManagerConfigurationOptions.AddFlags
  // (+ component-base config/options BindLeaderElectionFlags)
  'controller-manager options/generic.go': [
    ['min-resync-period', '6h'],
    ['kube-api-content-type', 'application/json'],
    ['kube-api-qps', '50'],
    ['kube-api-burst', '100'],
    ['controller-start-interval', '1s'],
    ['controllers', '*,-route'],
    ['leader-elect', 'true'],
    ['leader-elect-lease-duration', '30s'],
    ['leader-elect-renew-deadline', '20s'],
    ['leader-elect-retry-period', '4s'],
    ['leader-elect-resource-lock', 'leases'],
    ['leader-elect-resource-name', 'cloud-controller-manager'],
    ['leader-elect-resource-namespace', 'kube-system'],
  ],
  // k8s.io/cloud-provider options/kubecloudshared.go KubeCloudSharedOptions.AddFlags (+ cloudprovider.go)
  'cloud-provider options/kubecloudshared.go': [
    ['cloud-provider', 'test'],
    ['cloud-config', ''],
    ['external-cloud-volume-plugin', 'aws'],
    ['use-service-account-credentials', 'false'],
    ['allow-untagged-cloud', 'true'],
    ['route-reconciliation-period', '10s'],
    ['node-monitor-period', '5s'],
    ['cluster-name', 'kubernetes'],
    ['cluster-cidr', '10.244.0.0/16'],
    ['allocate-node-cidrs', 'false'],
    ['cidr-allocator-type', 'RangeAllocator'],
    ['configure-cloud-routes', 'true'],
    ['node-sync-period', '0s'],
  ],
  // k8s.io/cloud-provider options/nodecontroller.go, servicecontroller.go
  'cloud-provider options/nodecontroller.go, servicecontroller.go': [
    ['concurrent-node-syncs', '1'],
    ['concurrent-node-status-updates', '2'],
    ['concurrent-service-syncs', '2'],
  ],
  // k8s.io/cloud-provider options/webhook.go WebhookOptions.AddFlags and WebhookServingOptions.AddFlags
  'cloud-provider options/webhook.go': [
    ['webhooks', '*'],
    ['webhook-bind-address', '0.0.0.0'],
    ['webhook-secure-port', '10260'],
    ['webhook-disable-http2-serving', 'false'],
    ['webhook-cert-dir', '/var/run/webhook'],
    ['webhook-tls-cert-file', '/etc/tls/webhook.crt'],
    ['webhook-tls-private-key-file', '/etc/tls/webhook.key'],
    ['webhook-tls-cipher-suites', 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256'],
    ['webhook-tls-curve-preferences', 'X25519'],
    ['webhook-tls-min-version', 'VersionTLS12'],
    ['webhook-tls-sni-cert-key', '/etc/tls/a.crt,/etc/tls/a.key:a.example.com'],
  ],
  // k8s.io/apiserver pkg/server/options/serving.go SecureServingOptions.AddFlags
  'apiserver options/serving.go': [
    ['bind-address', '0.0.0.0'],
    ['secure-port', '10258'],
    ['cert-dir', ''],
    ['tls-cert-file', ''],
    ['tls-private-key-file', ''],
    ['tls-cipher-suites', 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256'],
    ['tls-curve-preferences', 'X25519'],
    ['tls-min-version', 'VersionTLS12'],
    ['tls-sni-cert-key', '/etc/tls/a.crt,/etc/tls/a.key:a.example.com'],
    ['http2-max-streams-per-connection', '100'],
    ['permit-port-sharing', 'false'],
    ['permit-address-sharing', 'false'],
    ['disable-http2-serving', 'false'],
  ],
  // k8s.io/apiserver pkg/server/options/authentication.go DelegatingAuthenticationOptions.AddFlags
  // (+ ClientCertAuthenticationOptions, RequestHeaderAuthenticationOptions)
  'apiserver options/authentication.go': [
    ['authentication-kubeconfig', '/etc/kubernetes/ccm.conf'],
    ['authentication-skip-lookup', 'false'],
    ['authentication-token-webhook-cache-ttl', '10s'],
    ['authentication-tolerate-lookup-failure', 'false'],
    ['client-ca-file', '/etc/kubernetes/pki/ca.crt'],
    ['requestheader-client-ca-file', '/etc/kubernetes/pki/front-proxy-ca.crt'],
    ['requestheader-allowed-names', 'front-proxy-client'],
    ['requestheader-username-headers', 'X-Remote-User'],
    ['requestheader-uid-headers', 'X-Remote-Uid'],
    ['requestheader-group-headers', 'X-Remote-Group'],
    ['requestheader-extra-headers-prefix', 'X-Remote-Extra-'],
  ],
  // k8s.io/apiserver pkg/server/options/authorization.go DelegatingAuthorizationOptions.AddFlags
  'apiserver options/authorization.go': [
    ['authorization-kubeconfig', '/etc/kubernetes/ccm.conf'],
    ['authorization-always-allow-paths', '/healthz,/readyz,/livez,/metrics'],
    ['authorization-webhook-cache-authorized-ttl', '10s'],
    ['authorization-webhook-cache-unauthorized-ttl', '10s'],
  ],
  // k8s.io/cloud-provider options/options.go CloudControllerManagerOptions.Flags: "misc" and the feature gates
  'cloud-provider options/options.go': [
    ['master', 'https://127.0.0.1:6443'],
    ['kubeconfig', '/etc/kubernetes/ccm.conf'],
    ['node-status-update-frequency', '5m'],
    ['feature-gates', 'CloudControllerManagerWebhook=false'],
  ],
  // k8s.io/cloud-provider app/controllermanager.go: verflag.AddFlags, logsapi.AddFlags,
  // globalflag.AddGlobalFlags (the klog flags removed by KEP-2845 are gone upstream too)
  'cloud-provider app/controllermanager.go global flags': [
    ['version', undefined],
    ['help', undefined],
    ['v', '2'],
    ['vmodule', 'service*=4'],
    ['logging-format', 'text'],
    ['log-flush-frequency', '5s'],
    ['log-json-split-stream', 'false'],
    ['log-json-info-buffer-size', '0'],
    ['log-text-split-stream', 'false'],
    ['log-text-info-buffer-size', '0'],
  ],
};

const ALL_UPSTREAM = Object.entries(UPSTREAM_FLAGS).flatMap(([source, flags]) => flags.map(([flag, value]) => ({ source, flag, value })));

const OURS = new Map<string, FlagDefinition>(CLOUD_CONTROLLER_MANAGER_FLAG_GROUPS.flatMap((group) => Object.values(group.flags).map((definition) => [definition.name, definition] as const)));

const FLAGS_DOC = readFileSync(fileURLToPath(new URL('../../../../docs/flags.md', import.meta.url)), 'utf8');

function docRow(flag: string): string | undefined {
  return FLAGS_DOC.split('\n').find((line) => line.startsWith('| `') && line.split('|')[1]?.includes(`--${flag}\``));
}

describe('every upstream cloud-controller-manager flag is accepted', () => {
  it('lists each upstream flag once', () => {
    const names = ALL_UPSTREAM.map(({ flag }) => flag);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(ALL_UPSTREAM.filter(({ value }) => value !== undefined))('--$flag=$value ($source) parses', ({ flag, value }) => {
    const result = parseCommandLine([`--${flag}=${value}`, '--cloud-provider=test']);
    expect(result.kind).toBe('run');
    if (result.kind === 'run') expect(result.flags.setFlags()).toContain(flag);
  });

  it.each(['help', 'version'])('--%s ends the command as upstream', (flag) => {
    expect(parseCommandLine([`--${flag}`]).kind).toBe(flag);
  });

  it.each(ALL_UPSTREAM)('--$flag is implemented, or documented as ignored in docs/flags.md', ({ flag }) => {
    const definition = OURS.get(flag);
    expect(definition, `--${flag} is in the flag registry`).toBeDefined();
    if (flag === 'help' || flag === 'version') return;
    const row = docRow(flag);
    expect(row, `docs/flags.md has a row for --${flag}`).toBeDefined();
    if (definition?.ignored !== undefined) expect(row).toContain('| ignored: ');
    else expect(row).not.toContain('| ignored: ');
  });
});

describe('ignored upstream flags: one warning each when set away from the default', () => {
  const directory = new TempDirectory();
  beforeEach(() => directory.create());
  afterEach(() => directory.remove());

  it('logs exactly one line for every ignored upstream flag set to another value than its default, none for the default, and starts', async () => {
    const ignored = ALL_UPSTREAM.filter(({ flag, value }) => value !== undefined && OURS.get(flag)?.ignored !== undefined);
    const parsed = parseCommandLine(['--cloud-provider=test', ...ignored.map(({ flag, value }) => `--${flag}=${value}`)]);
    if (parsed.kind !== 'run') throw new Error(parsed.kind);
    const changed = new Set(ignored.filter(({ flag }) => parsed.flags.differsFromDefault(flag)).map(({ flag }) => flag));
    expect(changed.size).toBeGreaterThan(0);
    expect(changed.size, 'some ignored flags are given their default value').toBeLessThan(ignored.length);
    const kubeconfig = await directory.kubeconfig();
    const controller = new AbortController();
    controller.abort();
    const result = await runCommand(
      ['--cloud-provider=test', `--kubeconfig=${kubeconfig}`, '--secure-port=0', '--leader-elect=false', ...ignored.map(({ flag, value }) => `--${flag}=${value}`)],
      { signal: controller.signal, registry: createTestRegistry() },
    );
    expect(result.code, result.stderr).toBe(0);
    for (const { flag } of ignored) {
      const mentions = result.stderr.split('\n').filter((line) => line.includes(`Flag --${flag} is accepted for compatibility but has no effect`));
      expect(mentions, `--${flag}`).toHaveLength(changed.has(flag) ? 1 : 0);
    }
  });
});
