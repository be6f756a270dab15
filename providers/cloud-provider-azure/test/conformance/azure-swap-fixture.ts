/**
 * The Azure swap fixture (issue 23): writes into the ARM simulator what the upstream CCM
 * (kubernetes-sigs/cloud-provider-azure at 004ef4f4c3, docs/parity.md "Azure") leaves behind for
 * a set of Services and nodes, so the conformance suite can start our CCM on top of it. Every
 * name, tag and setting cites the upstream function that makes it; the names are computed here
 * from upstream's rules, never with the provider's own helpers (the test must be able to fail).
 *
 * What upstream leaves, for a standard SKU cluster with one shared load balancer per kind:
 * - load balancers `<cluster>` and `<cluster>-internal` with the backend pool `<cluster>` holding
 *   the nodes' primary NIC IP configurations (VMs) and scale-set VM IP configurations;
 * - per Service a frontend `<base>` (internal with a subnet annotation: `<base>-<subnet>` cut at
 *   75, a cut ending on a non-letter ending in `_`), rules and probes `<base>[-<subnet>]-TCP-<port>`
 *   (externalTrafficPolicy Local: one HTTP probe `<base>-TCP-<healthCheckNodePort>`);
 * - per external Service without a requested IP a public IP `<cluster>-<base>` cut at 75, tagged
 *   `k8s-azure-service` = `<namespace>/<name>` and `k8s-azure-cluster-name` = `<cluster>`;
 * - shared allow rules `k8s-azure-lb_allow_IPv4_<md5>` in the cluster security group, priorities
 *   from 500, listing every Service address as a destination;
 * - routes `<node>____<cidr without : . />` to the node's private IP.
 * Besides: the user's public IPs (one named by `azure-pip-name`, one requested by address) and the
 * subnet of the internal subnet annotation; another cluster's load balancer and public IP, the
 * latter tagged with the key of one of this cluster's Services (two clusters running the same app).
 */
import { createHash } from 'node:crypto';
import type { FrontendIPConfiguration, LoadBalancer, LoadBalancingRule, Probe, PublicIPAddress, SecurityRule } from '@azure/arm-network';
import type {
  CloudInventory,
  ProviderSwapFixture,
  SwapInventory,
  SwapNodeSeed,
  SwapServiceSeed,
  SwapServiceVariant,
  UpstreamServiceState,
} from '@ccm/testing/conformance';
import type { AzureCloudSeeder, SeededMachine } from '../support/azure-cloud-seeder.js';

const poll = { updateIntervalInMs: 5 };

/** Upstream `consts.ServiceAnnotationLoadBalancerInternal`, `...InternalSubnet`, `ServiceAnnotationPIPNameDualStack[false]`. */
const ANNOTATION_INTERNAL = 'service.beta.kubernetes.io/azure-load-balancer-internal';
const ANNOTATION_INTERNAL_SUBNET = 'service.beta.kubernetes.io/azure-load-balancer-internal-subnet';
const ANNOTATION_PIP_NAME = 'service.beta.kubernetes.io/azure-pip-name';
/** Upstream `consts.ServiceTagKey`, `consts.ClusterNameKey` (`pkg/consts/consts.go`). */
const TAG_SERVICE = 'k8s-azure-service';
const TAG_CLUSTER_NAME = 'k8s-azure-cluster-name';
/** Upstream `consts.InternalLoadBalancerNameSuffix`. */
const INTERNAL_SUFFIX = '-internal';
/**
 * Upstream `consts.FrontendIPConfigNameMaxLength`, `LoadBalancerRuleNameMaxLength`,
 * `PIPPrefixNameMaxLength` (80) less `consts.IPFamilySuffixLength` (5).
 */
const NAME_MAX = 80 - 5;
/** Upstream `consts.LoadBalancerMinimumPriority`. */
const FIRST_SECURITY_PRIORITY = 500;
/** Upstream `consts.HealthProbeDefaultProbeInterval`, `HealthProbeDefaultNumOfProbe`. */
const PROBE_INTERVAL_SECONDS = 5;
const PROBE_COUNT = 2;
/** Upstream `consts.RouteNameSeparator` (`RouteNameFmt` = `%s____%s`). */
const ROUTE_NAME_SEPARATOR = '____';

/** The cluster name both CCMs run with: 49 characters, so `<cluster>-<base>` (82) is cut at 75. */
export const SWAP_CLUSTER_NAME = 'swap-upstream-azure-cluster-with-a-long-name-0001';
/** Another cluster sharing the resource group (and the security group). */
export const SWAP_OTHER_CLUSTER_NAME = 'another-cluster-in-the-same-resource-group';
/**
 * The subnet of the internal subnet annotation: `<base>-<subnet>` is 90 characters, cut at 75 it
 * ends on `1`, which upstream replaces with `_`.
 */
export const SWAP_INTERNAL_SUBNET = 'swap-internal-services-subnet-long-name-x1-of-the-cluster';
const SWAP_INTERNAL_SUBNET_PREFIX = '10.241.0.0/24';
const USER_PIP_BY_NAME = 'swap-user-reserved-ip-by-name';
const USER_PIP_BY_ADDRESS = 'swap-user-reserved-ip-by-address';

/** What the fixture needs of the driver: the seeded cloud and its settings. */
export interface AzureSwapFixtureContext {
  seeder: () => AzureCloudSeeder;
  /** The seeded machine behind a node name. */
  machineOf: (nodeName: string) => SeededMachine;
  routeTable: string;
}

/** Upstream `cloudprovider.DefaultLoadBalancerName` through `GetLoadBalancerName` (`getRulePrefix`): `a` + the UID without dashes, cut at 32. */
function baseNameOf(uid: string): string {
  return `a${uid.replaceAll('-', '')}`.slice(0, 32);
}

/** Upstream `getDefaultFrontendIPConfigName`: `<base>-<subnet>` cut at 75; a cut ending on a non-letter other than `_` ends in `_`. */
function frontendNameOf(base: string, subnet: string | undefined): string {
  if (subnet === undefined) return base;
  const name = `${base}-${subnet}`;
  if (name.length <= NAME_MAX) return name;
  const cut = name.slice(0, NAME_MAX);
  const last = cut.at(-1) ?? '';
  return /\p{L}/u.test(last) || last === '_' ? cut : `${cut.slice(0, -1)}_`;
}

/** Upstream `getLoadBalancerRuleName` (azure_standard.go): the subnet segment cut so that the name keeps 75. */
function ruleNameOf(base: string, subnet: string | undefined, protocol: string, port: number): string {
  const plain = `${base}-${protocol}-${port}`;
  if (subnet === undefined) return plain;
  const segment = plain.length + subnet.length + 1 > NAME_MAX ? subnet.slice(0, NAME_MAX - plain.length - 1) : subnet;
  return `${base}-${segment}-${protocol}-${port}`;
}

/** Upstream `getPublicIPName` (azure_standard.go): `<cluster>-<base>` cut at 75. */
function publicIpNameOf(clusterName: string, base: string): string {
  return `${clusterName}-${base}`.slice(0, NAME_MAX);
}

/** Upstream `securitygroup.GenerateAllowSecurityRuleName`: md5 of `<protocol>_<sorted sources>_<sorted ports>`. */
function allowRuleNameOf(protocol: string, sources: string[], ports: number[]): string {
  const identity = [protocol, [...sources].sort().join(','), ports.map(String).sort().join(',')].join('_');
  return `k8s-azure-lb_allow_IPv4_${createHash('md5').update(identity).digest('hex')}`;
}

/** Upstream `mapNodeNameToRouteName` with dual-stack naming on (`cidrtoRfc1035` strips `:`, `.` and `/`). */
function routeNameOf(nodeName: string, cidr: string): string {
  return `${nodeName}${ROUTE_NAME_SEPARATOR}${cidr.replaceAll(':', '').replaceAll('.', '').replaceAll('/', '')}`;
}

interface PlannedService {
  seed: SwapServiceSeed;
  base: string;
  internal: boolean;
  subnet: string | undefined;
  /** The public IP the frontend uses (external Services). */
  publicIp?: PublicIPAddress;
  /** The frontend's address once written. */
  address?: string;
}

export class AzureSwapFixture implements ProviderSwapFixture {
  readonly clusterName = SWAP_CLUSTER_NAME;
  readonly #context: AzureSwapFixtureContext;
  #nodeNames: string[] = [];
  #userAddress = '';

  constructor(context: AzureSwapFixtureContext) {
    this.#context = context;
  }

  /** Reserves the user's public IPs and the subnet of the internal subnet annotation. */
  async userServices(): Promise<SwapServiceVariant[]> {
    const seeder = this.#context.seeder();
    const { network, resourceGroup } = seeder;
    const location = seeder.access.location;
    await network.subnets.beginCreateOrUpdateAndWait(resourceGroup, seeder.vnet, SWAP_INTERNAL_SUBNET, { addressPrefix: SWAP_INTERNAL_SUBNET_PREFIX }, poll);
    const reserved = { location, sku: { name: 'Standard' as const, tier: 'Regional' as const }, publicIPAllocationMethod: 'Static' as const, publicIPAddressVersion: 'IPv4' as const };
    await network.publicIPAddresses.beginCreateOrUpdateAndWait(resourceGroup, USER_PIP_BY_NAME, reserved, poll);
    const byAddress = await network.publicIPAddresses.beginCreateOrUpdateAndWait(resourceGroup, USER_PIP_BY_ADDRESS, reserved, poll);
    this.#userAddress = byAddress.ipAddress ?? '';
    if (this.#userAddress === '') throw new Error(`the simulator gave public IP ${USER_PIP_BY_ADDRESS} no address`);
    return [
      { label: 'external' },
      { label: 'external-local', externalTrafficPolicy: 'Local' },
      { label: 'internal', annotations: { [ANNOTATION_INTERNAL]: 'true' } },
      { label: 'internal-subnet', annotations: { [ANNOTATION_INTERNAL]: 'true', [ANNOTATION_INTERNAL_SUBNET]: SWAP_INTERNAL_SUBNET } },
      { label: 'requested-pip-name', annotations: { [ANNOTATION_PIP_NAME]: USER_PIP_BY_NAME } },
      { label: 'requested-ip', loadBalancerIP: this.#userAddress },
    ];
  }

  async seedUpstream(input: { services: SwapServiceSeed[]; nodes: SwapNodeSeed[] }): Promise<UpstreamServiceState[]> {
    const seeder = this.#context.seeder();
    const { network, resourceGroup } = seeder;
    const location = seeder.access.location;
    this.#nodeNames = input.nodes.map((node) => node.instance.nodeName);
    const planned: PlannedService[] = input.services.map((seed) => {
      const internal = seed.variant.annotations?.[ANNOTATION_INTERNAL] === 'true';
      return { seed, base: baseNameOf(seed.uid), internal, subnet: internal ? seed.variant.annotations?.[ANNOTATION_INTERNAL_SUBNET] : undefined };
    });

    // ensurePublicIPExists: a new public IP per external Service without a requested one; a
    // requested (user-assigned) one is used untagged (serviceOwnsPublicIP: no service tag = the user's).
    for (const service of planned.filter((candidate) => !candidate.internal)) {
      const requestedName = service.seed.variant.annotations?.[ANNOTATION_PIP_NAME];
      if (requestedName !== undefined) service.publicIp = await network.publicIPAddresses.get(resourceGroup, requestedName);
      else if (service.seed.variant.loadBalancerIP !== undefined) service.publicIp = await network.publicIPAddresses.get(resourceGroup, USER_PIP_BY_ADDRESS);
      else {
        service.publicIp = await network.publicIPAddresses.beginCreateOrUpdateAndWait(
          resourceGroup,
          publicIpNameOf(this.clusterName, service.base),
          {
            location,
            sku: { name: 'Standard', tier: 'Regional' },
            publicIPAllocationMethod: 'Static',
            publicIPAddressVersion: 'IPv4',
            tags: { [TAG_SERVICE]: `${service.seed.namespace}/${service.seed.name}`, [TAG_CLUSTER_NAME]: this.clusterName },
          },
          poll,
        );
      }
      service.address = service.publicIp.ipAddress ?? '';
    }

    // getAzureLoadBalancerName: one standard load balancer per kind, named after the cluster.
    const external = await this.#putLoadBalancer(this.clusterName, planned.filter((service) => !service.internal));
    const internal = await this.#putLoadBalancer(`${this.clusterName}${INTERNAL_SUFFIX}`, planned.filter((service) => service.internal));
    for (const service of planned.filter((candidate) => candidate.internal)) {
      const frontend = (internal.frontendIPConfigurations ?? []).find((candidate) => candidate.name === frontendNameOf(service.base, service.subnet));
      service.address = frontend?.privateIPAddress ?? '';
      if (service.address === '') throw new Error(`the simulator gave frontend ${frontendNameOf(service.base, service.subnet)} no private address`);
    }

    // EnsureHostsInPool (nodeIPConfiguration): the nodes' primary IP configurations in both pools `<cluster>`.
    const poolIds = [external, internal].map((balancer) => `${balancer.id ?? ''}/backendAddressPools/${this.clusterName}`);
    for (const node of input.nodes) await this.#joinPools(this.#context.machineOf(node.instance.nodeName), poolIds);

    await this.#addSecurityRules(planned);

    // azure_routes.go CreateRoute: next hop VirtualAppliance, the node's private IP.
    for (const node of input.nodes) {
      if (node.podCidr === undefined) continue;
      await seeder.putRoute(this.#context.routeTable, routeNameOf(node.instance.nodeName, node.podCidr), node.podCidr, node.instance.internalIp ?? '');
    }

    await this.#seedOtherCluster(planned.find((service) => service.seed.variant.label === 'external'));

    return planned.map((service) => ({ ingress: [{ ip: service.address ?? '' }], extraFinalizers: [], writtenAnnotations: {} }));
  }

  /** reconcileLoadBalancer / getExpectedLBRules: the frontends, rules and probes of `services` and the pool `<cluster>`. */
  async #putLoadBalancer(name: string, services: PlannedService[]): Promise<LoadBalancer> {
    const seeder = this.#context.seeder();
    const id = `/subscriptions/${seeder.access.subscriptionId}/resourceGroups/${seeder.resourceGroup}/providers/Microsoft.Network/loadBalancers/${name}`;
    const frontends: FrontendIPConfiguration[] = [];
    const rules: LoadBalancingRule[] = [];
    const probes: Probe[] = [];
    for (const service of services) {
      const frontendName = frontendNameOf(service.base, service.subnet);
      if (service.internal) {
        const subnetId = `/subscriptions/${seeder.access.subscriptionId}/resourceGroups/${seeder.resourceGroup}/providers/Microsoft.Network/virtualNetworks/${seeder.vnet}/subnets/${service.subnet ?? seeder.subnet}`;
        frontends.push({ name: frontendName, subnet: { id: subnetId }, privateIPAllocationMethod: 'Dynamic', privateIPAddressVersion: 'IPv4' });
      } else {
        frontends.push({ name: frontendName, publicIPAddress: { id: service.publicIp?.id ?? '' } });
      }
      // externalTrafficPolicy Local: one HTTP probe on the health check node port, named as a TCP rule of that port.
      const local = service.seed.healthCheckNodePort !== undefined && service.seed.variant.externalTrafficPolicy === 'Local';
      const localProbeName = local ? ruleNameOf(service.base, service.subnet, 'TCP', service.seed.healthCheckNodePort ?? 0) : undefined;
      if (localProbeName !== undefined) {
        probes.push({ name: localProbeName, protocol: 'Http', port: service.seed.healthCheckNodePort ?? 0, requestPath: '/healthz', intervalInSeconds: PROBE_INTERVAL_SECONDS, numberOfProbes: PROBE_COUNT });
      }
      for (const port of service.seed.ports) {
        const ruleName = ruleNameOf(service.base, service.subnet, port.protocol, port.port);
        if (localProbeName === undefined) probes.push({ name: ruleName, protocol: 'Tcp', port: port.nodePort, intervalInSeconds: PROBE_INTERVAL_SECONDS, numberOfProbes: PROBE_COUNT });
        rules.push({
          name: ruleName,
          frontendIPConfiguration: { id: `${id}/frontendIPConfigurations/${frontendName}` },
          backendAddressPool: { id: `${id}/backendAddressPools/${this.clusterName}` },
          probe: { id: `${id}/probes/${localProbeName ?? ruleName}` },
          protocol: 'Tcp',
          frontendPort: port.port,
          // Floating IP is on by default: the backend port is the service port.
          backendPort: port.port,
          enableFloatingIP: true,
          idleTimeoutInMinutes: 4,
          enableTcpReset: true,
          loadDistribution: 'Default',
          disableOutboundSnat: false,
        });
      }
    }
    return seeder.network.loadBalancers.beginCreateOrUpdateAndWait(
      seeder.resourceGroup,
      name,
      {
        location: seeder.access.location,
        sku: { name: 'Standard', tier: 'Regional' },
        frontendIPConfigurations: frontends,
        backendAddressPools: [{ name: this.clusterName }],
        loadBalancingRules: rules,
        probes,
      },
      poll,
    );
  }

  /** ensureHostInPool: a VM's primary NIC IP configuration; a scale set's model and its VM (ensureVMSSInPool, EnsureHostInPool). */
  async #joinPools(machine: SeededMachine, poolIds: string[]): Promise<void> {
    const { network, compute, resourceGroup } = this.#context.seeder();
    const withPools = <T extends { id?: string }>(pools: T[] | undefined): Array<{ id?: string }> => [...(pools ?? []), ...poolIds.map((id) => ({ id }))];
    const inPools = <N extends { ipConfigurations?: Array<{ primary?: boolean; loadBalancerBackendAddressPools?: Array<{ id?: string }> }> }>(nic: N): N => ({
      ...nic,
      ipConfigurations: (nic.ipConfigurations ?? []).map((configuration, index) =>
        configuration.primary === true || index === 0 ? { ...configuration, loadBalancerBackendAddressPools: withPools(configuration.loadBalancerBackendAddressPools) } : configuration,
      ),
    });
    if (machine.scaleSet === undefined) {
      const nic = await network.networkInterfaces.get(resourceGroup, `${machine.name}-nic`);
      await network.networkInterfaces.beginCreateOrUpdateAndWait(resourceGroup, `${machine.name}-nic`, inPools(nic), poll);
      return;
    }
    const { name: scaleSetName, instanceId } = machine.scaleSet;
    const scaleSet = await compute.virtualMachineScaleSets.get(resourceGroup, scaleSetName);
    const modelConfigurations = (scaleSet.virtualMachineProfile?.networkProfile?.networkInterfaceConfigurations ?? []).map(inPools);
    await compute.virtualMachineScaleSets.update(resourceGroup, scaleSetName, { virtualMachineProfile: { networkProfile: { networkInterfaceConfigurations: modelConfigurations } } }, poll);
    const vm = await compute.virtualMachineScaleSetVMs.get(resourceGroup, scaleSetName, instanceId);
    const vmConfigurations = (vm.networkProfileConfiguration?.networkInterfaceConfigurations ?? []).map(inPools);
    await compute.virtualMachineScaleSetVMs.update(resourceGroup, scaleSetName, instanceId, { location: vm.location, networkProfileConfiguration: { networkInterfaceConfigurations: vmConfigurations } }, poll);
  }

  /**
   * securitygroup.RuleHelper.addAllowRule: one allow rule per protocol, sources and destination
   * ports (floating IP: the service ports), next free priority from 500, the Services' addresses
   * as destinations; sources `Internet` (external) or `*` (internal) when no range is set. One
   * source or destination goes in the singular property, several in the plural one
   * (`SetDestinationPrefixes`); the port ranges always in the plural one.
   */
  async #addSecurityRules(services: PlannedService[]): Promise<void> {
    const seeder = this.#context.seeder();
    const group = await seeder.network.networkSecurityGroups.get(seeder.resourceGroup, seeder.securityGroup);
    const rules = new Map<string, { protocol: 'Tcp'; sources: string[]; ports: number[]; destinations: string[] }>();
    for (const service of services) {
      const sources = [service.internal ? '*' : 'Internet'];
      const ports = [...new Set(service.seed.ports.map((port) => port.port))].sort((left, right) => left - right);
      const name = allowRuleNameOf('Tcp', sources, ports);
      const rule = rules.get(name) ?? { protocol: 'Tcp', sources, ports, destinations: [] };
      rule.destinations.push(service.address ?? '');
      rules.set(name, rule);
    }
    const existing = group.securityRules ?? [];
    const used = new Set(existing.map((rule) => rule.priority));
    let priority = FIRST_SECURITY_PRIORITY;
    const added: SecurityRule[] = [];
    for (const [name, rule] of rules) {
      while (used.has(priority)) priority += 1;
      used.add(priority);
      const destinations = [...new Set(rule.destinations)].sort();
      added.push({
        name,
        priority,
        direction: 'Inbound',
        access: 'Allow',
        protocol: rule.protocol,
        sourcePortRange: '*',
        ...(rule.sources.length === 1 ? { sourceAddressPrefix: rule.sources[0] } : { sourceAddressPrefixes: rule.sources }),
        ...(destinations.length === 1 ? { destinationAddressPrefix: destinations[0] } : { destinationAddressPrefixes: destinations }),
        destinationPortRanges: rule.ports.map(String).sort(),
      });
    }
    await seeder.network.networkSecurityGroups.beginCreateOrUpdateAndWait(seeder.resourceGroup, seeder.securityGroup, { ...group, securityRules: [...existing, ...added] }, poll);
  }

  /**
   * Another cluster's load balancer `<other>` and public IP `<other>-<base>`: its cluster tag
   * names the other cluster, its service tag the same `<namespace>/<name>` as one of ours (both
   * clusters run the same app), so only the cluster tag tells them apart (serviceOwnsPublicIP).
   */
  async #seedOtherCluster(twin: PlannedService | undefined): Promise<void> {
    if (twin === undefined) throw new Error('the swap fixture needs its external Service to model the other cluster');
    const seeder = this.#context.seeder();
    const { network, resourceGroup } = seeder;
    const location = seeder.access.location;
    const base = baseNameOf('0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d');
    const publicIp = await network.publicIPAddresses.beginCreateOrUpdateAndWait(
      resourceGroup,
      publicIpNameOf(SWAP_OTHER_CLUSTER_NAME, base),
      {
        location,
        sku: { name: 'Standard', tier: 'Regional' },
        publicIPAllocationMethod: 'Static',
        publicIPAddressVersion: 'IPv4',
        tags: { [TAG_SERVICE]: `${twin.seed.namespace}/${twin.seed.name}`, [TAG_CLUSTER_NAME]: SWAP_OTHER_CLUSTER_NAME },
      },
      poll,
    );
    const id = `/subscriptions/${seeder.access.subscriptionId}/resourceGroups/${resourceGroup}/providers/Microsoft.Network/loadBalancers/${SWAP_OTHER_CLUSTER_NAME}`;
    const ruleName = `${base}-TCP-80`;
    await network.loadBalancers.beginCreateOrUpdateAndWait(
      resourceGroup,
      SWAP_OTHER_CLUSTER_NAME,
      {
        location,
        sku: { name: 'Standard', tier: 'Regional' },
        frontendIPConfigurations: [{ name: base, publicIPAddress: { id: publicIp.id ?? '' } }],
        backendAddressPools: [{ name: SWAP_OTHER_CLUSTER_NAME }],
        probes: [{ name: ruleName, protocol: 'Tcp', port: 30999, intervalInSeconds: PROBE_INTERVAL_SECONDS, numberOfProbes: PROBE_COUNT }],
        loadBalancingRules: [
          {
            name: ruleName,
            frontendIPConfiguration: { id: `${id}/frontendIPConfigurations/${base}` },
            backendAddressPool: { id: `${id}/backendAddressPools/${SWAP_OTHER_CLUSTER_NAME}` },
            probe: { id: `${id}/probes/${ruleName}` },
            protocol: 'Tcp',
            frontendPort: 80,
            backendPort: 80,
            enableFloatingIP: true,
            idleTimeoutInMinutes: 4,
            enableTcpReset: true,
            loadDistribution: 'Default',
            disableOutboundSnat: false,
          },
        ],
      },
      poll,
    );
  }

  async inventory(): Promise<SwapInventory> {
    const seeder = this.#context.seeder();
    const loadBalancers: CloudInventory = {};
    const routes: CloudInventory = {};
    const user: CloudInventory = {};
    const foreign: CloudInventory = {};
    const ours = new Set([this.clusterName, `${this.clusterName}${INTERNAL_SUFFIX}`].map((name) => name.toLowerCase()));
    for (const balancer of await seeder.loadBalancers()) {
      const name = balancer.name ?? '';
      const target = ours.has(name.toLowerCase()) ? loadBalancers : name.toLowerCase() === SWAP_OTHER_CLUSTER_NAME ? foreign : undefined;
      if (target === undefined) continue;
      target[`loadBalancer/${name}`] = `guid=${balancer.resourceGuid ?? ''}`;
      for (const frontend of balancer.frontendIPConfigurations ?? []) {
        target[`frontend/${name}/${frontend.name ?? ''}`] = `id=${frontend.id ?? ''} address=${frontend.publicIPAddress?.id ?? frontend.privateIPAddress ?? ''}`;
      }
      for (const rule of balancer.loadBalancingRules ?? []) target[`rule/${name}/${rule.name ?? ''}`] = `id=${rule.id ?? ''} port=${rule.frontendPort ?? ''}`;
      for (const probe of balancer.probes ?? []) target[`probe/${name}/${probe.name ?? ''}`] = `id=${probe.id ?? ''} port=${probe.port ?? ''}`;
      for (const pool of balancer.backendAddressPools ?? []) {
        const members = (pool.backendIPConfigurations ?? []).map((member) => (member.id ?? '').toLowerCase()).sort();
        target[`backendPool/${name}/${pool.name ?? ''}`] = `id=${pool.id ?? ''} members=${members.join(',')}`;
      }
    }
    const userNames = new Set([USER_PIP_BY_NAME, USER_PIP_BY_ADDRESS]);
    for (const address of await seeder.publicIps()) {
      const name = address.name ?? '';
      const tags = JSON.stringify(Object.entries(address.tags ?? {}).sort(([left], [right]) => left.localeCompare(right)));
      const value = `guid=${address.resourceGuid ?? ''} ip=${address.ipAddress ?? ''} tags=${tags}`;
      if (userNames.has(name)) user[`publicIp/${name}`] = value;
      else if (address.tags?.[TAG_CLUSTER_NAME] === SWAP_OTHER_CLUSTER_NAME) foreign[`publicIp/${name}`] = value;
      else if (address.tags?.[TAG_CLUSTER_NAME] === this.clusterName && address.tags[TAG_SERVICE] !== undefined) loadBalancers[`publicIp/${name}`] = value;
    }
    for (const rule of await seeder.securityRules()) {
      const name = rule.name ?? '';
      if (!name.startsWith('k8s-azure-lb_')) continue;
      const destinations = [...(rule.destinationAddressPrefix === undefined ? [] : [rule.destinationAddressPrefix]), ...(rule.destinationAddressPrefixes ?? [])].sort();
      loadBalancers[`securityRule/${name}`] = `id=${rule.id ?? ''} priority=${rule.priority ?? ''} destinations=${destinations.join(',')}`;
    }
    const nodePrefixes = this.#nodeNames.map((node) => `${node}${ROUTE_NAME_SEPARATOR}`.toLowerCase());
    for (const route of await seeder.routes(this.#context.routeTable)) {
      if (!nodePrefixes.some((prefix) => route.name.toLowerCase().startsWith(prefix))) continue;
      routes[`route/${route.name}`] = `prefix=${route.addressPrefix} nextHop=${route.nextHopIpAddress ?? ''}`;
    }
    try {
      const subnet = await seeder.network.subnets.get(seeder.resourceGroup, seeder.vnet, SWAP_INTERNAL_SUBNET);
      user[`subnet/${SWAP_INTERNAL_SUBNET}`] = `id=${subnet.id ?? ''} prefix=${subnet.addressPrefix ?? ''}`;
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode !== 404) throw error;
    }
    return { loadBalancers, routes, user, foreign };
  }

  /** The other cluster's load balancer and public IP, the user's public IPs and subnet; every failure reported. */
  async cleanUp(): Promise<void> {
    const seeder = this.#context.seeder();
    const { network, resourceGroup } = seeder;
    const failures: string[] = [];
    const attempt = async (what: string, action: () => Promise<unknown>): Promise<void> => {
      try {
        await action();
      } catch (error) {
        if ((error as { statusCode?: number }).statusCode === 404) return;
        failures.push(`${what}: ${error instanceof Error ? error.message : String(error)}`);
      }
    };
    await attempt(`load balancer ${SWAP_OTHER_CLUSTER_NAME}`, () => network.loadBalancers.beginDeleteAndWait(resourceGroup, SWAP_OTHER_CLUSTER_NAME, poll));
    for (const address of await seeder.publicIps()) {
      const name = address.name ?? '';
      if (name === USER_PIP_BY_NAME || name === USER_PIP_BY_ADDRESS || address.tags?.[TAG_CLUSTER_NAME] === SWAP_OTHER_CLUSTER_NAME) {
        await attempt(`public IP ${name}`, () => network.publicIPAddresses.beginDeleteAndWait(resourceGroup, name, poll));
      }
    }
    await attempt(`subnet ${SWAP_INTERNAL_SUBNET}`, () => network.subnets.beginDeleteAndWait(resourceGroup, seeder.vnet, SWAP_INTERNAL_SUBNET, poll));
    if (failures.length > 0) throw new Error(`the swap fixture could not remove: ${failures.join('; ')}`);
  }
}
