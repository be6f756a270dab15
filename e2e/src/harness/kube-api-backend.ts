import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startKubeEmulator } from '@ccm/kube-emulator';
import { KubeApiProxy, type KubeApiProxyObserver, type RecordedKubeRequest } from './kube-api-proxy.js';
import type { KubeApiKind } from './kube-api-selection.js';
import { KubeTestClient } from './kube-test-client.js';
import { applyOverlay, CCM_SERVICE_ACCOUNT, readAuditLog, renderOverlay, rulesBoundToServiceAccount, type AuditEvent, type BoundRule } from './rbac-usage.js';
import { RealKubeApiServer } from './real-kube-api-server.js';

export type KubeEmulator = Awaited<ReturnType<typeof startKubeEmulator>>;

/** The API server under a TestCluster, whichever it is. */
export interface KubeApiBackend {
  readonly kind: KubeApiKind;
  /** Plain-HTTP URL with full rights, for the harness's test client. */
  readonly testClientUrl: string;
  /** Writes the kubeconfig the CCM runs with (its own ServiceAccount on the real server). */
  writeCcmKubeconfig(path: string): Promise<void>;
  /** Requests recorded through the proxies (real server with `recordRequests`), oldest first. */
  recordedRequests(): RecordedKubeRequest[];
  /** The RBAC rules bound to the CCM and its audited requests (real server only). */
  rbacAudit(): Promise<{ rules: BoundRule[]; events: AuditEvent[] } | undefined>;
  /** Extra context for failure messages. */
  describe(): string;
  close(): Promise<void>;
}

export interface RealBackendOptions {
  /** `manifests/<overlay>` is applied; the CCM gets a token of its ServiceAccount. */
  manifestsOverlay: string;
  /** Record every request of the CCM and of the harness (for the emulator replay test). */
  recordRequests?: boolean;
  /** Told of every request of the CCM (the benchmark counts them). */
  ccmObserver?: KubeApiProxyObserver;
  /** Audit the CCM's requests (default true; the benchmark turns it off). */
  auditLog?: boolean;
}

// From src/harness and dist/harness alike: the fixtures stay in the sources.
const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'harness', 'test-fixtures');

/** @ccm/kube-emulator over HTTP: the CCM and the harness both have full rights. */
export class EmulatorBackend implements KubeApiBackend {
  readonly kind = 'emulator' as const;

  private constructor(readonly emulator: KubeEmulator) {}

  static async start(): Promise<EmulatorBackend> {
    const emulator = await startKubeEmulator({ host: '127.0.0.1', port: 0 });
    const backend = new EmulatorBackend(emulator);
    const client = new KubeTestClient(emulator.url);
    await client.ensureNamespace('default');
    await client.ensureNamespace('kube-system');
    return backend;
  }

  get testClientUrl(): string {
    return this.emulator.url;
  }

  writeCcmKubeconfig(path: string): Promise<void> {
    return this.emulator.writeKubeconfig(path);
  }

  recordedRequests(): RecordedKubeRequest[] {
    return [];
  }

  async rbacAudit(): Promise<undefined> {
    return undefined;
  }

  describe(): string {
    return `API server: @ccm/kube-emulator at ${this.emulator.url}`;
  }

  close(): Promise<void> {
    return this.emulator.close();
  }
}

/**
 * The real kube-apiserver: the overlay's manifests applied with kubectl, the CCM running with a
 * token of the `cloud-controller-manager` ServiceAccount (never as admin), optionally through a
 * recording TLS proxy.
 */
export class RealBackend implements KubeApiBackend {
  readonly kind = 'real' as const;

  private constructor(
    readonly server: RealKubeApiServer,
    private readonly token: string,
    private readonly rules: BoundRule[],
    private readonly ccmProxy: KubeApiProxy | undefined,
  ) {}

  static async start(options: RealBackendOptions): Promise<RealBackend> {
    const server = await RealKubeApiServer.start({ auditLog: options.auditLog ?? true, recordAdminRequests: options.recordRequests === true });
    try {
      await applyOverlay(server.adminKubeconfigPath, options.manifestsOverlay);
      const rules = rulesBoundToServiceAccount(await renderOverlay(options.manifestsOverlay));
      // One day: the suite never runs that long.
      const token = await new KubeTestClient(server.adminUrl).requestServiceAccountToken(CCM_SERVICE_ACCOUNT.namespace, CCM_SERVICE_ACCOUNT.name, 86_400);
      // The set-up (the token request) is the harness's business, not a scenario's.
      server.clearAdminRequests();
      let ccmProxy: KubeApiProxy | undefined;
      if (options.recordRequests || options.ccmObserver) {
        const serveTls = { cert: readFileSync(join(FIXTURES, 'localhost-test-only.crt'), 'utf8'), key: readFileSync(join(FIXTURES, 'localhost-test-only.key'), 'utf8') };
        ccmProxy = await KubeApiProxy.start({
          label: 'ccm',
          upstream: server.server,
          upstreamCa: server.servingCa(),
          serveTls,
          record: options.recordRequests === true,
          ...(options.ccmObserver ? { observer: options.ccmObserver } : {}),
        });
      }
      return new RealBackend(server, token, rules, ccmProxy);
    } catch (error) {
      await server.close();
      throw error;
    }
  }

  get testClientUrl(): string {
    return this.server.adminUrl;
  }

  async writeCcmKubeconfig(path: string): Promise<void> {
    const serverUrl = this.ccmProxy?.url ?? this.server.server;
    const ca = this.ccmProxy ? readFileSync(join(FIXTURES, 'localhost-test-only.crt'), 'utf8') : this.server.servingCa();
    const text = [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: kube-apiserver',
      '  cluster:',
      `    server: ${serverUrl}`,
      `    certificate-authority-data: ${Buffer.from(ca).toString('base64')}`,
      'users:',
      `- name: ${CCM_SERVICE_ACCOUNT.name}`,
      '  user:',
      `    token: ${this.token}`,
      'contexts:',
      `- name: ${CCM_SERVICE_ACCOUNT.name}`,
      '  context:',
      '    cluster: kube-apiserver',
      `    user: ${CCM_SERVICE_ACCOUNT.name}`,
      `current-context: ${CCM_SERVICE_ACCOUNT.name}`,
      '',
    ].join('\n');
    await writeFile(path, text, { mode: 0o600 });
  }

  recordedRequests(): RecordedKubeRequest[] {
    return [...this.server.adminRequests(), ...(this.ccmProxy?.recorded() ?? [])].sort((left, right) => left.sequence - right.sequence);
  }

  async rbacAudit(): Promise<{ rules: BoundRule[]; events: AuditEvent[] }> {
    return { rules: this.rules, events: this.server.auditLogPath ? await readAuditLog(this.server.auditLogPath) : [] };
  }

  describe(): string {
    return `API server: real kube-apiserver at ${this.server.server}; its last log lines:\n${this.server.logTail(15)}`;
  }

  async close(): Promise<void> {
    await this.ccmProxy?.close();
    await this.server.close();
  }
}
