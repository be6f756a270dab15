/**
 * The conformance driver of the Azure provider: the in-repo Azure simulator (Entra ID + ARM over
 * HTTPS with a throwaway CA, trusted by the CCM through NODE_EXTRA_CA_CERTS), seeded through ARM
 * with the pinned SDKs. Instances alternate between availability-set VMs and instances of uniform
 * scale sets (one scale set each, node name = the instance's computer name). Routes are read
 * back from the route table; load balancers from ARM (frontends, rules, probes and the backend
 * pool's NIC and scale-set VM IP configurations, mapped back to node names).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AZURE_ALL_UPSTREAM_METRICS, formatAzureProviderId, nodeNameOfRoute, parseAzureProviderId, routeNameOf } from '@ccm/cloud-provider-azure';
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
import { AzureCloudSeeder, type SeededMachine } from '../support/azure-cloud-seeder.js';
import { launchAzureSimulator, simulatorCloudConfig, simulatorUnavailableReason, SIMULATOR_INSTALL_HINT, type AzureSimulator } from '../support/azure-simulator-launcher.js';
import { AzureSwapFixture } from './azure-swap-fixture.js';

export const AZURE_CCM_BIN = fileURLToPath(new URL('../../dist/cloud-controller-manager/main.js', import.meta.url));

const RESOURCE_GROUP = 'RG-Conformance';
const ROUTE_TABLE = 'kubernetes-routes';

/**
 * The cloud operation of a request, for the benchmark's count: Entra token and discovery calls,
 * else the method and the ARM resource types of the path (`GET virtualMachineScaleSets/virtualMachines`).
 */
export function azureOperationOf(request: CloudRequest): string {
  const path = request.path.split('?')[0] ?? '';
  if (path.includes('/oauth2/')) return 'entra.token';
  if (path.includes('/.well-known/') || path.includes('/discovery/')) return 'entra.discovery';
  const segments = path.split('/').filter((segment) => segment !== '');
  const providers = segments.findIndex((segment) => segment.toLowerCase() === 'providers');
  if (providers < 0) return `${request.method} ${segments.filter((_, index) => index % 2 === 0).join('/')}`;
  const types = segments.slice(providers + 2).filter((_, index) => index % 2 === 0);
  return `${request.method} ${types.join('/')}`;
}

export interface AzureDriverOptions {
  /**
   * The cache refresh periods (`vmCacheTTLInSeconds`, `vmssCacheTTLInSeconds`,
   * `vmssVirtualMachinesCacheTTLInSeconds`) of `benchCcmProcess`'s config; default: the provider's
   * own defaults (benchmarks). The chaos run deletes instances and waits for the CCM to see it.
   */
  benchCacheTtlSeconds?: number;
}

export class AzureDriver implements ProviderDriver {
  readonly name = 'azure';
  readonly upstreamMetrics = AZURE_ALL_UPSTREAM_METRICS;
  readonly capabilities: ProviderDriverCapabilities = {
    loadBalancer: true,
    routes: true,
    blackholeRoutes: false,
    internalLoadBalancer: { annotations: { 'service.beta.kubernetes.io/azure-load-balancer-internal': 'true' } },
    externalTrafficPolicyLocal: true,
  };
  readonly installHint = `${SIMULATOR_INSTALL_HINT}; build the CCM (npx -y pnpm@10.34.8 build)`;
  #simulator: AzureSimulator | undefined;
  #seeder: AzureCloudSeeder | undefined;
  #directory: string | undefined;
  #cloudConfigPath: string | undefined;
  readonly #machines = new Map<string, SeededMachine>();
  readonly #benchCacheTtlSeconds: number | undefined;
  #created = 0;
  /** What the upstream CCM leaves in the cloud, for the swap scenario. */
  readonly swap = new AzureSwapFixture({
    seeder: () => this.#requireSeeder(),
    machineOf: (nodeName) => this.#machine({ nodeName }),
    routeTable: ROUTE_TABLE,
  });

  constructor(options: AzureDriverOptions = {}) {
    this.#benchCacheTtlSeconds = options.benchCacheTtlSeconds;
  }

  async unavailableReason(): Promise<string | undefined> {
    return (await simulatorUnavailableReason()) ?? (existsSync(AZURE_CCM_BIN) ? undefined : `the Azure CCM is not built (${AZURE_CCM_BIN} is missing)`);
  }

  async start(): Promise<void> {
    const simulator = await launchAzureSimulator();
    this.#simulator = simulator;
    this.#seeder = new AzureCloudSeeder(simulator, RESOURCE_GROUP);
    await this.#seeder.prepare();
    this.#directory = await mkdtemp(join(tmpdir(), 'ccm-e2e-azure-'));
    this.#cloudConfigPath = join(this.#directory, 'azure.json');
    const config = simulatorCloudConfig(simulator, {
      resourceGroup: RESOURCE_GROUP,
      vnetName: this.#seeder.vnet,
      subnetName: this.#seeder.subnet,
      securityGroupName: this.#seeder.securityGroup,
      routeTableName: ROUTE_TABLE,
      vmType: 'vmss',
      // Short refresh periods: the suite deletes and stops instances and waits for the CCM to see it.
      vmCacheTTLInSeconds: 1,
      vmssCacheTTLInSeconds: 1,
      vmssVirtualMachinesCacheTTLInSeconds: 1,
    });
    await writeFile(this.#cloudConfigPath, `${JSON.stringify(config, null, 2)}\n`);
  }

  async stop(): Promise<void> {
    await this.#simulator?.close();
    this.#simulator = undefined;
    if (this.#directory !== undefined) await rm(this.#directory, { recursive: true, force: true });
    this.#directory = undefined;
  }

  cloudEndpoint(): CloudEndpoint {
    const simulator = this.#requireSimulator();
    return { url: simulator.resourceManagerEndpoint, ca: simulator.caCertificatePem, operationOf: azureOperationOf };
  }

  /**
   * The CCM against the benchmark's counting proxy (ARM and Entra both at `cloudUrl`, its CA in
   * NODE_EXTRA_CA_CERTS) with the default refresh periods (or `benchCacheTtlSeconds`). The lookup policy is ignored: upstream
   * answers from cached lists too.
   */
  async benchCcmProcess(options: BenchCcmOptions): Promise<CcmProcessSpec> {
    if (options.caFile === undefined || this.#directory === undefined) throw new Error('AzureDriver.benchCcmProcess: start() first; the proxy must be HTTPS (caFile)');
    const simulator = this.#requireSimulator();
    const path = join(this.#directory, 'bench-azure.json');
    const ttl = this.#benchCacheTtlSeconds;
    const refresh = ttl === undefined ? {} : { vmCacheTTLInSeconds: ttl, vmssCacheTTLInSeconds: ttl, vmssVirtualMachinesCacheTTLInSeconds: ttl };
    const config = simulatorCloudConfig(simulator, { resourceGroup: RESOURCE_GROUP, routeTableName: ROUTE_TABLE, vmType: 'vmss', resourceManagerEndpoint: options.cloudUrl, activeDirectoryEndpoint: options.cloudUrl, ...refresh });
    await writeFile(path, `${JSON.stringify(config, null, 2)}\n`);
    // Entra's discovery document (read through the proxy) names the simulator's own token
    // endpoint, so the CCM trusts both CAs; token requests go to the simulator uncounted.
    const caBundle = join(this.#directory, 'bench-ca-bundle.pem');
    await writeFile(caBundle, `${(await readFile(options.caFile, 'utf8')).trim()}\n${simulator.caCertificatePem.trim()}\n`);
    return { command: process.execPath, args: [AZURE_CCM_BIN, '--cloud-provider=azure', `--cloud-config=${path}`], env: { NODE_EXTRA_CA_CERTS: caBundle } };
  }

  /** Benchmarks: one uniform scale set holding every instance (node names are the computer names). */
  async createInstances(names: readonly string[]): Promise<DriverInstance[]> {
    const machines = await this.#requireSeeder().createScaleSet(`bench-${this.#created++}`, names.length, { computerNamePrefix: `bench${this.#created}x` });
    return machines.map((machine) => this.#instanceOf(machine));
  }

  ccmProcess(): CcmProcessSpec {
    if (this.#cloudConfigPath === undefined || this.#simulator === undefined) throw new Error('AzureDriver.ccmProcess() called before start()');
    return {
      command: process.execPath,
      args: [AZURE_CCM_BIN, '--cloud-provider=azure', `--cloud-config=${this.#cloudConfigPath}`],
      env: { NODE_EXTRA_CA_CERTS: this.#simulator.caCertFile },
    };
  }

  async createInstance(name: string): Promise<DriverInstance> {
    const seeder = this.#requireSeeder();
    this.#created += 1;
    const machine =
      this.#created % 2 === 1
        ? await seeder.createVirtualMachine(name.toLowerCase())
        : ((await seeder.createScaleSet(`ss-${name.toLowerCase()}`, 1, { computerNamePrefix: name.toLowerCase() }))[0] as SeededMachine);
    return this.#instanceOf(machine);
  }

  #instanceOf(machine: SeededMachine): DriverInstance {
    this.#machines.set(machine.name, machine);
    const ref = parseAzureProviderId(machine.id);
    if (ref === undefined) throw new Error(`the simulator returned an ID that is not a VM's: ${machine.id}`);
    const region = this.#requireSimulator().location.toLowerCase();
    return {
      nodeName: machine.name,
      expectedProviderId: formatAzureProviderId(ref),
      expectedAddresses: [
        { type: 'InternalIP', address: machine.privateIp },
        { type: 'Hostname', address: machine.name },
      ],
      expectedInstanceType: machine.vmSize,
      expectedZone: machine.zone === undefined ? String(machine.platformFaultDomain ?? 0) : `${region}-${machine.zone}`,
      expectedRegion: region,
      internalIp: machine.privateIp,
    };
  }

  async stopInstance(instance: DriverInstance): Promise<void> {
    await this.#requireSeeder().powerOff(this.#machine(instance));
  }

  async startInstance(instance: DriverInstance): Promise<void> {
    await this.#requireSeeder().start(this.#machine(instance));
  }

  async deleteInstance(instance: DriverInstance): Promise<void> {
    await this.#requireSeeder().delete(this.#machine(instance));
    this.#machines.delete(instance.nodeName);
  }

  /**
   * The Service's frontend (`a<uid>` or `a<uid>-<subnet>`) on whichever load balancer holds it,
   * its rules' frontend ports, its probe's port, and the backend pool's members as node names.
   */
  async readLoadBalancer(service: { namespace: string; name: string; uid: string }): Promise<CloudLoadBalancerView> {
    const base = `a${service.uid.replaceAll('-', '')}`.slice(0, 32);
    const owned = (name: string | undefined) => name === base || (name ?? '').startsWith(`${base}-`);
    for (const balancer of await this.#requireSeeder().loadBalancers()) {
      const frontend = balancer.frontendIPConfigurations?.find((candidate) => owned(candidate.name));
      if (frontend === undefined) continue;
      const rules = (balancer.loadBalancingRules ?? []).filter((rule) => owned(rule.name));
      const probe = (balancer.probes ?? []).find((candidate) => owned(candidate.name));
      const poolIds = new Set(rules.map((rule) => (rule.backendAddressPool?.id ?? '').toLowerCase()));
      const members = (balancer.backendAddressPools ?? []).filter((pool) => poolIds.has((pool.id ?? '').toLowerCase())).flatMap((pool) => pool.backendIPConfigurations ?? []);
      return {
        exists: true,
        backendNodeNames: [...new Set(members.map((member) => this.#nodeNameOfMember(member.id ?? '')).filter((name): name is string => name !== undefined))],
        ports: rules.map((rule) => rule.frontendPort ?? 0).sort((left, right) => left - right),
        internal: frontend.publicIPAddress === undefined,
        ...(probe?.port === undefined ? {} : { healthCheckNodePort: probe.port }),
      };
    }
    return { exists: false, backendNodeNames: [], ports: [] };
  }

  /** The node of a backend pool member: a VM's NIC (`<vm>-nic`) or a scale-set VM. */
  #nodeNameOfMember(ipConfigurationId: string): string | undefined {
    const segments = ipConfigurationId.split('/');
    const lower = segments.map((segment) => segment.toLowerCase());
    const scaleSetIndex = lower.indexOf('virtualmachinescalesets');
    if (scaleSetIndex >= 0) {
      const scaleSet = lower[scaleSetIndex + 1];
      const instanceId = segments[scaleSetIndex + 3];
      return [...this.#machines.values()].find((machine) => machine.scaleSet?.name.toLowerCase() === scaleSet && machine.scaleSet?.instanceId === instanceId)?.name;
    }
    const nicIndex = lower.indexOf('networkinterfaces');
    const nic = nicIndex >= 0 ? segments[nicIndex + 1] : undefined;
    return [...this.#machines.values()].find((machine) => machine.kind === 'vm' && `${machine.name}-nic`.toLowerCase() === nic?.toLowerCase())?.name;
  }

  async readRoutes(): Promise<CloudRouteView[]> {
    return (await this.#requireSeeder().routes(ROUTE_TABLE)).map((route) => ({ destinationCidr: route.addressPrefix, targetNodeName: nodeNameOfRoute(route.name) }));
  }

  /**
   * Routes still pointing at nodes this driver created, and every load balancer, public IP
   * tagged `k8s-azure-service` and `k8s-azure-lb_` security rule left in the cluster's resource
   * group (the CCM creates them; with no Service left, none may remain).
   */
  async leakedResources(): Promise<string[]> {
    const seeder = this.#requireSeeder();
    const created = new Set([...this.#machines.keys()]);
    const routes = (await seeder.routes(ROUTE_TABLE)).filter((route) => created.has(nodeNameOfRoute(route.name))).map((route) => `route ${route.name} ${route.addressPrefix}`);
    const balancers = (await seeder.loadBalancers()).map((balancer) => `load balancer ${balancer.name ?? ''} (frontends ${(balancer.frontendIPConfigurations ?? []).map((frontend) => frontend.name).join(', ')})`);
    const addresses = (await seeder.publicIps())
      .filter((address) => address.tags?.['k8s-azure-service'] !== undefined)
      .map((address) => `public IP ${address.name ?? ''} (${address.ipAddress ?? ''}, services ${address.tags?.['k8s-azure-service'] ?? ''})`);
    const rules = (await seeder.securityRules()).filter((rule) => (rule.name ?? '').startsWith('k8s-azure-lb_')).map((rule) => `security rule ${rule.name ?? ''}`);
    return [...routes, ...balancers, ...addresses, ...rules];
  }

  async injectRoute(route: InjectedRoute): Promise<void> {
    if (route.blackhole === true) throw new Error('Azure routes have no blackhole state');
    await this.#requireSeeder().putRoute(ROUTE_TABLE, routeNameOf(route.targetNodeName, route.destinationCidr), route.destinationCidr, '10.240.255.254');
  }

  async removeRoute(destinationCidr: string): Promise<void> {
    const seeder = this.#requireSeeder();
    for (const route of (await seeder.routes(ROUTE_TABLE)).filter((candidate) => candidate.addressPrefix === destinationCidr)) await seeder.deleteRoute(ROUTE_TABLE, route.name);
  }

  #machine(instance: Pick<DriverInstance, 'nodeName'>): SeededMachine {
    const machine = this.#machines.get(instance.nodeName);
    if (machine === undefined) throw new Error(`AzureDriver: no instance ${instance.nodeName}`);
    return machine;
  }

  #requireSimulator(): AzureSimulator {
    if (this.#simulator === undefined) throw new Error('AzureDriver: not started');
    return this.#simulator;
  }

  #requireSeeder(): AzureCloudSeeder {
    if (this.#seeder === undefined) throw new Error('AzureDriver: not started');
    return this.#seeder;
  }
}

export const azureDriver = new AzureDriver();
