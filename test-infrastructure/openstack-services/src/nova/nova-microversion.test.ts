import { describe, expect, it } from 'vitest';
import { microversionHeaders, requestedMicroversion } from './nova-microversion.js';
import { findRoute } from './nova-routes.js';
import { novaFaultBody } from './nova-fault.js';

describe('Nova stand-in microversions', () => {
  it.each([
    [{}, { ok: true, version: { major: 2, minor: 1 } }],
    [{ 'openstack-api-version': 'compute 2.47' }, { ok: true, version: { major: 2, minor: 47 } }],
    [{ 'openstack-api-version': 'volume 3.5, compute 2.26' }, { ok: true, version: { major: 2, minor: 26 } }],
    [{ 'openstack-api-version': 'volume 3.5' }, { ok: true, version: { major: 2, minor: 1 } }],
    [{ 'x-openstack-nova-api-version': '2.9' }, { ok: true, version: { major: 2, minor: 9 } }],
    [{ 'openstack-api-version': 'compute 2.19', 'x-openstack-nova-api-version': '2.3' }, { ok: true, version: { major: 2, minor: 19 } }],
    [{ 'openstack-api-version': 'compute latest' }, { ok: true, version: { major: 2, minor: 47 } }],
    [{ 'x-openstack-nova-api-version': '2.48' }, { ok: false, status: 406, message: 'Version 2.48 is not supported by the API. Minimum is 2.1 and maximum is 2.47.' }],
    [{ 'x-openstack-nova-api-version': '2.0' }, { ok: false, status: 406, message: 'Version 2.0 is not supported by the API. Minimum is 2.1 and maximum is 2.47.' }],
    [{ 'x-openstack-nova-api-version': 'two' }, { ok: false, status: 400, message: 'Invalid format for version string: two' }],
  ])('%j', (headers, expected) => {
    expect(requestedMicroversion(headers)).toEqual(expected);
  });

  it('answers with both headers and Vary', () => {
    expect(microversionHeaders({ major: 2, minor: 47 })).toEqual({ 'OpenStack-API-Version': 'compute 2.47', 'X-OpenStack-Nova-API-Version': '2.47', Vary: 'OpenStack-API-Version, X-OpenStack-Nova-API-Version' });
  });
});

describe('Nova stand-in routes and faults', () => {
  it.each([
    ['GET', '/v2.1/servers/detail', 'servers.detail', []],
    ['GET', '/v2.1/servers/abc', 'servers.get', ['abc']],
    ['DELETE', '/v2.1/servers/abc', 'servers.delete', ['abc']],
    ['POST', '/v2.1/servers/abc/action', 'servers.action', ['abc']],
    ['GET', '/v2.1/servers/abc/os-interface/p1', 'interfaces.get', ['abc', 'p1']],
    ['GET', '/v2.1/flavors/detail', 'flavors.detail', []],
    ['GET', '/v2.1/flavors/1/os-extra_specs', 'flavors.extraSpecs', ['1']],
  ])('%s %s -> %s', (method, path, name, ids) => {
    const lookup = findRoute(method, path);
    expect(lookup.found === undefined ? undefined : [lookup.found.route.name, lookup.found.ids]).toEqual([name, ids]);
  });

  it('tells an unknown path (404) from a known path with another method (405)', () => {
    expect(findRoute('GET', '/v2.1/os-hypervisors')).toEqual({ found: undefined, pathKnown: false });
    expect(findRoute('PUT', '/v2.1/servers/abc')).toEqual({ found: undefined, pathKnown: true });
    expect(findRoute('GET', '/v2.1/servers/abc/os-volume_attachments')).toEqual({ found: undefined, pathKnown: false });
  });

  it("names faults as Nova's fault wrapper does", () => {
    expect(novaFaultBody(404, 'x')).toEqual({ itemNotFound: { code: 404, message: 'x' } });
    expect(novaFaultBody(409, 'x')).toEqual({ conflictingRequest: { code: 409, message: 'x' } });
    expect(novaFaultBody(406, 'x')).toEqual({ computeFault: { code: 406, message: 'x' } });
  });
});
