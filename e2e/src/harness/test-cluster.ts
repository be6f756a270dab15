import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CcmProcessSpec } from '../conformance/provider-driver.js';
import { commonCcmFlags } from './ccm-flags.js';
import { fetchCcmEndpoint } from './ccm-endpoints.js';
import { SpawnedProcess } from './ccm-process.js';
import { findFreePort } from './free-port.js';
import { EmulatorBackend, RealBackend, type KubeApiBackend } from './kube-api-backend.js';
import { selectKubeApi, type KubeApiKind } from './kube-api-selection.js';
import { KubeTestClient } from './kube-test-client.js';
import { waitFor, type WaitResult } from './wait-for.js';

export type { KubeEmulator } from './kube-api-backend.js';

export interface TestClusterOptions {
  /**
   * The API server: the real kube-apiserver or @ccm/kube-emulator. Default: as `CCM_KUBE_API`
   * and `CI` select it (see kube-api-selection.ts); fails when that server cannot run here.
   */
  kubeApi?: KubeApiKind;
  /**
   * Real server only: `manifests/<overlay>` is applied and the CCM runs with a token of its
   * ServiceAccount, bound by exactly those manifests (default `sandbox`).
   */
  manifestsOverlay?: string;
  /** Real server only: record every request of the CCM and the harness (emulator replay). */
  recordRequests?: boolean;
}

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
 * One Kubernetes API server (the real kube-apiserver, or the emulator served over HTTP), a
 * kubeconfig for the CCM, a test client with full rights, and the CCM processes started against it.
 */
export class TestCluster {
  readonly client: KubeTestClient;
  private readonly instances: CcmInstance[] = [];
  private closed = false;

  private constructor(
    readonly api: KubeApiBackend,
    readonly kubeconfigPath: string,
    private readonly workDirectory: string,
  ) {
    this.client = new KubeTestClient(api.testClientUrl);
  }

  static async start(options: TestClusterOptions = {}): Promise<TestCluster> {
    let kind = options.kubeApi;
    if (kind === undefined) {
      const selection = await selectKubeApi();
      if (selection.kind === 'unavailable') throw new Error(selection.reason);
      kind = selection.kind;
    }
    const workDirectory = await mkdtemp(join(tmpdir(), 'ccm-e2e-'));
    try {
      const api =
        kind === 'real'
          ? await RealBackend.start({ manifestsOverlay: options.manifestsOverlay ?? 'sandbox', recordRequests: options.recordRequests ?? false })
          : await EmulatorBackend.start();
      const kubeconfigPath = join(workDirectory, 'kubeconfig.yaml');
      await api.writeCcmKubeconfig(kubeconfigPath);
      return new TestCluster(api, kubeconfigPath, workDirectory);
    } catch (error) {
      await rm(workDirectory, { recursive: true, force: true });
      throw error;
    }
  }

  /** Which API server this cluster runs on. */
  get kubeApi(): KubeApiKind {
    return this.api.kind;
  }

  /** The emulator (throws on the real server): for tests that use its in-process hooks. */
  get emulator(): import('./kube-api-backend.js').KubeEmulator {
    if (!(this.api instanceof EmulatorBackend)) throw new Error('this TestCluster runs on the real kube-apiserver, not the emulator');
    return this.api.emulator;
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
    if (this.instances.length === 0) return `no CCM process was started; ${this.api.describe()}`;
    return [
      this.api.describe(),
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
    await this.api.close();
    await rm(this.workDirectory, { recursive: true, force: true });
  }
}
