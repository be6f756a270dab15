/**
 * The conformance driver of the OpenStack provider: the real Keystone and Neutron (and Octavia)
 * from Debian's Zed packages started by `@ccm/openstack-services`, with its Nova stand-in
 * (registered in Keystone's catalog as `compute`; a server's ports are real Neutron ports).
 * The driver seeds, through openstack-client-ts, a node network and subnet and a router with an
 * interface on it (the router of `[Route] router-id`), and an external network (the router's
 * gateway, the `floating-network-id`); instances are Nova servers on that network, and routes are
 * read back from the router's extra routes. Load balancers are real Octavia load balancers; that
 * Octavia runs the amphora provider with noop drivers, so the CCM runs with
 * `OCCM_RESERVE_VIP_PORT=true` and `provider-requires-serial-api-calls = true` (the provider's
 * docs/testing.md says why), and the driver reads them back through openstack-client-ts. The CCM
 * runs with `manage-security-groups = true`: the driver reads each Service's security group
 * (`lb-sg-<uid>-<namespace>-<name>`) from Neutron as the view's node firewall (its ingress rules,
 * and the servers whose ports hold it); a group left after its Service is a leak.
 * For benchmarks every service is reached through one URL (`openstack-catalog-router.ts`) that
 * the counting proxy fronts.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OPENSTACK_ALL_UPSTREAM_METRICS, formatOpenStackProviderId } from '@ccm/cloud-provider-openstack';
import type { LoadBalancer as OctaviaLoadBalancer } from 'openstack-client-ts';
import { OPENSTACK_SERVICES_INSTALL_HINT, openStackServicesForTests, openStackServicesUnavailableReason, type TestServices } from '@ccm/openstack-services';
import type {
  BenchCcmOptions,
  CcmProcessSpec,
  CloudEndpoint,
  CloudLoadBalancerView,
  CloudNodeFirewallView,
  CloudRouteView,
  DriverInstance,
  InjectedRoute,
  ProviderDriver,
  ProviderDriverCapabilities,
} from '@ccm/testing/conformance';
import { OpenStackClient, isOpenStackError } from 'openstack-client-ts';
import { openStackOperationOf, startCatalogRouter, type CatalogRouter } from './openstack-catalog-router.js';
import { OpenStackSwapFixture } from './openstack-swap-fixture.js';
import { allocationPoolsWithoutOrphanNextHops, orphanNextHop } from './orphan-next-hops.js';

export const OPENSTACK_CCM_BIN = fileURLToPath(new URL('../../dist/cloud-controller-manager/main.js', import.meta.url));

/** The node subnet: outside the suite's cluster CIDR (10.244.0.0/16) and its foreign routes (192.168.x). */
const NODE_CIDR = '10.250.0.0/24';
/** Benchmarks: room for 4,000 servers. */
export const BENCH_NODE_CIDR = '10.250.16.0/20';
const FLAVOR = { ref: '2', name: 'm1.small' } as const;
/** The external network's subnet: where floating IPs come from. */
const FLOATING_CIDR = '172.29.0.0/24';
/** Upstream's annotation for an internal load balancer. */
const INTERNAL_ANNOTATION = 'service.beta.kubernetes.io/openstack-internal-load-balancer';
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
  readonly upstreamMetrics = OPENSTACK_ALL_UPSTREAM_METRICS;
  readonly capabilities: ProviderDriverCapabilities;
  /**
   * The suite's 20 s per load balancer step is too short here: serial Octavia calls, each waiting
   * for the load balancer to turn ACTIVE again, plus the security group calls took 28 s for one
   * create at load 25-30 on the shared 2-core machine (2026-11-29), more while other Services sync.
   */
  readonly loadBalancerWaitMs = 90_000;
  readonly installHint = `${OPENSTACK_SERVICES_INSTALL_HINT}; build the CCM (npx -y pnpm@10.34.8 build)`;
  #services: TestServices | undefined;
  #client: OpenStackClient | undefined;
  #directory: string | undefined;
  #cloudConfigPath: string | undefined;
  #networkId = '';
  #subnetId = '';
  #routerId = '';
  #externalNetworkId = '';
  readonly #servers = new Map<string, SeededServer>();
  /** Injected routes to nodes that do not exist: destination -> the node name they claim. */
  readonly #orphanNextHops = new Map<string, string>();
  /** The UIDs of the Services whose load balancers were read: their security groups are `lb-sg-<uid>-...`. */
  readonly #serviceUids = new Set<string>();
  #run = `${process.pid}-${Date.now().toString(36)}`;
  readonly #nodeCidr: string;
  #router: CatalogRouter | undefined;
  #benchCount = 0;
  /** What the upstream CCM leaves in this cloud (the swap scenario). */
  readonly swap = new OpenStackSwapFixture({
    client: () => this.#requireClient(),
    subnetId: () => this.#subnetId,
    networkId: () => this.#networkId,
    externalNetworkId: () => this.#externalNetworkId,
    routerId: () => this.#routerId,
  });

  constructor(options: { nodeCidr?: string } = {}) {
    this.#nodeCidr = options.nodeCidr ?? NODE_CIDR;
    this.capabilities = {
      loadBalancer: true,
      routes: true,
      blackholeRoutes: true,
      internalLoadBalancer: { annotations: { [INTERNAL_ANNOTATION]: 'true' } },
      externalTrafficPolicyLocal: true,
      // The amphora provider: node ports are opened to the member subnet (the node subnet here).
      nodeFirewall: { sourceRanges: [this.#nodeCidr] },
    };
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
    // Ports get addresses from pools that leave out the injected routes' orphan next hops: a server
    // given one of them would turn a "blackhole" into a route of that node (a CI run saw it).
    const subnet = await client.network.subnets.create({ name: `ccm-conformance-nodes-${this.#run}`, network_id: network.id, ip_version: 4, cidr: this.#nodeCidr, enable_dhcp: false, allocation_pools: allocationPoolsWithoutOrphanNextHops(this.#nodeCidr) });
    this.#subnetId = subnet.id;
    // Floating IPs need the external network reachable from the node subnet: the router's gateway.
    const external = await client.network.networks.create({ name: `ccm-conformance-public-${this.#run}`, 'router:external': true });
    this.#externalNetworkId = external.id;
    await client.network.subnets.create({ name: `ccm-conformance-public-${this.#run}`, network_id: external.id, ip_version: 4, cidr: FLOATING_CIDR, enable_dhcp: false });
    const router = await client.network.routers.create({ name: `ccm-conformance-${this.#run}`, external_gateway_info: { network_id: external.id } });
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
      // What a failed run may have left of the load balancers, so that the networks can go.
      for (const loadBalancer of await this.#loadBalancers()) {
        await ignoreNotFound(client.loadBalancer.loadBalancers.delete(loadBalancer.id, undefined, { cascade: true }));
        await client.loadBalancer.loadBalancers.waitForStatus(loadBalancer.id, 'DELETED', { initialDelayMs: 500 }).catch(() => undefined);
      }
      if (this.#externalNetworkId !== '') {
        for (const floating of await client.network.floatingIps.list({ floating_network_id: this.#externalNetworkId })) await ignoreNotFound(client.network.floatingIps.delete(floating.id));
      }
      for (const port of await this.#vipPorts()) await ignoreNotFound(client.network.ports.delete(port.id));
      // Octavia's VIP ports the swap fixture made, should its clean-up not have run.
      if (this.#networkId !== '') {
        for (const port of await client.network.ports.list({ network_id: this.#networkId })) {
          if ((port.name ?? '').startsWith('octavia-lb-')) await ignoreNotFound(client.network.ports.delete(port.id));
        }
      }
      for (const group of await this.#serviceSecurityGroups()) await ignoreNotFound(client.network.securityGroups.delete(group.id)).catch(() => undefined);
      if (this.#routerId !== '') {
        await ignoreNotFound(client.network.routers.setRoutes(this.#routerId, []));
        await ignoreNotFound(client.network.routers.removeInterface(this.#routerId, { subnet_id: this.#subnetId }));
        await ignoreNotFound(client.network.routers.delete(this.#routerId));
      }
      if (this.#networkId !== '') await ignoreNotFound(client.network.networks.delete(this.#networkId));
      if (this.#externalNetworkId !== '') await ignoreNotFound(client.network.networks.delete(this.#externalNetworkId));
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
      '[LoadBalancer]',
      `subnet-id = ${this.#subnetId}`,
      `floating-network-id = ${this.#externalNetworkId}`,
      'create-monitor = true',
      // The noop-driver Octavia leaves the children of a fully populated create PENDING_CREATE.
      'provider-requires-serial-api-calls = true',
      'manage-security-groups = true',
      '',
    ].join('\n');
  }

  ccmProcess(): CcmProcessSpec {
    if (this.#cloudConfigPath === undefined) throw new Error('OpenStackDriver.ccmProcess() called before start()');
    return { command: process.execPath, args: [OPENSTACK_CCM_BIN, '--cloud-provider=openstack', `--cloud-config=${this.#cloudConfigPath}`], env: CCM_ENVIRONMENT };
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
    return { command: process.execPath, args: [OPENSTACK_CCM_BIN, '--cloud-provider=openstack', `--cloud-config=${path}`], env: CCM_ENVIRONMENT };
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

  /**
   * The Service's load balancer: on this run's node subnet, described `Kubernetes external service
   * <namespace>/<name> from cluster <cluster>` (the suite chooses `--cluster-name`): its listeners'
   * ports, its pool's members (by address the servers of this driver, else the member name: the
   * node name ours gives, `member_<node>_<address>_<port>` upstream's serial calls give), internal when no floating IP is on the port
   * holding its VIP, and the node port its health monitor probes (a member's monitor port, else
   * its traffic port).
   */
  async readLoadBalancer(service: { namespace: string; name: string; uid: string }): Promise<CloudLoadBalancerView> {
    const client = this.#requireClient();
    this.#serviceUids.add(service.uid);
    const description = `Kubernetes external service ${service.namespace}/${service.name} from cluster `;
    const [loadBalancer] = (await this.#loadBalancers()).filter((candidate) => candidate.name.startsWith('kube_service_') && candidate.description.startsWith(description) && candidate.provisioning_status !== 'PENDING_DELETE');
    const nodeFirewall = await this.#nodeFirewall(service);
    const firewall = nodeFirewall === undefined ? {} : { nodeFirewall };
    if (loadBalancer === undefined) return { exists: false, backendNodeNames: [], ports: [], ...firewall };
    const listeners = await client.loadBalancer.listeners.list({ loadbalancer_id: loadBalancer.id });
    const pools = await client.loadBalancer.pools.list({ loadbalancer_id: loadBalancer.id });
    const members = pools[0] === undefined ? [] : await client.loadBalancer.pools.listMembers(pools[0].id);
    const vipPorts = (await client.network.ports.list({ fixed_ips: [`ip_address=${loadBalancer.vip_address}`] })).filter((port) => port.fixed_ips.some((fixed) => fixed.subnet_id === loadBalancer.vip_subnet_id));
    const floating = vipPorts.length === 0 ? [] : await client.network.floatingIps.list({ port_id: vipPorts.map((port) => port.id) });
    const monitored = pools[0]?.healthmonitor_id !== null && pools[0]?.healthmonitor_id !== undefined;
    const probed = members[0] === undefined ? undefined : (members[0].monitor_port ?? members[0].protocol_port);
    return {
      exists: true,
      backendNodeNames: [...new Set(members.map((member) => [...this.#servers.values()].find((server) => server.ip === member.address)?.name ?? member.name))].sort(),
      ports: [...new Set(listeners.map((listener) => listener.protocol_port))].sort((a, b) => a - b),
      internal: floating.length === 0,
      ...(monitored && probed !== undefined ? { healthCheckNodePort: probed } : {}),
      ...firewall,
    };
  }

  /**
   * The Service's security group (`lb-sg-<uid>-<namespace>-<name>`, upstream's name) as a node
   * firewall: its ingress rules by protocol and port with their remote prefixes, and the servers
   * whose ports hold it (by node name; a port of another device by its device ID). Undefined when
   * Neutron has no such group.
   */
  async #nodeFirewall(service: { namespace: string; name: string; uid: string }): Promise<CloudNodeFirewallView | undefined> {
    const client = this.#requireClient();
    const [group] = await client.network.securityGroups.list({ name: `lb-sg-${service.uid}-${service.namespace}-${service.name}` });
    if (group === undefined) return undefined;
    const sources = new Map<string, { protocol: string; port: number; sourceRanges: string[] }>();
    for (const rule of group.security_group_rules) {
      if (rule.direction !== 'ingress') continue;
      const protocol = (rule.protocol ?? 'any').toUpperCase();
      const port = rule.port_range_min ?? 0;
      const key = `${protocol}/${port}`;
      const entry = sources.get(key) ?? { protocol, port, sourceRanges: [] };
      entry.sourceRanges.push(rule.remote_ip_prefix ?? 'any');
      sources.set(key, entry);
    }
    const rules = [...sources.values()].map((rule) => ({ ...rule, sourceRanges: rule.sourceRanges.sort() })).sort((left, right) => left.protocol.localeCompare(right.protocol) || left.port - right.port);
    const ports = await client.network.ports.list({ security_groups: [group.id] });
    const nodeNames = ports.map((port) => [...this.#servers.values()].find((server) => server.id === port.device_id)?.name ?? port.device_id).sort();
    return { rules, nodeNames };
  }

  /** Load balancers with their VIP on this run's node subnet. */
  async #loadBalancers(): Promise<OctaviaLoadBalancer[]> {
    if (this.#subnetId === '') return [];
    return (await this.#requireClient().loadBalancer.loadBalancers.list({ vip_subnet_id: this.#subnetId })).filter((candidate) => candidate.provisioning_status !== 'DELETED');
  }

  /** The VIP ports the CCM reserved (`vip_kube_service_...`) on this run's node network. */
  async #vipPorts(): Promise<Array<{ id: string; name: string }>> {
    if (this.#networkId === '') return [];
    return (await this.#requireClient().network.ports.list({ network_id: this.#networkId })).filter((port) => (port.name ?? '').startsWith('vip_kube_service_'));
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

  /** The security groups the CCM made for the Services whose load balancers were read. */
  async #serviceSecurityGroups(): Promise<Array<{ id: string; name: string }>> {
    if (this.#serviceUids.size === 0) return [];
    const prefixes = [...this.#serviceUids].map((uid) => `lb-sg-${uid}-`);
    return (await this.#requireClient().network.securityGroups.list()).filter((group) => prefixes.some((prefix) => group.name.startsWith(prefix)));
  }

  /** Routes to servers this driver created; load balancers, floating IPs, reserved VIP ports and security groups the CCM made. */
  async leakedResources(): Promise<string[]> {
    const client = this.#requireClient();
    const ours = new Set([...this.#servers.values()].map((server) => server.ip));
    const router = await client.network.routers.get(this.#routerId);
    return [
      ...(router.routes ?? []).filter((route) => ours.has(route.nexthop)).map((route) => `route ${route.destination} via ${route.nexthop}`),
      ...(await this.#loadBalancers()).map((loadBalancer) => `load balancer ${loadBalancer.name} (${loadBalancer.provisioning_status})`),
      ...(await client.network.floatingIps.list({ floating_network_id: this.#externalNetworkId })).map((floating) => `floating IP ${floating.floating_ip_address}`),
      ...(await this.#vipPorts()).map((port) => `port ${port.name}`),
      ...(await this.#serviceSecurityGroups()).map((group) => `security group ${group.name}`),
    ];
  }

  /** A route to a live server's IP, or (blackhole, or a node this driver never created) to an unused IP of the node subnet. */
  async injectRoute(route: InjectedRoute): Promise<void> {
    const server = route.blackhole === true ? undefined : this.#servers.get(route.targetNodeName);
    let nexthop = server?.ip;
    if (nexthop === undefined) {
      nexthop = orphanNextHop(this.#nodeCidr, this.#orphanNextHops.size);
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

/** The CCM's environment: the noop network driver of these services makes no VIP port (docs/testing.md). */
const CCM_ENVIRONMENT: Record<string, string> = { OCCM_RESERVE_VIP_PORT: 'true' };

export const openStackDriver = new OpenStackDriver();
