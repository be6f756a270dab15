/**
 * One contract for the VcenterPort, run on the in-memory fake (test/fakes/fake-vcenter.ts) and on
 * the production port against the vCenter simulator (issue 23 point 4): the fake the unit tests
 * use must answer as the simulator does, and refuse what it refuses (unknown objects, unknown tag
 * and category IDs, properties of objects that are not VMs).
 */
import { expect, it } from 'vitest';
import type { ObjectRef, VcenterPort } from '../../src/ports/vcenter-port.js';

export interface ContractVm {
  ref: ObjectRef;
  uuid: string;
}

/** One side of the contract: a port and the means to put VMs and tags behind it. */
export interface VcenterPortContractFixture {
  port: VcenterPort;
  /** The datacenter the VMs are made in. */
  datacenterName: string;
  /** A host of that datacenter (tags, ancestors). */
  hostRef: ObjectRef;
  /** A powered-on VM whose guest reports `hostName` and one NIC with `ip`. */
  createVm(name: string, guest: { hostName: string; ip: string }): Promise<ContractVm>;
  destroyVm(name: string): Promise<void>;
  /** Creates the category and the tag and attaches the tag to `ref`. */
  tag(category: string, tag: string, ref: ObjectRef): Promise<{ tagId: string; categoryId: string }>;
}

/** Registers the contract's tests; `fixture()` is called inside each test (after the side started). */
export function describeVcenterPortContract(fixture: () => VcenterPortContractFixture): void {
  let serial = 0;
  const unique = (prefix: string): string => `${prefix}-${++serial}`;

  async function datacenter(side: VcenterPortContractFixture) {
    const found = (await side.port.listDatacenters()).find((entry) => entry.name === side.datacenterName);
    if (found === undefined) throw new Error(`no datacenter ${side.datacenterName}`);
    return found;
  }

  it('lists the datacenter by name, with its inventory path', async () => {
    const side = fixture();
    const found = await datacenter(side);
    expect(found.path).toBe(`/${side.datacenterName}`);
    expect(found.ref.type).toBe('Datacenter');
  });

  it('finds a VM by its BIOS UUID, guest DNS name and guest IP; unknown ones find nothing', async () => {
    const side = fixture();
    const name = unique('contract-find');
    const ip = `10.99.0.${serial}`;
    const vm = await side.createVm(name, { hostName: `${name}.example`, ip });
    const dc = await datacenter(side);
    await expect(side.port.findVmByUuid(dc, vm.uuid)).resolves.toEqual(vm.ref);
    await expect(side.port.findVmByUuid(dc, '00000000-0000-0000-0000-000000000000')).resolves.toBeUndefined();
    await expect(side.port.findVmsByDnsName(dc, `${name}.example`)).resolves.toEqual([vm.ref]);
    await expect(side.port.findVmsByDnsName(dc, 'nobody.example')).resolves.toEqual([]);
    await expect(side.port.findVmByIp(dc, ip)).resolves.toEqual(vm.ref);
    await expect(side.port.findVmByIp(dc, '10.99.255.254')).resolves.toBeUndefined();
  });

  it('lists the identity of every VM of the datacenter', async () => {
    const side = fixture();
    const name = unique('contract-identity');
    const ip = `10.98.0.${serial}`;
    const vm = await side.createVm(name, { hostName: `${name}.example`, ip });
    const identities = await side.port.listVmIdentities(await datacenter(side));
    const identity = identities.find((entry) => entry.ref.value === vm.ref.value);
    expect(identity).toEqual({ ref: vm.ref, uuid: vm.uuid, guestHostName: `${name}.example`, guestIpAddress: ip, guestIps: [ip] });
  });

  it('reads the properties of VMs in one call; a destroyed VM is absent, not an error', async () => {
    const side = fixture();
    const keptIp = `10.97.0.${serial + 1}`;
    const kept = await side.createVm(unique('contract-kept'), { hostName: 'kept.example', ip: keptIp });
    const goneName = unique('contract-gone');
    const gone = await side.createVm(goneName, { hostName: 'gone.example', ip: `10.97.1.${serial}` });
    await side.destroyVm(goneName);
    const records = await side.port.retrieveVms([kept.ref, gone.ref]);
    expect(records.map((record) => record.ref)).toEqual([kept.ref]);
    expect(records[0]).toMatchObject({ uuid: kept.uuid, guestHostName: 'kept.example', powerState: 'poweredOn', hasGuestNet: true });
    expect(records[0]?.guestNet.flatMap((nic) => nic.ipAddresses)).toEqual([keptIp]);
    await expect(side.port.retrieveVms([gone.ref])).resolves.toEqual([]);
  });

  it('gives the ancestors of a host nearest first, up to its datacenter; refuses an unknown object', async () => {
    const side = fixture();
    const chain = await side.port.ancestors(side.hostRef);
    expect(chain[0]?.ref).toEqual(side.hostRef);
    const types = chain.map((entry) => entry.ref.type);
    expect(types).toContain('Datacenter');
    expect(types.indexOf('ClusterComputeResource')).toBeLessThan(types.indexOf('Datacenter'));
    expect(chain.find((entry) => entry.ref.type === 'Datacenter')?.name).toBe(side.datacenterName);
    await expect(side.port.ancestors({ type: 'HostSystem', value: 'host-does-not-exist' })).rejects.toThrow();
  });

  it('gives the ancestors of a VM: its folder, its datacenter and the root folder (the zone lookup falls back to them)', async () => {
    const side = fixture();
    const name = unique('contract-chain');
    const vm = await side.createVm(name, { hostName: `${name}.example`, ip: `10.95.0.${serial}` });
    const chain = await side.port.ancestors(vm.ref);
    expect(chain.map((entry) => `${entry.ref.type}:${entry.name}`)).toEqual([`VirtualMachine:${name}`, 'Folder:vm', `Datacenter:${side.datacenterName}`, 'Folder:Datacenters']);
  });

  it('answers searches exactly as vCenter spells things: a UUID or DNS name in other case, an empty or malformed value find nothing', async () => {
    const side = fixture();
    const name = unique('contract-spelling');
    const vm = await side.createVm(name, { hostName: `${name}.example`, ip: `10.94.0.${serial}` });
    const dc = await datacenter(side);
    await expect(side.port.findVmByUuid(dc, vm.uuid.toUpperCase())).resolves.toBeUndefined();
    await expect(side.port.findVmByUuid(dc, '')).resolves.toBeUndefined();
    await expect(side.port.findVmByUuid(dc, 'not-a-uuid')).resolves.toBeUndefined();
    await expect(side.port.findVmsByDnsName(dc, `${name}.EXAMPLE`)).resolves.toEqual([]);
    await expect(side.port.findVmsByDnsName(dc, '')).resolves.toEqual([]);
    await expect(side.port.findVmByIp(dc, 'not-an-ip')).resolves.toBeUndefined();
    await expect(side.port.findVmByIp(dc, '')).resolves.toBeUndefined();
    // Properties of an object that is not a VM, or of no object: nothing, not an error.
    await expect(side.port.retrieveVms([side.hostRef])).resolves.toEqual([]);
    await expect(side.port.retrieveVms([])).resolves.toEqual([]);
    await expect(side.port.ancestors({ type: 'NoSuchType', value: 'x-1' })).rejects.toThrow(/ManagedObjectNotFound/);
    await expect(side.port.tagging.listAttachedTags({ type: 'VirtualMachine', value: 'vm-does-not-exist' })).resolves.toEqual([]);
    await expect(side.port.tagging.getTag('')).rejects.toThrow();
  });

  it('reads tags and categories; refuses unknown tag and category IDs; an untagged object has none', async () => {
    const side = fixture();
    const category = unique('contract-zone');
    const { tagId, categoryId } = await side.tag(category, 'zone-a', side.hostRef);
    await expect(side.port.tagging.listAttachedTags(side.hostRef)).resolves.toContain(tagId);
    await expect(side.port.tagging.getTag(tagId)).resolves.toEqual({ id: tagId, name: 'zone-a', categoryId });
    await expect(side.port.tagging.getCategory(categoryId)).resolves.toEqual({ id: categoryId, name: category });
    await expect(side.port.tagging.listCategories()).resolves.toContain(categoryId);
    await expect(side.port.tagging.getTag('urn:vmomi:InventoryServiceTag:00000000-0000-0000-0000-000000000000:GLOBAL')).rejects.toThrow();
    await expect(side.port.tagging.getCategory('urn:vmomi:InventoryServiceCategory:00000000-0000-0000-0000-000000000000:GLOBAL')).rejects.toThrow();
    const untagged = await side.createVm(unique('contract-untagged'), { hostName: 'untagged.example', ip: `10.96.0.${serial}` });
    await expect(side.port.tagging.listAttachedTags(untagged.ref)).resolves.toEqual([]);
  });
}
