/**
 * The swap scenario's fixture for GCE (issue 23): writes into the GCE simulator, through the
 * Compute API, exactly what the upstream gcp-cloud-controller-manager at the pinned commit
 * (`kubernetes/cloud-provider-gcp` 282942910e, docs/parity.md "GCP") leaves behind for a set of
 * Services and nodes, so the suite can start our CCM on top of it.
 *
 * Upstream files cited below (all under `providers/gce/`): `gce_loadbalancer_external.go` (read
 * at the pin), `gce_util.go` (at the pin), `gce_loadbalancer_naming.go` (b013993c),
 * `gce_loadbalancer_internal.go` (0315e7be, the ILB of the pin's era: no Service annotations
 * written), `gce_routes.go` (6091cab5), `gce_clusterid.go` (the `ingress-uid` ConfigMap).
 *
 * What it models:
 * - the cluster ID in ConfigMap `kube-system/ingress-uid` (`gce_clusterid.go` `getOrInitialize`:
 *   `uid` and `provider-uid`, 8 random bytes in hex), which every shared resource name holds;
 * - an external Service (ETP Cluster), an external one with ETP Local, an external one requesting
 *   a static IP the user reserved (spec.loadBalancerIP; the address is the user's), and an
 *   internal one (`networking.gke.io/load-balancer-type: Internal`);
 * - the nodes' pod routes `<cluster name[:26]>-<node UID>`, with a cluster name of 46 characters;
 * - another cluster (its own cluster ID and name) in the same project: a forwarding rule, target
 *   pool, HTTP health check, firewalls and a pod route, all to be left alone.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { DriverInstance, ProviderSwapFixture, SwapInventory, SwapNodeSeed, SwapServiceSeed, SwapServiceVariant, UpstreamServiceState } from '@ccm/testing/conformance';
import { GceRest, last, seedInstance } from '../support/gce-rest.js';

/** What the fixture needs of the driver's simulator. */
export interface GcpSwapEnvironment {
  rest: GceRest;
  /** `http://127.0.0.1:PORT` (the API is under `/compute/v1/`). */
  url: string;
  project: string;
  region: string;
  zones: readonly string[];
  network: string;
  subnetwork: string;
  /** gce.conf `node-tags`: upstream's firewalls target them (`firewallObject`, `GetNodeTags`). */
  nodeTags: readonly string[];
}

/** 46 characters; upstream's route names keep the first 26 (`gce_routes.go` `truncateClusterName`). */
export const SWAP_CLUSTER_NAME = 'swap-from-upstream-gce-ccm-cluster-long-name-x';

/** `gce_util.go` `NetLBFinalizerV1`, added by `ensureExternalLoadBalancer` before any cloud write. */
const NETLB_FINALIZER_V1 = 'gke.networking.io/l4-netlb-v1';
/** `gce_loadbalancer_internal.go` `ILBFinalizerV1`, added by `ensureInternalLoadBalancer`. */
const ILB_FINALIZER_V1 = 'gke.networking.io/l4-ilb-v1';
/** `gce_annotations.go` `ServiceAnnotationLoadBalancerType` / `LBTypeInternal`. */
const INTERNAL_ANNOTATION = { 'networking.gke.io/load-balancer-type': 'Internal' };
/** `gce_routes.go` `k8sNodeRouteTag` (the description of every pod route). */
const ROUTE_DESCRIPTION = 'k8s-node-route';
/** `gce_loadbalancer.go` `init`: the default of `--cloud-provider-gce-lb-src-cidrs` (L4 health checkers). */
const L4_HEALTH_CHECK_RANGES = ['130.211.0.0/22', '209.85.152.0/22', '209.85.204.0/22', '35.191.0.0/16'];
/** `GetNodesHealthCheckPort` / `GetNodesHealthCheckPath` (kube-proxy's health server). */
const NODES_HEALTH_CHECK_PORT = 10256;
const NODES_HEALTH_CHECK_PATH = '/healthz';
/** `gceHcCheckIntervalSeconds`, `gceHcTimeoutSeconds`, `gceHcHealthyThreshold`, `gceHcUnhealthyThreshold`. */
const HEALTH_CHECK_TIMING = { checkIntervalSec: 8, timeoutSec: 1, healthyThreshold: 1, unhealthyThreshold: 3 };
/** `servicehelpers.GetLoadBalancerSourceRanges` of a Service without source ranges. */
const ANY_SOURCE = ['0.0.0.0/0'];

/** `cloudprovider.DefaultLoadBalancerName` (`GetLoadBalancerName`): `a` + the UID without dashes, 32 characters at most. */
const loadBalancerName = (uid: string): string => `a${uid.replaceAll('-', '')}`.slice(0, 32);
/** `gce_routes.go` `truncateClusterName`. */
const truncatedClusterName = (clusterName: string): string => clusterName.slice(0, 26);
/** `gce_clusterid.go` `makeUID`: 8 random bytes, hex. */
const makeUid = (): string => randomBytes(8).toString('hex');
/** `gce_loadbalancer_naming.go` `makeServiceDescription` (forwarding rules, addresses, target pools) and `makeHealthCheckDescription`. */
const serviceDescription = (name: string): string => `{"kubernetes.io/service-name":"${name}"}`;
/** `gce_loadbalancer_naming.go` `makeFirewallDescription`. */
const firewallDescription = (serviceName: string, ip: string): string => `{"kubernetes.io/service-name":"${serviceName}", "kubernetes.io/service-ip":"${ip}"}`;
/** `gce_loadbalancer_external.go` `ensureHTTPHealthCheckFirewall`: the shared check's firewall description. */
const clusterDescription = (clusterId: string): string => `{"kubernetes.io/cluster-id":"${clusterId}"}`;
/** `gce_loadbalancer_naming.go` `MakeNodesHealthCheckName`. */
const nodesHealthCheckName = (clusterId: string): string => `k8s-${clusterId}-node`;
/** `gce_loadbalancer_naming.go` `MakeFirewallName`. */
const trafficFirewallName = (lb: string): string => `k8s-fw-${lb}`;
/** `gce_loadbalancer_naming.go` `MakeHealthCheckFirewallName` (legacy HTTP checks of the target pools). */
const httpHealthCheckFirewallName = (clusterId: string, healthCheck: string, nodes: boolean): string => (nodes ? `${nodesHealthCheckName(clusterId)}-http-hc` : `k8s-${healthCheck}-http-hc`);
/** `gce_loadbalancer_naming.go` `makeInstanceGroupName`. */
const instanceGroupName = (clusterId: string): string => `k8s-ig--${clusterId}`;
/** `gce_loadbalancer_naming.go` `makeHealthCheckFirewallNameFromHC` (the ILB's check firewall). */
const internalHealthCheckFirewallName = (healthCheck: string): string => `${healthCheck}-hc`;

/** `getPortsAndProtocol` / `getPortRanges`: sorted ports, consecutive ones merged into `a-b`. */
function portRanges(ports: readonly number[]): string[] {
  const sorted = [...new Set(ports)].sort((a, b) => a - b);
  const ranges: string[] = [];
  for (let index = 0; index < sorted.length; index++) {
    const first = sorted[index] ?? 0;
    let lastPort = first;
    while (sorted[index + 1] === lastPort + 1) lastPort = sorted[++index] ?? lastPort;
    ranges.push(first === lastPort ? String(first) : `${first}-${lastPort}`);
  }
  return ranges;
}

interface RestResource {
  name: string;
  id?: string;
  IPAddress?: string;
  address?: string;
  destinationRanges?: string[];
  destRange?: string;
  nextHopInstance?: string;
  description?: string;
}

interface Classified {
  user: Set<string>;
  foreign: Set<string>;
}

export class GcpSwapFixture implements ProviderSwapFixture {
  readonly clusterName = SWAP_CLUSTER_NAME;
  readonly #environment: () => GcpSwapEnvironment;
  readonly #clusterId = makeUid();
  /** The other cluster in the project: its own ID, name and load balancer. */
  readonly #foreignClusterId = makeUid();
  readonly #foreignClusterName = 'another-cluster-of-the-same-project';
  readonly #foreignServiceUid = randomUUID();
  readonly #foreignLoadBalancer = loadBalancerName(this.#foreignServiceUid);
  readonly #suffix = randomBytes(3).toString('hex');
  readonly #classified: Classified = { user: new Set(), foreign: new Set() };
  #userAddress: { name: string; ip: string } | undefined;
  #foreignInstance: { name: string; zone: string } | undefined;

  constructor(environment: () => GcpSwapEnvironment) {
    this.#environment = environment;
  }

  get #env(): GcpSwapEnvironment {
    return this.#environment();
  }

  #link(path: string): string {
    return `${this.#env.url}/compute/v1/projects/${this.#env.project}/${path}`;
  }

  /** Upstream `g.networkURL`. */
  get #networkUrl(): string {
    return this.#link(`global/networks/${this.#env.network}`);
  }

  /** The user's static address for the requested-IP variant (`gcloud compute addresses create`). */
  async userServices(): Promise<SwapServiceVariant[]> {
    const { rest, region } = this.#env;
    const name = `user-reserved-ip-${this.#suffix}`;
    await rest.mutate('POST', `regions/${region}/addresses`, { name, description: 'reserved by the user for a Service' });
    const address = await rest.request<{ address: string }>('GET', `regions/${region}/addresses/${name}`);
    this.#userAddress = { name, ip: address.address };
    this.#classified.user.add(`address/${name}`);
    return [
      { label: 'external' },
      { label: 'external-local', externalTrafficPolicy: 'Local' },
      { label: 'external-requested-ip', loadBalancerIP: address.address },
      { label: 'internal', annotations: { ...INTERNAL_ANNOTATION } },
    ];
  }

  upstreamConfigMaps(): Array<{ namespace: string; name: string; data: Record<string, string> }> {
    // gce_clusterid.go getOrInitialize: UIDNamespace/UIDConfigMapName, data {UIDCluster, UIDProvider}.
    return [{ namespace: 'kube-system', name: 'ingress-uid', data: { uid: this.#clusterId, 'provider-uid': this.#clusterId } }];
  }

  async seedUpstream(input: { services: SwapServiceSeed[]; nodes: SwapNodeSeed[] }): Promise<UpstreamServiceState[]> {
    const hosts = input.nodes.map((node) => node.instance);
    const states: UpstreamServiceState[] = [];
    for (const service of input.services) {
      const internal = service.variant.annotations?.['networking.gke.io/load-balancer-type'] === 'Internal';
      const ip = internal ? await this.#seedInternal(service, hosts) : await this.#seedExternal(service, hosts, this.#clusterId);
      states.push({ ingress: [{ ip }], extraFinalizers: [internal ? ILB_FINALIZER_V1 : NETLB_FINALIZER_V1], writtenAnnotations: {} });
    }
    for (const node of input.nodes) await this.#seedRoute(node);
    await this.#seedForeignCluster();
    return states;
  }

  /**
   * `ensureExternalLoadBalancer` on a first sync: `ensureStaticIP` reserves an address named after
   * the load balancer (unless the user's static IP is requested: `verifyUserRequestedIP`), the
   * traffic firewall, the health check's firewall and check (`createTargetPoolAndHealthCheck`),
   * the target pool, the forwarding rule last, then the address is released (`isSafeToReleaseIP`:
   * the rule keeps the IP as an ephemeral one). Returns the ingress IP.
   */
  async #seedExternal(service: SwapServiceSeed, hosts: readonly DriverInstance[], clusterId: string, tags: readonly string[] = this.#env.nodeTags): Promise<string> {
    const { rest, region } = this.#env;
    const lb = loadBalancerName(service.uid);
    const serviceName = `${service.namespace}/${service.name}`;
    const ports = service.ports.map((port) => port.port);
    const protocol = service.ports[0]?.protocol ?? 'TCP';
    let ip: string;
    const userOwned = service.variant.loadBalancerIP !== undefined;
    if (userOwned) {
      ip = service.variant.loadBalancerIP ?? '';
    } else {
      // ensureStaticIP: Name lb, Description makeServiceDescription(serviceName), NetworkTier PREMIUM.
      await rest.mutate('POST', `regions/${region}/addresses`, { name: lb, description: serviceDescription(serviceName), networkTier: 'PREMIUM' });
      ip = (await rest.request<{ address: string }>('GET', `regions/${region}/addresses/${lb}`)).address;
    }
    // createFirewall / firewallObject: k8s-fw-<lb>, makeFirewallDescription, the LB IP as destination.
    await this.#insertFirewall({
      name: trafficFirewallName(lb),
      description: firewallDescription(serviceName, ip),
      sourceRanges: ANY_SOURCE,
      destinationRanges: [ip],
      targetTags: tags,
      allowed: [{ IPProtocol: protocol.toLowerCase(), ports: portRanges(ports) }],
    });
    // The health check: GetServiceHealthCheckPathPort (ETP Local) or the shared nodes check.
    const local = service.variant.externalTrafficPolicy === 'Local';
    const healthCheck = local ? lb : nodesHealthCheckName(clusterId);
    const healthCheckPort = local ? (service.healthCheckNodePort ?? 0) : NODES_HEALTH_CHECK_PORT;
    // ensureHTTPHealthCheckFirewall: the shared one is described by the cluster ID, the Service's
    // own by makeFirewallDescription; both get the load balancer IP as destination (firewallObject).
    const healthCheckFirewall = httpHealthCheckFirewallName(clusterId, healthCheck, !local);
    if ((await rest.get(`global/firewalls/${healthCheckFirewall}`)) === undefined) {
      await this.#insertFirewall({
        name: healthCheckFirewall,
        description: local ? firewallDescription(serviceName, ip) : clusterDescription(clusterId),
        sourceRanges: L4_HEALTH_CHECK_RANGES,
        destinationRanges: [ip],
        targetTags: tags,
        allowed: [{ IPProtocol: 'tcp', ports: [String(healthCheckPort)] }],
      });
    }
    // ensureHTTPHealthCheck / makeHTTPHealthCheck: Description makeHealthCheckDescription(name).
    if ((await rest.get(`global/httpHealthChecks/${healthCheck}`)) === undefined) {
      await rest.mutate('POST', 'global/httpHealthChecks', {
        name: healthCheck,
        port: healthCheckPort,
        requestPath: NODES_HEALTH_CHECK_PATH,
        host: '',
        description: serviceDescription(healthCheck),
        ...HEALTH_CHECK_TIMING,
      });
    }
    // createTargetPoolAndHealthCheck: Description {"kubernetes.io/service-name":...}, the hosts
    // (makeComparableHostPath), SessionAffinity translateAffinityType(None) = NONE.
    await rest.mutate('POST', `regions/${region}/targetPools`, {
      name: lb,
      description: serviceDescription(serviceName),
      instances: hosts.map((host) => this.#link(`zones/${host.expectedZone ?? ''}/instances/${host.nodeName}`)),
      sessionAffinity: 'NONE',
      healthChecks: [this.#link(`global/httpHealthChecks/${healthCheck}`)],
    });
    // createForwardingRule: makeServiceDescription, PortRange min-max (loadBalancerPortRange), target pool URL.
    await rest.mutate('POST', `regions/${region}/forwardingRules`, {
      name: lb,
      description: serviceDescription(serviceName),
      IPAddress: ip,
      IPProtocol: protocol,
      portRange: `${Math.min(...ports)}-${Math.max(...ports)}`,
      target: this.#link(`regions/${region}/targetPools/${lb}`),
      networkTier: 'PREMIUM',
    });
    // The deferred release: DeleteRegionAddress(loadBalancerName) unless the IP is the user's.
    if (!userOwned) await rest.mutate('DELETE', `regions/${region}/addresses/${lb}`);
    return ip;
  }

  /**
   * `ensureInternalLoadBalancer` on a first sync: the per-zone instance groups
   * (`ensureInternalInstanceGroups`), the shared health check (`ensureInternalHealthCheck`,
   * `newInternalLBHealthCheck`), the address held by the address manager, the backend service
   * (`ensureInternalBackendService`), the forwarding rule, the firewalls (`ensureInternalFirewalls`),
   * then the address released. Returns the ingress IP.
   */
  async #seedInternal(service: SwapServiceSeed, hosts: readonly DriverInstance[]): Promise<string> {
    const { rest, region, network, subnetwork } = this.#env;
    const clusterId = this.#clusterId;
    const lb = loadBalancerName(service.uid);
    const serviceName = `${service.namespace}/${service.name}`;
    const ports = service.ports.map((port) => port.port);
    const protocol = service.ports[0]?.protocol ?? 'TCP';
    const groupLinks: string[] = [];
    const group = instanceGroupName(clusterId);
    const zones = [...new Set(hosts.map((host) => host.expectedZone ?? ''))].sort();
    for (const zone of zones) {
      // ensureInternalInstanceGroup: &compute.InstanceGroup{Name: name}, then AddInstancesToInstanceGroup.
      if ((await rest.get(`zones/${zone}/instanceGroups/${group}`)) === undefined) {
        await rest.mutate('POST', `zones/${zone}/instanceGroups`, { name: group });
        const members = hosts.filter((host) => host.expectedZone === zone).map((host) => ({ instance: this.#link(`zones/${zone}/instances/${host.nodeName}`) }));
        await rest.mutate('POST', `zones/${zone}/instanceGroups/${group}/addInstances`, { instances: members });
      }
      groupLinks.push(this.#link(`zones/${zone}/instanceGroups/${group}`));
    }
    // makeHealthCheckName(shared = ETP Cluster): k8s-<cluster ID>-node; newInternalLBHealthCheck: no description when shared.
    const healthCheck = nodesHealthCheckName(clusterId);
    if ((await rest.get(`global/healthChecks/${healthCheck}`)) === undefined) {
      await rest.mutate('POST', 'global/healthChecks', {
        name: healthCheck,
        ...HEALTH_CHECK_TIMING,
        type: 'HTTP',
        httpHealthCheck: { port: NODES_HEALTH_CHECK_PORT, requestPath: NODES_HEALTH_CHECK_PATH },
        description: '',
      });
    }
    const subnetworkUrl = this.#link(`regions/${region}/subnetworks/${subnetwork}`);
    // addressManager.HoldAddress: an INTERNAL address named after the load balancer in the subnetwork.
    await rest.mutate('POST', `regions/${region}/addresses`, { name: lb, description: serviceDescription(serviceName), addressType: 'INTERNAL', subnetwork: subnetworkUrl, purpose: 'GCE_ENDPOINT' });
    const ip = (await rest.request<{ address: string }>('GET', `regions/${region}/addresses/${lb}`)).address;
    // ensureInternalBackendService: makeBackendServiceName (not shared) = lb, makeBackendServiceDescription.
    await rest.mutate('POST', `regions/${region}/backendServices`, {
      name: lb,
      protocol,
      description: serviceDescription(serviceName),
      healthChecks: [this.#link(`global/healthChecks/${healthCheck}`)],
      backends: groupLinks.map((link) => ({ group: link })),
      sessionAffinity: 'NONE',
      loadBalancingScheme: 'INTERNAL',
    });
    // The forwarding rule: forwardingRuleDescription{ServiceName} marshalled, Ports (at most 5), network and subnetwork.
    await rest.mutate('POST', `regions/${region}/forwardingRules`, {
      name: lb,
      description: JSON.stringify({ 'kubernetes.io/service-name': serviceName }),
      IPAddress: ip,
      backendService: this.#link(`regions/${region}/backendServices/${lb}`),
      ports: ports.map(String),
      IPProtocol: protocol,
      loadBalancingScheme: 'INTERNAL',
      subnetwork: subnetworkUrl,
      network: this.#link(`global/networks/${network}`),
    });
    // ensureInternalFirewalls: traffic (makeFirewallDescription, destination the IP) and the shared
    // check's (no description, no destination, the L4 health checkers' ranges).
    await this.#insertFirewall({
      name: trafficFirewallName(lb),
      description: firewallDescription(serviceName, ip),
      sourceRanges: ANY_SOURCE,
      destinationRanges: [ip],
      targetTags: this.#env.nodeTags,
      allowed: [{ IPProtocol: protocol.toLowerCase(), ports: portRanges(ports) }],
    });
    const healthCheckFirewall = internalHealthCheckFirewallName(healthCheck);
    if ((await rest.get(`global/firewalls/${healthCheckFirewall}`)) === undefined) {
      await this.#insertFirewall({
        name: healthCheckFirewall,
        description: '',
        sourceRanges: L4_HEALTH_CHECK_RANGES,
        targetTags: this.#env.nodeTags,
        allowed: [{ IPProtocol: 'tcp', ports: [String(NODES_HEALTH_CHECK_PORT)] }],
      });
    }
    // addrMgr.ReleaseAddress (deferred).
    await rest.mutate('DELETE', `regions/${region}/addresses/${lb}`);
    return ip;
  }

  /**
   * `gce_routes.go` `CreateRoute` as upstream's route controller calls it (nameHint = the Node's
   * UID): `<cluster name[:26]>-<UID>`, the next hop `zones/<zone>/instances/<name>`, the network of
   * the instance's first interface (here the configured one), priority 1000, `k8s-node-route`.
   */
  async #seedRoute(node: SwapNodeSeed): Promise<void> {
    if (node.podCidr === undefined) return;
    if (node.uid === undefined) throw new Error(`the swap scenario gave no UID for node ${node.instance.nodeName}: GCE route names hold it`);
    await this.#env.rest.mutate('POST', 'global/routes', {
      name: `${truncatedClusterName(this.clusterName)}-${node.uid}`,
      destRange: node.podCidr,
      nextHopInstance: `zones/${node.instance.expectedZone ?? ''}/instances/${node.instance.nodeName}`,
      network: this.#networkUrl,
      priority: 1000,
      description: ROUTE_DESCRIPTION,
    });
  }

  /**
   * Another cluster of the project, as the same upstream made it: one node (an instance tagged for
   * that cluster), an external load balancer (its own cluster ID in the shared names) and a pod
   * route under its own cluster name.
   */
  async #seedForeignCluster(): Promise<void> {
    const { rest, region, network, zones } = this.#env;
    const zone = zones[0] ?? '';
    const tag = `${this.#foreignClusterName}-node`;
    const instance = await seedInstance(rest, { name: `other-cluster-node-${this.#suffix}`, zone, network, region, tags: [tag] });
    this.#foreignInstance = { name: instance.name, zone };
    const host: DriverInstance = {
      nodeName: instance.name,
      expectedProviderId: `gce://${this.#env.project}/${zone}/${instance.name}`,
      expectedAddresses: [],
      expectedZone: zone,
      internalIp: instance.networkIP,
    };
    await this.#seedExternal({ namespace: 'default', name: 'web', uid: this.#foreignServiceUid, variant: { label: 'foreign' }, ports: [{ protocol: 'TCP', port: 443, nodePort: 31443 }] }, [host], this.#foreignClusterId, [tag]);
    await rest.mutate('POST', 'global/routes', {
      name: `${truncatedClusterName(this.#foreignClusterName)}-${randomBytes(16).toString('hex')}`,
      destRange: '10.96.7.0/24',
      nextHopInstance: `zones/${zone}/instances/${instance.name}`,
      network: this.#networkUrl,
      priority: 1000,
      description: ROUTE_DESCRIPTION,
    });
  }

  async #insertFirewall(firewall: { name: string; description: string; sourceRanges: readonly string[]; destinationRanges?: readonly string[]; targetTags: readonly string[]; allowed: Array<{ IPProtocol: string; ports: string[] }> }): Promise<void> {
    await this.#env.rest.mutate('POST', 'global/firewalls', { ...firewall, network: this.#networkUrl, ...(firewall.destinationRanges === undefined ? {} : { destinationRanges: firewall.destinationRanges }) });
  }

  /** Whether a resource name belongs to the other cluster (its cluster ID, load balancer or route prefix). */
  #isForeign(name: string): boolean {
    return name.includes(this.#foreignClusterId) || name.includes(this.#foreignLoadBalancer) || name.startsWith(`${truncatedClusterName(this.#foreignClusterName)}-`);
  }

  /**
   * Every load-balancer resource of the project, by kind and name, valued by its ID, its
   * description and the addresses it holds (a rule's IP, an address, a firewall's destinations); the user's address
   * and the other cluster's resources go to their own inventories; routes are those named for this
   * cluster (`ListRoutes`' prefix) and the other cluster's.
   */
  async inventory(): Promise<SwapInventory> {
    const { rest, region, zones } = this.#env;
    const inventory: SwapInventory = { loadBalancers: {}, routes: {}, user: {}, foreign: {} };
    const place = (kind: string, resource: RestResource, value: string): void => {
      const key = `${kind}/${resource.name}`;
      if (this.#classified.user.has(key)) inventory.user[key] = value;
      else if (this.#isForeign(resource.name)) inventory.foreign[key] = value;
      else inventory.loadBalancers[key] = value;
    };
    // The ID (a recreated resource gets a new one) and the description upstream wrote (a rewrite shows).
    const id = (resource: RestResource): string => `id ${resource.id ?? '?'} description ${resource.description ?? ''}`;
    for (const rule of await rest.list<RestResource>(`regions/${region}/forwardingRules`)) place('forwarding rule', rule, `${id(rule)} ip ${rule.IPAddress ?? ''}`);
    for (const address of await rest.list<RestResource>(`regions/${region}/addresses`)) place('address', address, `${id(address)} ip ${address.address ?? ''}`);
    for (const pool of await rest.list<RestResource>(`regions/${region}/targetPools`)) place('target pool', pool, id(pool));
    for (const check of await rest.list<RestResource>('global/httpHealthChecks')) place('http health check', check, id(check));
    for (const check of await rest.list<RestResource>('global/healthChecks')) place('health check', check, id(check));
    for (const backend of await rest.list<RestResource>(`regions/${region}/backendServices`)) place('backend service', backend, id(backend));
    for (const zone of zones) for (const group of await rest.list<RestResource>(`zones/${zone}/instanceGroups`)) place(`instance group ${zone}`, group, id(group));
    for (const firewall of await rest.list<RestResource>('global/firewalls')) place('firewall', firewall, `${id(firewall)} destinations ${[...(firewall.destinationRanges ?? [])].sort().join(',')}`);
    for (const route of await rest.list<RestResource>('global/routes')) {
      const value = `${id(route)} ${route.destRange ?? ''} via ${last(route.nextHopInstance ?? '')}`;
      if (route.name.startsWith(`${truncatedClusterName(this.clusterName)}-`)) inventory.routes[`route/${route.name}`] = value;
      else if (this.#isForeign(route.name)) inventory.foreign[`route/${route.name}`] = value;
    }
    return inventory;
  }

  /** The user's address and everything of the other cluster, dependents first. */
  async cleanUp(): Promise<void> {
    const { rest, region } = this.#env;
    const remove = async (path: string): Promise<void> => {
      if ((await rest.get(path)) !== undefined) await rest.mutate('DELETE', path);
    };
    const foreign = await this.inventory();
    for (const key of Object.keys(foreign.foreign).filter((entry) => entry.startsWith('route/'))) await remove(`global/routes/${key.slice('route/'.length)}`);
    const lb = this.#foreignLoadBalancer;
    await remove(`regions/${region}/forwardingRules/${lb}`);
    await remove(`regions/${region}/targetPools/${lb}`);
    await remove(`global/httpHealthChecks/${nodesHealthCheckName(this.#foreignClusterId)}`);
    await remove(`global/firewalls/${trafficFirewallName(lb)}`);
    await remove(`global/firewalls/${httpHealthCheckFirewallName(this.#foreignClusterId, '', true)}`);
    if (this.#foreignInstance !== undefined) await remove(`zones/${this.#foreignInstance.zone}/instances/${this.#foreignInstance.name}`);
    if (this.#userAddress !== undefined) await remove(`regions/${region}/addresses/${this.#userAddress.name}`);
  }
}
