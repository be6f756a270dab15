/**
 * The conformance driver of the Azure provider: the in-repo Azure simulator (Entra ID + ARM over
 * HTTPS with a throwaway CA, trusted by the CCM through NODE_EXTRA_CA_CERTS), seeded through ARM
 * with the pinned SDKs. Instances alternate between availability-set VMs and instances of uniform
 * scale sets (one scale set each, node name = the instance's computer name). Routes are read
 * back from the route table; LoadBalancer is not offered by the provider yet.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatAzureProviderId, nodeNameOfRoute, parseAzureProviderId, routeNameOf } from '@ccm/cloud-provider-azure';
import type { CcmProcessSpec, CloudLoadBalancerView, CloudRouteView, DriverInstance, InjectedRoute, ProviderDriver, ProviderDriverCapabilities } from '@ccm/testing/conformance';
import { AzureCloudSeeder, type SeededMachine } from '../simulator/azure-cloud-seeder.js';
import { launchAzureSimulator, simulatorCloudConfig, simulatorUnavailableReason, SIMULATOR_INSTALL_HINT, type AzureSimulator } from '../simulator/azure-simulator-launcher.js';

export const AZURE_CCM_BIN = fileURLToPath(new URL('../../dist/cloud-controller-manager/main.js', import.meta.url));

const RESOURCE_GROUP = 'RG-Conformance';
const ROUTE_TABLE = 'kubernetes-routes';

export class AzureDriver implements ProviderDriver {
  readonly name = 'azure';
  readonly capabilities: ProviderDriverCapabilities = { loadBalancer: false, routes: true, blackholeRoutes: false };
  readonly installHint = `${SIMULATOR_INSTALL_HINT}; build the CCM (npx -y pnpm@10.34.8 build)`;
  #simulator: AzureSimulator | undefined;
  #seeder: AzureCloudSeeder | undefined;
  #directory: string | undefined;
  #cloudConfigPath: string | undefined;
  readonly #machines = new Map<string, SeededMachine>();
  #created = 0;

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
    const simulator = this.#simulator as AzureSimulator;
    this.#created += 1;
    const machine =
      this.#created % 2 === 1
        ? await seeder.createVirtualMachine(name.toLowerCase())
        : ((await seeder.createScaleSet(`ss-${name.toLowerCase()}`, 1, { computerNamePrefix: name.toLowerCase() }))[0] as SeededMachine);
    this.#machines.set(machine.name, machine);
    const ref = parseAzureProviderId(machine.id);
    if (ref === undefined) throw new Error(`the simulator returned an ID that is not a VM's: ${machine.id}`);
    const region = simulator.location.toLowerCase();
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

  async readLoadBalancer(_service: { namespace: string; name: string; uid: string }): Promise<CloudLoadBalancerView> {
    throw new Error('the Azure provider offers no LoadBalancer yet (capabilities.loadBalancer is false)');
  }

  async readRoutes(): Promise<CloudRouteView[]> {
    return (await this.#requireSeeder().routes(ROUTE_TABLE)).map((route) => ({ destinationCidr: route.addressPrefix, targetNodeName: nodeNameOfRoute(route.name) }));
  }

  /** Routes still pointing at nodes this driver created. */
  async leakedResources(): Promise<string[]> {
    const created = new Set([...this.#machines.keys()]);
    return (await this.#requireSeeder().routes(ROUTE_TABLE)).filter((route) => created.has(nodeNameOfRoute(route.name))).map((route) => `route ${route.name} ${route.addressPrefix}`);
  }

  async injectRoute(route: InjectedRoute): Promise<void> {
    if (route.blackhole === true) throw new Error('Azure routes have no blackhole state');
    await this.#requireSeeder().putRoute(ROUTE_TABLE, routeNameOf(route.targetNodeName, route.destinationCidr), route.destinationCidr, '10.240.255.254');
  }

  async removeRoute(destinationCidr: string): Promise<void> {
    const seeder = this.#requireSeeder();
    for (const route of (await seeder.routes(ROUTE_TABLE)).filter((candidate) => candidate.addressPrefix === destinationCidr)) await seeder.deleteRoute(ROUTE_TABLE, route.name);
  }

  #machine(instance: DriverInstance): SeededMachine {
    const machine = this.#machines.get(instance.nodeName);
    if (machine === undefined) throw new Error(`AzureDriver: no instance ${instance.nodeName}`);
    return machine;
  }

  #requireSeeder(): AzureCloudSeeder {
    if (this.#seeder === undefined) throw new Error('AzureDriver: not started');
    return this.#seeder;
  }
}

export const azureDriver = new AzureDriver();
