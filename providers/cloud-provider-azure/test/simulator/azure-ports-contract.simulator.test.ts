/**
 * The Azure ports contract (test/support/azure-ports-contract.ts) on the production adapters
 * (@azure/arm-compute and @azure/arm-network, built as the provider builds them) against the Azure
 * simulator; test/azure-ports.contract.test.ts runs the same contract on the in-memory fakes.
 */
import { silentLogger } from '@ccm/core/logging';
import { afterAll, beforeAll, describe } from 'vitest';
import { createAzureSdkClients } from '../../src/ports/sdk/azure-sdk-clients.js';
import { createSdkComputePort } from '../../src/ports/sdk/sdk-compute-port.js';
import { createSdkNetworkPort } from '../../src/ports/sdk/sdk-network-port.js';
import { describeAzurePortsContract, type AzurePortsContractFixture } from '../support/azure-ports-contract.js';
import { AzureCloudSeeder } from '../support/azure-cloud-seeder.js';
import { launchAzureSimulator, simulatorUnavailableReason, SIMULATOR_INSTALL_HINT, type AzureSimulator } from '../support/azure-simulator-launcher.js';

const unavailable = await simulatorUnavailableReason();
if (unavailable !== undefined && process.env['CI'] === 'true') throw new Error(`the Azure simulator is required under CI=true: ${unavailable}; ${SIMULATOR_INSTALL_HINT}`);
if (unavailable !== undefined) console.warn(`SKIPPING the Azure ports contract on the simulator: ${unavailable}; ${SIMULATOR_INSTALL_HINT}`);

const RESOURCE_GROUP = 'RG-Contract';

describe.skipIf(unavailable !== undefined)('Azure ports contract: the SDK adapters on the Azure simulator', () => {
  let simulator: AzureSimulator | undefined;
  let side: AzurePortsContractFixture | undefined;

  beforeAll(async () => {
    const started = await launchAzureSimulator();
    simulator = started;
    const seeder = new AzureCloudSeeder(started, RESOURCE_GROUP);
    await seeder.prepare();
    const clients = createAzureSdkClients({
      resourceManagerEndpoint: started.resourceManagerEndpoint,
      activeDirectoryEndpoint: started.activeDirectoryEndpoint,
      tokenScope: `${started.resourceManagerEndpoint.replace(/\/+$/, '')}/.default`,
      credential: { kind: 'client-secret', tenantId: started.tenantId, clientId: started.clientId, clientSecret: started.clientSecret },
      logger: silentLogger,
      subscriptionId: started.subscriptionId,
      caPem: started.caCertificatePem,
      disableInstanceDiscovery: true,
    });
    const vnet = await seeder.network.virtualNetworks.get(RESOURCE_GROUP, seeder.vnet);
    const publicIpId = (name: string): string => `/subscriptions/${started.subscriptionId}/resourceGroups/${RESOURCE_GROUP}/providers/Microsoft.Network/publicIPAddresses/${name}-pip`;
    side = {
      compute: createSdkComputePort(clients.compute),
      network: createSdkNetworkPort(clients.network),
      subscriptionId: started.subscriptionId,
      resourceGroup: RESOURCE_GROUP,
      location: started.location,
      subnetId: `${vnet.id ?? ''}/subnets/${seeder.subnet}`,
      securityGroup: seeder.securityGroup,
      createVirtualMachine: async (name, options) => {
        const machine = await seeder.createVirtualMachine(name, { publicIp: options.publicIp });
        return { id: machine.id, name, privateIp: machine.privateIp, ...(machine.publicIp === undefined ? {} : { publicIp: machine.publicIp, publicIpId: publicIpId(name) }) };
      },
      createScaleSet: async (name, capacity) =>
        (await seeder.createScaleSet(name, capacity)).map((machine) => ({ id: machine.id, name: machine.name, privateIp: machine.privateIp, ...(machine.scaleSet === undefined ? {} : { scaleSet: machine.scaleSet }) })),
    };
  }, 60_000);

  afterAll(async () => {
    await simulator?.close();
  });

  describeAzurePortsContract(() => {
    if (side === undefined) throw new Error('the simulator side did not start (see the hook error)');
    return side;
  });
});
