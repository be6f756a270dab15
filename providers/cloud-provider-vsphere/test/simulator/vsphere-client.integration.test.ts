/**
 * @ccm/vsphere-client against the vCenter simulator: sessions, SearchIndex, PropertyCollector,
 * ancestors, datacenters, faults, TLS modes and vAPI tagging.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  VapiTaggingClient,
  VimClient,
  VsphereError,
  createVsphereDispatcher,
  type VsphereCredentials,
} from '@ccm/vsphere-client';
import { startVcsim, vcsimSuite, type Vcsim } from '../support/vcsim.js';

vcsimSuite('vsphere-client against vcsim', () => {
  let vcsim: Vcsim;
  const clients: Array<{ close(): Promise<void> }> = [];

  beforeAll(async () => {
    vcsim = await startVcsim({ datacenters: 2, folders: 1 });
  });

  afterAll(async () => {
    for (const client of clients) await client.close();
    await vcsim?.stop();
  });

  const credentials = (): VsphereCredentials => ({ username: vcsim.username, password: vcsim.password });
  const vimClient = (overrides: Partial<ConstructorParameters<typeof VimClient>[0]> = {}): VimClient => {
    const client = new VimClient({
      server: vcsim.url,
      credentials,
      dispatcher: createVsphereDispatcher({ ca: vcsim.ca! }),
      retryDelayMs: 10,
      keepAliveIntervalMs: 0,
      ...overrides,
    });
    clients.push(client);
    return client;
  };

  it('reads the service content and logs in lazily', async () => {
    const client = vimClient();
    const content = await client.retrieveServiceContent();
    expect(content.about.apiType).toBe('VirtualCenter');
    expect(content.searchIndex).toEqual({ type: 'SearchIndex', value: 'SearchIndex' });
    await expect(client.currentSession()).resolves.toBeUndefined();
    const vms = (await vcsim.admin.inventory()).virtualMachines;
    await expect(client.findByUuid(vms[0]!.uuid)).resolves.toEqual(vms[0]!.ref);
    const session = await client.currentSession();
    expect(session?.userName).toBe(vcsim.username);
  });

  it('finds VMs by UUID, instance UUID, DNS name and IP', async () => {
    const client = vimClient();
    const vm = (await vcsim.admin.inventory()).virtualMachines[1]!;
    await expect(client.findByUuid(vm.uuid)).resolves.toEqual(vm.ref);
    await expect(client.findByUuid(vm.instanceUuid, { instanceUuid: true })).resolves.toEqual(vm.ref);
    await expect(client.findByUuid('00000000-0000-0000-0000-000000000000')).resolves.toBeUndefined();
    await expect(client.findAllByDnsName(vm.hostName)).resolves.toEqual([vm.ref]);
    await expect(client.findAllByDnsName('nope.example.com')).resolves.toEqual([]);
    await expect(client.findByIp(vm.ipAddress)).resolves.toEqual(vm.ref);
    await expect(client.findAllByIp(vm.ipAddress)).resolves.toEqual([vm.ref]);
  });

  it('retrieves the properties of many VMs in one call and leaves out deleted ones', async () => {
    const client = vimClient();
    const created = await vcsim.admin.createVm({ name: 'client-props', numCpu: 4, memoryMB: 8192, guestId: 'ubuntu64Guest' });
    await vcsim.admin.setExtraConfig('client-props', { 'guestinfo.metadata': 'e30=', 'guestinfo.metadata.encoding': 'base64' });
    const all = (await vcsim.admin.inventory()).virtualMachines;
    const missing = { type: 'VirtualMachine', value: 'vm-does-not-exist' };
    const properties = await client.retrieveVirtualMachines([...all.map((vm) => vm.ref), missing]);
    expect(properties.map((vm) => vm.reference.value).sort()).toEqual(all.map((vm) => vm.ref.value).sort());
    const mine = properties.find((vm) => vm.reference.value === created.ref.value)!;
    expect(mine).toMatchObject({
      name: 'client-props',
      uuid: created.uuid,
      instanceUuid: created.instanceUuid,
      numCpu: 4,
      memorySizeMB: 8192,
      guestId: 'ubuntu64Guest',
      guestHostName: 'client-props',
      guestIpAddress: created.ipAddress,
      powerState: 'poweredOn',
      host: created.host.ref,
    });
    expect(mine.guestNet).toEqual([
      { network: created.net[0]!.network, ipAddresses: [created.ipAddress], macAddress: created.net[0]!.macAddress, connected: true, deviceConfigId: created.net[0]!.deviceConfigId },
    ]);
    expect(mine.extraConfig?.get('guestinfo.metadata')).toBe('e30=');
    expect(mine.extraConfig?.get('guestinfo.metadata.encoding')).toBe('base64');
  });

  it('reports a deleted VM as a ManagedObjectNotFound fault when asked alone', async () => {
    const client = vimClient();
    const created = await vcsim.admin.createVm({ name: 'client-deleted' });
    await vcsim.admin.destroy('client-deleted');
    await expect(client.retrieveVirtualMachines([created.ref])).resolves.toEqual([]);
    const error = await client
      .retrieveProperties([{ propSet: [{ type: 'VirtualMachine', paths: ['name'] }], objectSet: [{ obj: created.ref }] }])
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(VsphereError);
    expect(error).toMatchObject({ kind: 'ManagedObjectNotFound', faultType: 'ManagedObjectNotFound', object: `VirtualMachine:${created.ref.value}` });
  });

  it('reads every VM of a datacenter through a container view, in pages, and destroys the view', async () => {
    const client = vimClient();
    const datacenters = await client.listDatacenters();
    const inventory = await vcsim.admin.inventory();
    for (const datacenter of datacenters) {
      const expected = inventory.virtualMachines.filter((vm) => vm.datacenter === datacenter.name);
      expect(expected.length).toBeGreaterThan(1);
      // A page of one VM: the read follows ContinueRetrievePropertiesEx tokens to the end.
      const vms = await client.retrieveVirtualMachinesIn(datacenter.reference, ['config.uuid', 'guest.hostName', 'guest.ipAddress', 'guest.net'], { maxObjects: 1 });
      expect(vms.map((vm) => vm.reference.value).sort()).toEqual(expected.map((vm) => vm.ref.value).sort());
      for (const vm of expected) {
        expect(vms.find((read) => read.reference.value === vm.ref.value)).toMatchObject({ uuid: vm.uuid, guestHostName: vm.hostName, guestIpAddress: vm.ipAddress });
      }
    }
    // The view is gone once the read is done: reading it again is a fault.
    const view = await client.createContainerView(datacenters[0]!.reference, ['VirtualMachine']);
    await client.destroyView(view);
    const error = await client
      .retrieveProperties([{ propSet: [{ type: 'ContainerView', paths: ['view'] }], objectSet: [{ obj: view }] }])
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'ManagedObjectNotFound' });
  });

  it('walks the ancestors of a host up to the root folder', async () => {
    const client = vimClient();
    const inventory = await vcsim.admin.inventory();
    const clusterHost = inventory.hosts.find((host) => host.parent?.type === 'ClusterComputeResource')!;
    const chain = await client.ancestors(clusterHost.ref);
    expect(chain.map((entity) => entity.reference.type)).toEqual(['HostSystem', 'ClusterComputeResource', 'Folder', 'Datacenter', ...chain.slice(4).map(() => 'Folder')]);
    expect(chain[0]!.name).toBe(clusterHost.name);
    expect(chain.at(-1)!.name).toBe('Datacenters');
  });

  it('lists datacenters with inventory paths, also inside folders', async () => {
    const client = vimClient();
    const datacenters = await client.listDatacenters();
    expect(datacenters.map((datacenter) => datacenter.path)).toEqual(['/DC0', '/F0/DC1']);
    await expect(client.findDatacenter('DC1')).resolves.toMatchObject({ name: 'DC1', path: '/F0/DC1' });
    await expect(client.findDatacenter('/F0/DC1')).resolves.toMatchObject({ name: 'DC1' });
    await expect(client.findDatacenter('F0/DC1')).resolves.toMatchObject({ name: 'DC1' });
    await expect(client.findDatacenter('DC9')).resolves.toBeUndefined();
    const dc1 = datacenters[1]!;
    const vmInDc1 = (await vcsim.admin.inventory()).virtualMachines.find((vm) => vm.datacenter === 'DC1')!;
    await expect(client.findByUuid(vmInDc1.uuid, { datacenter: dc1.reference })).resolves.toEqual(vmInDc1.ref);
  });

  it('fails with InvalidLogin for a wrong password, without the password in the message', async () => {
    const client = vimClient({ credentials: () => ({ username: vcsim.username, password: 'Wr0ng-Secret!' }) });
    const error = await client.findByUuid('x').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'InvalidLogin' });
    expect((error as Error).message).toContain(vcsim.username);
    expect((error as Error).message).not.toContain('Wr0ng-Secret!');
  });

  it('logs in again after the server ended the session, with the credentials of that moment', async () => {
    let current = credentials();
    const client = vimClient({ credentials: () => current });
    const vm = (await vcsim.admin.inventory()).virtualMachines[0]!;
    await client.login();
    const first = await client.currentSession();
    expect(first).toBeDefined();
    await vcsim.admin.setCredentials(vcsim.username, 'rotated-password');
    current = { username: vcsim.username, password: 'rotated-password' };
    expect(await vcsim.admin.terminateSessions()).toBeGreaterThan(0);
    // PropertyCollector answers unauthenticated calls with NotAuthenticated in missingSet.
    const properties = await client.retrieveVirtualMachines([vm.ref], ['name']);
    expect(properties[0]?.name).toBe(vm.name);
    const second = await client.currentSession();
    expect(second?.key).not.toBe(first?.key);
    await vcsim.admin.terminateSessions();
    // SearchIndex answers with a NotAuthenticated fault.
    await expect(client.findByUuid(vm.uuid)).resolves.toEqual(vm.ref);
    await vcsim.admin.setCredentials(vcsim.username, vcsim.password);
  });

  it('verifies TLS: rejects an unknown CA, accepts the CA file, the thumbprint or insecure', async () => {
    const unverified = vimClient({ dispatcher: createVsphereDispatcher({}) });
    const error = await unverified.retrieveServiceContent().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'Transport', retryable: false });
    await expect(vimClient({ dispatcher: createVsphereDispatcher({ caFile: vcsim.caFile }) }).retrieveServiceContent()).resolves.toBeDefined();
    await expect(vimClient({ dispatcher: createVsphereDispatcher({ thumbprint: vcsim.thumbprint }) }).retrieveServiceContent()).resolves.toBeDefined();
    await expect(vimClient({ dispatcher: createVsphereDispatcher({ insecure: true }) }).retrieveServiceContent()).resolves.toBeDefined();
    const wrongThumbprint = vimClient({ dispatcher: createVsphereDispatcher({ thumbprint: 'AA'.repeat(20) }) });
    await expect(wrongThumbprint.retrieveServiceContent()).rejects.toMatchObject({ kind: 'Transport', retryable: false });
  });

  it('creates, reads and lists tags through the vAPI REST endpoint, ', async () => {
    const tagging = new VapiTaggingClient({ server: vcsim.url, credentials, dispatcher: createVsphereDispatcher({ ca: vcsim.ca! }) });
    clients.push({ close: () => tagging.logout() });
    const inventory = await vcsim.admin.inventory();
    const host = inventory.hosts[0]!;
    const categoryId = await tagging.createCategory({ name: 'client-zone', associableTypes: ['HostSystem'] });
    const tagId = await tagging.createTag({ name: 'zone-a', categoryId });
    await tagging.attachTag(tagId, host.ref);
    await expect(tagging.listAttachedTags(host.ref)).resolves.toEqual([tagId]);
    await expect(tagging.getTag(tagId)).resolves.toMatchObject({ id: tagId, name: 'zone-a', categoryId });
    await expect(tagging.getCategory(categoryId)).resolves.toMatchObject({ id: categoryId, name: 'client-zone', cardinality: 'SINGLE' });
    expect(await tagging.listCategories()).toContain(categoryId);
    await expect(tagging.getTag('urn:vmomi:InventoryServiceTag:nope:GLOBAL')).rejects.toMatchObject({ kind: 'NotFound', httpStatus: 404 });
  });
});
