/**
 * The Azure ports contract (test/support/azure-ports-contract.ts) on the in-memory fakes the unit
 * tests use; test/simulator/azure-ports-contract.simulator.test.ts runs the same contract on the
 * production SDK adapters against the Azure simulator. A case that holds on one side only is a
 * fake that accepts what ARM refuses, or answers what ARM does not.
 */
import { describe } from 'vitest';
import { describeAzurePortsContract, type ContractMachine } from './support/azure-ports-contract.js';
import { FakeCompute } from './fakes/fake-compute.js';
import { FakeNetwork, linkFakes } from './fakes/fake-network.js';

const SUBSCRIPTION = '00000000-0000-0000-0000-0000000000c7';
const RESOURCE_GROUP = 'RG-Contract';
const LOCATION = 'eastus';

describe('Azure ports contract: the in-memory fakes', () => {
  const compute = new FakeCompute();
  const network = new FakeNetwork(SUBSCRIPTION);
  linkFakes(compute, network);
  compute.addResourceGroup(RESOURCE_GROUP);
  network.addSecurityGroup(RESOURCE_GROUP, 'cluster-nsg');
  const subnetId = network.addSubnet(RESOURCE_GROUP, 'cluster-vnet', 'nodes', '10.240.0.0/16');
  const group = `/subscriptions/${SUBSCRIPTION}/resourceGroups/${RESOURCE_GROUP}`;
  let nextAddress = 4;

  describeAzurePortsContract(() => ({
    compute,
    network,
    subscriptionId: SUBSCRIPTION,
    resourceGroup: RESOURCE_GROUP,
    location: LOCATION,
    subnetId,
    securityGroup: 'cluster-nsg',
    createVirtualMachine: (name, options) => {
      const id = `${group}/providers/Microsoft.Compute/virtualMachines/${name}`;
      const nicId = `${group}/providers/Microsoft.Network/networkInterfaces/${name}-nic`;
      const privateIp = `10.240.0.${nextAddress++}`;
      const address = options.publicIp ? network.addPublicIp(RESOURCE_GROUP, `${name}-pip`, `20.1.0.${nextAddress}`) : undefined;
      network.addNetworkInterface({
        id: nicId,
        name: `${name}-nic`,
        ipConfigurations: [{ name: 'ipconfig1', primary: true, privateIpAddress: privateIp, privateIpVersion: 'IPv4', ...(address?.id === undefined ? {} : { publicIpAddressId: address.id }) }],
      });
      compute.addVirtualMachine({
        id,
        name,
        resourceGroup: RESOURCE_GROUP,
        location: LOCATION,
        zones: [],
        vmSize: 'Standard_D2s_v3',
        computerName: name,
        powerState: 'running',
        provisioningState: 'Succeeded',
        platformFaultDomain: 0,
        networkInterfaceIds: [nicId],
      });
      const machine: ContractMachine = { id, name, privateIp, ...(address?.id === undefined ? {} : { publicIpId: address.id, publicIp: address.ipAddress }) };
      return Promise.resolve(machine);
    },
    createScaleSet: (name, capacity) => {
      const machines = Array.from({ length: capacity }, (_, index): ContractMachine => {
        const instanceId = String(index);
        const id = `${group}/providers/Microsoft.Compute/virtualMachineScaleSets/${name}/virtualMachines/${instanceId}`;
        const privateIp = `10.240.0.${nextAddress++}`;
        compute.addScaleSetVirtualMachine({
          id,
          name: `${name}_${instanceId}`,
          resourceGroup: RESOURCE_GROUP,
          location: LOCATION,
          zones: [],
          vmSize: 'Standard_D4s_v3',
          computerName: `${name}00000${instanceId}`,
          powerState: 'running',
          provisioningState: 'Succeeded',
          networkInterfaceIds: [`${id}/networkInterfaces/${name}-nic`],
          scaleSet: { name, instanceId },
        });
        network.addNetworkInterface({ id: `${id}/networkInterfaces/${name}-nic`, name: `${name}-nic`, ipConfigurations: [{ name: 'ipconfig1', primary: true, privateIpAddress: privateIp, privateIpVersion: 'IPv4' }] });
        return { id, name: `${name}_${instanceId}`, privateIp, scaleSet: { name, instanceId } };
      });
      return Promise.resolve(machines);
    },
  }));
});
