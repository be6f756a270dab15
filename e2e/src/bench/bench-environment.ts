/**
 * One benchmark row's world: the kube API emulator and the sandbox cloud in this process (both
 * real HTTP servers on 127.0.0.1), and the sandbox CCM as a child process pointed at them.
 */
import { existsSync } from 'node:fs';
import { readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startKubeEmulator, type KubeEmulator } from '@ccm/kube-emulator';
import { startSandboxCloud, SANDBOX_OPERATIONS, type SandboxCloud } from '@ccm/testing';
import { SANDBOX_CCM_BIN } from '@ccm/cloud-provider-sandbox/conformance';
import { SpawnedProcess } from '../harness/ccm-process.js';
import { waitFor } from '../harness/wait-for.js';
import { policyFlags, type CcmPolicy } from './ccm-policies.js';

export const BENCH_CLUSTER_ID = 'bench';

/**
 * Node.js flags of the CCM process, as in a container: V8 sizes its default heap from the memory
 * it can see (in Kubernetes, the container's limit; here, the whole 24 GB machine) and then
 * postpones collection accordingly. 256 MB is half the Deployment's 512Mi limit
 * (manifests/base). `BENCH_CCM_NODE_FLAGS` adds more (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
 */
export const CCM_NODE_FLAGS: readonly string[] = ['--max-old-space-size=256'];

export interface BenchEnvironmentOptions {
  latencyMs: number;
  /** Cloud rate limit, requests/s (burst the same); undefined or 0: none. */
  rate: number | undefined;
  /** The CCM's cloud API budget (`api-qps`, `api-burst`). */
  apiQps: number;
}

export interface CloudCallTotals {
  /** Cloud API requests the cloud received (throttled ones included). */
  calls: number;
  throttled: number;
  /** Per operation, only the ones used. */
  byOperation: Record<string, number>;
}

export class BenchEnvironment {
  readonly emulator: KubeEmulator;
  readonly cloud: SandboxCloud;
  readonly directory: string;
  readonly #options: BenchEnvironmentOptions;
  readonly #ccms: BenchCcm[] = [];

  private constructor(emulator: KubeEmulator, cloud: SandboxCloud, directory: string, options: BenchEnvironmentOptions) {
    this.emulator = emulator;
    this.cloud = cloud;
    this.directory = directory;
    this.#options = options;
  }

  static async start(options: BenchEnvironmentOptions): Promise<BenchEnvironment> {
    if (!existsSync(SANDBOX_CCM_BIN)) {
      throw new Error(`the sandbox CCM is not built: ${SANDBOX_CCM_BIN} is missing (run \`pnpm build\` at the repository root)`);
    }
    const directory = await mkdtemp(join(tmpdir(), 'ccm-bench-'));
    const emulator = await startKubeEmulator({ host: '127.0.0.1', port: 0 });
    const rate = options.rate !== undefined && options.rate > 0 ? { qps: options.rate, burst: options.rate } : undefined;
    const cloud = await startSandboxCloud({
      host: '127.0.0.1',
      port: 0,
      latencyMs: options.latencyMs,
      ...(rate === undefined ? {} : { rateLimit: rate }),
      // Room for thousands of load balancers (the default ingress pool is a /24).
      state: { ingressCidr: '100.64.0.0/16' },
    });
    return new BenchEnvironment(emulator, cloud, directory, options);
  }

  /** Starts the CCM with `policy` and waits until its informers watch nodes and services. */
  async startCcm(policy: CcmPolicy, options: { nodeStatusUpdateFrequencySeconds?: number; timeoutMs?: number } = {}): Promise<BenchCcm> {
    const kubeconfigPath = join(this.directory, `kubeconfig-${policy.name}`);
    await this.emulator.writeKubeconfig(kubeconfigPath);
    const cloudConfigPath = join(this.directory, `cloud-config-${policy.name}.ini`);
    await writeFile(cloudConfigPath, benchCloudConfig(this.cloud.url, policy, this.#options.apiQps));
    const args = [
      ...CCM_NODE_FLAGS,
      ...(process.env['BENCH_CCM_NODE_FLAGS'] ?? '').split(' ').filter((flag) => flag !== ''),
      SANDBOX_CCM_BIN,
      '--cloud-provider=sandbox',
      `--cloud-config=${cloudConfigPath}`,
      `--kubeconfig=${kubeconfigPath}`,
      '--leader-elect=false',
      '--secure-port=0',
      '--configure-cloud-routes=false',
      `--node-status-update-frequency=${options.nodeStatusUpdateFrequencySeconds ?? 300}s`,
      ...policyFlags(policy),
    ];
    const watchesBefore = this.emulator.openWatchCount();
    const process_ = SpawnedProcess.start({ label: `ccm (${policy.label})`, spec: { command: process.execPath, args } });
    const ccm = new BenchCcm(process_);
    this.#ccms.push(ccm);
    await waitFor(
      'the CCM to watch nodes and services',
      (observe) => {
        const watches = this.emulator.openWatchCount() - watchesBefore;
        observe(`${watches} watches open`);
        return watches >= 2;
      },
      options.timeoutMs ?? 60_000,
      { intervalMs: 50, abortIf: () => (process_.isRunning() ? undefined : process_.report()), describeContext: () => process_.report(30) },
    );
    return ccm;
  }

  /** Cloud API calls counted by the sandbox cloud since the last reset. */
  async cloudCalls(): Promise<CloudCallTotals> {
    const counts = await this.cloud.calls();
    const byOperation: Record<string, number> = {};
    for (const operation of SANDBOX_OPERATIONS) {
      const entry = counts.operations[operation];
      if (entry.requests > 0) byOperation[operation] = entry.requests;
    }
    return { calls: counts.total.requests, throttled: counts.total.throttled, byOperation };
  }

  async resetCounters(): Promise<void> {
    await this.cloud.resetCalls();
    this.emulator.resetRequestCounts();
  }

  async close(): Promise<void> {
    for (const ccm of this.#ccms) await ccm.stop();
    await this.emulator.close().catch(() => undefined);
    await this.cloud.close().catch(() => undefined);
    await rm(this.directory, { recursive: true, force: true });
  }
}

export function benchCloudConfig(url: string, policy: CcmPolicy, apiQps: number): string {
  return [
    '[Global]',
    `url = ${url}`,
    `cluster-id = ${BENCH_CLUSTER_ID}`,
    `lookup-policy = ${policy.lookupPolicy}`,
    `api-qps = ${apiQps}`,
    `api-burst = ${apiQps}`,
    '[Routes]',
    'enabled = false',
    '',
  ].join('\n');
}

/** The CCM child process, with its peak resident memory read from /proc. */
export class BenchCcm {
  readonly process: SpawnedProcess;

  constructor(process_: SpawnedProcess) {
    this.process = process_;
  }

  /** VmHWM (peak RSS) of the process in bytes, while it runs; undefined off Linux. */
  async peakRssBytes(): Promise<number | undefined> {
    const pid = this.process.pid;
    if (pid === undefined || !this.process.isRunning()) return undefined;
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined);
    const match = status === undefined ? null : /^VmHWM:\s+(\d+)\s+kB$/m.exec(status);
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
