/**
 * The port contracts (test/support/*-port-contract.ts) on both sides (issue 23 point 4): the
 * in-memory fakes the unit tests use, and the production adapters (ports/sdk/) against the real
 * Keystone, Neutron and Octavia and the Nova stand-in of @ccm/openstack-services. A case that holds
 * on one side only is a fake that accepts what OpenStack refuses, or answers what it does not.
 * The real side fails under CI=true when the services cannot start, and skips loudly otherwise.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { holdingOctaviaWorker, openStackServicesForTests, type TestServices } from '@ccm/openstack-services';
import { openStackServicesSuite } from '@ccm/openstack-services/suite';
import type { Network, OpenStackClient, Subnet } from 'openstack-client-ts';
import { createSdkComputePort } from '../../src/ports/sdk/sdk-compute-port.js';
import { createSdkLoadBalancerNetworkPort } from '../../src/ports/sdk/sdk-load-balancer-network-port.js';
import { createSdkNetworkPort, toNeutronPort } from '../../src/ports/sdk/sdk-network-port.js';
import { createSdkOctaviaPort } from '../../src/ports/sdk/sdk-octavia-port.js';
import { createSdkSecurityGroupPort } from '../../src/ports/sdk/sdk-security-group-port.js';
import { FakeCompute } from '../fakes/fake-compute.js';
import { FakeLoadBalancerNetwork } from '../fakes/fake-load-balancer-network.js';
import { FakeNetwork } from '../fakes/fake-network.js';
import { FakeOctavia } from '../fakes/fake-octavia.js';
import { FakeSecurityGroup } from '../fakes/fake-security-group.js';
import { adminClientOf } from '../support/admin-client.js';
import { describeComputePortContract, type ComputePortContractFixture } from '../support/compute-port-contract.js';
import { describeLoadBalancerNetworkPortContract, type LoadBalancerNetworkPortContractFixture } from '../support/load-balancer-network-port-contract.js';
import { describeNetworkPortContract, type NetworkPortContractFixture } from '../support/network-port-contract.js';
import { describeOctaviaPortContract, type OctaviaPortContractFixture } from '../support/octavia-port-contract.js';
import { describeSecurityGroupPortContract, type SecurityGroupPortContractFixture } from '../support/security-group-port-contract.js';

const run = Date.now().toString(36);
/** Per case on the real services, on a loaded 2-core machine: Neutron calls took up to 19 s a case, Octavia's PENDING_* waits more. */
const NEUTRON_TIMEOUT_MS = 120_000;
const OCTAVIA_TIMEOUT_MS = 300_000;

describe('OpenStack port contracts: the in-memory fakes', () => {
  describe('ComputePort', () => {
    const compute = new FakeCompute();
    const flavor = compute.flavors.get('f-small')!;
    describeComputePortContract(() => ({
      port: compute,
      flavor: { ...flavor },
      prefix: `fake-${run}`,
      createServer: (name) => Promise.resolve({ id: compute.addServer(name, { flavorId: flavor.id }).id }),
      deleteServer: (id) => Promise.resolve(void compute.servers.delete(id)),
    }));
  });

  describe('NetworkPort', () => {
    const network = new FakeNetwork();
    let nextHost = 10;
    let nextRouter = 1;
    describeNetworkPortContract(() => ({
      port: network,
      networkId: 'net-nodes',
      prefix: `fake-${run}`,
      nexthops: { inside: ['10.30.0.21', '10.30.0.22'], outside: '192.0.2.7' },
      createPort: (deviceId, options = {}) =>
        Promise.resolve(network.addPort({ networkId: 'net-nodes', deviceId, fixedIps: [{ subnetId: 'subnet-nodes', ipAddress: `10.30.0.${nextHost++}` }], portSecurityEnabled: options.portSecurityEnabled ?? true })),
      createRouter: () => {
        const id = `router-${nextRouter++}`;
        network.addRouter(id, ['10.30.0.0/24']);
        return Promise.resolve({ id });
      },
    }));
  });

  describe('LoadBalancerNetworkPort', () => {
    const network = new FakeLoadBalancerNetwork();
    network.addSubnet({ id: 'subnet-vip', networkId: 'net-vip', cidr: '10.31.0.0/24', ipVersion: 4 });
    describeLoadBalancerNetworkPortContract(() => ({
      port: network,
      networkId: 'net-vip',
      subnet: { id: 'subnet-vip', cidr: '10.31.0.0/24' },
      freeAddress: '10.31.0.250',
      outsideAddress: '192.0.2.9',
      floatingNetworkId: 'net-public',
      prefix: `fake-${run}`,
    }));
  });

  describe('SecurityGroupPort', () => {
    const groups = new FakeSecurityGroup();
    let nextPort = 1;
    describeSecurityGroupPortContract(() => ({
      port: groups,
      prefix: `fake-${run}`,
      createNodePort: (deviceId, options = {}) => {
        const id = `node-port-${nextPort++}`;
        groups.addPort({ id, deviceId, fixedIps: [{ subnetId: 'subnet-nodes', address: `10.32.0.${nextPort}` }], securityGroupIds: [], portSecurityEnabled: options.portSecurityEnabled ?? true, tags: options.tags ?? [] });
        return groups.portsOfDevice(deviceId).then((ports) => ports[0]!);
      },
    }));
  });

  describe('OctaviaPort', () => {
    const octavia = new FakeOctavia();
    describeOctaviaPortContract(() => ({ port: octavia, vipSubnetId: 'subnet-vip', provider: 'amphora', prefix: `fake-${run}`, holdingProvisioning: (body) => body() }));
  });
});

openStackServicesSuite('OpenStack port contracts: the production adapters on the real services', () => {
  let services: TestServices | undefined;
  let client: OpenStackClient;
  let nodes: { network: Network; subnet: Subnet };
  let vip: { network: Network; subnet: Subnet };
  let external: Network;
  const started = (): OpenStackClient => {
    if (services === undefined) throw new Error('the OpenStack services did not start (see the hook error)');
    return client;
  };

  beforeAll(async () => {
    services = await openStackServicesForTests({ log: (line) => console.log(`openstack-services: ${line}`) });
    client = adminClientOf(services);
    const nodeNetwork = await client.network.networks.create({ name: `contract-nodes-${run}` });
    nodes = { network: nodeNetwork, subnet: await client.network.subnets.create({ network_id: nodeNetwork.id, cidr: '10.30.0.0/24', ip_version: 4, name: `contract-nodes-${run}` }) };
    const vipNetwork = await client.network.networks.create({ name: `contract-vip-${run}` });
    // Neutron hands out addresses at random: the pool ends before the contract's free address (.250).
    vip = { network: vipNetwork, subnet: await client.network.subnets.create({ network_id: vipNetwork.id, cidr: '10.31.0.0/24', ip_version: 4, name: `contract-vip-${run}`, allocation_pools: [{ start: '10.31.0.2', end: '10.31.0.239' }] }) };
    external = await client.network.networks.create({ name: `contract-public-${run}`, 'router:external': true });
    await client.network.subnets.create({ network_id: external.id, cidr: '172.31.9.0/24', ip_version: 4 });
    // Floating IPs need the external network reachable from the VIP subnet, through a router.
    const router = await client.network.routers.create({ name: `contract-gateway-${run}`, external_gateway_info: { network_id: external.id } });
    await client.network.routers.addInterface(router.id, { subnet_id: vip.subnet.id });
  }, 360_000);

  afterAll(async () => {
    await services?.close();
  }, 60_000);

  describe('ComputePort (the Nova stand-in)', { timeout: NEUTRON_TIMEOUT_MS }, () => {
    describeComputePortContract((): ComputePortContractFixture => {
      const nova = started().compute;
      return {
        port: createSdkComputePort(nova),
        flavor: { id: '2', name: 'm1.small' },
        prefix: `real-${run}`,
        createServer: async (name) => ({ id: (await nova.createServer({ name, flavorRef: '2', imageRef: '70a599e0-31e7-49b7-b260-868f441e862b', networks: [{ uuid: nodes.network.id }] })).id }),
        deleteServer: (id) => nova.deleteServer(id),
      };
    });
  });

  describe('NetworkPort (Neutron)', { timeout: NEUTRON_TIMEOUT_MS }, () => {
    describeNetworkPortContract((): NetworkPortContractFixture => {
      const neutron = started().network;
      return {
        port: createSdkNetworkPort(neutron),
        networkId: nodes.network.id,
        prefix: `real-${run}`,
        nexthops: { inside: ['10.30.0.21', '10.30.0.22'], outside: '192.0.2.7' },
        createPort: async (deviceId, options = {}) =>
          toNeutronPort(
            await neutron.ports.create({ network_id: nodes.network.id, device_id: deviceId, device_owner: 'compute:nova', ...(options.portSecurityEnabled === false ? { port_security_enabled: false } : {}) }),
          ),
        createRouter: async () => {
          const router = await neutron.routers.create({ name: `contract-routes-${run}` });
          // One interface port per router (the subnet's gateway can serve one router only).
          const port = await neutron.ports.create({ network_id: nodes.network.id, name: `contract-router-port-${router.id}` });
          await neutron.routers.addInterface(router.id, { port_id: port.id });
          return { id: router.id };
        },
      };
    });
  });

  describe('LoadBalancerNetworkPort (Neutron)', { timeout: NEUTRON_TIMEOUT_MS }, () => {
    describeLoadBalancerNetworkPortContract((): LoadBalancerNetworkPortContractFixture => ({
      port: createSdkLoadBalancerNetworkPort(started().network),
      networkId: vip.network.id,
      subnet: { id: vip.subnet.id, cidr: vip.subnet.cidr },
      freeAddress: '10.31.0.250',
      outsideAddress: '192.0.2.9',
      floatingNetworkId: external.id,
      prefix: `real-${run}`,
    }));
  });

  describe('SecurityGroupPort (Neutron)', { timeout: NEUTRON_TIMEOUT_MS }, () => {
    describeSecurityGroupPortContract((): SecurityGroupPortContractFixture => {
      const neutron = started().network;
      const port = createSdkSecurityGroupPort(neutron);
      return {
        port,
        prefix: `real-${run}`,
        createNodePort: async (deviceId, options = {}) => {
          const created = await neutron.ports.create({
            network_id: nodes.network.id,
            device_id: deviceId,
            device_owner: 'compute:nova',
            ...(options.portSecurityEnabled === false ? { port_security_enabled: false, security_groups: [] } : {}),
          });
          for (const tag of options.tags ?? []) await neutron.service.call({ method: 'PUT', path: `/v2.0/ports/${encodeURIComponent(created.id)}/tags/${encodeURIComponent(tag)}` });
          return (await port.portsOfDevice(deviceId))[0]!;
        },
      };
    });
  });

  describe('OctaviaPort (Octavia, amphora provider with the noop drivers)', { timeout: OCTAVIA_TIMEOUT_MS }, () => {
    const holdingProvisioning = <T>(body: () => Promise<T>): Promise<T> => {
      const group = services?.octaviaWorkerProcessGroup;
      if (group === undefined) throw new Error('the OpenStack services name no octavia-worker process group: they were not started by @ccm/openstack-services');
      return holdingOctaviaWorker(group, body);
    };
    describeOctaviaPortContract((): OctaviaPortContractFixture => ({ port: createSdkOctaviaPort(started().loadBalancer), vipSubnetId: vip.subnet.id, provider: 'amphora', prefix: `real-${run}`, holdingProvisioning }));
  });
});
