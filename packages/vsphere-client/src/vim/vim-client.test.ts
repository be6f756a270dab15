import { describe, expect, it, vi } from 'vitest';
import { FakeSoapServer, fixture, loginAnswer, soapResponse } from '../__tests__/fake-soap-server.js';
import { VsphereError } from '../vsphere-error.js';
import { VimClient } from './vim-client.js';

const credentials = { username: 'VSPHERE.LOCAL\\ccm', password: 's3cr3t<&>' };

function client(server: FakeSoapServer, overrides: Partial<ConstructorParameters<typeof VimClient>[0]> = {}): VimClient {
  return new VimClient({ server: 'vc.example.com', credentials: () => credentials, fetch: server.fetch, retryDelayMs: 1, keepAliveIntervalMs: 0, ...overrides });
}

const notAuthenticated = { status: 500, body: fixture('fault-not-authenticated.xml') };
const foundVm = { body: soapResponse('FindByUuid', '<returnval type="VirtualMachine">vm-1001</returnval>') };

describe('VimClient sessions', () => {
  it('reads the service content, then logs in once before the first call, with an escaped password', async () => {
    const server = new FakeSoapServer({ FindByUuid: () => foundVm });
    const vim = client(server);
    await expect(vim.findByUuid('422e4956-ad22-1139-6d72-59cc8f26bc90')).resolves.toEqual({ type: 'VirtualMachine', value: 'vm-1001' });
    await vim.findByUuid('422e4956-ad22-1139-6d72-59cc8f26bc90');
    expect(server.methods()).toEqual(['RetrieveServiceContent', 'Login', 'FindByUuid', 'FindByUuid']);
    expect(server.calls[0]!.url).toBe('https://vc.example.com/sdk');
    const login = server.calls[1]!.body;
    expect(login).toContain('<userName>VSPHERE.LOCAL\\ccm</userName><password>s3cr3t&lt;&amp;&gt;</password>');
    // The cookie from Login (quoted) is sent back unquoted; the SOAPAction follows the API version.
    expect(server.calls[2]!.cookie).toBe('vmware_soap_session=session-1');
    expect(server.calls[2]!.soapAction).toBe('urn:vim25/8.0.2.0');
    expect(server.calls[2]!.body).toContain('<_this type="SearchIndex">SearchIndex</_this><uuid>422e4956-ad22-1139-6d72-59cc8f26bc90</uuid><vmSearch>true</vmSearch>');
  });

  it('joins concurrent callers into one login', async () => {
    const server = new FakeSoapServer({ FindByUuid: () => foundVm });
    const vim = client(server);
    await Promise.all([vim.findByUuid('a'), vim.findByUuid('b'), vim.findByUuid('c')]);
    expect(server.methods().filter((method) => method === 'Login')).toHaveLength(1);
  });

  it('logs in again with fresh credentials when a call answers NotAuthenticated, and retries once', async () => {
    let password = 'old';
    const server = new FakeSoapServer({
      Login: (_call, count) => loginAnswer(`session-${count}`),
      FindByUuid: (call, count) => (count === 2 ? notAuthenticated : foundVm),
    });
    const vim = client(server, { credentials: () => ({ username: 'ccm', password }) });
    await vim.findByUuid('a');
    password = 'rotated';
    await expect(vim.findByUuid('a')).resolves.toEqual({ type: 'VirtualMachine', value: 'vm-1001' });
    expect(server.methods()).toEqual(['RetrieveServiceContent', 'Login', 'FindByUuid', 'FindByUuid', 'Login', 'FindByUuid']);
    expect(server.calls[4]!.body).toContain('<password>rotated</password>');
    expect(server.calls[5]!.cookie).toBe('vmware_soap_session=session-2');
  });

  it('does not loop when the server keeps answering NotAuthenticated', async () => {
    const server = new FakeSoapServer({ FindByUuid: () => notAuthenticated });
    const vim = client(server);
    const error = await vim.findByUuid('a').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'NotAuthenticated', faultType: 'NotAuthenticated', object: 'SearchIndex:SearchIndex' });
    expect(server.methods().filter((method) => method === 'Login')).toHaveLength(2);
  });

  it('treats NotAuthenticated in a missingSet as an expired session', async () => {
    const unauthenticated = soapResponse(
      'RetrievePropertiesEx',
      '<returnval><objects><obj type="VirtualMachine">vm-1</obj><missingSet><path>name</path><fault><fault xsi:type="NotAuthenticated"><object type="VirtualMachine">vm-1</object><privilegeId>System.Read</privilegeId></fault></fault></missingSet></objects></returnval>',
    );
    const good = soapResponse('RetrievePropertiesEx', '<returnval><objects><obj type="VirtualMachine">vm-1</obj><propSet><name>name</name><val xsi:type="xsd:string">worker-1</val></propSet></objects></returnval>');
    const server = new FakeSoapServer({ RetrievePropertiesEx: (_call, count) => ({ body: count === 1 ? unauthenticated : good }) });
    const vim = client(server);
    const [vm] = await vim.retrieveVirtualMachines([{ type: 'VirtualMachine', value: 'vm-1' }], ['name']);
    expect(vm?.name).toBe('worker-1');
    expect(server.methods()).toEqual(['RetrieveServiceContent', 'Login', 'RetrievePropertiesEx', 'Login', 'RetrievePropertiesEx']);
  });

  it('reports a wrong password as InvalidLogin naming the user, never the password', async () => {
    const server = new FakeSoapServer({ Login: () => ({ status: 500, body: fixture('fault-invalid-login.xml') }) });
    const vim = client(server);
    const error = (await vim.findByUuid('a').catch((caught: unknown) => caught)) as VsphereError;
    expect(error).toBeInstanceOf(VsphereError);
    expect(error.kind).toBe('InvalidLogin');
    expect(error.retryable).toBe(false);
    expect(error.message).toBe('cannot log in to vc.example.com as "VSPHERE.LOCAL\\\\ccm": the user name or password is wrong (InvalidLogin)');
    expect(error.message).not.toContain('s3cr3t');
  });

  it('retries transient transport failures up to the round-trip count', async () => {
    const server = new FakeSoapServer({
      FindByUuid: (_call, count) => {
        if (count < 3) throw Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) });
        return foundVm;
      },
    });
    await expect(client(server, { roundTripCount: 3 }).findByUuid('a')).resolves.toBeDefined();
    const failing = new FakeSoapServer({
      FindByUuid: () => {
        throw Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED' }) });
      },
    });
    const error = await client(failing, { roundTripCount: 2 }).findByUuid('a').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'Transport', retryable: true });
    expect((error as Error).message).toBe('FindByUuid: cannot reach vc.example.com: connect ECONNREFUSED 10.0.0.1:443');
    expect(failing.methods().filter((method) => method === 'FindByUuid')).toHaveLength(2);
  });

  it('stops at once when the caller aborts', async () => {
    const server = new FakeSoapServer({ FindByUuid: () => foundVm });
    const controller = new AbortController();
    controller.abort();
    await expect(client(server).findByUuid('a', { signal: controller.signal })).rejects.toMatchObject({ kind: 'Aborted' });
  });

  it('reports the session as gone when currentSession is empty and logs out', async () => {
    const server = new FakeSoapServer({
      RetrievePropertiesEx: () => ({ body: soapResponse('RetrievePropertiesEx', '<returnval><objects><obj type="SessionManager">SessionManager</obj></objects></returnval>') }),
      FindByUuid: () => foundVm,
    });
    const vim = client(server);
    await vim.findByUuid('a');
    await expect(vim.currentSession()).resolves.toBeUndefined();
    await vim.close();
    expect(server.methods().at(-1)).toBe('Logout');
    await expect(vim.findByUuid('a')).rejects.toMatchObject({ kind: 'Aborted' });
  });

  it('keeps the session alive and logs in again when it expired', async () => {
    const empty = soapResponse('RetrievePropertiesEx', '<returnval><objects><obj type="SessionManager">SessionManager</obj></objects></returnval>');
    const server = new FakeSoapServer({ RetrievePropertiesEx: () => ({ body: empty }), Login: (_call, count) => loginAnswer(`session-${count}`) });
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const vim = client(server, { keepAliveIntervalMs: 60_000 });
      await vim.login();
      expect(server.methods()).toEqual(['RetrieveServiceContent', 'Login']);
      await vi.advanceTimersByTimeAsync(60_000);
      await vi.waitFor(() => expect(server.methods()).toEqual(['RetrieveServiceContent', 'Login', 'RetrievePropertiesEx', 'Login']));
      await vim.close();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('VimClient container views', () => {
  const page = (objects: string, token?: string): string =>
    `<returnval>${token === undefined ? '' : `<token>${token}</token>`}${objects}</returnval>`;
  const vm = (value: string, hostName: string): string =>
    `<objects><obj type="VirtualMachine">${value}</obj><propSet><name>guest.hostName</name><val xsi:type="xsd:string">${hostName}</val></propSet></objects>`;

  it('creates a recursive view, reads it in pages through the view traversal, then destroys it', async () => {
    const server = new FakeSoapServer({
      CreateContainerView: () => ({ body: soapResponse('CreateContainerView', '<returnval type="ContainerView">session[1]view-1</returnval>') }),
      RetrievePropertiesEx: () => ({ body: soapResponse('RetrievePropertiesEx', page(vm('vm-1', 'a'), 'page-2')) }),
      ContinueRetrievePropertiesEx: () => ({ body: soapResponse('ContinueRetrievePropertiesEx', page(vm('vm-2', 'b'))) }),
      DestroyView: () => ({ body: soapResponse('DestroyView', '') }),
    });
    const vim = client(server);
    const vms = await vim.retrieveVirtualMachinesIn({ type: 'Datacenter', value: 'datacenter-2' }, ['guest.hostName'], { maxObjects: 500 });
    expect(vms.map((read) => [read.reference.value, read.guestHostName])).toEqual([
      ['vm-1', 'a'],
      ['vm-2', 'b'],
    ]);
    expect(server.methods()).toEqual(['RetrieveServiceContent', 'Login', 'CreateContainerView', 'RetrievePropertiesEx', 'ContinueRetrievePropertiesEx', 'DestroyView']);
    expect(server.calls[2]!.body).toContain(
      '<_this type="ViewManager">ViewManager</_this><container type="Datacenter">datacenter-2</container><type>VirtualMachine</type><recursive>true</recursive>',
    );
    const retrieve = server.calls[3]!.body;
    expect(retrieve).toContain('<propSet><type>VirtualMachine</type><all>false</all><pathSet>guest.hostName</pathSet></propSet>');
    expect(retrieve).toContain('<objectSet><obj type="ContainerView">session[1]view-1</obj><skip>true</skip><selectSet xsi:type="TraversalSpec"><name>viewTraversal</name><type>ContainerView</type><path>view</path><skip>false</skip></selectSet></objectSet>');
    expect(retrieve).toContain('<options><maxObjects>500</maxObjects></options>');
    expect(server.calls[4]!.body).toContain('<token>page-2</token>');
    expect(server.calls[5]!.body).toContain('<_this type="ContainerView">session[1]view-1</_this>');
  });

  it('destroys the view when the read fails, and reports the read failure', async () => {
    const server = new FakeSoapServer({
      CreateContainerView: () => ({ body: soapResponse('CreateContainerView', '<returnval type="ContainerView">session[1]view-1</returnval>') }),
      RetrievePropertiesEx: () => ({ status: 500, body: fixture('fault-invalid-login.xml') }),
      DestroyView: () => ({ body: soapResponse('DestroyView', '') }),
    });
    const vim = client(server);
    await expect(vim.retrieveVirtualMachinesIn({ type: 'Datacenter', value: 'datacenter-2' })).rejects.toMatchObject({ kind: 'InvalidLogin' });
    expect(server.methods().slice(-2)).toEqual(['RetrievePropertiesEx', 'DestroyView']);
  });
});

describe('VimClient property retrieval', () => {
  it('decodes VM properties and follows the continuation token', async () => {
    const server = new FakeSoapServer({
      RetrievePropertiesEx: () => ({ body: fixture('retrieve-properties-vm.xml') }),
      ContinueRetrievePropertiesEx: () => ({ body: fixture('continue-retrieve-properties.xml') }),
    });
    const vim = client(server);
    const vms = await vim.retrieveVirtualMachines(
      ['vm-1001', 'vm-1002', 'vm-1003'].map((value) => ({ type: 'VirtualMachine', value })),
      undefined,
      { maxObjects: 1 },
    );
    expect(server.calls[2]!.body).toContain('<reportMissingObjectsInResults>true</reportMissingObjectsInResults></specSet><options><maxObjects>1</maxObjects></options>');
    expect(server.calls[3]!.body).toContain('<token>page-2</token>');
    expect(vms.map((vm) => vm.reference.value)).toEqual(['vm-1001', 'vm-1002']);
    expect(vms[0]).toEqual({
      reference: { type: 'VirtualMachine', value: 'vm-1001' },
      missing: [],
      name: 'worker-1',
      uuid: '422e4956-ad22-1139-6d72-59cc8f26bc90',
      instanceUuid: '5029f6a9-ed6d-8d2c-2c6f-b0d3b43c8a34',
      guestId: 'ubuntu64Guest',
      numCpu: 4,
      memorySizeMB: 16384,
      guestHostName: 'worker-1.example.com',
      guestIpAddress: '192.168.10.21',
      powerState: 'poweredOn',
      host: { type: 'HostSystem', value: 'host-14' },
      resourcePool: { type: 'ResourcePool', value: 'resgroup-8' },
      parent: { type: 'Folder', value: 'group-v3' },
      guestNet: [
        {
          network: 'VM Network',
          ipAddresses: ['192.168.10.21', 'fe80::250:56ff:fea9:1', '2001:db8::21'],
          macAddress: '00:50:56:a9:00:01',
          connected: true,
          deviceConfigId: 4000,
        },
        { network: undefined, ipAddresses: ['10.244.1.1'], macAddress: '4a:1b:2c:3d:4e:5f', connected: true, deviceConfigId: -1 },
      ],
      extraConfig: new Map([
        ['guestinfo.metadata', 'bmV0d29yazoge30='],
        ['guestinfo.metadata.encoding', 'base64'],
        ['disk.EnableUUID', 'TRUE'],
      ]),
    });
    expect(vms[1]).toMatchObject({ name: 'worker-2', powerState: 'poweredOff' });
  });

  it('orders ancestors nearest first from one traversal call', async () => {
    const entity = (type: string, value: string, name: string, parent?: [string, string]): string =>
      `<objects><obj type="${type}">${value}</obj><propSet><name>name</name><val xsi:type="xsd:string">${name}</val></propSet>${
        parent ? `<propSet><name>parent</name><val type="${parent[0]}" xsi:type="ManagedObjectReference">${parent[1]}</val></propSet>` : ''
      }</objects>`;
    const server = new FakeSoapServer({
      RetrievePropertiesEx: () => ({
        body: soapResponse(
          'RetrievePropertiesEx',
          `<returnval>${entity('Folder', 'group-d1', 'Datacenters')}${entity('Datacenter', 'datacenter-3', 'dc-1', ['Folder', 'group-d1'])}${entity(
            'HostSystem',
            'host-14',
            'esx-1',
            ['ClusterComputeResource', 'domain-c8'],
          )}${entity('Folder', 'group-h4', 'host', ['Datacenter', 'datacenter-3'])}${entity('ClusterComputeResource', 'domain-c8', 'cluster-1', ['Folder', 'group-h4'])}</returnval>`,
        ),
      }),
    });
    const chain = await client(server).ancestors({ type: 'HostSystem', value: 'host-14' });
    expect(chain.map((item) => item.name)).toEqual(['esx-1', 'cluster-1', 'host', 'dc-1', 'Datacenters']);
    expect(server.calls[2]!.body).toContain(
      '<objectSet><obj type="HostSystem">host-14</obj><skip>false</skip><selectSet xsi:type="TraversalSpec"><name>parentTraversal</name><type>ManagedEntity</type><path>parent</path><skip>false</skip><selectSet xsi:type="SelectionSpec"><name>parentTraversal</name></selectSet></selectSet></objectSet>',
    );
  });

  it('builds datacenter inventory paths and refuses an ambiguous bare name', async () => {
    const item = (type: string, value: string, name: string, parent: string): string =>
      `<objects><obj type="${type}">${value}</obj><propSet><name>name</name><val>${name}</val></propSet><propSet><name>parent</name><val type="Folder">${parent}</val></propSet></objects>`;
    const server = new FakeSoapServer({
      RetrievePropertiesEx: () => ({
        body: soapResponse(
          'RetrievePropertiesEx',
          `<returnval><objects><obj type="Folder">group-d1</obj><propSet><name>name</name><val>Datacenters</val></propSet></objects>${item('Folder', 'group-1', 'east', 'group-d1')}${item(
            'Folder',
            'group-2',
            'west',
            'group-d1',
          )}${item('Datacenter', 'datacenter-1', 'dc', 'group-1')}${item('Datacenter', 'datacenter-2', 'dc', 'group-2')}${item('Datacenter', 'datacenter-3', 'solo', 'group-d1')}</returnval>`,
        ),
      }),
    });
    const vim = client(server);
    await expect(vim.listDatacenters()).resolves.toEqual([
      { reference: { type: 'Datacenter', value: 'datacenter-1' }, name: 'dc', path: '/east/dc' },
      { reference: { type: 'Datacenter', value: 'datacenter-3' }, name: 'solo', path: '/solo' },
      { reference: { type: 'Datacenter', value: 'datacenter-2' }, name: 'dc', path: '/west/dc' },
    ]);
    await expect(vim.findDatacenter('solo')).resolves.toMatchObject({ path: '/solo' });
    await expect(vim.findDatacenter('west/dc')).resolves.toMatchObject({ reference: { value: 'datacenter-2' } });
    await expect(vim.findDatacenter('dc')).rejects.toMatchObject({ kind: 'InvalidArgument', message: expect.stringContaining('/east/dc, /west/dc') });
  });

  it('passes the datacenter scope to SearchIndex calls and reads list answers', async () => {
    const server = new FakeSoapServer({
      FindAllByDnsName: () => ({ body: soapResponse('FindAllByDnsName', '<returnval type="VirtualMachine">vm-1</returnval><returnval type="VirtualMachine">vm-2</returnval>') }),
      FindByIp: () => ({ body: soapResponse('FindByIp', '') }),
    });
    const vim = client(server);
    const datacenter = { type: 'Datacenter', value: 'datacenter-3' };
    await expect(vim.findAllByDnsName('worker-1', { datacenter })).resolves.toEqual([
      { type: 'VirtualMachine', value: 'vm-1' },
      { type: 'VirtualMachine', value: 'vm-2' },
    ]);
    expect(server.calls[2]!.body).toContain('<_this type="SearchIndex">SearchIndex</_this><datacenter type="Datacenter">datacenter-3</datacenter><dnsName>worker-1</dnsName><vmSearch>true</vmSearch>');
    await expect(vim.findByIp('10.0.0.1', { datacenter })).resolves.toBeUndefined();
  });
});
