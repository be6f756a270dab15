/**
 * The conformance driver of the OpenStack provider: the real Keystone and Neutron (and Octavia)
 * from Debian's Zed packages started by `@ccm/openstack-services`, with its Nova stand-in
 * (registered in Keystone's catalog as `compute`; a server's ports are real Neutron ports).
 * The driver seeds, through openstack-client-ts, a node network and subnet and a router with an
 * interface on it (the router of `[Route] router-id`); instances are Nova servers on that network,
 * and routes are read back from the router's extra routes. LoadBalancer is not registered yet.
 * For benchmarks every service is reached through one URL (`openstack-catalog-router.ts`) that
 * the counting proxy fronts.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatOpenStackProviderId } from '@ccm/cloud-provider-openstack';
import { OPENSTACK_SERVICES_INSTALL_HINT, openStackServicesForTests, openStackServicesUnavailableReason, type TestServices } from '@ccm/openstack-services';
import type {
  BenchCcmOptions,
  CcmProcessSpec,
  CloudEndpoint,
  CloudLoadBalancerView,
  CloudRouteView,
  DriverInstance,
  InjectedRoute,
  ProviderDriver,
  ProviderDriverCapabilities,
} from '@ccm/testing/conformance';
import { OpenStackClient, isOpenStackError } from 'openstack-client-ts';
import { openStackOperationOf, startCatalogRouter, type CatalogRouter } from './openstack-catalog-router.js';

export const OPENSTACK_CCM_BIN = fileURLToPath(new URL('../../dist/cloud-controller-manager/main.js', import.meta.url));

/** The node subnet: outside the suite's cluster CIDR (10.244.0.0/16) and its foreign routes (192.168.x). */
const NODE_CIDR = '10.250.0.0/24';
/** Benchmarks: room for 4,000 servers. */
export const BENCH_NODE_CIDR = '10.250.16.0/20';
/** Next hops of injected routes to nodes that do not exist: on the node subnet (Neutron requires it), never given to a port. */
const ORPHAN_NEXT_HOP_BASE = 240;
const FLAVOR = { ref: '2', name: 'm1.small' } as const;
const AVAILABILITY_ZONE = 'nova';
/** Any image ID: the Nova stand-in boots nothing (Glance is not among the services). */
const IMAGE_REF = '70a599e0-31e7-49b7-b260-868f441e862b';

interface SeededServer {
  id: string;
  name: string;
  ip: string;
}

export class OpenStackDriver implements ProviderDriver {
  readonly name = 'openstack';
  readonly capabilities: ProviderDriverCapabilities = { loadBalancer: false, routes: true, blackholeRoutes: true };
  readonly installHint = `${OPENSTACK_SERVICES_INSTALL_HINT}; build the CCM (npx -y pnpm@10.34.8 build)`;
  #services: TestServices | undefined;
  #client: OpenStackClient | undefined;
  #directory: string | undefined;
  #cloudConfigPath: string | undefined;
  #networkId = '';
  #subnetId = '';
  #routerId = '';
  readonly #servers = new Map<string, SeededServer>();
  /** Injected routes to nodes that do not exist: destination -> the node name they claim. */
  readonly #orphanNextHops = new Map<string, string>();
  #run = `${process.pid}-${Date.now().toString(36)}`;
  readonly #nodeCidr: string;
  #router: CatalogRouter | undefined;
  #benchCount = 0;

  constructor(options: { nodeCidr?: string } = {}) {
    this.#nodeCidr = options.nodeCidr ?? NODE_CIDR;
  }

  async unavailableReason(): Promise<string | undefined> {
    return openStackServicesUnavailableReason() ?? (existsSync(OPENSTACK_CCM_BIN) ? undefined : `the OpenStack CCM is not built (${OPENSTACK_CCM_BIN} is missing)`);
  }

  async start(): Promise<void> {
    const services = await openStackServicesForTests({ log: (line) => console.info(`[openstack-services] ${line}`) });
    this.#services = services;
    const client = new OpenStackClient({
      authUrl: services.authUrl,
      region: services.region,
      credentials: { method: 'password', username: services.username, password: services.password, userDomainName: services.userDomainName },
      scope: { projectName: services.projectName, projectDomainName: services.projectDomainName },
      ...(services.caFile === undefined ? {} : { tls: { caFile: services.caFile } }),
    });
    this.#client = client;
    const network = await client.network.networks.create({ name: `ccm-conformance-nodes-${this.#run}` });
    this.#networkId = network.id;
    const subnet = await client.network.subnets.create({ name: `ccm-conformance-nodes-${this.#run}`, network_id: network.id, ip_version: 4, cidr: this.#nodeCidr, enable_dhcp: false });
    this.#subnetId = subnet.id;
    const router = await client.network.routers.create({ name: `ccm-conformance-${this.#run}` });
    this.#routerId = router.id;
    await client.network.routers.addInterface(router.id, { subnet_id: subnet.id });
    this.#router = await startCatalogRouter(services.authUrl);
    this.#directory = await mkdtemp(join(tmpdir(), 'ccm-e2e-openstack-'));
    this.#cloudConfigPath = join(this.#directory, 'cloud.conf');
    await writeFile(this.#cloudConfigPath, this.#cloudConf(), { mode: 0o600 });
  }

  async stop(): Promise<void> {
    const client = this.#client;
    if (client !== undefined) {
      for (const server of this.#servers.values()) await ignoreNotFound(client.compute.deleteServer(server.id));
      this.#servers.clear();
      if (this.#routerId !== '') {
        await ignoreNotFound(client.network.routers.setRoutes(this.#routerId, []));
        await ignoreNotFound(client.network.routers.removeInterface(this.#routerId, { subnet_id: this.#subnetId }));
        await ignoreNotFound(client.network.routers.delete(this.#routerId));
      }
      if (this.#networkId !== '') await ignoreNotFound(client.network.networks.delete(this.#networkId));
    }
    this.#client = undefined;
    await this.#router?.close();
    this.#router = undefined;
    await this.#services?.close();
    this.#services = undefined;
    if (this.#directory !== undefined) await rm(this.#directory, { recursive: true, force: true });
    this.#directory = undefined;
  }

  /** The services' admin user in its project, the region, and the seeded router. */
  #cloudConf(authUrl?: string): string {
    const services = this.#requireServices();
    return [
      '[Global]',
      `auth-url = ${authUrl ?? services.authUrl}`,
      `username = ${services.username}`,
      `password = ${services.password}`,
      `user-domain-name = ${services.userDomainName}`,
      `tenant-name = ${services.projectName}`,
      `tenant-domain-name = ${services.projectDomainName}`,
      `region = ${services.region}`,
      ...(services.caFile === undefined ? [] : [`ca-file = ${services.caFile}`]),
      '',
      '[Route]',
      `router-id = ${this.#routerId}`,
      '',
    ].join('\n');
  }

  ccmProcess(): CcmProcessSpec {
    if (this.#cloudConfigPath === undefined) throw new Error('OpenStackDriver.ccmProcess() called before start()');
    return { command: process.execPath, args: [OPENSTACK_CCM_BIN, '--cloud-provider=openstack', `--cloud-config=${this.#cloudConfigPath}`] };
  }

  /** Keystone and, through the rewritten catalog, every service at one URL. */
  cloudEndpoint(): CloudEndpoint {
    if (this.#router === undefined) throw new Error('OpenStackDriver.cloudEndpoint() called before start()');
    return { url: this.#router.url, operationOf: openStackOperationOf };
  }

  /**
   * The CCM against the benchmark's counting proxy: `auth-url` on the proxy, so that the catalog
   * it gets back sends every service call through the proxy too. The provider has no lookup-policy
   * or budget key in cloud.conf (upstream has neither), so both are ignored.
   */
  async benchCcmProcess(options: BenchCcmOptions): Promise<CcmProcessSpec> {
    if (this.#directory === undefined) throw new Error('OpenStackDriver.benchCcmProcess() called before start()');
    const keystonePath = new URL(this.#requireServices().authUrl).pathname.replace(/\/$/, '');
    const path = join(this.#directory, `bench-cloud-${this.#benchCount++}.conf`);
    await writeFile(path, this.#cloudConf(`${options.cloudUrl.replace(/\/$/, '')}${keystonePath}`), { mode: 0o600 });
    return { command: process.execPath, args: [OPENSTACK_CCM_BIN, '--cloud-provider=openstack', `--cloud-config=${path}`] };
  }

  async createInstance(name: string): Promise<DriverInstance> {
    const client = this.#requireClient();
    const created = await client.compute.createServer({ name, imageRef: IMAGE_REF, flavorRef: FLAVOR.ref, networks: [{ uuid: this.#networkId }], availability_zone: AVAILABILITY_ZONE });
    const server = await client.compute.getServer(created.id);
    const ip = Object.values(server.addresses ?? {}).flat().find((address) => address.version === 4)?.addr;
    if (ip === undefined) throw new Error(`server ${name} (${created.id}) got no IPv4 address on the node network`);
    this.#servers.set(name, { id: created.id, name, ip });
    return {
      nodeName: name,
      expectedProviderId: formatOpenStackProviderId(created.id),
      expectedAddresses: [{ type: 'InternalIP', address: ip }],
      expectedInstanceType: FLAVOR.name,
      expectedZone: AVAILABILITY_ZONE,
      expectedRegion: this.#requireServices().region,
      internalIp: ip,
    };
  }

  async stopInstance(instance: DriverInstance): Promise<void> {
    await this.#requireClient().compute.stopServer(this.#server(instance).id);
  }

  async startInstance(instance: DriverInstance): Promise<void> {
    await this.#requireClient().compute.startServer(this.#server(instance).id);
  }

  async deleteInstance(instance: DriverInstance): Promise<void> {
    await this.#requireClient().compute.deleteServer(this.#server(instance).id);
    this.#servers.delete(instance.nodeName);
  }

  async readLoadBalancer(_service: { namespace: string; name: string; uid: string }): Promise<CloudLoadBalancerView> {
    throw new Error('the OpenStack conformance driver does not register LoadBalancer yet (capabilities.loadBalancer is false)');
  }

  /** The router's extra routes; the target is the server holding the next hop, else the node name an injected route claimed (a blackhole). */
  async readRoutes(): Promise<CloudRouteView[]> {
    const router = await this.#requireClient().network.routers.get(this.#routerId);
    return (router.routes ?? []).map((route) => {
      const server = [...this.#servers.values()].find((candidate) => candidate.ip === route.nexthop);
      if (server !== undefined) return { destinationCidr: route.destination, targetNodeName: server.name };
      return { destinationCidr: route.destination, targetNodeName: this.#orphanNextHops.get(route.destination) ?? route.nexthop, blackhole: true };
    });
  }

  /** Routes to servers this driver created. */
  async leakedResources(): Promise<string[]> {
    const ours = new Set([...this.#servers.values()].map((server) => server.ip));
    const router = await this.#requireClient().network.routers.get(this.#routerId);
    return (router.routes ?? []).filter((route) => ours.has(route.nexthop)).map((route) => `route ${route.destination} via ${route.nexthop}`);
  }

  /** A route to a live server's IP, or (blackhole, or a node this driver never created) to an unused IP of the node subnet. */
  async injectRoute(route: InjectedRoute): Promise<void> {
    const server = route.blackhole === true ? undefined : this.#servers.get(route.targetNodeName);
    let nexthop = server?.ip;
    if (nexthop === undefined) {
      nexthop = `${this.#nodeCidr.split('.').slice(0, 3).join('.')}.${ORPHAN_NEXT_HOP_BASE + (this.#orphanNextHops.size % 10)}`;
      this.#orphanNextHops.set(route.destinationCidr, route.targetNodeName);
    }
    await this.#requireClient().network.routers.addExtraRoutes(this.#routerId, [{ destination: route.destinationCidr, nexthop }]);
  }

  async removeRoute(destinationCidr: string): Promise<void> {
    const client = this.#requireClient();
    const router = await client.network.routers.get(this.#routerId);
    const matching = (router.routes ?? []).filter((route) => route.destination === destinationCidr);
    if (matching.length > 0) await client.network.routers.removeExtraRoutes(this.#routerId, matching);
    this.#orphanNextHops.delete(destinationCidr);
  }

  #server(instance: DriverInstance): SeededServer {
    const server = this.#servers.get(instance.nodeName);
    if (server === undefined) throw new Error(`OpenStackDriver: no instance ${instance.nodeName}`);
    return server;
  }

  #requireServices(): TestServices {
    if (this.#services === undefined) throw new Error('OpenStackDriver: not started');
    return this.#services;
  }

  #requireClient(): OpenStackClient {
    if (this.#client === undefined) throw new Error('OpenStackDriver: not started');
    return this.#client;
  }
}

async function ignoreNotFound(call: Promise<unknown>): Promise<void> {
  try {
    await call;
  } catch (error) {
    if (!isOpenStackError(error, 'NotFound')) throw error;
  }
}

export const openStackDriver = new OpenStackDriver();
