/**
 * The swap scenario's fixture for OpenStack: writes into the real Keystone, Neutron and Octavia of
 * `@ccm/openstack-services` what the upstream openstack-cloud-controller-manager at the pinned commit
 * `98668a4b73` (docs/parity.md "OpenStack") leaves behind for each Service and node, with the
 * cloud.conf the conformance driver gives our CCM (`subnet-id`, `floating-network-id`,
 * `create-monitor = true`, `provider-requires-serial-api-calls = true`, `lb-provider` amphora by
 * default, `[Route] router-id`). Citations name upstream's `pkg/openstack/loadbalancer.go` (LB.go
 * below), `pkg/util/openstack/loadbalancer_serial.go` (serial.go) and `routes.go`.
 *
 * What Octavia itself makes is modelled too where the services' noop network driver does not make
 * it: the VIP port (`octavia-lb-<id>`, `device_owner` Octavia, `device_id` lb-<id>, as Octavia's
 * `allowed_address_pairs` driver `allocate_vip` names it), on which upstream's floating IP goes.
 * Real Octavia deletes that port with its load balancer; the noop driver does not, so the fixture's
 * `cleanUp` does, and `inventory` lists a VIP port only while its load balancer lives.
 */
import type {
  ProviderSwapFixture,
  SwapInventory,
  SwapNodeSeed,
  SwapServiceSeed,
  SwapServiceVariant,
  UpstreamServiceState,
} from '@ccm/testing/conformance';
import type { LoadBalancer as OctaviaLoadBalancer, OpenStackClient } from 'openstack-client-ts';
import { isOpenStackError } from 'openstack-client-ts';

/** What the fixture needs of the conformance driver's cloud (seeded by its `start`). */
export interface SwapCloud {
  client(): OpenStackClient;
  /** `[LoadBalancer] subnet-id`: the node subnet, where VIPs and members are. */
  subnetId(): string;
  networkId(): string;
  /** `[LoadBalancer] floating-network-id`. */
  externalNetworkId(): string;
  /** `[Route] router-id`. */
  routerId(): string;
}

/** Upstream's Service annotations (LB.go constants). */
const ANNOTATION_INTERNAL = 'service.beta.kubernetes.io/openstack-internal-load-balancer';
const ANNOTATION_LOAD_BALANCER_ID = 'loadbalancer.openstack.org/load-balancer-id';
const ANNOTATION_LOAD_BALANCER_ADDRESS = 'loadbalancer.openstack.org/load-balancer-address';

/** LB.go `servicePrefix` / `lbFormat` and `cpoutil.Sprintf255` (names cut at 255 characters). */
const SERVICE_PREFIX = 'kube_service_';
const cut255 = (value: string): string => value.slice(0, 255);

/**
 * 54 characters: more than the 42 where other clouds cut names. Upstream's names cannot be cut here
 * (LB.go `GetLoadBalancerName` cuts `kube_service_<cluster>_<ns>_<name>` at 255), because the
 * descriptions that carry the whole cluster name, longer than every name, must fit Octavia's and
 * Neutron's 255 characters for upstream to create anything at all.
 */
const CLUSTER_NAME = 'swap-from-the-upstream-openstack-ccm-with-a-long-name0';
/** The other cluster sharing the project. */
const FOREIGN_CLUSTER_NAME = 'another-cluster-in-the-same-project';
const FOREIGN_SERVICE = { namespace: 'default', name: 'foreign-web' } as const;
const FOREIGN_NODE_PORT = 31999;

/** Upstream `[LoadBalancer]` defaults (`LoadBalancerOpts` in `openstack.go`): monitor timings, the ROUND_ROBIN method. */
const MONITOR_DELAY_SECONDS = 5;
const MONITOR_TIMEOUT_SECONDS = 3;
const MONITOR_MAX_RETRIES = 1;
const MONITOR_MAX_RETRIES_DOWN = 3;
const LB_METHOD = 'ROUND_ROBIN';
const LB_PROVIDER = 'amphora';
/** Octavia's VIP port owner (`allowed_address_pairs.py` `OCTAVIA_OWNER`). */
const OCTAVIA_PORT_OWNER = 'Octavia';

interface ServiceShape {
  namespace: string;
  name: string;
  internal: boolean;
  /** `spec.loadBalancerIP` naming a floating IP the user allocated. */
  requestedIp?: string;
  ports: Array<{ protocol: string; port: number; nodePort: number }>;
}

interface NodeShape {
  name: string;
  address: string;
}

interface SeededLoadBalancer {
  id: string;
  vipPortId: string;
}

export function upstreamLoadBalancerName(clusterName: string, service: { namespace: string; name: string }): string {
  // LB.go GetLoadBalancerName: Sprintf255(lbFormat, servicePrefix, clusterName, namespace, name).
  return cut255(`${SERVICE_PREFIX}${clusterName}_${service.namespace}_${service.name}`);
}

async function ignoreNotFound(call: Promise<unknown>): Promise<void> {
  try {
    await call;
  } catch (error) {
    if (!isOpenStackError(error, 'NotFound')) throw error;
  }
}

export class OpenStackSwapFixture implements ProviderSwapFixture {
  readonly clusterName = CLUSTER_NAME;
  readonly #cloud: SwapCloud;
  /** The floating IP the user allocated for the requested-IP Service. */
  #userFloatingIp: { id: string; address: string } | undefined;
  /** Every VIP port the fixture made (Octavia's, in a real cloud). */
  readonly #vipPorts = new Set<string>();
  /** Pod CIDR -> the node address upstream's route points at. */
  readonly #routes = new Map<string, string>();

  constructor(cloud: SwapCloud) {
    this.#cloud = cloud;
  }

  async userServices(): Promise<SwapServiceVariant[]> {
    const client = this.#cloud.client();
    // The user allocates a floating IP (`openstack floating ip create <network>`: no description)
    // and names it in spec.loadBalancerIP; upstream attaches it (LB.go ensureFloatingIP, "second attempt").
    const floating = await client.network.floatingIps.create({ floating_network_id: this.#cloud.externalNetworkId() });
    this.#userFloatingIp = { id: floating.id, address: floating.floating_ip_address };
    return [
      { label: 'external' },
      { label: 'internal', annotations: { [ANNOTATION_INTERNAL]: 'true' } },
      { label: 'requested-ip', loadBalancerIP: floating.floating_ip_address },
    ];
  }

  async seedUpstream(input: { services: SwapServiceSeed[]; nodes: SwapNodeSeed[] }): Promise<UpstreamServiceState[]> {
    const nodes: NodeShape[] = input.nodes.map((seed) => ({ name: seed.instance.nodeName, address: seed.instance.internalIp }));
    for (const seed of input.nodes) if (seed.podCidr !== undefined) await this.#seedRoute(seed.podCidr, seed.instance.internalIp);
    const states: UpstreamServiceState[] = [];
    for (const seed of input.services) {
      const shape: ServiceShape = {
        namespace: seed.namespace,
        name: seed.name,
        internal: seed.variant.annotations?.[ANNOTATION_INTERNAL] === 'true',
        ...(seed.variant.loadBalancerIP === undefined ? {} : { requestedIp: seed.variant.loadBalancerIP }),
        ports: seed.ports.map((port) => ({ protocol: port.protocol, port: port.port, nodePort: port.nodePort })),
      };
      const { loadBalancer, address } = await this.#seedService(this.clusterName, shape, nodes);
      states.push({
        // LB.go createLoadBalancerStatus: one ingress with the address (ipMode VIP).
        ingress: [{ ip: address }],
        // Upstream adds no finalizer of its own (the service controller's cleanup finalizer only).
        extraFinalizers: [],
        // LB.go ensureOctaviaLoadBalancer: updateServiceAnnotation of the ID once the load balancer is
        // known and of the address after ensureFloatingIP; loadbalancer_service_patcher.go patches them.
        writtenAnnotations: { [ANNOTATION_LOAD_BALANCER_ID]: loadBalancer.id, [ANNOTATION_LOAD_BALANCER_ADDRESS]: address },
      });
    }
    // Another cluster's Service in the same project, with its own floating IP.
    await this.#seedService(FOREIGN_CLUSTER_NAME, { ...FOREIGN_SERVICE, internal: false, ports: [{ protocol: 'TCP', port: 80, nodePort: FOREIGN_NODE_PORT }] }, nodes);
    return states;
  }

  /**
   * routes.go `CreateRoute`: an extra route `podCIDR via <node InternalIP>` on the router
   * (`add_extraroutes`), and the pod CIDR added to the `allowed_address_pairs` of the node's port
   * holding that address (port security on), so that Neutron lets the pods' traffic through.
   */
  async #seedRoute(podCidr: string, nexthop: string): Promise<void> {
    const client = this.#cloud.client();
    await client.network.routers.addExtraRoutes(this.#cloud.routerId(), [{ destination: podCidr, nexthop }]);
    const [port] = await client.network.ports.list({ fixed_ips: [`ip_address=${nexthop}`], network_id: this.#cloud.networkId() });
    if (port === undefined) throw new Error(`swap fixture: no Neutron port holds the node address ${nexthop}`);
    if (port.port_security_enabled !== false && !port.allowed_address_pairs.some((pair) => pair.ip_address === podCidr)) {
      await client.network.ports.update(port.id, { allowed_address_pairs: [...port.allowed_address_pairs, { ip_address: podCidr }] });
    }
    this.#routes.set(podCidr, nexthop);
  }

  /** One Service's load balancer as upstream's `ensureOctaviaLoadBalancer` leaves it with serial API calls. */
  async #seedService(clusterName: string, service: ServiceShape, nodes: readonly NodeShape[]): Promise<{ loadBalancer: SeededLoadBalancer; address: string }> {
    const client = this.#cloud.client();
    const octavia = client.loadBalancer;
    const lbName = upstreamLoadBalancerName(clusterName, service);
    const waitActive = (id: string): Promise<unknown> => octavia.loadBalancers.waitForStatus(id, 'ACTIVE', { initialDelayMs: 250, factor: 1.3, steps: 30 });

    // Octavia's VIP port on the VIP subnet (allocate_vip), renamed after the load balancer below.
    const port = await client.network.ports.create({
      network_id: this.#cloud.networkId(),
      fixed_ips: [{ subnet_id: this.#cloud.subnetId() }],
      admin_state_up: false,
      device_owner: OCTAVIA_PORT_OWNER,
    });
    this.#vipPorts.add(port.id);
    const vipAddress = port.fixed_ips.find((fixed) => fixed.subnet_id === this.#cloud.subnetId())?.ip_address;
    if (vipAddress === undefined) throw new Error(`swap fixture: the VIP port ${port.id} got no address`);

    // LB.go createOctaviaLoadBalancer: the name, the description, the provider, the tag (Octavia has
    // the tags feature), `vip_subnet_id` = `[LoadBalancer] subnet-id`; `spec.loadBalancerIP` is the VIP
    // address only for internal (or IPv6) Services. Serial API calls: no listeners in the create.
    const created = await octavia.loadBalancers.create({
      name: lbName,
      description: `Kubernetes external service ${service.namespace}/${service.name} from cluster ${clusterName}`,
      provider: LB_PROVIDER,
      tags: [lbName],
      vip_subnet_id: this.#cloud.subnetId(),
      vip_address: vipAddress,
    });
    await client.network.ports.update(port.id, { name: `octavia-lb-${created.id}`, device_id: `lb-${created.id}` });
    await waitActive(created.id);

    for (const [index, servicePort] of service.ports.entries()) {
      // LB.go ensureOctaviaListener -> buildListenerCreateOpt: `listener_<index>_<lbName>` (Sprintf255),
      // the port's protocol and port, connection_limit -1 (no annotation), the tag, Octavia's timeout
      // defaults that upstream sends (50000 / 5000 / 50000 / 0, OctaviaFeatureTimeout), and
      // `allowed_cidrs` = GetLoadBalancerSourceRanges = 0.0.0.0/0 (OctaviaFeatureVIPACL).
      const listener = await octavia.listeners.create({
        loadbalancer_id: created.id,
        name: cut255(`listener_${index}_${lbName}`),
        protocol: servicePort.protocol,
        protocol_port: servicePort.port,
        connection_limit: -1,
        tags: [lbName],
        timeout_client_data: 50000,
        timeout_member_connect: 5000,
        timeout_member_data: 50000,
        timeout_tcp_inspect: 0,
        allowed_cidrs: ['0.0.0.0/0'],
      });
      await waitActive(created.id);
      // LB.go ensureOctaviaPool -> buildPoolCreateOpt: `pool_<index>_<lbName>`, the listener's
      // protocol, the configured lb-method, no session persistence (sessionAffinity None).
      const pool = await octavia.pools.create({ listener_id: listener.id, name: cut255(`pool_${index}_${lbName}`), protocol: servicePort.protocol, lb_algorithm: LB_METHOD });
      await waitActive(created.id);
      // serial.go SeriallyReconcilePoolMembers: one member per node, created one call at a time,
      // named `member_<node>_<address>_<nodePort>` (CutString255), on the node port, with no subnet.
      for (const node of nodes) {
        await octavia.pools.createMember(pool.id, { name: cut255(`member_${node.name}_${node.address}_${servicePort.nodePort}`), address: node.address, protocol_port: servicePort.nodePort });
        await waitActive(created.id);
      }
      // LB.go ensureOctaviaHealthMonitor -> buildMonitorCreateOpts (create-monitor = true):
      // `monitor_<index>_<lbName>`, type = the port's protocol (TCP), the configured timings.
      await octavia.healthMonitors.create({
        pool_id: pool.id,
        name: cut255(`monitor_${index}_${lbName}`),
        type: servicePort.protocol,
        delay: MONITOR_DELAY_SECONDS,
        timeout: MONITOR_TIMEOUT_SECONDS,
        max_retries: MONITOR_MAX_RETRIES,
        max_retries_down: MONITOR_MAX_RETRIES_DOWN,
      });
      await waitActive(created.id);
    }

    // LB.go ensureFloatingIP: internal -> the VIP address; spec.loadBalancerIP naming a free floating
    // IP -> that one attached to the VIP port (its description untouched); else a new one on
    // `floating-network-id` with the description below.
    let address = vipAddress;
    if (!service.internal) {
      if (service.requestedIp !== undefined) {
        const [existing] = await client.network.floatingIps.list({ floating_ip_address: service.requestedIp });
        if (existing === undefined) throw new Error(`swap fixture: the user's floating IP ${service.requestedIp} does not exist`);
        await client.network.floatingIps.update(existing.id, { port_id: port.id });
        address = existing.floating_ip_address;
      } else {
        const floating = await client.network.floatingIps.create({
          floating_network_id: this.#cloud.externalNetworkId(),
          port_id: port.id,
          description: `Floating IP for Kubernetes external service ${service.namespace}/${service.name} from cluster ${clusterName}`,
        });
        address = floating.floating_ip_address;
      }
    }
    return { loadBalancer: { id: created.id, vipPortId: port.id }, address };
  }

  async inventory(): Promise<SwapInventory> {
    const client = this.#cloud.client();
    const inventory: SwapInventory = { loadBalancers: {}, routes: {}, user: {}, foreign: {} };
    const ourPrefix = `${SERVICE_PREFIX}${this.clusterName}_`;
    const foreignName = upstreamLoadBalancerName(FOREIGN_CLUSTER_NAME, FOREIGN_SERVICE);
    const loadBalancers = (await client.loadBalancer.loadBalancers.list({ vip_subnet_id: this.#cloud.subnetId() })).filter((candidate) => candidate.provisioning_status !== 'DELETED');
    for (const loadBalancer of loadBalancers) {
      const target = loadBalancer.name === foreignName ? inventory.foreign : loadBalancer.name.startsWith(ourPrefix) ? inventory.loadBalancers : undefined;
      if (target !== undefined) await this.#describeLoadBalancer(loadBalancer, target);
    }
    const router = await client.network.routers.get(this.#cloud.routerId());
    for (const route of router.routes ?? []) {
      if (this.#routes.get(route.destination) === route.nexthop) inventory.routes[`route/${route.destination}`] = route.nexthop;
    }
    if (this.#userFloatingIp !== undefined) {
      const [floating] = await client.network.floatingIps.list({ id: this.#userFloatingIp.id });
      if (floating !== undefined) inventory.user[`floating-ip/${floating.floating_ip_address}`] = floating.id;
    }
    return inventory;
  }

  /** A load balancer with its listeners, pools, members, monitors, VIP port and (CCM-made) floating IP, each by ID. */
  async #describeLoadBalancer(loadBalancer: OctaviaLoadBalancer, into: Record<string, string>): Promise<void> {
    const client = this.#cloud.client();
    const octavia = client.loadBalancer;
    into[`loadbalancer/${loadBalancer.name}`] = `${loadBalancer.id} ${loadBalancer.vip_address}`;
    for (const listener of await octavia.listeners.list({ loadbalancer_id: loadBalancer.id })) into[`listener/${listener.name}`] = listener.id;
    for (const pool of await octavia.pools.list({ loadbalancer_id: loadBalancer.id })) {
      into[`pool/${pool.name}`] = pool.id;
      if (pool.healthmonitor_id !== null) into[`healthmonitor/${pool.name}`] = pool.healthmonitor_id;
      for (const member of await octavia.pools.listMembers(pool.id)) into[`member/${pool.name}/${member.name}`] = `${member.id} ${member.address}:${member.protocol_port}`;
    }
    const [port] = await client.network.ports.list({ name: `octavia-lb-${loadBalancer.id}` });
    if (port === undefined) return;
    into[`port/${port.name}`] = `${port.id} ${port.fixed_ips.map((fixed) => fixed.ip_address).join(',')}`;
    for (const floating of await client.network.floatingIps.list({ port_id: port.id })) {
      // The user's floating IP is listed as the user's, attached or not.
      if (floating.id === this.#userFloatingIp?.id) continue;
      into[`floating-ip/${floating.description}`] = `${floating.id} ${floating.floating_ip_address}`;
    }
  }

  async cleanUp(): Promise<void> {
    const client = this.#cloud.client();
    const foreignName = upstreamLoadBalancerName(FOREIGN_CLUSTER_NAME, FOREIGN_SERVICE);
    for (const loadBalancer of await client.loadBalancer.loadBalancers.list({ name: foreignName })) {
      const [port] = await client.network.ports.list({ name: `octavia-lb-${loadBalancer.id}` });
      if (port !== undefined) for (const floating of await client.network.floatingIps.list({ port_id: port.id })) await ignoreNotFound(client.network.floatingIps.delete(floating.id));
      await ignoreNotFound(client.loadBalancer.loadBalancers.delete(loadBalancer.id, undefined, { cascade: true }));
      await client.loadBalancer.loadBalancers.waitForStatus(loadBalancer.id, 'DELETED', { initialDelayMs: 500 });
    }
    if (this.#userFloatingIp !== undefined) await ignoreNotFound(client.network.floatingIps.delete(this.#userFloatingIp.id));
    this.#userFloatingIp = undefined;
    // What Octavia's network driver deletes with each load balancer (the noop driver does not).
    for (const portId of this.#vipPorts) await ignoreNotFound(client.network.ports.delete(portId));
    this.#vipPorts.clear();
  }
}
