/** ARM's wire conventions: api-version, not-found codes, long-running operations, etags, resource bodies. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NETWORK_API_VERSION, startAzureSimulator, type AzureSimulator } from './index.js';
import { ArmFixture } from './test-support/arm-fixture.js';
import { rawRequest } from './test-support/azure-clients.js';

let simulator: AzureSimulator;
let arm: ArmFixture;

beforeAll(async () => {
  simulator = await startAzureSimulator({ location: 'westeurope', pollsBeforeDone: 2 });
  arm = await ArmFixture.create(simulator);
  await arm.resourceGroup('rg');
});
afterAll(async () => {
  await simulator.close();
});

const nsgBody = () => ({ location: simulator.location, properties: { securityRules: [] } });

describe('api-version', () => {
  it('refuses a missing and an unknown api-version as ARM does', async () => {
    const base = `/subscriptions/${simulator.subscriptionId}/resourceGroups/rg/providers/Microsoft.Network/networkSecurityGroups/n`;
    const missing = await arm.request('GET', base);
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: { code: 'MissingApiVersionParameter', message: 'The api-version query parameter (?api-version=) is required for all requests.' } });
    const unknown = await arm.request('GET', `${base}?api-version=2099-01-01`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('InvalidApiVersionParameter');
    expect(unknown.body.error.message).toContain(NETWORK_API_VERSION);
    const rg = await arm.request('GET', `/subscriptions/${simulator.subscriptionId}/resourcegroups/rg?api-version=2025-05-01`);
    expect(rg.body.error.code).toBe('InvalidApiVersionParameter');
  });
});

describe('not found', () => {
  it('uses ResourceGroupNotFound, ResourceNotFound, NotFound and SubscriptionNotFound', async () => {
    expect((await arm.request('GET', arm.path('nope', 'Microsoft.Network', 'loadBalancers/lb'))).body.error.code).toBe('ResourceGroupNotFound');
    const resource = await arm.request('GET', arm.path('rg', 'Microsoft.Network', 'loadBalancers/lb'));
    expect(resource.status).toBe(404);
    expect(resource.body.error).toEqual({ code: 'ResourceNotFound', message: "The Resource 'Microsoft.Network/loadBalancers/lb' under resource group 'rg' was not found. For more details please go to https://aka.ms/ARMResourceNotFoundFix" });
    await arm.network('rg');
    const subnet = await arm.request('GET', arm.path('rg', 'Microsoft.Network', 'virtualNetworks/vnet/subnets/missing'));
    expect(subnet.status).toBe(404);
    expect(subnet.body.error.code).toBe('NotFound');
    const other = await arm.request('GET', `/subscriptions/00000000-0000-0000-0000-000000000000/resourcegroups?api-version=2024-03-01`);
    expect(other.body.error.code).toBe('SubscriptionNotFound');
    expect((await arm.request('DELETE', arm.path('rg', 'Microsoft.Network', 'loadBalancers/never'))).status).toBe(204);
  });

  it('answers a body that is not JSON with InvalidRequestContent', async () => {
    const response = await rawRequest(simulator, 'PUT', arm.path('rg', 'Microsoft.Network', 'networkSecurityGroups/bad'), { token: arm.token, raw: '{"location": ', headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('InvalidRequestContent');
  });
});

describe('long-running operations', () => {
  it('answers a PUT with 201 and Azure-AsyncOperation, stays InProgress for the configured polls, then Succeeded', async () => {
    const path = arm.path('rg', 'Microsoft.Network', 'networkSecurityGroups/lro');
    const created = await arm.request('PUT', path, nsgBody());
    expect(created.status).toBe(201);
    expect(created.body.properties.provisioningState).toBe('Updating');
    expect(String(created.headers['location'])).toContain('/providers/Microsoft.Network/locations/westeurope/operationResults/');
    const status = String(created.headers['azure-asyncoperation']);
    expect(status).toMatch(new RegExp(`^${simulator.resourceManagerEndpoint}/subscriptions/${simulator.subscriptionId}/providers/Microsoft.Network/locations/westeurope/operations/[0-9a-f-]+\\?api-version=${NETWORK_API_VERSION}$`));
    const polls = [];
    for (let index = 0; index < 3; index += 1) polls.push((await rawRequest(simulator, 'GET', status, { token: arm.token })).body.status);
    expect(polls).toEqual(['InProgress', 'InProgress', 'Succeeded']);
    expect((await arm.request('GET', path)).body.properties.provisioningState).toBe('Succeeded');
    const updated = await arm.request('PUT', path, nsgBody());
    expect(updated.status).toBe(200);
  });

  it('answers a DELETE with 202, Location and Azure-AsyncOperation; the operation result is 202 until done', async () => {
    const path = arm.path('rg', 'Microsoft.Network', 'networkSecurityGroups/gone');
    await arm.put(path, nsgBody());
    const deleted = await arm.request('DELETE', path);
    expect(deleted.status).toBe(202);
    const location = String(deleted.headers['location']);
    expect(location).toContain('/operationResults/');
    expect((await rawRequest(simulator, 'GET', location, { token: arm.token })).status).toBe(202);
    expect((await rawRequest(simulator, 'GET', location, { token: arm.token })).status).toBe(202);
    expect((await rawRequest(simulator, 'GET', location, { token: arm.token })).status).toBe(200);
    expect((await arm.request('GET', path)).status).toBe(404);
  });

  it('moves a VM through stopping to stopped with powerOff', async () => {
    const subnet = await arm.network('rg', 'power-vnet');
    await arm.put(arm.path('rg', 'Microsoft.Network', 'networkInterfaces/power-nic'), { location: simulator.location, properties: { ipConfigurations: [{ name: 'ip', properties: { subnet: { id: subnet } } }] } });
    const vm = await arm.put(arm.path('rg', 'Microsoft.Compute', 'virtualMachines/power'), {
      location: simulator.location,
      properties: { hardwareProfile: { vmSize: 'Standard_D2s_v3' }, networkProfile: { networkInterfaces: [{ id: arm.id('rg', 'Microsoft.Network', 'networkInterfaces/power-nic') }] } },
    });
    expect(vm.status).toBe(200);
    const action = await arm.request('POST', arm.path('rg', 'Microsoft.Compute', 'virtualMachines/power/powerOff'));
    expect(action.status).toBe(202);
    const view = async () => (await arm.request('GET', arm.path('rg', 'Microsoft.Compute', 'virtualMachines/power/instanceView'))).body.statuses[1].code;
    expect(await view()).toBe('PowerState/stopping');
    await arm.settle(action);
    expect(await view()).toBe('PowerState/stopped');
    await arm.settle(await arm.request('POST', arm.path('rg', 'Microsoft.Compute', 'virtualMachines/power/deallocate')));
    expect(await view()).toBe('PowerState/deallocated');
    await arm.settle(await arm.request('POST', arm.path('rg', 'Microsoft.Compute', 'virtualMachines/power/start')));
    expect(await view()).toBe('PowerState/running');
  });
});

describe('etags', () => {
  it('changes the etag on every write and honours If-Match and If-None-Match with 412 PreconditionFailed', async () => {
    const path = arm.path('rg', 'Microsoft.Network', 'networkSecurityGroups/etag');
    const first = await arm.put(path, nsgBody());
    const etag = String(first.body.etag);
    expect(etag).toMatch(/^W\/"[0-9a-f-]+"$/);
    const second = await arm.put(path, { ...nsgBody(), tags: { a: 'b' } }, { 'if-match': etag });
    expect(second.status).toBe(200);
    expect(second.body.etag).not.toBe(etag);
    const stale = await arm.request('PUT', path, nsgBody(), { 'if-match': etag });
    expect(stale.status).toBe(412);
    expect(stale.body.error.code).toBe('PreconditionFailed');
    expect((await arm.request('PUT', path, nsgBody(), { 'if-none-match': '*' })).status).toBe(412);
    expect((await arm.request('PUT', arm.path('rg', 'Microsoft.Network', 'networkSecurityGroups/absent'), nsgBody(), { 'if-match': '*' })).status).toBe(412);
    // Nested writes are checked against the parent's etag, which nested items share.
    const rule = { properties: { protocol: 'Tcp', sourcePortRange: '*', destinationPortRange: '80', sourceAddressPrefix: '*', destinationAddressPrefix: '*', access: 'Allow', priority: 100, direction: 'Inbound' } };
    const ruleResponse = await arm.put(arm.path('rg', 'Microsoft.Network', 'networkSecurityGroups/etag/securityRules/r1'), rule);
    expect(ruleResponse.body.etag).toBe((await arm.request('GET', path)).body.etag);
    expect((await arm.request('PUT', arm.path('rg', 'Microsoft.Network', 'networkSecurityGroups/etag/securityRules/r1'), rule, { 'if-match': etag })).status).toBe(412);
  });
});

describe('resource bodies', () => {
  it('returns id, name, type, location, etag, tags and properties with provisioningState', async () => {
    const response = await arm.put(arm.path('rg', 'Microsoft.Network', 'routeTables/rt'), { location: simulator.location, tags: { owner: 'test' }, properties: { routes: [{ name: 'r', properties: { addressPrefix: '10.244.0.0/24', nextHopType: 'VirtualAppliance', nextHopIpAddress: '10.240.0.4' } }] } });
    expect(response.body).toEqual({
      name: 'rt',
      id: arm.id('rg', 'Microsoft.Network', 'routeTables/rt'),
      etag: expect.stringMatching(/^W\//),
      type: 'Microsoft.Network/routeTables',
      location: 'westeurope',
      tags: { owner: 'test' },
      properties: {
        disableBgpRoutePropagation: false,
        resourceGuid: expect.any(String),
        provisioningState: 'Succeeded',
        routes: [
          {
            name: 'r',
            id: arm.id('rg', 'Microsoft.Network', 'routeTables/rt/routes/r'),
            etag: response.body.etag,
            type: 'Microsoft.Network/routeTables/routes',
            properties: { provisioningState: 'Succeeded', addressPrefix: '10.244.0.0/24', nextHopType: 'VirtualAppliance', nextHopIpAddress: '10.240.0.4' },
          },
        ],
      },
    });
  });

  it('refuses to move a resource to another location and requires a location', async () => {
    const path = arm.path('rg', 'Microsoft.Network', 'networkSecurityGroups/here');
    await arm.put(path, nsgBody());
    expect((await arm.request('PUT', path, { location: 'eastus' })).body.error.code).toBe('InvalidResourceLocation');
    expect((await arm.request('PUT', arm.path('rg', 'Microsoft.Network', 'networkSecurityGroups/nowhere'), {})).body.error.code).toBe('LocationRequired');
  });
});
