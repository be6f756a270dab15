/**
 * The VcenterPort contract (test/support/vcenter-port-contract.ts) on both sides: the in-memory
 * fake the unit tests use, and the production port (VsphereClientVcenterPort) against the vCenter
 * simulator. A case that holds on one side only is a fake that accepts what vCenter refuses, or
 * answers what vCenter does not.
 */
import { randomUUID } from 'node:crypto';
import { VapiTaggingClient, createVsphereDispatcher, silentLogger } from '@ccm/vsphere-client';
import { afterAll, beforeAll, describe } from 'vitest';
import { VsphereClientVcenterPort } from '../../src/ports/sdk/vsphere-client-vcenter-port.js';
import { FakeVcenter } from '../fakes/fake-vcenter.js';
import { describeVcenterPortContract, type VcenterPortContractFixture } from '../support/vcenter-port-contract.js';
import { startVcsim, vcsimSuite, type Vcsim } from '../support/vcsim.js';

const DATACENTER = 'DC0';

describe('VcenterPort contract: the in-memory fake', () => {
  const fake = new FakeVcenter('fake', [DATACENTER]);
  describeVcenterPortContract(() => ({
    port: fake,
    datacenterName: DATACENTER,
    hostRef: fake.hostRef(DATACENTER),
    createVm: (name, guest) => {
      const record = fake.addVm({ name, uuid: randomUUID(), datacenter: DATACENTER, guestHostName: guest.hostName, ip: guest.ip });
      return Promise.resolve({ ref: record.ref, uuid: record.uuid });
    },
    destroyVm: (name) => {
      const entry = [...fake.vms.values()].find((vm) => vm.record.name === name);
      if (entry === undefined) return Promise.reject(new Error(`the fake has no VM ${name}`));
      fake.remove(entry.record.ref);
      return Promise.resolve();
    },
    tag: (category, tag, ref) => {
      fake.addTag(category, tag, ref);
      const categoryId = [...fake.categories.values()].find((entry) => entry.name === category)?.id ?? '';
      const tagId = [...fake.tags.values()].find((entry) => entry.name === tag && entry.categoryId === categoryId)?.id ?? '';
      return Promise.resolve({ tagId, categoryId });
    },
  }));
});

vcsimSuite('VcenterPort contract: the production port on the vCenter simulator', () => {
  let vcsim: Vcsim | undefined;
  let side: VcenterPortContractFixture | undefined;
  let tagging: VapiTaggingClient | undefined;

  beforeAll(async () => {
    const simulator = await startVcsim();
    vcsim = simulator;
    const credentials = () => Promise.resolve({ username: simulator.username, password: simulator.password });
    const dispatcher = createVsphereDispatcher({ ca: simulator.ca! });
    const port = new VsphereClientVcenterPort({ name: 'vcsim', url: simulator.url, credentials, dispatcher, roundTripCount: 1, logger: silentLogger });
    const rest = new VapiTaggingClient({ server: simulator.url, credentials, dispatcher });
    tagging = rest;
    const host = (await simulator.admin.inventory()).hosts.find((entry) => entry.name === 'DC0_C0_H0');
    if (host === undefined) throw new Error('vcsim has no host DC0_C0_H0');
    side = {
      port,
      datacenterName: DATACENTER,
      hostRef: host.ref,
      createVm: async (name, guest) => {
        const vm = await simulator.admin.createVm({
          name,
          datacenter: DATACENTER,
          guest: { hostName: guest.hostName, ipAddress: guest.ip, net: [{ network: 'VM Network', ipAddress: [guest.ip], deviceConfigId: 4000 }] },
        });
        return { ref: vm.ref, uuid: vm.uuid };
      },
      destroyVm: (name) => simulator.admin.destroy(name),
      tag: async (category, tag, ref) => {
        const categoryId = await rest.createCategory({ name: category, associableTypes: [ref.type] });
        const tagId = await rest.createTag({ name: tag, categoryId });
        await rest.attachTag(tagId, ref);
        return { tagId, categoryId };
      },
    };
  }, 300_000);

  afterAll(async () => {
    await Promise.allSettled([side?.port.close(), tagging?.logout()]);
    await vcsim?.stop();
  });

  describeVcenterPortContract(() => {
    if (side === undefined) throw new Error('the simulator side did not start (see the hook error)');
    return side;
  });
});
