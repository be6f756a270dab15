/**
 * The conformance driver for vSphere: the vCenter simulator (e2e/vcsim) runs as a child
 * process, the vSphere CCM runs against it with a YAML cloud config (CA-verified TLS, inline
 * credentials). VMs are created, powered and destroyed through the simulator's admin endpoint;
 * each VM's guest hostname is the node name, so nodes registered without a providerID are found
 * by name. LoadBalancer and Routes are unsupported (upstream needs NSX-T).
 *
 * Published as `@ccm/cloud-provider-vsphere/conformance`; e2e/src/conformance/vsphere.conformance.test.ts
 * runs the shared suite with it.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type {
  BenchCcmOptions,
  CcmProcessSpec,
  CloudEndpoint,
  CloudRequest,
  CloudLoadBalancerView,
  CloudRouteView,
  DriverInstance,
  ProviderDriver,
  ProviderDriverCapabilities,
  ProviderSwapFixture,
} from '@ccm/testing/conformance';
import { VSPHERE_UPSTREAM_METRICS, vsphereInstanceType } from '@ccm/cloud-provider-vsphere';
import { startVcsim, vcsimUnavailableReason, VCSIM_INSTALL_HINT, type Vcsim } from '../support/vcsim.js';
import { upstreamProviderId, VsphereSwapFixture } from './vsphere-swap-fixture.js';

/** The vSphere CCM, built by `pnpm exec turbo run build`; the same path from test/ and from dist-test/. */
export const VSPHERE_CCM_BIN = fileURLToPath(new URL('../../dist/cloud-controller-manager/main.js', import.meta.url));

/**
 * The vSphere operation of a request: the SOAP method (the first element of the SOAP body), or
 * `<METHOD> <path>` of a vAPI REST call with object IDs cut off.
 */
export function vsphereOperationOf(request: CloudRequest): string {
  const method = /<(?:[\w-]+:)?Body\b[^>]*>\s*<(?:[\w-]+:)?([\w-]+)/.exec(request.body)?.[1];
  if (method !== undefined) return method;
  const path = (request.path.split('?')[0] ?? '').split('/').filter((segment) => segment !== '' && !segment.includes(':'));
  return `${request.method} /${path.join('/')}`;
}

const NUM_CPU = 2;
const MEMORY_MB = 4096;
const GUEST_ID = 'ubuntu64Guest';

export class VsphereDriver implements ProviderDriver {
  readonly name = 'vsphere';
  readonly upstreamMetrics = VSPHERE_UPSTREAM_METRICS;
  readonly capabilities: ProviderDriverCapabilities = { loadBalancer: false, routes: false };
  readonly installHint = VCSIM_INSTALL_HINT;
  #vcsim: Vcsim | undefined;
  #directory: string | undefined;
  #cloudConfigPath: string | undefined;
  readonly #created = new Set<string>();
  /** What the upstream CPI leaves behind (nothing in vCenter; the Nodes it initialized). */
  readonly swap: ProviderSwapFixture = new VsphereSwapFixture({ admin: () => this.#simulator.admin });

  unavailableReason(): Promise<string | undefined> {
    return Promise.resolve(vcsimUnavailableReason());
  }

  async start(): Promise<void> {
    if (!existsSync(VSPHERE_CCM_BIN)) {
      throw new Error(`the vSphere CCM is not built: ${VSPHERE_CCM_BIN} is missing (run \`pnpm exec turbo run build\` at the repository root)`);
    }
    this.#vcsim = await startVcsim();
    this.#directory = await mkdtemp(join(tmpdir(), 'ccm-e2e-vsphere-'));
    this.#cloudConfigPath = await this.#writeCloudConfig('vsphere.yaml', this.#vcsim.url, this.#vcsim.caFile);
  }

  /** A YAML cloud config for one vCenter at `url` (verified against `caFile`), the simulator's credentials inline; returns its path. */
  async #writeCloudConfig(fileName: string, url: string, caFile: string): Promise<string> {
    if (this.#directory === undefined) throw new Error('VsphereDriver: not started');
    const path = join(this.#directory, fileName);
    const { hostname, port } = new URL(url);
    await writeFile(
      path,
      [
        'global:',
        `  user: ${JSON.stringify(this.#simulator.username)}`,
        `  password: ${JSON.stringify(this.#simulator.password)}`,
        `  caFile: ${caFile}`,
        'vcenter:',
        '  vcsim:',
        `    server: ${hostname}`,
        `    port: ${port}`,
        '',
      ].join('\n'),
      { mode: 0o600 },
    );
    return path;
  }

  async stop(): Promise<void> {
    await this.#vcsim?.stop();
    this.#vcsim = undefined;
    if (this.#directory !== undefined) await rm(this.#directory, { recursive: true, force: true });
    this.#directory = undefined;
  }

  ccmProcess(): CcmProcessSpec {
    if (this.#cloudConfigPath === undefined) throw new Error('VsphereDriver.ccmProcess() called before start()');
    return { command: process.execPath, args: [VSPHERE_CCM_BIN, '--cloud-provider=vsphere', `--cloud-config=${this.#cloudConfigPath}`] };
  }

  cloudEndpoint(): CloudEndpoint {
    const simulator = this.#simulator;
    return { url: simulator.url, ...(simulator.ca === undefined ? {} : { ca: simulator.ca }), operationOf: vsphereOperationOf };
  }

  /** The CCM against `cloudUrl` (the benchmark's counting proxy, HTTPS with `caFile`); vSphere has no lookup-policy or budget setting. */
  async benchCcmProcess(options: BenchCcmOptions): Promise<CcmProcessSpec> {
    if (options.caFile === undefined) throw new Error('VsphereDriver.benchCcmProcess: the vSphere CCM speaks HTTPS only; caFile is required');
    const cloudConfigPath = await this.#writeCloudConfig('bench-vsphere.yaml', options.cloudUrl, options.caFile);
    return { command: process.execPath, args: [VSPHERE_CCM_BIN, '--cloud-provider=vsphere', `--cloud-config=${cloudConfigPath}`] };
  }

  get #simulator(): Vcsim {
    if (this.#vcsim === undefined) throw new Error('the vCenter simulator is not started');
    return this.#vcsim;
  }

  async createInstance(name: string): Promise<DriverInstance> {
    const vm = await this.#simulator.admin.createVm({ name, numCpu: NUM_CPU, memoryMB: MEMORY_MB, guestId: GUEST_ID });
    this.#created.add(name);
    return {
      nodeName: name,
      expectedProviderId: upstreamProviderId(vm),
      expectedAddresses: [
        { type: 'Hostname', address: vm.hostName },
        { type: 'InternalIP', address: vm.ipAddress },
        { type: 'ExternalIP', address: vm.ipAddress },
      ],
      expectedInstanceType: vsphereInstanceType(NUM_CPU, MEMORY_MB, GUEST_ID),
      internalIp: vm.ipAddress,
    };
  }

  async stopInstance(instance: DriverInstance): Promise<void> {
    await this.#simulator.admin.powerOff(instance.nodeName);
  }

  async startInstance(instance: DriverInstance): Promise<void> {
    await this.#simulator.admin.powerOn(instance.nodeName);
  }

  async deleteInstance(instance: DriverInstance): Promise<void> {
    await this.#simulator.admin.destroy(instance.nodeName);
    this.#created.delete(instance.nodeName);
  }

  readLoadBalancer(): Promise<CloudLoadBalancerView> {
    return Promise.resolve({ exists: false, backendNodeNames: [], ports: [] });
  }

  readRoutes(): Promise<CloudRouteView[]> {
    return Promise.resolve([]);
  }

  /** The vSphere CCM creates nothing in vCenter (no load balancers, no routes). */
  leakedResources(): Promise<string[]> {
    return Promise.resolve([]);
  }
}

export const vsphereDriver = new VsphereDriver();
