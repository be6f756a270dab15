/**
 * The conformance driver for GCP, backed by the GCE simulator (`@ccm/gce-simulator`): it creates a
 * custom-mode network and a subnetwork through the Compute API, starts the
 * gcp-cloud-controller-manager binary against the simulator with a gce.conf using the simulator's
 * `token-url` and `api-endpoint`, creates instances as nodes, and reads load balancers and routes
 * back through the Compute API.
 *
 * Published as `@ccm/cloud-provider-gcp/conformance` for the shared conformance suite
 * (e2e/src/conformance/gcp.conformance.test.ts).
 */
import { GCE_UPSTREAM_METRICS } from '@ccm/cloud-provider-gcp';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
import { GceRest, last, seedInstance, seedNetwork, type SeededInstance } from '../support/gce-rest.js';
import { GcpSwapFixture } from './gcp-swap-fixture.js';
import { gceSimulatorUnavailableReason, GCE_SIMULATOR_INSTALL_HINT, startSimulator, type RunningGceSimulator } from '../support/gce-simulator-launcher.js';

/** The built binary (`pnpm exec tsc -b providers/cloud-provider-gcp`); the same path from test/ and from dist-test/. */
export const GCP_CCM_BIN = fileURLToPath(new URL('../../dist/cloud-controller-manager/main.js', import.meta.url));

const NETWORK = 'ccm-e2e';
const NODE_TAG = 'ccm-e2e-node';
const ROUTE_DESCRIPTION = 'k8s-node-route';
/** Instances per batch of `createInstances` (inserted concurrently). */
const INSTANCES_PER_BATCH = 50;

export interface GcpDriverOptions {
  /** The suite's `--cluster-name` (route names start with it). */
  clusterName?: string;
}

/** `a` + UID without dashes, first 32 characters (the CCM's load balancer name). */
export function loadBalancerName(uid: string): string {
  return `a${uid.replaceAll('-', '')}`.slice(0, 32);
}

/** The Compute method of a request: `GET zones/{zone}/instances`, `POST regions/{region}/targetPools/{name}/addInstance`, ... */
export function gceOperationOf(request: CloudRequest): string {
  const path = (request.path.split('?')[0] ?? '').replace(/^\/compute\/v1\/projects\/[^/]+\/?/, '');
  const segments = path.split('/');
  const generic = segments.map((segment, index) => {
    const previous = segments[index - 1];
    if (previous === 'zones') return '{zone}';
    if (previous === 'regions') return '{region}';
    if (previous !== undefined && /^(instances|routes|firewalls|targetPools|forwardingRules|addresses|httpHealthChecks|healthChecks|backendServices|instanceGroups|operations|networks|subnetworks)$/.test(previous)) return '{name}';
    return segment;
  });
  return `${request.method} ${generic.join('/')}`;
}

/** Firewall port strings (`80`, `8080-8081`) as port numbers. */
function expandPorts(ports: readonly string[]): number[] {
  return ports.flatMap((entry) => {
    const [first = 0, lastPort = first] = entry.split('-').map(Number);
    return Array.from({ length: lastPort - first + 1 }, (_, index) => first + index);
  });
}

interface RestFirewall {
  name: string;
  allowed?: Array<{ IPProtocol?: string; ports?: string[] }>;
}

interface RestRoute {
  name: string;
  destRange: string;
  nextHopInstance?: string;
  description?: string;
}

export class GcpDriver implements ProviderDriver {
  readonly name = 'gcp';
  readonly upstreamMetrics = GCE_UPSTREAM_METRICS;
  /** GCE routes to a deleted instance are not reported as blackholes by the simulator's list. */
  readonly capabilities: ProviderDriverCapabilities = {
    loadBalancer: true,
    routes: true,
    blackholeRoutes: false,
    internalLoadBalancer: { annotations: { 'networking.gke.io/load-balancer-type': 'Internal' } },
    externalTrafficPolicyLocal: true,
  };
  readonly installHint = `${GCE_SIMULATOR_INSTALL_HINT}, and build the CCM (pnpm exec tsc -b providers/cloud-provider-gcp)`;
  readonly clusterName: string;
  #simulator: RunningGceSimulator | undefined;
  #rest: GceRest | undefined;
  #directory: string | undefined;
  #cloudConfigPath: string | undefined;
  readonly #instances = new Map<string, SeededInstance>();
  /** Instances standing in for nodes of other clusters in injected routes. */
  readonly #foreign = new Set<string>();
  #injected = 0;
  /** What the upstream CCM leaves in the project (the swap scenario). */
  readonly swap = new GcpSwapFixture(() => ({
    rest: this.rest,
    url: this.simulator.url,
    project: this.simulator.project,
    region: this.simulator.region,
    zones: this.simulator.zones,
    network: NETWORK,
    subnetwork: `${NETWORK}-nodes`,
    nodeTags: [NODE_TAG],
  }));

  constructor(options: GcpDriverOptions = {}) {
    this.clusterName = options.clusterName ?? 'e2e';
  }

  async unavailableReason(): Promise<string | undefined> {
    return gceSimulatorUnavailableReason() ?? (existsSync(GCP_CCM_BIN) ? undefined : `the GCP CCM is not built (${GCP_CCM_BIN} is missing)`);
  }

  async start(): Promise<void> {
    this.#simulator = await startSimulator({ network: NETWORK });
    this.#rest = new GceRest(this.#simulator);
    await seedNetwork(this.#rest, NETWORK, this.#simulator.region);
    this.#directory = await mkdtemp(join(tmpdir(), 'ccm-e2e-gcp-'));
    this.#cloudConfigPath = await this.#writeCloudConfig('gce.conf', this.#simulator.url);
  }

  /** gce.conf against `url` (the simulator, or the benchmark's proxy in front of it); returns its path. */
  async #writeCloudConfig(fileName: string, url: string): Promise<string> {
    const simulator = this.simulator;
    if (this.#directory === undefined) throw new Error('GcpDriver: not started');
    const path = join(this.#directory, fileName);
    await writeFile(
      path,
      [
        '[global]',
        `project-id = ${simulator.project}`,
        `network-name = ${NETWORK}`,
        `subnetwork-name = ${NETWORK}-nodes`,
        `local-zone = ${simulator.zones[0]}`,
        'multizone = true',
        `node-tags = ${NODE_TAG}`,
        `api-endpoint = ${url}/compute/v1/`,
        `token-url = ${url}/token`,
        '',
      ].join('\n'),
    );
    return path;
  }

  async stop(): Promise<void> {
    await this.#simulator?.close();
    this.#simulator = undefined;
    if (this.#directory !== undefined) await rm(this.#directory, { recursive: true, force: true });
    this.#directory = undefined;
  }

  ccmProcess(): CcmProcessSpec {
    if (this.#cloudConfigPath === undefined) throw new Error('GcpDriver.ccmProcess() called before start()');
    return gcpCcmProcess(this.#cloudConfigPath);
  }

  cloudEndpoint(): CloudEndpoint {
    return { url: this.simulator.url, operationOf: gceOperationOf };
  }

  /** The CCM against `cloudUrl` (the benchmark's counting proxy); GCP has no lookup-policy or budget setting in gce.conf. */
  async benchCcmProcess(options: BenchCcmOptions): Promise<CcmProcessSpec> {
    return gcpCcmProcess(await this.#writeCloudConfig('bench-gce.conf', options.cloudUrl));
  }

  private get simulator(): RunningGceSimulator {
    if (this.#simulator === undefined) throw new Error('the GCE simulator is not started');
    return this.#simulator;
  }

  private get rest(): GceRest {
    if (this.#rest === undefined) throw new Error('the GCE simulator is not started');
    return this.#rest;
  }

  #zoneFor(index: number): string {
    const zones = this.simulator.zones;
    return zones[index % zones.length] ?? zones[0] ?? '';
  }

  #driverInstance(instance: SeededInstance): DriverInstance {
    this.#instances.set(instance.name, instance);
    return {
      nodeName: instance.name,
      expectedProviderId: `gce://${this.simulator.project}/${instance.zone}/${instance.name}`,
      expectedAddresses: [{ type: 'InternalIP', address: instance.networkIP }, ...(instance.natIP ? [{ type: 'ExternalIP', address: instance.natIP }] : [])],
      expectedInstanceType: instance.machineType,
      expectedZone: instance.zone,
      expectedRegion: this.simulator.region,
      internalIp: instance.networkIP,
    };
  }

  async createInstance(name: string): Promise<DriverInstance> {
    const seeded = await seedInstance(this.rest, { name, zone: this.#zoneFor(this.#instances.size), network: NETWORK, region: this.simulator.region, tags: [NODE_TAG] });
    return this.#driverInstance(seeded);
  }

  /** Instances inserted concurrently in batches, spread over the zones. */
  async createInstances(names: readonly string[]): Promise<DriverInstance[]> {
    const created: DriverInstance[] = [];
    for (let first = 0; first < names.length; first += INSTANCES_PER_BATCH) {
      const batch = names.slice(first, first + INSTANCES_PER_BATCH);
      const seeded = await Promise.all(
        batch.map((name, index) => seedInstance(this.rest, { name, zone: this.#zoneFor(first + index), network: NETWORK, region: this.simulator.region, tags: [NODE_TAG] })),
      );
      created.push(...seeded.map((instance) => this.#driverInstance(instance)));
    }
    return created;
  }

  #seeded(instance: DriverInstance): SeededInstance {
    const found = this.#instances.get(instance.nodeName);
    if (found === undefined) throw new Error(`instance ${instance.nodeName} was not created by this driver`);
    return found;
  }

  async stopInstance(instance: DriverInstance): Promise<void> {
    const seeded = this.#seeded(instance);
    await this.rest.mutate('POST', `zones/${seeded.zone}/instances/${seeded.name}/stop`);
  }

  async startInstance(instance: DriverInstance): Promise<void> {
    const seeded = this.#seeded(instance);
    await this.rest.mutate('POST', `zones/${seeded.zone}/instances/${seeded.name}/start`);
  }

  async deleteInstance(instance: DriverInstance): Promise<void> {
    const seeded = this.#seeded(instance);
    await this.rest.mutate('DELETE', `zones/${seeded.zone}/instances/${seeded.name}`);
  }

  /**
   * The forwarding rule says whether the load balancer exists and whether it is internal; the
   * backends are the target pool's instances (external) or the members of the backend service's
   * instance groups (internal); the `k8s-fw-` firewall gives the exact ports; the health check
   * (legacy HTTP check of the pool, or the backend service's check) its node port.
   */
  async readLoadBalancer(service: { namespace: string; name: string; uid: string }): Promise<CloudLoadBalancerView> {
    const name = loadBalancerName(service.uid);
    const region = this.simulator.region;
    const rule = await this.rest.get<{ portRange?: string; ports?: string[]; loadBalancingScheme?: string; backendService?: string }>(`regions/${region}/forwardingRules/${name}`);
    if (rule === undefined) return { exists: false, backendNodeNames: [], ports: [] };
    const firewall = await this.rest.get<RestFirewall>(`global/firewalls/k8s-fw-${name}`);
    const rulePorts = rule.portRange ? [rule.portRange] : (rule.ports ?? []);
    const ports = firewall === undefined ? expandPorts(rulePorts) : expandPorts((firewall.allowed ?? []).flatMap((allowed) => allowed.ports ?? []));
    const internal = rule.loadBalancingScheme === 'INTERNAL';
    let backendNodeNames: string[] = [];
    let healthCheckNodePort: number | undefined;
    if (internal) {
      const backendService = rule.backendService === undefined ? undefined : await this.rest.get<{ backends?: Array<{ group?: string }>; healthChecks?: string[] }>(`regions/${region}/backendServices/${last(rule.backendService)}`);
      for (const backend of backendService?.backends ?? []) {
        const group = backend.group ?? '';
        const zone = /\/zones\/([^/]+)\//.exec(group)?.[1] ?? '';
        const listed = await this.rest.request<{ items?: Array<{ instance?: string }> }>('POST', `zones/${zone}/instanceGroups/${last(group)}/listInstances`, { instanceState: 'ALL' });
        backendNodeNames.push(...(listed.items ?? []).map((item) => last(item.instance ?? '')));
      }
      const check = backendService?.healthChecks?.[0];
      if (check !== undefined) healthCheckNodePort = (await this.rest.get<{ httpHealthCheck?: { port?: number } }>(`global/healthChecks/${last(check)}`))?.httpHealthCheck?.port;
    } else {
      const pool = await this.rest.get<{ instances?: string[]; healthChecks?: string[] }>(`regions/${region}/targetPools/${name}`);
      backendNodeNames = (pool?.instances ?? []).map(last);
      const check = pool?.healthChecks?.[0];
      if (check !== undefined) healthCheckNodePort = (await this.rest.get<{ port?: number }>(`global/httpHealthChecks/${last(check)}`))?.port;
    }
    return {
      exists: true,
      backendNodeNames: [...new Set(backendNodeNames)].sort(),
      ports: [...new Set(ports)].sort((a, b) => a - b),
      internal,
      ...(healthCheckNodePort === undefined ? {} : { healthCheckNodePort }),
    };
  }

  async #nodeRoutes(): Promise<RestRoute[]> {
    return (await this.rest.list<RestRoute>('global/routes')).filter((route) => route.description === ROUTE_DESCRIPTION);
  }

  async readRoutes(): Promise<CloudRouteView[]> {
    return (await this.#nodeRoutes()).map((route) => ({ destinationCidr: route.destRange, targetNodeName: route.nextHopInstance === undefined ? '' : last(route.nextHopInstance) }));
  }

  /** Everything the CCM creates that is still there: load balancer resources, and node routes not injected by the driver. */
  async leakedResources(): Promise<string[]> {
    const region = this.simulator.region;
    const names = async (path: string): Promise<string[]> => (await this.rest.list<{ name: string }>(path)).map((item) => item.name);
    return [
      ...(await names(`regions/${region}/forwardingRules`)).map((name) => `forwarding rule ${name}`),
      ...(await names(`regions/${region}/targetPools`)).map((name) => `target pool ${name}`),
      ...(await names(`regions/${region}/addresses`)).map((name) => `address ${name}`),
      ...(await names('global/httpHealthChecks')).map((name) => `http health check ${name}`),
      ...(await names(`regions/${region}/backendServices`)).map((name) => `backend service ${name}`),
      ...(await names('global/healthChecks')).map((name) => `health check ${name}`),
      ...(await this.#instanceGroupNames()).map((name) => `instance group ${name}`),
      ...(await names('global/firewalls')).filter((name) => name.startsWith('k8s-') || /^a[0-9a-f]{31}(-hc)?$/.test(name)).map((name) => `firewall ${name}`),
      ...(await this.#nodeRoutes()).filter((route) => !this.#foreign.has(last(route.nextHopInstance ?? ''))).map((route) => `route ${route.name} ${route.destRange}`),
    ];
  }

  async #instanceGroupNames(): Promise<string[]> {
    const found: string[] = [];
    for (const zone of this.simulator.zones) found.push(...(await this.rest.list<{ name: string }>(`zones/${zone}/instanceGroups`)).map((group) => `${zone}/${group.name}`));
    return found;
  }

  /** A route named like the cluster's, to an instance that is not a node of this cluster. */
  async injectRoute(route: InjectedRoute): Promise<void> {
    if (route.blackhole === true) throw new Error('the GCE driver cannot create blackhole routes');
    const zone = this.#zoneFor(0);
    if (!this.#foreign.has(route.targetNodeName)) {
      await seedInstance(this.rest, { name: route.targetNodeName, zone, network: NETWORK, region: this.simulator.region });
      this.#foreign.add(route.targetNodeName);
    }
    this.#injected++;
    await this.rest.mutate('POST', 'global/routes', {
      name: `${this.clusterName.slice(0, 26)}-injected-${this.#injected}`,
      network: `global/networks/${NETWORK}`,
      destRange: route.destinationCidr,
      nextHopInstance: `zones/${zone}/instances/${route.targetNodeName}`,
      priority: 1000,
      description: ROUTE_DESCRIPTION,
    });
  }

  async removeRoute(destinationCidr: string): Promise<void> {
    for (const route of (await this.rest.list<RestRoute>('global/routes')).filter((candidate) => candidate.destRange === destinationCidr)) {
      await this.rest.mutate('DELETE', `global/routes/${route.name}`);
    }
  }
}

/** The gcp-cloud-controller-manager with `cloudConfigPath`; no metadata server and no ADC are needed (token-url). */
function gcpCcmProcess(cloudConfigPath: string): CcmProcessSpec {
  return {
    command: process.execPath,
    args: [GCP_CCM_BIN, '--cloud-provider=gce', `--cloud-config=${cloudConfigPath}`],
    env: {},
  };
}

export const gcpDriver = new GcpDriver();
