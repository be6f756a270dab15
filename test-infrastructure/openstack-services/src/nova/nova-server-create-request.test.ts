import { describe, expect, it } from 'vitest';
import { NovaFault } from './nova-fault.js';
import { DEFAULT_FLAVORS } from './nova-flavors.js';
import { parseMicroversion } from './nova-microversion.js';
import { parseServerCreateRequest } from './nova-server-create-request.js';

const parse = (server: Record<string, unknown>, version = '2.1') => parseServerCreateRequest({ server }, parseMicroversion(version)!, DEFAULT_FLAVORS, 'nova');
const base = { name: 'node-1', flavorRef: '2', imageRef: '70a599e0-31e7-49b7-b260-868f441e862b' };

describe('Nova stand-in server create requests', () => {
  it('takes defaults from Nova: zone nova, security group default, networks auto before 2.37', () => {
    const request = parse(base);
    expect([request.flavor.name, request.availabilityZone, request.securityGroups, request.networks, request.description, request.metadata]).toEqual(['m1.small', 'nova', ['default'], { kind: 'auto' }, null, {}]);
  });

  it.each([
    [{ ...base, flavorRef: 'http://nova/flavors/3', imageRef: 'http://glance/images/abc' }, '2.1', (request: ReturnType<typeof parse>) => [request.flavor.id, request.imageId], ['3', 'abc']],
    [{ ...base, networks: [{ uuid: 'n1', fixed_ip: '10.0.0.5' }, { port: 'p1' }] }, '2.1', (request: ReturnType<typeof parse>) => request.networks, { kind: 'listed', networks: [{ network: 'n1', fixedIp: '10.0.0.5' }, { port: 'p1' }] }],
    [{ ...base, networks: 'none' }, '2.37', (request: ReturnType<typeof parse>) => request.networks, { kind: 'none' }],
    [{ ...base, networks: 'auto' }, '2.37', (request: ReturnType<typeof parse>) => request.networks, { kind: 'auto' }],
    [{ ...base, description: 'd', availability_zone: 'zone-a', security_groups: [{ name: 'web' }], metadata: { role: 'worker' } }, '2.19', (request: ReturnType<typeof parse>) => [request.description, request.availabilityZone, request.securityGroups, request.metadata], ['d', 'zone-a', ['web'], { role: 'worker' }]],
  ] as const)('%j at %s', (server, version, pick, expected) => {
    expect(pick(parse(server, version))).toEqual(expected);
  });

  it.each([
    [{ ...base, name: '' }, '2.1', 'Invalid input for field/attribute name. Value: "". It must be a non-empty string of at most 255 characters'],
    [{ name: 'x', imageRef: 'i' }, '2.1', "Invalid input for field/attribute server. 'flavorRef' is a required property"],
    [{ ...base, flavorRef: '6' }, '2.1', 'Flavor 6 could not be found.'],
    [{ ...base, imageRef: undefined }, '2.1', 'The Nova stand-in boots from images only (imageRef); boot from volume needs Cinder'],
    [{ ...base, description: 'too early' }, '2.18', "Invalid input for field/attribute server. Additional properties are not allowed ('description' was unexpected)"],
    [{ ...base, block_device_mapping_v2: [] }, '2.42', "Invalid input for field/attribute server. Additional properties are not allowed ('block_device_mapping_v2' was unexpected)"],
    [base, '2.37', "Invalid input for field/attribute server. 'networks' is a required property"],
    [{ ...base, networks: 'auto' }, '2.36', "Invalid input for field/attribute networks. Value: auto. 'auto' is not of type 'array'"],
    [{ ...base, networks: [{ tag: 'nic1' }] }, '2.1', 'Invalid input for field/attribute networks. Value: {"tag":"nic1"}. A network needs "uuid" or "port"'],
    [{ ...base, metadata: { a: 1 } }, '2.1', 'Invalid input for field/attribute metadata. Value: {"a":1}. Metadata values must be strings'],
    [{ ...base, max_count: 3 }, '2.1', 'The Nova stand-in creates one server per request (max_count 3)'],
  ])('refuses %j at %s', (server, version, message) => {
    let caught: unknown;
    try {
      parse(server, version);
    } catch (error) {
      caught = error;
    }
    expect(caught instanceof NovaFault && [caught.status, caught.message]).toEqual([400, message]);
  });
});
