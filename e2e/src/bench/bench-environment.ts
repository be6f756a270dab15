/**
 * One benchmark row's world: a Kubernetes API server (the kube API emulator in this process, a
 * real HTTP server on 127.0.0.1, or the real kube-apiserver with `--kube-api real`), a cloud (the sandbox cloud in process, or a provider's simulator behind a counting
 * proxy) and the provider's CCM as a child process pointed at both.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeEmulator } from '@ccm/kube-emulator';
import { SANDBOX_CCM_BIN } from '@ccm/cloud-provider-sandbox/conformance';
import { SpawnedProcess } from '../harness/ccm-process.js';
import { waitFor } from '../harness/wait-for.js';
import type { BenchCloud, BenchProvider, CloudCallTotals } from './bench-cloud.js';
import { startBenchKubeApi, type BenchKubeApi, type BenchKubeApiKind } from './bench-kube-api.js';
import { policyFlags, type CcmPolicy } from './ccm-policies.js';
import { DriverBenchCloud } from './driver-bench-cloud.js';
import { SandboxBenchCloud, type SandboxBenchCloudOptions } from './sandbox-bench-cloud.js';

/**
 * Node.js flags of the CCM process, as in a container: V8 sizes its default heap from the memory
 * it can see (in Kubernetes, the container's limit; here, the whole 24 GB machine) and then
 * postpones collection accordingly. 256 MB is half the Deployment's 512Mi limit
 * (manifests/base). `BENCH_CCM_NODE_FLAGS` adds more (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
 */
export const CCM_NODE_FLAGS: readonly string[] = ['--max-old-space-size=256'];

export type BenchEnvironmentOptions = SandboxBenchCloudOptions & {
  /** The Kubernetes API server (default: the emulator). */
  kubeApi?: BenchKubeApiKind;
};

export class BenchEnvironment<Cloud extends BenchCloud = BenchCloud> {
  readonly kube: BenchKubeApi;
  readonly cloud: Cloud;
  readonly directory: string;
  readonly #ccms: BenchCcm[] = [];

  private constructor(kube: BenchKubeApi, cloud: Cloud, directory: string) {
    this.kube = kube;
    this.cloud = cloud;
    this.directory = directory;
  }

  /** A row against the sandbox cloud (latency and rate limit as given). */
  static async start(options: BenchEnvironmentOptions): Promise<BenchEnvironment<SandboxBenchCloud>> {
    if (!existsSync(SANDBOX_CCM_BIN)) {
      throw new Error(`the sandbox CCM is not built: ${SANDBOX_CCM_BIN} is missing (run \`pnpm build\` at the repository root)`);
    }
    return BenchEnvironment.around(await SandboxBenchCloud.start(options), options.kubeApi ?? 'emulator');
  }

  /** A row against `provider`'s cloud: the sandbox, or a simulator behind a counting proxy. */
  static async startFor(provider: BenchProvider, options: BenchEnvironmentOptions): Promise<BenchEnvironment> {
    if (provider === 'sandbox') return BenchEnvironment.start(options);
    return BenchEnvironment.around(await DriverBenchCloud.start(provider, { apiQps: options.apiQps }), options.kubeApi ?? 'emulator', provider);
  }

  static async around<Cloud extends BenchCloud>(cloud: Cloud, kubeApi: BenchKubeApiKind = 'emulator', manifestsOverlay = 'sandbox'): Promise<BenchEnvironment<Cloud>> {
    try {
      const directory = await mkdtemp(join(tmpdir(), 'ccm-bench-'));
      const kube = await startBenchKubeApi(kubeApi, manifestsOverlay);
      return new BenchEnvironment(kube, cloud, directory);
    } catch (error) {
      await cloud.close();
      throw error;
    }
  }

  /** The in-process emulator, for scenarios that use its hooks (not with `--kube-api real`). */
  get emulator(): KubeEmulator {
    if (!('emulator' in this.kube)) throw new Error('this scenario runs on the kube API emulator only (not with --kube-api real)');
    return (this.kube as { emulator: KubeEmulator }).emulator;
  }

  /** Starts the CCM with `policy` and waits until its informers watch nodes and services. */
  async startCcm(policy: CcmPolicy, options: { nodeStatusUpdateFrequencySeconds?: number; timeoutMs?: number } = {}): Promise<BenchCcm> {
    const kubeconfigPath = join(this.directory, `kubeconfig-${policy.name}`);
    await this.kube.writeCcmKubeconfig(kubeconfigPath);
    const cloudCcm = await this.cloud.ccmProcess(policy, this.directory);
    const args = [
      ...CCM_NODE_FLAGS,
      ...(process.env['BENCH_CCM_NODE_FLAGS'] ?? '').split(' ').filter((flag) => flag !== ''),
      ...cloudCcm.args,
      `--kubeconfig=${kubeconfigPath}`,
      '--leader-elect=false',
      '--secure-port=0',
      '--configure-cloud-routes=false',
      `--node-status-update-frequency=${options.nodeStatusUpdateFrequencySeconds ?? 300}s`,
      ...policyFlags(policy),
    ];
    const watchesBefore = this.kube.openCcmWatches();
    const spec = { command: cloudCcm.command, args, ...(cloudCcm.env === undefined ? {} : { env: cloudCcm.env }) };
    const process_ = SpawnedProcess.start({ label: `ccm (${policy.label})`, spec });
    const ccm = new BenchCcm(process_);
    this.#ccms.push(ccm);
    await waitFor(
      'the CCM to watch nodes and services',
      (observe) => {
        const watches = this.kube.openCcmWatches() - watchesBefore;
        observe(`${watches} watches open`);
        return watches >= 2;
      },
      options.timeoutMs ?? 60_000,
      { intervalMs: 50, abortIf: () => (process_.isRunning() ? undefined : process_.report()), describeContext: () => process_.report(30) },
    );
    return ccm;
  }

  /** Cloud API calls counted since the last reset. */
  cloudCalls(): Promise<CloudCallTotals> {
    return this.cloud.cloudCalls();
  }

  async resetCounters(): Promise<void> {
    await this.cloud.resetCalls();
    this.kube.resetRequestCounts();
  }

  async close(): Promise<void> {
    for (const ccm of this.#ccms) await ccm.stop();
    await this.kube.close().catch(() => undefined);
    await this.cloud.close();
    await rm(this.directory, { recursive: true, force: true });
  }
}

/** The CCM child process, with its peak resident memory read from /proc. */
export class BenchCcm {
  readonly process: SpawnedProcess;

  constructor(process_: SpawnedProcess) {
    this.process = process_;
  }

  /** VmHWM (peak RSS) of the process in bytes, while it runs; undefined off Linux. */
  peakRssBytes(): Promise<number | undefined> {
    return this.#statusField('VmHWM');
  }

  /** VmRSS (resident memory now) of the process in bytes, while it runs; undefined off Linux. */
  rssBytes(): Promise<number | undefined> {
    return this.#statusField('VmRSS');
  }

  /**
   * CPU seconds (user + system) the process has used so far, from /proc/<pid>/stat; undefined
   * off Linux. Unlike wall-clock times, it does not grow when other work shares the machine.
   */
  async cpuSeconds(): Promise<number | undefined> {
    const pid = this.process.pid;
    if (pid === undefined || !this.process.isRunning()) return undefined;
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
    return stat === undefined ? undefined : cpuSecondsOfProcStat(stat);
  }

  async #statusField(field: 'VmHWM' | 'VmRSS'): Promise<number | undefined> {
    const pid = this.process.pid;
    if (pid === undefined || !this.process.isRunning()) return undefined;
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined);
    const match = status === undefined ? null : new RegExp(`^${field}:\\s+(\\d+)\\s+kB$`, 'm').exec(status);
    return match === null ? undefined : Number(match[1]) * 1024;
  }

  /** For `waitFor`'s `abortIf`: the CCM's output once it has exited. */
  readonly exitedReport = (): string | undefined => (this.process.isRunning() ? undefined : `the CCM exited\n${this.process.report()}`);

  /** Fails with the CCM's output when it is no longer running. */
  assertRunning(): void {
    if (!this.process.isRunning()) throw new Error(`the CCM exited during the benchmark\n${this.process.report()}`);
  }

  async stop(): Promise<void> {
    await this.process.stop(10_000);
  }
}

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on every Linux architecture Node runs on). */
const USER_HZ = 100;

/** utime + stime of a `/proc/<pid>/stat` line, in seconds (fields 14 and 15, after the command in parentheses). */
export function cpuSecondsOfProcStat(stat: string): number | undefined {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is the state (field 3): utime and stime are fields 14 and 15.
  const user = Number(fields[11]);
  const system = Number(fields[12]);
  return Number.isFinite(user) && Number.isFinite(system) ? (user + system) / USER_HZ : undefined;
}
