/** The shared contract suites (@ccm/testing/contract) over the provider and its fakes. */
import { describeInstancesV2Contract, describeRoutesContract, type ContractFixture, type ContractInstance } from '@ccm/testing/contract';
import type { V1Node } from '@kubernetes/client-node';
import { FakeCompute } from './fakes/fake-compute.js';
import { FakeNetwork } from './fakes/fake-network.js';
import { cloudConf, createHarness, initializeContext, makeNode, NODE_NETWORK, NODE_NETWORK_ID, REGION, ROUTER_ID } from './helpers.js';

async function fixture(): Promise<ContractFixture> {
  const compute = new FakeCompute();
  const network = new FakeNetwork();
  network.addRouter(ROUTER_ID, ['10.0.0.0/24', 'fd00::/64']);
  network.addPort({ networkId: NODE_NETWORK_ID, deviceId: ROUTER_ID, fixedIps: [{ subnetId: 'subnet-nodes', ipAddress: '10.0.0.1' }] });
  const { cloud } = await createHarness({ compute, network, config: cloudConf(`[Route]\nrouter-id = ${ROUTER_ID}\n`) });
  // The Nodes the kubelets registered, with the addresses the node controller set.
  const nodes: V1Node[] = [];
  cloud.initialize(initializeContext(nodes));
  let next = 10;
  const serverIds = new Map<string, string>();
  return {
    provider: cloud,
    cloud: {
      createInstance: async (name): Promise<ContractInstance> => {
        const v4 = `10.0.0.${next}`;
        const v6 = `fd00::${next++}`;
        const server = compute.addServer(name, { addresses: { [NODE_NETWORK]: [{ address: v4, version: 4, type: 'fixed' }, { address: v6, version: 6, type: 'fixed' }] } });
        network.addPort({ networkId: NODE_NETWORK_ID, deviceId: server.id, fixedIps: [{ subnetId: 'subnet-nodes', ipAddress: v4 }, { subnetId: 'subnet-v6', ipAddress: v6 }] });
        serverIds.set(name, server.id);
        nodes.push(makeNode(name, { internalIps: [v4, v6] }));
        return {
          nodeName: name,
          providerId: `openstack:///${server.id}`,
          expectedAddresses: [{ type: 'InternalIP', address: v4 }, { type: 'InternalIP', address: v6 }],
          expectedInstanceType: 'm1.small',
          expectedZone: 'nova',
          expectedRegion: REGION,
        };
      },
      stopInstance: async (instance) => {
        const server = compute.servers.get(serverIds.get(instance.nodeName) ?? '');
        if (server) server.status = 'SHUTOFF';
      },
      startInstance: async (instance) => {
        const server = compute.servers.get(serverIds.get(instance.nodeName) ?? '');
        if (server) server.status = 'ACTIVE';
      },
      deleteInstance: async (instance) => {
        const serverId = serverIds.get(instance.nodeName) ?? '';
        compute.servers.delete(serverId);
        for (const [id, port] of network.ports) if (port.deviceId === serverId) network.ports.delete(id);
      },
    },
  };
}

describeInstancesV2Contract('openstack', fixture);
// Upstream: a route is a blackhole only when no Node has its next hop, and the Node of a deleted
// server stays until the node lifecycle controller deletes it.
describeRoutesContract('openstack', fixture, { blackholeWhenTargetDeleted: false });
