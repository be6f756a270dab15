/**
 * The shared LoadBalancer contract (@ccm/testing/contract) over the provider built by its
 * composition root from cloud.conf, with the fake Octavia and Neutron. The contract's Nodes carry
 * no InternalIP or ExternalIP, so (as upstream) they make no members: the fixture has no
 * `readLoadBalancer`, and members are checked in load-balancer.test.ts.
 */
import { describeLoadBalancerContract, type ContractFixture } from '@ccm/testing/contract';
import { FakeCompute } from './fakes/fake-compute.js';
import { FakeNetwork } from './fakes/fake-network.js';
import { FakeLoadBalancerNetwork } from './fakes/fake-load-balancer-network.js';
import { FakeOctavia } from './fakes/fake-octavia.js';
import { FakeSecurityGroup } from './fakes/fake-security-group.js';
import { RecordingServiceAnnotations } from './fakes/recording-service-annotations.js';
import { cloudConf, createHarness } from './helpers.js';

async function fixture(): Promise<ContractFixture> {
  const compute = new FakeCompute();
  const network = new FakeNetwork();
  const loadBalancerNetwork = new FakeLoadBalancerNetwork();
  loadBalancerNetwork.addSubnet({ id: 'subnet-vip', networkId: 'net-vip', cidr: '10.9.0.0/24', ipVersion: 4 });
  const octavia = new FakeOctavia({ networkDriver: 'neutron', network: loadBalancerNetwork });
  let next = 10;
  const { cloud } = await createHarness({
    config: cloudConf('[LoadBalancer]\nsubnet-id = subnet-vip\nfloating-network-id = net-public\n'),
    cloud: { ports: { compute, network, octavia, loadBalancerNetwork, securityGroups: new FakeSecurityGroup() }, serviceAnnotations: new RecordingServiceAnnotations(), environment: { OCCM_WAIT_LB_ACTIVE_STEPS: '3' } },
  });
  return {
    provider: cloud,
    cloud: {
      createInstance: async (name) => {
        const server = compute.addServer(name, { addresses: { nodes: [{ address: `10.0.0.${next++}`, version: 4, type: 'fixed' }] } });
        return { nodeName: name, providerId: `openstack:///${server.id}` };
      },
      stopInstance: async () => undefined,
      startInstance: async () => undefined,
      deleteInstance: async () => undefined,
    },
  };
}

// Upstream names load balancers by namespace and name (`kube_service_<cluster>_<namespace>_<name>`).
describeLoadBalancerContract('openstack', fixture, { namesDifferByUid: false });
