import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startKubeEmulator } from '@ccm/kube-emulator';
import type { CcmProcessSpec } from '../conformance/provider-driver.js';
import { commonCcmFlags } from './ccm-flags.js';
import { fetchCcmEndpoint } from './ccm-endpoints.js';
import { SpawnedProcess } from './ccm-process.js';
import { findFreePort } from './free-port.js';
import { KubeTestClient } from './kube-test-client.js';
import { waitFor, type WaitResult } from './wait-for.js';

export type KubeEmulator = Awaited<ReturnType<typeof startKubeEmulator>>;

/** Default bound of every wait in the suite. */
export const DEFAULT_WAIT_MS = 20_000;

/** A CCM child process started by a TestCluster. */
export class CcmInstance {
  /** False once the test stopped or killed it on purpose. */
  expectedRunning = true;

  constructor(
    readonly process: SpawnedProcess,
    readonly securePort: number,
  ) {}

  get label(): string {
    return this.process.label;
  }

  /** SIGTERM then SIGKILL; the process is no longer expected to run. */
  async stop(timeoutMs = 5_000): Promise<void> {
    this.expectedRunning = false;
    await this.process.stop(timeoutMs);
  }

  /** SIGKILL: dies at once, without releasing anything (as a crashed or evicted pod). */
  async kill(): Promise<void> {
    this.expectedRunning = false;
    this.process.signal('SIGKILL');
    await this.process.waitForExit();
  }

  healthz(): Promise<{ status: number; body: string }> {
    return fetchCcmEndpoint(this.securePort, '/healthz');
  }

  metrics(): Promise<{ status: number; body: string }> {
    return fetchCcmEndpoint(this.securePort, '/metrics');
  }
}

export interface StartCcmOptions {
  label?: string;
  /** Flags appended after the common ones (they win when a flag repeats). */
  extraFlags?: string[];
  /** Wait until /healthz answers 200 (default true). */
  waitUntilHealthy?: boolean;
}

/**
 * One Kubernetes API (the in-process emulator, served over HTTP like a real apiserver), a
 * kubeconfig for it, a test client, and the CCM processes started against it.
 */
export class TestCluster {
  readonly client: KubeTestClient;
  private readonly instances: CcmInstance[] = [];
  private closed = false;

  private constructor(
    readonly emulator: KubeEmulator,
    readonly kubeconfigPath: string,
    private readonly workDirectory: string,
  ) {
    this.client = new KubeTestClient(emulator.url);
  }

  static async start(): Promise<TestCluster> {
    const workDirectory = await mkdtemp(join(tmpdir(), 'ccm-e2e-'));
    const emulator = await startKubeEmulator({ host: '127.0.0.1', port: 0 });
    const kubeconfigPath = join(workDirectory, 'kubeconfig.yaml');
    await emulator.writeKubeconfig(kubeconfigPath);
    const cluster = new TestCluster(emulator, kubeconfigPath, workDirectory);
    await cluster.client.ensureNamespace('default');
    await cluster.client.ensureNamespace('kube-system');
    return cluster;
  }

  /** A scratch directory removed on close (for cloud configs and the like). */
  get directory(): string {
    return this.workDirectory;
  }

  ccmInstances(): readonly CcmInstance[] {
    return this.instances;
  }

  /** Starts a CCM with the driver's command plus the common flags, and waits for /healthz. */
  async startCcm(spec: CcmProcessSpec, options: StartCcmOptions = {}): Promise<CcmInstance> {
    const securePort = await findFreePort();
    const label = options.label ?? `ccm-${this.instances.length + 1}`;
    const process = SpawnedProcess.start({
      label,
      spec,
      extraArgs: [...commonCcmFlags({ kubeconfigPath: this.kubeconfigPath, securePort }), ...(options.extraFlags ?? [])],
    });
    const instance = new CcmInstance(process, securePort);
    this.instances.push(instance);
    if (options.waitUntilHealthy ?? true) {
      await this.waitFor(
        `${label} to serve /healthz with 200 on port ${securePort}`,
        async (observe) => {
          const response = await instance.healthz();
          observe(`HTTP ${response.status}: ${response.body.slice(0, 500)}`);
          return response.status === 200;
        },
        DEFAULT_WAIT_MS,
      );
    }
    return instance;
  }

  /** Output of every CCM started here, for failure messages. */
  report(lines = 80): string {
    if (this.instances.length === 0) return 'no CCM process was started';
    return [
      `command: ${this.instances[0]?.process.commandLine ?? ''}`,
      ...this.instances.map((instance) => instance.process.report(lines)),
    ].join('\n');
  }

  /** A CCM that died although the test did not stop it, described; undefined when none did. */
  unexpectedExit(): string | undefined {
    const dead = this.instances.find((instance) => instance.expectedRunning && !instance.process.isRunning());
    return dead === undefined ? undefined : `${dead.process.describeState()} unexpectedly`;
  }

  /**
   * waitFor with the cluster's context: fails at once when a CCM dies unexpectedly, and shows
   * the CCM output when it times out.
   */
  waitFor<T>(
    description: string,
    predicate: (observe: (observation: unknown) => void) => WaitResult<T> | Promise<WaitResult<T>>,
    timeoutMs = DEFAULT_WAIT_MS,
  ): Promise<T> {
    return waitFor(description, predicate, timeoutMs, {
      abortIf: () => this.unexpectedExit(),
      describeContext: () => this.report(),
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all(this.instances.map((instance) => instance.stop()));
    await this.emulator.close();
    await rm(this.workDirectory, { recursive: true, force: true });
  }
}
