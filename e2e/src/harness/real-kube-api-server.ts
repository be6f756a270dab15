import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { killWithTestRunner } from './ccm-process.js';
import { buildGoBinary, type GoBinary } from './go-binary.js';
import { KubeApiProxy, type RecordedKubeRequest } from './kube-api-proxy.js';

/** e2e/kube-apiserver: the Go module that builds kube-apiserver + etcd of one pinned release. */
export const KUBE_APISERVER_MODULE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'kube-apiserver');

export const KUBE_APISERVER_INSTALL_HINT =
  'install Go >= 1.26 (the machine image has it; `.ci/install-prerequisites` checks it) and let it reach the Go module proxy; the first build takes about 3 minutes, later ones seconds';

/** The files the launcher writes next to the admin kubeconfig (`--info-file`). */
export interface RealKubeApiServerInfo {
  server: string;
  caFile: string;
  clientCaFile: string;
  clientCaKeyFile: string;
  frontProxyCaFile: string;
  frontProxyCaKeyFile: string;
  frontProxyClientCertFile: string;
  frontProxyClientKeyFile: string;
}

export interface RealKubeApiServerOptions {
  /** Write an audit log of the CCM's ServiceAccount requests (default true). */
  auditLog?: boolean;
  /** Users the audit log records (default: the CCM's ServiceAccount). */
  auditUsers?: string[];
  /** Keep every request of the admin proxy (the harness's own requests) in memory. */
  recordAdminRequests?: boolean;
}

let binary: Promise<GoBinary> | undefined;

/** Builds the launcher once per process (Go's cache makes it a relink after the first time). */
export function kubeApiServerBinary(): Promise<GoBinary> {
  binary ??= buildGoBinary({ moduleDirectory: KUBE_APISERVER_MODULE, name: 'kube-apiserver-for-tests', installHint: KUBE_APISERVER_INSTALL_HINT });
  return binary;
}

/** Why the real kube-apiserver cannot run here, or undefined when it can (builds it if needed). */
export async function realKubeApiServerUnavailableReason(): Promise<string | undefined> {
  const built = await kubeApiServerBinary();
  return built.kind === 'unavailable' ? built.reason : undefined;
}

/**
 * A real kube-apiserver (and its etcd) in a child process, on 127.0.0.1 with TLS, Node+RBAC
 * authorization and service-account token signing, plus a plain-HTTP admin proxy for the test
 * client. Everything it writes stays in one temporary folder, removed on close.
 */
export class RealKubeApiServer {
  private closed = false;

  private constructor(
    private readonly child: ChildProcess,
    private readonly exited: Promise<void>,
    readonly directory: string,
    readonly adminKubeconfigPath: string,
    readonly info: RealKubeApiServerInfo,
    readonly auditLogPath: string | undefined,
    readonly logPath: string,
    private readonly adminProxy: KubeApiProxy,
  ) {}

  static async start(options: RealKubeApiServerOptions = {}): Promise<RealKubeApiServer> {
    const built = await kubeApiServerBinary();
    if (built.kind === 'unavailable') throw new Error(`the real kube-apiserver is unavailable: ${built.reason}`);
    const directory = await mkdtemp(join(tmpdir(), 'ccm-kube-apiserver-'));
    const adminKubeconfigPath = join(directory, 'admin.kubeconfig');
    const infoPath = join(directory, 'info.json');
    const logPath = join(directory, 'kube-apiserver.log');
    const auditLogPath = options.auditLog === false ? undefined : join(directory, 'audit.log');
    const args = ['--port', '0', '--kubeconfig', adminKubeconfigPath, '--info-file', infoPath];
    if (auditLogPath !== undefined) args.push('--audit-log', auditLogPath);
    if (options.auditUsers !== undefined) args.push('--audit-users', options.auditUsers.join(','));

    const child = spawn(built.path, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    killWithTestRunner(child);
    const log = createWriteStream(logPath);
    child.stderr!.pipe(log);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      await waitForReadyLine(child, logPath, 120_000);
      const info = JSON.parse(await readFile(infoPath, 'utf8')) as RealKubeApiServerInfo;
      const kubeconfig = parseAdminKubeconfig(await readFile(adminKubeconfigPath, 'utf8'));
      const adminProxy = await KubeApiProxy.start({
        label: 'harness',
        upstream: info.server,
        upstreamCa: kubeconfig.ca,
        upstreamClientCertificate: { cert: kubeconfig.cert, key: kubeconfig.key },
        record: options.recordAdminRequests === true,
      });
      return new RealKubeApiServer(child, exited, directory, adminKubeconfigPath, info, auditLogPath, logPath, adminProxy);
    } catch (error) {
      child.kill('SIGKILL');
      await exited;
      await rm(directory, { recursive: true, force: true });
      throw error;
    }
  }

  /** `https://127.0.0.1:PORT`: the API server itself. */
  get server(): string {
    return this.info.server;
  }

  /** A plain-HTTP URL that forwards with admin credentials (for the harness's test client). */
  get adminUrl(): string {
    return this.adminProxy.url;
  }

  /** The harness's requests through the admin proxy (with `recordAdminRequests`). */
  adminRequests(): RecordedKubeRequest[] {
    return [...this.adminProxy.recorded()];
  }

  /** Forgets the admin requests recorded so far. */
  clearAdminRequests(): void {
    this.adminProxy.clearRecorded();
  }

  /** PEM of the CA that signed the API server's serving certificate. */
  servingCa(): string {
    return readFileSync(this.info.caFile, 'utf8');
  }

  /** The last lines of the API server's own log, for failure messages. */
  logTail(lines = 40): string {
    try {
      return readFileSync(this.logPath, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
    } catch {
      return '(no log)';
    }
  }

  /** SIGTERM (graceful), SIGKILL after 15 s; removes the temporary folder. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.adminProxy.close();
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
    await this.exited;
    clearTimeout(timer);
    await rm(this.directory, { recursive: true, force: true });
  }
}

/** Starts a real kube-apiserver (see RealKubeApiServer). */
export function startRealKubeApiServer(options: RealKubeApiServerOptions = {}): Promise<RealKubeApiServer> {
  return RealKubeApiServer.start(options);
}

function waitForReadyLine(child: ChildProcess, logPath: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    const fail = (message: string) => {
      clearTimeout(timer);
      let tail = '';
      try {
        tail = readFileSync(logPath, 'utf8').trimEnd().split('\n').slice(-10).join('\n');
      } catch {
        // no log yet
      }
      reject(new Error(`${message}${tail ? `; its last log lines:\n${tail}` : ''}`));
    };
    const timer = setTimeout(() => fail(`kube-apiserver-for-tests printed no ready line within ${timeoutMs / 1000}s`), timeoutMs);
    child.stdout!.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
      if (stdout.includes('\n')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code, signal) => fail(`kube-apiserver-for-tests exited (${signal ?? `code ${code}`}) before it was ready`));
  });
}

interface AdminKubeconfig {
  ca: string;
  cert: string;
  key: string;
}

function parseAdminKubeconfig(text: string): AdminKubeconfig {
  const config = parseYaml(text) as {
    clusters: Array<{ cluster: { 'certificate-authority-data': string } }>;
    users: Array<{ user: { 'client-certificate-data': string; 'client-key-data': string } }>;
  };
  const decode = (data: string) => Buffer.from(data, 'base64').toString('utf8');
  return {
    ca: decode(config.clusters[0]!.cluster['certificate-authority-data']),
    cert: decode(config.users[0]!.user['client-certificate-data']),
    key: decode(config.users[0]!.user['client-key-data']),
  };
}
