/** The sandbox cloud in this process (a real HTTP server on 127.0.0.1), with its own call counters, latency and rate limit. */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SANDBOX_CCM_BIN } from '@ccm/cloud-provider-sandbox/conformance';
import { startSandboxCloud, SANDBOX_OPERATIONS, type SandboxCloud, type SandboxInstance } from '@ccm/testing';
import type { CcmProcessSpec } from '@ccm/testing/conformance';
import type { BenchCloud, BenchInstance, CloudCallTotals } from './bench-cloud.js';
import { createBenchInstances } from './bench-objects.js';
import type { CcmPolicy } from './ccm-policies.js';

export const BENCH_CLUSTER_ID = 'bench';

export interface SandboxBenchCloudOptions {
  latencyMs: number;
  /** Cloud rate limit, requests/s (burst the same); undefined or 0: none. */
  rate: number | undefined;
  /** The CCM's cloud API budget (`api-qps`, `api-burst`). */
  apiQps: number;
}

export class SandboxBenchCloud implements BenchCloud {
  readonly provider = 'sandbox';
  readonly sandbox: SandboxCloud;
  readonly #apiQps: number;
  #created = 0;

  private constructor(sandbox: SandboxCloud, apiQps: number) {
    this.sandbox = sandbox;
    this.#apiQps = apiQps;
  }

  static async start(options: SandboxBenchCloudOptions): Promise<SandboxBenchCloud> {
    const rate = options.rate !== undefined && options.rate > 0 ? { qps: options.rate, burst: options.rate } : undefined;
    const sandbox = await startSandboxCloud({
      host: '127.0.0.1',
      port: 0,
      latencyMs: options.latencyMs,
      ...(rate === undefined ? {} : { rateLimit: rate }),
      // Room for thousands of load balancers (the default ingress pool is a /24).
      state: { ingressCidr: '100.64.0.0/16' },
    });
    return new SandboxBenchCloud(sandbox, options.apiQps);
  }

  createInstances(count: number): Promise<BenchInstance[]> {
    return Promise.resolve(this.createSandboxInstances(count).map(benchInstanceOf));
  }

  /** Instances for `count` new nodes, as the sandbox cloud holds them (what the CCM will learn). */
  createSandboxInstances(count: number): SandboxInstance[] {
    const instances = createBenchInstances(this.sandbox, count, this.#created);
    this.#created += count;
    return instances;
  }

  async ccmProcess(policy: CcmPolicy, directory: string): Promise<CcmProcessSpec> {
    const cloudConfigPath = join(directory, `cloud-config-${policy.name}.ini`);
    await writeFile(cloudConfigPath, benchCloudConfig(this.sandbox.url, policy, this.#apiQps));
    return { command: process.execPath, args: [SANDBOX_CCM_BIN, '--cloud-provider=sandbox', `--cloud-config=${cloudConfigPath}`] };
  }

  /** Cloud API calls counted by the sandbox cloud since the last reset. */
  async cloudCalls(): Promise<CloudCallTotals> {
    const counts = await this.sandbox.calls();
    const byOperation: Record<string, number> = {};
    for (const operation of SANDBOX_OPERATIONS) {
      const entry = counts.operations[operation];
      if (entry.requests > 0) byOperation[operation] = entry.requests;
    }
    return { calls: counts.total.requests, throttled: counts.total.throttled, byOperation };
  }

  resetCalls(): Promise<void> {
    return this.sandbox.resetCalls();
  }

  async close(): Promise<void> {
    await this.sandbox.close().catch(() => undefined);
  }
}

export function benchInstanceOf(instance: SandboxInstance): BenchInstance {
  return { name: instance.name, hostname: instance.hostname, internalIp: instance.addresses.find((address) => address.type === 'InternalIP')?.address ?? '' };
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
