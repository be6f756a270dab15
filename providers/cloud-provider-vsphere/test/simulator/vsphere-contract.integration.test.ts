/** The shared InstancesV2 contract (@ccm/testing) against the vSphere provider on vcsim. */
import { describeInstancesV2Contract, type ContractFixture, type ContractInstance } from '@ccm/testing/contract';
import { afterAll } from 'vitest';
import { createVcsimCloud, vcsimConfigYaml } from '../support/provider-fixture.js';
import { startVcsim, vcsimSuite, type Vcsim } from '../support/vcsim.js';

vcsimSuite('vsphere contract on vcsim', () => {
  let vcsim: Promise<Vcsim> | undefined;
  const simulator = (): Promise<Vcsim> => (vcsim ??= startVcsim());
  let suffix = 0;

  afterAll(async () => {
    await (await vcsim)?.stop();
  });

  describeInstancesV2Contract('vsphere', async (): Promise<ContractFixture> => {
    const sim = await simulator();
    const cloud = await createVcsimCloud(vcsimConfigYaml(sim));
    return {
      provider: cloud,
      cloud: {
        async createInstance(name: string): Promise<ContractInstance> {
          // The simulator keeps VMs between tests: make the VM name unique, keep it DNS-safe.
          const vmName = `${name}-${++suffix}`;
          const vm = await sim.admin.createVm({ name: vmName, numCpu: 2, memoryMB: 4096, guestId: 'rhel7_64Guest' });
          return {
            nodeName: vmName,
            providerId: `vsphere://${vm.uuid}`,
            expectedAddresses: [
              { type: 'Hostname', address: vmName },
              { type: 'InternalIP', address: vm.ipAddress },
              { type: 'ExternalIP', address: vm.ipAddress },
            ],
            expectedInstanceType: 'vsphere-vm.cpu-2.mem-4gb.os-rhel7',
            expectedZone: '',
            expectedRegion: '',
          };
        },
        stopInstance: (instance) => sim.admin.powerOff(instance.nodeName),
        startInstance: (instance) => sim.admin.powerOn(instance.nodeName),
        deleteInstance: (instance) => sim.admin.destroy(instance.nodeName),
      },
      cleanup: () => cloud.close(),
    };
  });
});
