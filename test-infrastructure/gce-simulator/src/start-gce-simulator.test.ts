import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startGceSimulator, type GceSimulator } from './start-gce-simulator.js';
import { ComputeTestClient, itemsOf, namesOf, type ComputeResponse } from './test-support/compute-test-client.js';

let simulator: GceSimulator;
let client: ComputeTestClient;

beforeEach(async () => {
  simulator = await startGceSimulator();
  client = await ComputeTestClient.connect(simulator);
});
afterEach(async () => {
  await simulator.close();
});

async function tokenFor(target: GceSimulator): Promise<string> {
  return String(((await (await fetch(target.tokenUrl, { method: 'POST' })).json()) as Record<string, unknown>)['accessToken']);
}

function reasonOf(response: ComputeResponse): string | undefined {
  const error = response.body['error'] as { errors?: { reason: string; domain: string }[] } | undefined;
  return error?.errors?.[0]?.reason;
}

async function seedNetwork(): Promise<void> {
  await client.mutate('POST', 'global/networks', { name: 'default', autoCreateSubnetworks: false });
  await client.mutate('POST', 'regions/us-central1/subnetworks', { name: 'nodes', network: 'global/networks/default', ipCidrRange: '10.0.0.0/24' });
}

async function seedInstance(name: string, zone = 'us-central1-a', accessConfigs: unknown[] = []): Promise<Record<string, unknown>> {
  await client.mutate('POST', `zones/${zone}/instances`, {
    name,
    machineType: `zones/${zone}/machineTypes/e2-small`,
    networkInterfaces: [{ subnetwork: 'regions/us-central1/subnetworks/nodes', accessConfigs }],
  });
  return client.get(`zones/${zone}/instances/${name}`);
}

describe('startGceSimulator', () => {
  it('reports its endpoint and the fixed catalog of one region and its zones', async () => {
    expect(simulator).toMatchObject({ project: 'ccm-test-project', region: 'us-central1', zones: ['us-central1-a', 'us-central1-b'], network: 'default' });
    expect(simulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(simulator.tokenUrl).toBe(`${simulator.url}/token`);
    expect(namesOf(await client.get('zones'))).toEqual(['us-central1-a', 'us-central1-b']);
    expect(await client.get('regions/us-central1')).toMatchObject({
      kind: 'compute#region',
      status: 'UP',
      zones: [`${simulator.url}/compute/v1/projects/ccm-test-project/zones/us-central1-a`, `${simulator.url}/compute/v1/projects/ccm-test-project/zones/us-central1-b`],
    });
    expect((await client.call('GET', 'zones/europe-west1-b')).status).toBe(404);
    expect((await client.call('GET', 'projects/other-project/zones')).status).toBe(404);
  });

  it('starts empty', async () => {
    for (const path of ['global/networks', 'global/firewalls', 'global/routes', 'regions/us-central1/subnetworks', 'zones/us-central1-a/instances']) {
      expect((await client.get(path))['items'], path).toBeUndefined();
    }
  });
});

describe('authentication', () => {
  it('issues tokens in the AltTokenSource and OAuth2 shapes and requires one on Compute calls', async () => {
    const alt = (await (await fetch(simulator.tokenUrl, { method: 'POST', body: '{}' })).json()) as Record<string, unknown>;
    expect(alt['accessToken']).toEqual(expect.any(String));
    expect(Date.parse(String(alt['expireTime']))).toBeGreaterThan(Date.now());
    const oauth = (await (
      await fetch(simulator.tokenUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=x' })
    ).json()) as Record<string, unknown>;
    expect(oauth).toMatchObject({ access_token: expect.any(String), expires_in: 3600, token_type: 'Bearer' });

    const url = `${simulator.url}/compute/v1/projects/ccm-test-project/zones`;
    const anonymous = await fetch(url);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: { code: 401, errors: [{ reason: 'required', domain: 'global' }] } });
    const forged = await fetch(url, { headers: { authorization: 'Bearer not-issued' } });
    expect(forged.status).toBe(401);
    expect(await forged.json()).toMatchObject({ error: { errors: [{ reason: 'authError' }] } });
    expect((await fetch(url, { headers: { authorization: `Bearer ${String(alt['accessToken'])}` } })).status).toBe(200);
    expect((await fetch(url, { headers: { authorization: `Bearer ${String(oauth['access_token'])}` } })).status).toBe(200);
  });

  it('serves anonymous calls with allowAnonymous', async () => {
    const open = await startGceSimulator({ allowAnonymous: true });
    try {
      expect((await fetch(`${open.url}/compute/v1/projects/ccm-test-project/zones`)).status).toBe(200);
    } finally {
      await open.close();
    }
  });
});

describe('operations', () => {
  it('moves PENDING -> RUNNING -> DONE as it is polled, and wait returns it DONE', async () => {
    const inserted = await client.call('POST', 'global/networks', { name: 'default', autoCreateSubnetworks: true });
    expect(inserted.status).toBe(200);
    expect(inserted.body).toMatchObject({ kind: 'compute#operation', operationType: 'insert', status: 'PENDING', targetLink: `${simulator.url}/compute/v1/projects/ccm-test-project/global/networks/default` });
    expect(inserted.body['zone']).toBeUndefined();
    const path = `global/operations/${String(inserted.body['name'])}`;
    expect(String(inserted.body['selfLink'])).toBe(client.url(path));
    expect((await client.get(path))['status']).toBe('RUNNING');
    const done = await client.get(path);
    expect(done).toMatchObject({ status: 'DONE', progress: 100 });
    expect(done['error']).toBeUndefined();
    expect((await client.get(path))['status']).toBe('DONE');
    // google-gax's REST transport posts `""` as the body of wait; Compute takes it as no body.
    const gaxWait = await fetch(`${client.url(path)}/wait`, { method: 'POST', headers: { authorization: `Bearer ${await tokenFor(simulator)}`, 'content-type': 'application/json' }, body: '""' });
    expect(gaxWait.status).toBe(200);
    const arrayBody = await fetch(`${client.url(path)}/wait`, { method: 'POST', headers: { authorization: `Bearer ${await tokenFor(simulator)}` }, body: '[]' });
    expect(arrayBody.status).toBe(400);

    const subnet = await client.call('POST', 'regions/us-central1/subnetworks', { name: 's', network: 'global/networks/default', ipCidrRange: '10.9.0.0/24' });
    expect(subnet.body['region']).toBe(client.url('regions/us-central1'));
    expect((await client.call('POST', `regions/us-central1/operations/${String(subnet.body['name'])}/wait`)).body['status']).toBe('DONE');
    const instance = await client.call('POST', 'zones/us-central1-b/instances', { name: 'vm', machineType: 'zones/us-central1-b/machineTypes/e2-small' });
    expect(instance.body['zone']).toBe(client.url('zones/us-central1-b'));
    expect((await client.call('POST', `zones/us-central1-b/operations/${String(instance.body['name'])}/wait`)).body['status']).toBe('DONE');

    expect(namesOf(await client.get('zones/us-central1-b/operations'))).toEqual([instance.body['name']]);
    expect(namesOf(await client.get('aggregated/operations'))).toHaveLength(3);
    expect((await client.call('GET', 'global/operations/operation-unknown')).status).toBe(404);
    expect((await client.call('GET', `zones/us-central1-a/operations/${String(instance.body['name'])}`)).status).toBe(404);
  });

  it('reports a failed operation in error.errors[] and leaves the state unchanged', async () => {
    await seedNetwork();
    await seedInstance('vm');
    await client.mutate('POST', 'zones/us-central1-a/instanceGroups', { name: 'ig' });
    const member = { instances: [{ instance: client.url('zones/us-central1-a/instances/vm') }] };
    await client.mutate('POST', 'zones/us-central1-a/instanceGroups/ig/addInstances', member);
    const again = await client.call('POST', 'zones/us-central1-a/instanceGroups/ig/addInstances', member);
    expect(again.status).toBe(200);
    const failed = await client.waitFor(again.body);
    expect(failed).toMatchObject({ status: 'DONE', httpErrorStatusCode: 400, error: { errors: [{ code: 'MEMBER_ALREADY_EXISTS' }] } });
    expect((await client.get('zones/us-central1-a/instanceGroups/ig'))['size']).toBe(1);
  });
});

describe('lists', () => {
  it('pages with maxResults and pageToken, and filters', async () => {
    await client.mutate('POST', 'global/networks', { name: 'default', autoCreateSubnetworks: true });
    for (const name of ['fw-e', 'fw-a', 'fw-d', 'fw-c', 'fw-b']) {
      await client.mutate('POST', 'global/firewalls', { name, allowed: [{ IPProtocol: 'tcp', ports: ['80'] }], priority: name === 'fw-c' ? 900 : 1000 });
    }
    const seen: string[] = [];
    let pageToken: string | undefined;
    let pages = 0;
    do {
      const page = await client.get('global/firewalls', { maxResults: '2', ...(pageToken === undefined ? {} : { pageToken }) });
      expect(page['kind']).toBe('compute#firewallList');
      seen.push(...namesOf(page));
      pageToken = page['nextPageToken'] as string | undefined;
      pages += 1;
    } while (pageToken !== undefined);
    expect(pages).toBe(3);
    expect(seen).toEqual(['fw-a', 'fw-b', 'fw-c', 'fw-d', 'fw-e']);
    expect(namesOf(await client.get('global/firewalls', { filter: 'priority < 1000' }))).toEqual(['fw-c']);
    expect(namesOf(await client.get('global/firewalls', { filter: 'name eq "fw-[ab]"' }))).toEqual(['fw-a', 'fw-b']);
    const filtered = await client.get('global/firewalls', { filter: 'name ne fw-a', maxResults: '3' });
    expect(namesOf(filtered)).toEqual(['fw-b', 'fw-c', 'fw-d']);
    const rest = await client.get('global/firewalls', { filter: 'name ne fw-a', maxResults: '3', pageToken: String(filtered['nextPageToken']) });
    expect(namesOf(rest)).toEqual(['fw-e']);
    const badToken = await client.call('GET', 'global/firewalls', undefined, { pageToken: String(filtered['nextPageToken']) });
    expect(badToken.status).toBe(400);
    expect(reasonOf(badToken)).toBe('invalid');
    const badFilter = await client.call('GET', 'global/firewalls', undefined, { filter: 'name eq' });
    expect(reasonOf(badFilter)).toBe('invalid');
  });

  it('aggregates zonal lists by scope, with a warning for empty scopes', async () => {
    await seedNetwork();
    await seedInstance('a-1');
    await seedInstance('a-2');
    const aggregated = await client.get('aggregated/instances', { filter: 'name = "a-2"' });
    expect(aggregated['kind']).toBe('compute#instanceAggregatedList');
    const items = aggregated['items'] as Record<string, Record<string, unknown>>;
    expect(namesOf({ items: items['zones/us-central1-a']?.['instances'] })).toEqual(['a-2']);
    expect(items['zones/us-central1-b']).toEqual({
      warning: { code: 'NO_RESULTS_ON_PAGE', message: "There are no results for scope 'zones/us-central1-b' on this page.", data: [{ key: 'scope', value: 'zones/us-central1-b' }] },
    });
  });
});

describe('resources', () => {
  it('gives instances deterministic internal IPs from the subnetwork and NAT IPs when asked', async () => {
    await seedNetwork();
    const first = await seedInstance('vm-1', 'us-central1-a', [{ type: 'ONE_TO_ONE_NAT' }]);
    const second = await seedInstance('vm-2', 'us-central1-b');
    const nic = (first['networkInterfaces'] as Record<string, unknown>[])[0];
    expect(nic).toMatchObject({
      network: client.url('global/networks/default'),
      subnetwork: client.url('regions/us-central1/subnetworks/nodes'),
      networkIP: '10.0.0.2',
      accessConfigs: [{ kind: 'compute#accessConfig', type: 'ONE_TO_ONE_NAT', name: 'External NAT', natIP: '34.1.0.2', networkTier: 'PREMIUM' }],
    });
    expect((second['networkInterfaces'] as Record<string, unknown>[])[0]).toMatchObject({ networkIP: '10.0.0.3' });
    expect((second['networkInterfaces'] as Record<string, unknown>[])[0]?.['accessConfigs']).toBeUndefined();
    expect(first).toMatchObject({ kind: 'compute#instance', status: 'RUNNING', machineType: client.url('zones/us-central1-a/machineTypes/e2-small'), selfLink: client.url('zones/us-central1-a/instances/vm-1') });
    expect(first['id']).toMatch(/^\d+$/);
    expect(Date.parse(String(first['creationTimestamp']))).not.toBeNaN();

    // A reserved static IP can be assigned; an IP another instance holds cannot.
    await client.mutate('POST', 'regions/us-central1/addresses', { name: 'static', address: '34.1.0.50' });
    await client.mutate('POST', 'regions/us-central1/addresses', { name: 'internal', addressType: 'INTERNAL', subnetwork: 'regions/us-central1/subnetworks/nodes', address: '10.0.0.50' });
    await client.mutate('POST', 'zones/us-central1-b/instances', {
      name: 'vm-3',
      machineType: 'zones/us-central1-b/machineTypes/e2-small',
      networkInterfaces: [{ subnetwork: 'regions/us-central1/subnetworks/nodes', networkIP: '10.0.0.50', accessConfigs: [{ natIP: '34.1.0.50' }] }],
    });
    expect(await client.get('regions/us-central1/addresses/static')).toMatchObject({ status: 'IN_USE', users: [client.url('zones/us-central1-b/instances/vm-3')] });
    for (const nic of [{ networkIP: '10.0.0.2' }, { accessConfigs: [{ natIP: '34.1.0.2' }] }]) {
      const taken = await client.call('POST', 'zones/us-central1-b/instances', {
        name: 'vm-4',
        machineType: 'zones/us-central1-b/machineTypes/e2-small',
        networkInterfaces: [{ subnetwork: 'regions/us-central1/subnetworks/nodes', ...nic }],
      });
      expect([taken.status, reasonOf(taken)], JSON.stringify(nic)).toEqual([400, 'invalid']);
      expect((taken.body['error'] as Record<string, unknown>)['message']).toContain("is already being used by 'projects/ccm-test-project/zones/us-central1-a/instances/vm-1'");
    }

    await client.mutate('POST', 'zones/us-central1-a/instances/vm-1/stop');
    expect((await client.get('zones/us-central1-a/instances/vm-1'))['status']).toBe('TERMINATED');
    await client.mutate('POST', 'zones/us-central1-a/instances/vm-1/start');
    expect((await client.get('zones/us-central1-a/instances/vm-1'))['status']).toBe('RUNNING');
  });

  it('gives dual-stack interfaces an IPv6 address from the subnetwork (external access config or internal address)', async () => {
    await client.mutate('POST', 'global/networks', { name: 'default', autoCreateSubnetworks: false });
    await client.mutate('POST', 'regions/us-central1/subnetworks', { name: 'ext', network: 'global/networks/default', ipCidrRange: '10.1.0.0/24', stackType: 'IPV4_IPV6', ipv6AccessType: 'EXTERNAL' });
    await client.mutate('POST', 'regions/us-central1/subnetworks', { name: 'int', network: 'global/networks/default', ipCidrRange: '10.2.0.0/24', stackType: 'IPV4_IPV6', ipv6AccessType: 'INTERNAL' });
    const external = await client.get('regions/us-central1/subnetworks/ext');
    expect(external).toMatchObject({ stackType: 'IPV4_IPV6', ipv6AccessType: 'EXTERNAL', externalIpv6Prefix: expect.stringMatching(/::\/64$/) });
    for (const subnet of ['ext', 'int']) {
      await client.mutate('POST', 'zones/us-central1-a/instances', {
        name: `vm-${subnet}`,
        machineType: 'zones/us-central1-a/machineTypes/e2-small',
        networkInterfaces: [{ subnetwork: `regions/us-central1/subnetworks/${subnet}`, stackType: 'IPV4_IPV6' }],
      });
    }
    const externalNic = ((await client.get('zones/us-central1-a/instances/vm-ext'))['networkInterfaces'] as Record<string, unknown>[])[0];
    expect(externalNic).toMatchObject({ stackType: 'IPV4_IPV6', ipv6AccessType: 'EXTERNAL', ipv6AccessConfigs: [{ type: 'DIRECT_IPV6', externalIpv6: expect.stringMatching(/^2600:/), externalIpv6PrefixLength: 96 }] });
    const internalNic = ((await client.get('zones/us-central1-a/instances/vm-int'))['networkInterfaces'] as Record<string, unknown>[])[0];
    expect(internalNic).toMatchObject({ stackType: 'IPV4_IPV6', ipv6AccessType: 'INTERNAL', ipv6Address: expect.stringMatching(/^fd20:/) });
    const ipv4Only = await client.call('POST', 'zones/us-central1-a/instances', {
      name: 'vm-v4',
      machineType: 'zones/us-central1-a/machineTypes/e2-small',
      networkInterfaces: [{ subnetwork: 'regions/us-central1/subnetworks/ext', stackType: 'IPV6_ONLY' }],
    });
    expect([ipv4Only.status, reasonOf(ipv4Only)]).toEqual([400, 'invalid']);
  });

  it('creates the subnetwork of an auto-mode network and a default route, and deletes them with it', async () => {
    await client.mutate('POST', 'global/networks', { name: 'auto', autoCreateSubnetworks: true });
    expect(namesOf(await client.get('regions/us-central1/subnetworks'))).toEqual(['auto']);
    expect(itemsOf(await client.get('global/routes'))).toEqual([expect.objectContaining({ destRange: '0.0.0.0/0', network: client.url('global/networks/auto') })]);
    await client.mutate('DELETE', 'global/networks/auto');
    expect(itemsOf(await client.get('regions/us-central1/subnetworks'))).toEqual([]);
    expect(itemsOf(await client.get('global/routes'))).toEqual([]);
  });
});

describe('fingerprints', () => {
  it('changes a backend service fingerprint on update and refuses a stale one with 412 conditionNotMet', async () => {
    await client.mutate('POST', 'regions/us-central1/backendServices', { name: 'bs', protocol: 'TCP', loadBalancingScheme: 'INTERNAL' });
    const original = await client.get('regions/us-central1/backendServices/bs');
    expect(original['fingerprint']).toEqual(expect.any(String));
    await client.mutate('PATCH', 'regions/us-central1/backendServices/bs', { fingerprint: original['fingerprint'], sessionAffinity: 'CLIENT_IP' });
    const patched = await client.get('regions/us-central1/backendServices/bs');
    expect(patched['fingerprint']).not.toBe(original['fingerprint']);
    expect(patched).toMatchObject({ sessionAffinity: 'CLIENT_IP', id: original['id'], creationTimestamp: original['creationTimestamp'] });
    const stale = await client.call('PUT', 'regions/us-central1/backendServices/bs', { ...original, sessionAffinity: 'NONE' });
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ error: { code: 412, errors: [{ reason: 'conditionNotMet', domain: 'global' }] } });
    expect((await client.get('regions/us-central1/backendServices/bs'))['sessionAffinity']).toBe('CLIENT_IP');
  });

  it('checks the tags and label fingerprints of instances', async () => {
    await seedNetwork();
    const instance = await seedInstance('vm');
    const tags = instance['tags'] as Record<string, unknown>;
    await client.mutate('POST', 'zones/us-central1-a/instances/vm/setTags', { items: ['web'], fingerprint: tags['fingerprint'] });
    const stale = await client.call('POST', 'zones/us-central1-a/instances/vm/setTags', { items: ['db'], fingerprint: tags['fingerprint'] });
    expect([stale.status, reasonOf(stale)]).toEqual([412, 'conditionNotMet']);
    expect(((await client.get('zones/us-central1-a/instances/vm'))['tags'] as Record<string, unknown>)['items']).toEqual(['web']);
    expect(instance['labelFingerprint']).toBe('42WmSpB8rSM=');
    await client.mutate('POST', 'zones/us-central1-a/instances/vm/setLabels', { labels: { a: 'b' }, labelFingerprint: '42WmSpB8rSM=' });
    const staleLabels = await client.call('POST', 'zones/us-central1-a/instances/vm/setLabels', { labels: {}, labelFingerprint: '42WmSpB8rSM=' });
    expect(staleLabels.status).toBe(412);
  });
});

describe('referential integrity', () => {
  it('requires what a resource references to exist', async () => {
    const noNetwork = await client.call('POST', 'zones/us-central1-a/instances', { name: 'vm', machineType: 'zones/us-central1-a/machineTypes/e2-small' });
    expect([noNetwork.status, reasonOf(noNetwork)]).toEqual([404, 'notFound']);
    expect((noNetwork.body['error'] as Record<string, unknown>)['message']).toBe("The resource 'projects/ccm-test-project/global/networks/default' was not found");
    await seedNetwork();
    const cases: [string, string, unknown][] = [
      ['POST', 'regions/us-central1/forwardingRules', { name: 'fr', target: 'regions/us-central1/targetPools/missing' }],
      ['POST', 'regions/us-central1/forwardingRules', { name: 'fr', loadBalancingScheme: 'INTERNAL', backendService: 'regions/us-central1/backendServices/missing' }],
      ['POST', 'regions/us-central1/forwardingRules', { name: 'fr', target: 'regions/us-central1/targetPools/missing', subnetwork: 'regions/us-central1/subnetworks/missing' }],
      ['POST', 'global/routes', { name: 'r', network: 'global/networks/default', destRange: '10.1.0.0/24', nextHopInstance: 'zones/us-central1-a/instances/missing' }],
      ['POST', 'global/routes', { name: 'r', network: 'global/networks/missing', destRange: '10.1.0.0/24', nextHopIp: '10.0.0.9' }],
      ['POST', 'global/firewalls', { name: 'fw', network: 'global/networks/missing', allowed: [{ IPProtocol: 'tcp' }] }],
      ['POST', 'regions/us-central1/targetPools', { name: 'tp', healthChecks: ['global/httpHealthChecks/missing'] }],
      ['POST', 'regions/us-central1/targetPools', { name: 'tp', instances: ['zones/us-central1-a/instances/missing'] }],
      ['POST', 'regions/us-central1/backendServices', { name: 'bs', healthChecks: ['global/healthChecks/missing'] }],
      ['POST', 'regions/us-central1/backendServices', { name: 'bs', backends: [{ group: 'zones/us-central1-a/instanceGroups/missing' }] }],
      ['POST', 'regions/us-central1/subnetworks', { name: 's2', network: 'global/networks/missing', ipCidrRange: '10.5.0.0/24' }],
    ];
    for (const [method, path, body] of cases) {
      const response = await client.call(method, path, body);
      expect([response.status, reasonOf(response)], JSON.stringify(body)).toEqual([404, 'notFound']);
    }
  });

  it('refuses to delete what something references, with 400 resourceInUseByAnotherResource', async () => {
    await seedNetwork();
    await seedInstance('vm');
    await client.mutate('POST', 'global/httpHealthChecks', { name: 'hc' });
    await client.mutate('POST', 'regions/us-central1/targetPools', { name: 'tp', healthChecks: ['global/httpHealthChecks/hc'], instances: ['zones/us-central1-a/instances/vm'] });
    await client.mutate('POST', 'regions/us-central1/addresses', { name: 'ip' });
    const ip = String((await client.get('regions/us-central1/addresses/ip'))['address']);
    await client.mutate('POST', 'regions/us-central1/forwardingRules', { name: 'fr', target: 'regions/us-central1/targetPools/tp', IPAddress: ip, portRange: '80' });
    expect(await client.get('regions/us-central1/forwardingRules/fr')).toMatchObject({ portRange: '80-80', IPAddress: ip, networkTier: 'PREMIUM', loadBalancingScheme: 'EXTERNAL' });
    expect(await client.get('regions/us-central1/addresses/ip')).toMatchObject({ status: 'IN_USE', users: [client.url('regions/us-central1/forwardingRules/fr')] });
    await client.mutate('POST', 'global/healthChecks', { name: 'hc2', type: 'TCP', tcpHealthCheck: { port: 80 } });
    await client.mutate('POST', 'zones/us-central1-a/instanceGroups', { name: 'ig' });
    await client.mutate('POST', 'regions/us-central1/backendServices', { name: 'bs', loadBalancingScheme: 'INTERNAL', healthChecks: ['global/healthChecks/hc2'], backends: [{ group: 'zones/us-central1-a/instanceGroups/ig' }] });
    await client.mutate('POST', 'regions/us-central1/forwardingRules', { name: 'ilb', loadBalancingScheme: 'INTERNAL', backendService: 'regions/us-central1/backendServices/bs', ports: ['80'] });
    const ilb = await client.get('regions/us-central1/forwardingRules/ilb');
    expect(ilb).toMatchObject({ subnetwork: client.url('regions/us-central1/subnetworks/nodes'), network: client.url('global/networks/default'), IPAddress: '10.0.0.3' });
    await client.mutate('POST', 'global/routes', { name: 'r', network: 'global/networks/default', destRange: '10.1.0.0/24', nextHopInstance: 'zones/us-central1-a/instances/vm' });

    for (const path of [
      'regions/us-central1/targetPools/tp',
      'global/httpHealthChecks/hc',
      'regions/us-central1/backendServices/bs',
      'global/healthChecks/hc2',
      'zones/us-central1-a/instanceGroups/ig',
      'regions/us-central1/subnetworks/nodes',
      'global/networks/default',
    ]) {
      const response = await client.call('DELETE', path);
      expect([response.status, reasonOf(response)], path).toEqual([400, 'resourceInUseByAnotherResource']);
      expect((response.body['error'] as Record<string, unknown>)['message'], path).toContain('is already being used by');
      await client.get(path);
    }
    await client.mutate('DELETE', 'regions/us-central1/forwardingRules/fr');
    expect(await client.get('regions/us-central1/addresses/ip')).toMatchObject({ status: 'RESERVED' });
    expect((await client.get('regions/us-central1/addresses/ip'))['users']).toBeUndefined();
    await client.mutate('DELETE', 'regions/us-central1/addresses/ip');
    await client.mutate('DELETE', 'regions/us-central1/targetPools/tp');
    await client.mutate('DELETE', 'global/httpHealthChecks/hc');
  });

  it('releases an address in use: the forwarding rule keeps the IP as an ephemeral one, which can be reserved again', async () => {
    await client.mutate('POST', 'regions/us-central1/targetPools', { name: 'tp' });
    await client.mutate('POST', 'regions/us-central1/addresses', { name: 'lb', address: '34.1.0.40' });
    await client.mutate('POST', 'regions/us-central1/forwardingRules', { name: 'lb', target: 'regions/us-central1/targetPools/tp', IPAddress: '34.1.0.40', portRange: '80-80' });
    await client.mutate('DELETE', 'regions/us-central1/addresses/lb');
    expect((await client.get('regions/us-central1/forwardingRules/lb'))['IPAddress']).toBe('34.1.0.40');
    await client.mutate('POST', 'regions/us-central1/addresses', { name: 'lb', address: '34.1.0.40' });
    expect(await client.get('regions/us-central1/addresses/lb')).toMatchObject({ status: 'IN_USE', users: [client.url('regions/us-central1/forwardingRules/lb')] });
    await client.mutate('POST', 'regions/us-central1/forwardingRules', { name: 'other', target: 'regions/us-central1/targetPools/tp', portRange: '81-81' });
    expect((await client.get('regions/us-central1/forwardingRules/other'))['IPAddress']).not.toBe('34.1.0.40');
    const taken = await client.call('POST', 'regions/us-central1/forwardingRules', { name: 'clash', target: 'regions/us-central1/targetPools/tp', IPAddress: '34.1.0.40', portRange: '70-90' });
    expect([taken.status, reasonOf(taken)]).toEqual([400, 'invalid']);
  });

  it('moves a forwarding rule to another target pool with setTarget', async () => {
    await client.mutate('POST', 'regions/us-central1/targetPools', { name: 'blue' });
    await client.mutate('POST', 'regions/us-central1/targetPools', { name: 'green' });
    await client.mutate('POST', 'regions/us-central1/forwardingRules', { name: 'fr', target: 'regions/us-central1/targetPools/blue', portRange: '80-80' });
    await client.mutate('POST', 'regions/us-central1/forwardingRules/fr/setTarget', { target: client.url('regions/us-central1/targetPools/green') });
    expect((await client.get('regions/us-central1/forwardingRules/fr'))['target']).toBe(client.url('regions/us-central1/targetPools/green'));
    await client.mutate('DELETE', 'regions/us-central1/targetPools/blue');
  });
});

describe('errors', () => {
  it('answers with the Compute error body and the real reasons', async () => {
    const missing = await client.call('GET', 'global/firewalls/nope');
    expect(missing).toEqual({
      status: 404,
      body: {
        error: {
          code: 404,
          message: "The resource 'projects/ccm-test-project/global/firewalls/nope' was not found",
          errors: [{ reason: 'notFound', message: "The resource 'projects/ccm-test-project/global/firewalls/nope' was not found", domain: 'global' }],
          status: 'NOT_FOUND',
        },
      },
    });
    await client.mutate('POST', 'global/httpHealthChecks', { name: 'hc' });
    const twice = await client.call('POST', 'global/httpHealthChecks', { name: 'hc' });
    expect([twice.status, reasonOf(twice)]).toEqual([409, 'alreadyExists']);
    const noName = await client.call('POST', 'global/httpHealthChecks', { port: 80 });
    expect([noName.status, reasonOf(noName)]).toEqual([400, 'required']);
    const badName = await client.call('POST', 'global/httpHealthChecks', { name: 'Bad_Name' });
    expect([badName.status, reasonOf(badName)]).toEqual([400, 'invalid']);
    const badTimeout = await client.call('POST', 'global/httpHealthChecks', { name: 'hc2', checkIntervalSec: 1, timeoutSec: 5 });
    expect([badTimeout.status, reasonOf(badTimeout)]).toEqual([400, 'invalid']);
    const noBody = await client.call('POST', 'global/httpHealthChecks');
    expect([noBody.status, reasonOf(noBody)]).toEqual([400, 'required']);
    const unknown = await client.call('GET', 'global/urlMaps');
    expect(unknown.status).toBe(404);
  });
});

describe('batch', () => {
  it('answers a multipart/mixed batch of Compute calls part by part', async () => {
    await client.mutate('POST', 'global/networks', { name: 'default', autoCreateSubnetworks: true });
    const token = String((await (await fetch(simulator.tokenUrl, { method: 'POST' })).json() as Record<string, unknown>)['accessToken']);
    const part = (id: number, line: string): string =>
      `--b0undary\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\nContent-ID: <req+${id}>\r\n\r\n${line}\r\nContent-Type: application/json\r\n\r\n\r\n`;
    const body = `${part(1, 'GET /compute/v1/projects/ccm-test-project/global/networks/default?alt=json HTTP/1.1')}${part(2, 'GET /compute/v1/projects/ccm-test-project/global/networks/nope HTTP/1.1')}--b0undary--\r\n`;
    const response = await fetch(`${simulator.url}/batch/compute/v1`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/mixed; boundary="b0undary"', authorization: `Bearer ${token}` },
      body,
    });
    expect(response.status).toBe(200);
    const boundary = /boundary=(\S+)/.exec(response.headers.get('content-type') ?? '')?.[1] ?? '';
    const parts = (await response.text()).split(`--${boundary}`).slice(1, -1);
    expect(parts).toHaveLength(2);
    expect(parts[0]).toContain('Content-ID: <response-req+1>');
    expect(parts[0]).toContain('HTTP/1.1 200 OK');
    expect(parts[0]).toContain('"kind":"compute#network"');
    expect(parts[1]).toContain('Content-ID: <response-req+2>');
    expect(parts[1]).toContain('HTTP/1.1 404 Not Found');
    expect(parts[1]).toContain('"reason":"notFound"');
  });
});
