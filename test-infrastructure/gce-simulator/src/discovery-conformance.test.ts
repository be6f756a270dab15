import { existsSync } from 'node:fs';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { discoveryDocumentPath, DISCOVERY_INSTALL_HINT } from './discovery/discovery-document-location.js';
import { DiscoveryValidator } from './discovery/discovery-validator.js';
import { startGceSimulator, type GceSimulator } from './start-gce-simulator.js';
import { runCcmSession, seedNodes } from './test-support/ccm-session.js';
import { ComputeTestClient } from './test-support/compute-test-client.js';
import { externalSuite } from './test-support/external-suite.js';

const documentPath = discoveryDocumentPath();
const unavailable = existsSync(documentPath) ? undefined : `Compute v1's discovery document is not at ${documentPath}`;

externalSuite("the simulator against Google's Compute v1 discovery document", unavailable, DISCOVERY_INSTALL_HINT, () => {
  let simulator: GceSimulator;
  let validator: DiscoveryValidator;

  beforeEach(async () => {
    validator ??= DiscoveryValidator.fromFile(documentPath);
    simulator = await startGceSimulator({ discoveryDocument: documentPath });
  });
  afterEach(async () => {
    await simulator.close();
  });

  it('serves only methods the document describes, with its HTTP method and path', () => {
    const routes = simulator.routes();
    expect(routes.length).toBeGreaterThan(80);
    const mismatches = routes.flatMap((route) => {
      const method = validator.methodById(route.id);
      if (method === undefined) return [`${route.id} is not in the document`];
      if (method.httpMethod !== route.httpMethod || method.path !== route.path) return [`${route.id}: served ${route.httpMethod} ${route.path}, described ${method.httpMethod} ${method.path}`];
      return [];
    });
    expect(mismatches).toEqual([]);
    expect(new Set(routes.map((route) => route.id)).size).toBe(routes.length);
  });

  it('runs a CCM session (seeding, node lookups, external and internal LBs, routes, cleanup) with zero violations', { timeout: 30_000 }, async () => {
    const client = await ComputeTestClient.connect(simulator);
    await seedNodes(client);
    await runCcmSession(client);
    expect(simulator.discoveryViolations()).toEqual([]);
    expect(client.calls.length).toBeGreaterThan(60);
  });

  it('refuses requests the document does not describe and records why', async () => {
    const client = await ComputeTestClient.connect(simulator);
    await client.mutate('POST', 'global/networks', { name: 'default', autoCreateSubnetworks: true });
    const cases = [
      { call: () => client.call('POST', 'global/firewalls', { name: 'fw', allowed: [{ IPProtocol: 'tcp' }], sourceRange: ['0.0.0.0/0'] }), says: 'request.sourceRange: unknown field of Firewall' },
      { call: () => client.call('POST', 'global/firewalls', { name: 'fw', allowed: [{ IPProtocol: 'tcp' }], priority: '1000' }), says: 'request.priority: expected an integer' },
      { call: () => client.call('POST', 'global/firewalls', { name: 'fw', allowed: [{ IPProtocol: 'tcp' }], direction: 'SIDEWAYS' }), says: 'request.direction: "SIDEWAYS" is not one of EGRESS, INGRESS' },
      { call: () => client.call('GET', 'global/firewalls', undefined, { pageSize: '10' }), says: 'query parameter pageSize is not described' },
      { call: () => client.call('GET', 'global/firewalls', undefined, { maxResults: 'ten' }), says: 'maxResults="ten" is not an integer' },
      { call: () => client.call('GET', 'global/firewalls/Not_A_Name'), says: 'does not match' },
      { call: () => client.call('POST', 'global/firewalls/fw/enable'), says: 'is not a method of the Compute API' },
      { call: () => client.call('POST', 'global/operations/x/wait', { force: true }), says: 'takes no request body' },
      { call: () => client.call('PATCH', 'global/firewalls/fw', { priority: 10 }), says: 'request.name: required by compute.firewalls.patch' },
    ];
    for (const { call, says } of cases) {
      const response = await call();
      expect(response.status, says).toBe(400);
      expect((response.body['error'] as { message: string }).message, says).toContain(says);
    }
    expect(simulator.discoveryViolations()).toHaveLength(cases.length);
    // Standard parameters, and their $-prefixed system-parameter form as google-gax sends it.
    const standard = await client.call('GET', 'global/networks', undefined, { alt: 'json', prettyPrint: 'false', $alt: 'json;enum-encoding=int' });
    expect(standard.status).toBe(200);
    expect(simulator.discoveryViolations()).toHaveLength(cases.length);
  });

  it('catches a response that breaks the document', () => {
    const method = validator.methodById('compute.instances.get');
    if (method === undefined) throw new Error('compute.instances.get is missing');
    expect(validator.validateResponse(method, { kind: 'compute#instance', name: 'x', id: '12' })).toEqual([]);
    expect(validator.validateResponse(method, { kind: 'compute#instances', name: 'x', id: 12, nic: [] })).toEqual([
      'response.kind: "compute#instances" is not "compute#instance"',
      'response.id: expected a string (uint64), got number 12',
      'response.nic: unknown field of Instance',
    ]);
  });
});
