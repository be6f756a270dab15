/** The shared contract suites (@ccm/testing/contract) over the provider and its fake. */
import { describeInstancesV2Contract, describeLoadBalancerContract, describeRoutesContract, type ContractFixture, type ContractInstance } from '@ccm/testing/contract';
import type { V1Service } from '@kubernetes/client-node';
import { defaultLoadBalancerName } from '@ccm/core/provider';
import { FakeCompute } from './fakes/fake-compute.js';
import { createHarness, gceConf, PROJECT, REGION, ZONE } from './helpers.js';

function expandPorts(ports: readonly string[]): number[] {
  return ports.flatMap((entry) => {
    const [first = 0, last = first] = entry.split('-').map(Number);
    return Array.from({ length: last - first + 1 }, (_, index) => first + index);
  });
}

async function fixture(): Promise<ContractFixture> {
  const compute = new FakeCompute(PROJECT);
  const { cloud } = await createHarness({ compute, config: gceConf('node-tags = k8s-node\n') });
  const toContract = (name: string): ContractInstance => {
    const instance = compute.instances.get(`${ZONE}/${name}`);
    return {
      nodeName: name,
      providerId: `gce://${PROJECT}/${ZONE}/${name}`,
      expectedAddresses: [{ type: 'InternalIP', address: instance?.networkInterfaces[0]?.networkIP ?? '' }],
      expectedInstanceType: 'e2-medium',
      expectedZone: ZONE,
      expectedRegion: REGION,
    };
  };
  return {
    provider: cloud,
    cloud: {
      createInstance: async (name) => {
        compute.addInstance(ZONE, name);
        return toContract(name);
      },
      stopInstance: async (instance) => {
        const found = compute.instances.get(`${ZONE}/${instance.nodeName}`);
        if (found) found.status = 'TERMINATED';
      },
      startInstance: async (instance) => {
        const found = compute.instances.get(`${ZONE}/${instance.nodeName}`);
        if (found) found.status = 'RUNNING';
      },
      deleteInstance: async (instance) => {
        compute.instances.delete(`${ZONE}/${instance.nodeName}`);
      },
    },
    readLoadBalancer: async (service: V1Service) => {
      const name = defaultLoadBalancerName(service);
      if (!compute.forwardingRules.has(`${REGION}/${name}`)) return undefined;
      const pool = compute.targetPools.get(`${REGION}/${name}`);
      const firewall = compute.firewalls.get(`k8s-fw-${name}`);
      return {
        backendNodeNames: (pool?.instances ?? []).map((url) => url.split('/').at(-1) ?? url).sort(),
        ports: expandPorts((firewall?.allowed ?? []).flatMap((allowed) => allowed.ports ?? [])).sort((a, b) => a - b),
      };
    },
  };
}

describeInstancesV2Contract('gce', fixture);
describeLoadBalancerContract('gce', fixture);
describeRoutesContract('gce', fixture, { ipv6: true, blackholeWhenTargetDeleted: false });
