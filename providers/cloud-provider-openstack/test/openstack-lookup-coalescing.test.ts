import { coalescePort } from '@ccm/core/cloud';
import { describe, expect, it } from 'vitest';
import { serverNamesFilter } from '../src/ports/sdk/list-query-budget.js';
import { coalescePortLookups, coalesceServerLookups } from '../src/ports/openstack-lookup-coalescing.js';
import { FakeCompute } from './fakes/fake-compute.js';
import { fakeError } from './fakes/fake-errors.js';
import { FakeNetwork } from './fakes/fake-network.js';

const nameQueryLength = (names: readonly string[]): number => new URLSearchParams([['name', serverNamesFilter(names)]]).toString().length;

describe('OpenStack lookup coalescing', () => {
  it('sends the names queued together in as many lists as the query budget needs, each within it', async () => {
    const compute = new FakeCompute();
    const names = Array.from({ length: 30 }, (_, index) => `node-${index}`);
    for (const name of names) compute.addServer(name);
    compute.addServer('node-7');
    const budget = 120;
    const coalesced = coalescePort(compute, coalesceServerLookups({ queryBudget: budget })(compute));
    const found = await Promise.all(names.map((name) => coalesced.serversNamed(name)));
    expect(found.map((servers) => servers.map((server) => server.name))).toEqual(names.map((name) => (name === 'node-7' ? [name, name] : [name])));
    expect(compute.nameLists.length).toBeGreaterThan(1);
    expect(compute.nameLists.flat()).toEqual(names);
    for (const list of compute.nameLists) expect(nameQueryLength(list)).toBeLessThanOrEqual(budget);
  });

  it('lists the ports of the queued servers by device_id when their IDs fit in one query, else every port once', async () => {
    const network = new FakeNetwork();
    const serverIds = Array.from({ length: 6 }, (_, index) => `server-${index}`);
    for (const [index, deviceId] of serverIds.entries()) network.addPort({ id: `port-${index}`, networkId: 'n', deviceId, fixedIps: [{ subnetId: 's', ipAddress: `10.0.0.${index}` }] });
    network.addPort({ id: 'port-other', networkId: 'n', deviceId: 'server-3', fixedIps: [] });
    network.addPort({ id: 'port-router', networkId: 'n', deviceId: 'router', fixedIps: [{ subnetId: 's', ipAddress: '10.0.0.254' }] });
    const portIds = async (budget: number): Promise<string[][]> => {
      const coalesced = coalescePort(network, coalescePortLookups({ queryBudget: budget })(network));
      return (await Promise.all(serverIds.map((id) => coalesced.portsOfDevice(id)))).map((ports) => ports.map((port) => port.id));
    };
    const expected = [['port-0'], ['port-1'], ['port-2'], ['port-3', 'port-other'], ['port-4'], ['port-5']];
    expect(await portIds(1_000)).toEqual(expected);
    expect(network.deviceLists).toEqual([serverIds]);
    expect(await portIds(50)).toEqual(expected);
    expect(network.deviceLists).toEqual([serverIds]);
    expect(network.callsOf('listPorts')).toBe(2);
  });

  it('falls back to one lookup per key when a list fails, unless it was throttled', async () => {
    const compute = new FakeCompute();
    compute.addServer('a');
    compute.addServer('b');
    const coalesced = coalescePort(compute, coalesceServerLookups()(compute));
    compute.failNext('listServersByName', fakeError('Invalid', 'compute.listServersByName'));
    const found = await Promise.all(['a', 'b'].map((name) => coalesced.serversNamed(name)));
    expect(found.map((servers) => servers.length)).toEqual([1, 1]);
    expect(compute.callsOf('listServersByName')).toBe(3);
    expect(compute.nameLists).toEqual([['a'], ['b']]);

    compute.failNext('listServersByName', fakeError('Throttled', 'compute.listServersByName'));
    const throttled = await Promise.allSettled(['a', 'b'].map((name) => coalesced.serversNamed(name)));
    expect(throttled.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    expect(compute.callsOf('listServersByName')).toBe(4);
  });
});
