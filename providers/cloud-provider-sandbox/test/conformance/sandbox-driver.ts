import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SANDBOX_PROVIDER_NAME, SANDBOX_TAGS, sandboxProviderId } from '@ccm/cloud-provider-sandbox';
import { startSandboxCloud, type SandboxCloud, type SandboxInstance, type SandboxLoadBalancer } from '@ccm/testing';
import type {
  BenchCcmOptions,
  CcmProcessSpec,
  CloudEndpoint,
  CloudLoadBalancerView,
  CloudRequest,
  CloudRouteView,
  DriverInstance,
  InjectedRoute,
  ProviderDriver,
  ProviderDriverCapabilities,
} from '@ccm/testing/conformance';
import { SandboxSwapFixture } from './sandbox-swap-fixture.js';

/** The sandbox CCM, built by `pnpm exec turbo run build`; the same path from test/ and from dist-test/. */
export const SANDBOX_CCM_BIN = fileURLToPath(new URL('../../dist/cloud-controller-manager/main.js', import.meta.url));

/** A blackhole route needs no live target; the sandbox accepts any id for one. */
const ABSENT_INSTANCE_ID = 'i-00000000000000000';

/**
 * The conformance driver for the sandbox cloud: the cloud runs in the test process (its HTTP
 * server on 127.0.0.1), the sandbox CCM runs as a child process pointed at it by its cloud config.
 */
export class SandboxDriver implements ProviderDriver {
  readonly name = 'sandbox';
  readonly capabilities: ProviderDriverCapabilities = { loadBalancer: true, routes: true, blackholeRoutes: true };
  readonly clusterId: string;
  private cloud: SandboxCloud | undefined;
  private directory: string | undefined;
  private cloudConfigPath: string | undefined;
  /** Node name → instance id of the instances this driver created. */
  private readonly instanceIds = new Map<string, string>();

  /** What an earlier sandbox CCM left in the cloud, for the swap scenario. */
  readonly swap: SandboxSwapFixture;

  constructor(clusterId = `e2e-${process.pid}`) {
    this.clusterId = clusterId;
    this.swap = new SandboxSwapFixture({
      cloud: () => this.sandbox,
      clusterId,
      instanceIdOf: (nodeName) => {
        const id = this.instanceIds.get(nodeName);
        if (id === undefined) throw new Error(`instance ${nodeName} was not created by this driver`);
        return id;
      },
    });
  }

  /** The sandbox needs nothing outside the repository, so it can always run. */
  unavailableReason(): Promise<string | undefined> {
    return Promise.resolve(undefined);
  }

  async start(): Promise<void> {
    if (!existsSync(SANDBOX_CCM_BIN)) {
      throw new Error(`the sandbox CCM is not built: ${SANDBOX_CCM_BIN} is missing (run \`pnpm exec turbo run build\` at the repository root)`);
    }
    this.cloud = await startSandboxCloud();
    this.directory = await mkdtemp(join(tmpdir(), 'ccm-e2e-sandbox-'));
    this.cloudConfigPath = join(this.directory, 'cloud-config.ini');
    await writeFile(this.cloudConfigPath, `[Global]\nurl = ${this.cloud.url}\ncluster-id = ${this.clusterId}\n`);
  }

  async stop(): Promise<void> {
    await this.cloud?.close();
    this.cloud = undefined;
    if (this.directory !== undefined) await rm(this.directory, { recursive: true, force: true });
    this.directory = undefined;
  }

  ccmProcess(): CcmProcessSpec {
    if (this.cloudConfigPath === undefined) throw new Error('SandboxDriver.ccmProcess() called before start()');
    return {
      command: process.execPath,
      args: [SANDBOX_CCM_BIN, `--cloud-provider=${SANDBOX_PROVIDER_NAME}`, `--cloud-config=${this.cloudConfigPath}`],
    };
  }

  /** The sandbox cloud's HTTP API, so that a proxy (benchmark, chaos) can sit in front of it. */
  cloudEndpoint(): CloudEndpoint {
    return { url: this.sandbox.url, operationOf: sandboxOperationOf };
  }

  /** The CCM against `cloudUrl` (a proxy in front of the sandbox), with the row's lookup policy and cloud API budget. */
  async benchCcmProcess(options: BenchCcmOptions): Promise<CcmProcessSpec> {
    if (this.directory === undefined) throw new Error('SandboxDriver.benchCcmProcess() called before start()');
    const path = join(this.directory, `cloud-config-${Math.random().toString(36).slice(2, 8)}.ini`);
    const config = [
      '[Global]',
      `url = ${options.cloudUrl}`,
      `cluster-id = ${this.clusterId}`,
      `lookup-policy = ${options.lookupPolicy}`,
      `api-qps = ${options.apiQps}`,
      `api-burst = ${options.apiQps}`,
      '',
    ].join('\n');
    await writeFile(path, config);
    return { command: process.execPath, args: [SANDBOX_CCM_BIN, `--cloud-provider=${SANDBOX_PROVIDER_NAME}`, `--cloud-config=${path}`] };
  }

  private get sandbox(): SandboxCloud {
    if (this.cloud === undefined) throw new Error('the sandbox cloud is not started');
    return this.cloud;
  }

  private instanceId(instance: DriverInstance): string {
    const id = this.instanceIds.get(instance.nodeName);
    if (id === undefined) throw new Error(`instance ${instance.nodeName} was not created by this driver`);
    return id;
  }

  async createInstance(name: string): Promise<DriverInstance> {
    const created = await this.sandbox.createInstance({ name });
    this.instanceIds.set(created.name, created.id);
    return toDriverInstance(created);
  }

  async stopInstance(instance: DriverInstance): Promise<void> {
    await this.sandbox.stopInstance(this.instanceId(instance));
  }

  async startInstance(instance: DriverInstance): Promise<void> {
    await this.sandbox.startInstance(this.instanceId(instance));
  }

  /** Terminates it: like a real cloud, it stays listed for a while as `terminated`. */
  async deleteInstance(instance: DriverInstance): Promise<void> {
    await this.sandbox.deleteInstance(this.instanceId(instance));
  }

  async readLoadBalancer(service: { namespace: string; name: string; uid: string }): Promise<CloudLoadBalancerView> {
    const loadBalancers = await this.sandbox.listLoadBalancers();
    const found = loadBalancers.find((loadBalancer) => this.ownsLoadBalancerOf(loadBalancer, service));
    if (found === undefined) return { exists: false, backendNodeNames: [], ports: [] };
    const instances = new Map((await this.sandbox.listInstances()).map((instance) => [instance.id, instance.name]));
    return {
      exists: true,
      backendNodeNames: found.backendInstanceIds.map((id) => instances.get(id) ?? id).sort(),
      ports: found.listeners.map((listener) => listener.port),
    };
  }

  /** The whole route table (the suite checks that foreign routes are left alone). */
  async readRoutes(): Promise<CloudRouteView[]> {
    return (await this.sandbox.listRoutes()).map((route) => ({
      destinationCidr: route.destinationCidr,
      targetNodeName: route.targetInstanceName,
      blackhole: route.blackhole,
    }));
  }

  /** Load balancers and routes carrying this cluster's tag: the ones the CCM created. */
  async leakedResources(): Promise<string[]> {
    const snapshot = await this.sandbox.snapshot();
    const owned = (tags: Record<string, string>): boolean => tags[SANDBOX_TAGS.cluster] === this.clusterId;
    return [
      ...snapshot.loadBalancers
        .filter((loadBalancer) => owned(loadBalancer.tags))
        .map((loadBalancer) => `load balancer ${loadBalancer.name} (service ${loadBalancer.tags[SANDBOX_TAGS.service] ?? '?'})`),
      ...snapshot.routes
        .filter((route) => owned(route.tags))
        .map((route) => `route ${route.id} ${route.destinationCidr} -> ${route.targetInstanceName || route.targetInstanceId}`),
    ];
  }

  async injectRoute(route: InjectedRoute): Promise<void> {
    const targetInstanceId = route.blackhole === true ? ABSENT_INSTANCE_ID : await this.ensureInstanceNamed(route.targetNodeName);
    await this.sandbox.createRoute({
      destinationCidr: route.destinationCidr,
      targetInstanceId,
      description: 'injected by the conformance suite',
      // Tagged as this cluster's own, as if an earlier CCM of this cluster had created it.
      tags: { [SANDBOX_TAGS.cluster]: this.clusterId, [SANDBOX_TAGS.node]: route.targetNodeName },
      ...(route.blackhole === true ? { blackhole: true } : {}),
    });
  }

  async removeRoute(destinationCidr: string): Promise<void> {
    for (const existing of await this.sandbox.listRoutes()) {
      if (existing.destinationCidr === destinationCidr) await this.sandbox.deleteRoute(existing.id);
    }
  }

  private ownsLoadBalancerOf(loadBalancer: SandboxLoadBalancer, service: { uid: string }): boolean {
    return loadBalancer.tags[SANDBOX_TAGS.cluster] === this.clusterId && loadBalancer.tags[SANDBOX_TAGS.serviceUid] === service.uid;
  }

  /** The id of a running instance with that name, creating one when none exists. */
  private async ensureInstanceNamed(name: string): Promise<string> {
    const existing = (await this.sandbox.listInstances()).find((instance) => instance.name === name && instance.state !== 'terminated');
    if (existing !== undefined) return existing.id;
    const created = await this.sandbox.createInstance({ name });
    this.instanceIds.set(created.name, created.id);
    return created.id;
  }
}

/** The sandbox cloud API operation of a request (as its HTTP routes name them), e.g. `loadBalancers.update`. */
export function sandboxOperationOf(request: CloudRequest): string {
  const path = new URL(request.path, 'http://sandbox').pathname;
  const method = request.method.toUpperCase();
  const match = /^\/v1\/(instances|load-balancers|routes)(:batchGet|\/[^/]+)?(\/backends)?$/.exec(path);
  if (match === null) return `${method} ${path}`;
  const collection = match[1] === 'load-balancers' ? 'loadBalancers' : (match[1] ?? '');
  if (match[2] === ':batchGet') return `${collection}.batchGet`;
  if (match[3] !== undefined) return `${collection}.setBackends`;
  if (match[2] === undefined) return method === 'POST' ? `${collection}.create` : `${collection}.list`;
  return method === 'DELETE' ? `${collection}.delete` : method === 'GET' ? `${collection}.get` : `${collection}.update`;
}

function toDriverInstance(instance: SandboxInstance): DriverInstance {
  const internalIp = instance.addresses.find((address) => address.type === 'InternalIP' && !address.address.includes(':'));
  if (internalIp === undefined) throw new Error(`sandbox instance ${instance.id} has no IPv4 InternalIP`);
  return {
    nodeName: instance.name,
    expectedProviderId: sandboxProviderId(instance.id),
    expectedAddresses: instance.addresses.map((address) => ({ type: address.type, address: address.address })),
    expectedInstanceType: instance.instanceType,
    expectedZone: instance.zone,
    expectedRegion: instance.region,
    internalIp: internalIp.address,
  };
}

export const sandboxDriver = new SandboxDriver();
