/**
 * A provider's simulator as the benchmark's cloud, through the provider's conformance driver
 * (moto for AWS, vcsim for vSphere) with a counting proxy in front: the CCM talks to the proxy,
 * the proxy counts each request by cloud operation and forwards it; the driver's own setup calls
 * go straight to the simulator and are not counted.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AwsDriver } from '@ccm/cloud-provider-aws/conformance';
import { VsphereDriver } from '@ccm/cloud-provider-vsphere/conformance';
import { AzureDriver } from '@ccm/cloud-provider-azure/conformance';
import { GcpDriver } from '@ccm/cloud-provider-gcp/conformance';
import { BENCH_NODE_CIDR, OpenStackDriver } from '@ccm/cloud-provider-openstack/conformance';
import type { CcmProcessSpec, DriverInstance, ProviderDriver } from '@ccm/testing/conformance';
import type { BenchCloud, BenchInstance, BenchProvider, CloudCallTotals } from './bench-cloud.js';
import { benchNodeName } from './bench-objects.js';
import type { CcmPolicy } from './ccm-policies.js';
import { startCountingProxy, type CountingProxy } from './counting-proxy.js';

/** Instances created at once when the driver has no bulk creation. */
const CREATE_CONCURRENCY = 8;

/** The drivers the benchmark can run, configured for thousands of instances. */
export function benchDriver(provider: Exclude<BenchProvider, 'sandbox'>): ProviderDriver {
  switch (provider) {
    case 'aws':
      // Two /20 node subnets: room for 8,000 instances.
      return new AwsDriver('bench', { subnetCidrs: ['10.0.16.0/20', '10.0.32.0/20'] });
    case 'vsphere':
      return new VsphereDriver();
    case 'azure':
      return new AzureDriver();
    case 'gcp':
      return new GcpDriver();
    case 'openstack':
      // A /20 node subnet: room for 4,000 servers.
      return new OpenStackDriver({ nodeCidr: BENCH_NODE_CIDR });
  }
}

export class DriverBenchCloud implements BenchCloud {
  readonly provider: BenchProvider;
  readonly #driver: ProviderDriver;
  readonly #proxy: CountingProxy;
  readonly #apiQps: number;
  #created = 0;

  private constructor(provider: BenchProvider, driver: ProviderDriver, proxy: CountingProxy, apiQps: number) {
    this.provider = provider;
    this.#driver = driver;
    this.#proxy = proxy;
    this.#apiQps = apiQps;
  }

  /** Starts the simulator through the driver and the proxy in front of it; fails with the driver's reason when the simulator cannot run here. */
  static async start(provider: Exclude<BenchProvider, 'sandbox'>, options: { apiQps: number }): Promise<DriverBenchCloud> {
    const driver = benchDriver(provider);
    const reason = await driver.unavailableReason();
    if (reason !== undefined) throw new Error(`--provider ${provider}: ${reason}${driver.installHint === undefined ? '' : ` (${driver.installHint})`}`);
    if (driver.cloudEndpoint === undefined || driver.benchCcmProcess === undefined) throw new Error(`the ${provider} driver does not support benchmarks (cloudEndpoint, benchCcmProcess)`);
    await driver.start();
    try {
      return new DriverBenchCloud(provider, driver, await startCountingProxy(driver.cloudEndpoint()), options.apiQps);
    } catch (error) {
      await driver.stop();
      throw error;
    }
  }

  async createInstances(count: number): Promise<BenchInstance[]> {
    const names = Array.from({ length: count }, (_, index) => benchNodeName(this.#created + index));
    this.#created += count;
    const created = this.#driver.createInstances === undefined ? await this.#createEach(names) : await this.#driver.createInstances(names);
    return created.map((instance) => ({ name: instance.nodeName, hostname: instance.nodeName, internalIp: instance.internalIp }));
  }

  async #createEach(names: readonly string[]): Promise<DriverInstance[]> {
    const created: DriverInstance[] = new Array(names.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let index = next++; index < names.length; index = next++) created[index] = await this.#driver.createInstance(names[index] ?? '');
    };
    await Promise.all(Array.from({ length: CREATE_CONCURRENCY }, worker));
    return created;
  }

  async ccmProcess(policy: CcmPolicy, directory: string): Promise<CcmProcessSpec> {
    let caFile: string | undefined;
    if (this.#proxy.certificate !== undefined) {
      caFile = join(directory, 'cloud-proxy-ca.pem');
      await writeFile(caFile, this.#proxy.certificate);
    }
    return this.#driver.benchCcmProcess!({ cloudUrl: this.#proxy.url, lookupPolicy: policy.lookupPolicy, apiQps: this.#apiQps, ...(caFile === undefined ? {} : { caFile }) });
  }

  cloudCalls(): Promise<CloudCallTotals> {
    const counts = this.#proxy.counts();
    return Promise.resolve({ calls: counts.total, throttled: counts.throttled, byOperation: counts.byOperation });
  }

  resetCalls(): Promise<void> {
    this.#proxy.reset();
    return Promise.resolve();
  }

  async close(): Promise<void> {
    await this.#proxy.close().catch(() => undefined);
    await this.#driver.stop().catch(() => undefined);
  }
}
