/**
 * One contract for the ComputePort, run on the in-memory fake (test/fakes/fake-compute.ts) and on
 * the production SDK adapter against the GCE simulator (issue 23 point 4): the fake the unit tests
 * use must answer with the fields the provider reads, and refuse what Compute refuses: names that
 * are not RFC 1035 labels of at most 63 characters, duplicates (alreadyExists), missing resources
 * (404 on delete, none on get), references to missing resources, invalid field values, a stale
 * backend service fingerprint (412), and deletions of resources still in use.
 */
import { expect, it } from 'vitest';
import { asGceApiError } from '../../src/errors.js';
import type { ComputePort, GceFirewall, GceHealthCheck, GceHttpHealthCheck } from '../../src/ports/compute-port.js';
import { resourcePath } from '../../src/operations/resource-links.js';

/** One side of the contract: a port and the means to put instances behind it. */
export interface ComputePortContractFixture {
  port: ComputePort;
  region: string;
  /** Two zones of `region`. */
  zones: readonly [string, string];
  /** The full URL of a path relative to `projects/<project>/` (`global/networks/n`). */
  link(path: string): string;
  /** The network the instances are on (a name). */
  network: string;
  /** A subnetwork of `network` in `region` (a name). */
  subnetwork: string;
  /** A RUNNING instance on `network` with `tags`. */
  createInstance(zone: string, name: string, tags: readonly string[]): Promise<void>;
}

/** The port call's refusal: its GceApiError kind, `none` when it succeeded, `other` when it threw something else. */
export async function refusalOf(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
  } catch (error) {
    return asGceApiError(error)?.kind ?? `other: ${String(error)}`;
  }
  return 'none';
}

const IPV4 = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
/** 64 characters: one more than Compute's names may have. */
const OVER_LONG_NAME = `a${'b'.repeat(62)}c`;

/** Registers the contract's tests; `fixture()` is called inside each test (after the side started). */
export function describeComputePortContract(fixture: () => ComputePortContractFixture): void {
  let serial = 0;
  const unique = (prefix: string): string => `${prefix}-${++serial}`;
  const pathOf = (url: string | undefined): string => resourcePath(url ?? '');

  const httpCheck = (name: string): GceHttpHealthCheck => ({ name, port: 10256, requestPath: '/healthz', checkIntervalSec: 8, timeoutSec: 1, healthyThreshold: 1, unhealthyThreshold: 3, description: 'contract' });
  const check = (name: string): GceHealthCheck => ({ name, type: 'HTTP', port: 10256, requestPath: '/healthz', checkIntervalSec: 8, timeoutSec: 1, healthyThreshold: 1, unhealthyThreshold: 3, description: 'contract' });
  const firewall = (side: ComputePortContractFixture, name: string): GceFirewall => ({
    name,
    network: side.link(`global/networks/${side.network}`),
    description: 'contract',
    sourceRanges: ['0.0.0.0/0'],
    destinationRanges: [],
    targetTags: ['node'],
    allowed: [{ IPProtocol: 'tcp', ports: ['80'] }],
    priority: 1000,
  });

  it('lists instances by exact names in one zone and across zones, and gets one with the fields the provider reads', async () => {
    const side = fixture();
    const [zoneA, zoneB] = side.zones;
    const a = unique('ct-inst-a');
    const b = unique('ct-inst-b');
    await side.createInstance(zoneA, a, ['node']);
    await side.createInstance(zoneB, b, []);
    expect((await side.port.listInstances({ zone: zoneA, names: [a, b, 'ct-nobody'] })).map((instance) => instance.name)).toEqual([a]);
    const both = await side.port.listInstances({ names: [a, b] });
    expect(both.map((instance) => `${instance.zone}/${instance.name}`).sort()).toEqual([`${zoneA}/${a}`, `${zoneB}/${b}`].sort());
    const instance = await side.port.getInstance(zoneA, a);
    expect(instance).toMatchObject({ name: a, zone: zoneA, status: 'RUNNING', tags: ['node'] });
    expect(pathOf(instance?.selfLink)).toBe(pathOf(side.link(`zones/${zoneA}/instances/${a}`)));
    expect(instance?.machineType).toMatch(/^[a-z0-9][-a-z0-9]*$/);
    expect(instance?.networkInterfaces[0]?.networkIP).toMatch(IPV4);
    expect(pathOf(instance?.networkInterfaces[0]?.network)).toBe(pathOf(side.link(`global/networks/${side.network}`)));
    expect(await side.port.getInstance(zoneA, 'ct-nobody')).toBeUndefined();
    expect(await side.port.getInstance(zoneB, a)).toBeUndefined();
  });

  it('lists the zones of a region; an unknown region has none', async () => {
    const side = fixture();
    const zones = await side.port.listZones(side.region);
    expect(zones).toEqual(expect.arrayContaining([...side.zones]));
    expect(zones.every((zone) => zone.startsWith(`${side.region}-`))).toBe(true);
    expect(await side.port.listZones('nowhere1')).toEqual([]);
  });

  it('inserts, lists and deletes routes; refuses duplicates, bad names, a missing network, next hop or next-hop instance and a bad range', async () => {
    const side = fixture();
    const node = unique('ct-route-node');
    await side.createInstance(side.zones[0], node, []);
    const network = side.link(`global/networks/${side.network}`);
    const nextHopInstance = side.link(`zones/${side.zones[0]}/instances/${node}`);
    const name = unique('ct-route');
    const route = { name, network, destRange: `10.${60 + serial}.1.0/24`, nextHopInstance, priority: 1000, description: 'ct-route-description' };
    await side.port.insertRoute(route);
    const listed = await side.port.listRoutes({ namePrefix: name, network, description: route.description });
    expect(listed).toEqual([expect.objectContaining({ name, destRange: route.destRange, description: route.description })]);
    expect(pathOf(listed[0]?.nextHopInstance)).toBe(pathOf(nextHopInstance));
    expect(await side.port.listRoutes({ namePrefix: name, network, description: 'other' })).toEqual([]);
    expect(await refusalOf(() => side.port.insertRoute(route))).toBe('AlreadyExists');
    expect(await refusalOf(() => side.port.insertRoute({ ...route, name: OVER_LONG_NAME }))).toBe('Invalid');
    expect(await refusalOf(() => side.port.insertRoute({ ...route, name: 'Upper-Case' }))).toBe('Invalid');
    expect(await refusalOf(() => side.port.insertRoute({ ...route, name: unique('ct-route-hop'), nextHopInstance: side.link(`zones/${side.zones[0]}/instances/ct-nobody`) }))).toBe('NotFound');
    expect(await refusalOf(() => side.port.insertRoute({ ...route, name: unique('ct-route-range'), destRange: 'not-a-range' }))).toBe('Invalid');
    expect(await refusalOf(() => side.port.insertRoute({ ...route, name: unique('ct-route-network'), network: side.link('global/networks/ct-no-network') }))).toBe('NotFound');
    const { nextHopInstance: _hop, ...withoutHop } = route;
    expect(await refusalOf(() => side.port.insertRoute({ ...withoutHop, name: unique('ct-route-no-hop') }))).toBe('Invalid');
    await side.port.deleteRoute(name);
    expect(await refusalOf(() => side.port.deleteRoute(name))).toBe('NotFound');
  });

  it('reserves regional addresses (an IP is given when none is asked), finds them by IP; refuses duplicates, bad names, bad and taken IPs', async () => {
    const side = fixture();
    const name = unique('ct-address');
    await side.port.insertAddress(side.region, { name, description: 'contract', networkTier: 'PREMIUM' });
    const address = await side.port.getAddress(side.region, name);
    expect(address).toMatchObject({ name, description: 'contract', networkTier: 'PREMIUM' });
    expect(address?.address).toMatch(IPV4);
    expect((await side.port.findAddressByIp(side.region, address?.address ?? ''))?.name).toBe(name);
    expect(await side.port.findAddressByIp(side.region, '192.0.2.254')).toBeUndefined();
    expect(await refusalOf(() => side.port.insertAddress(side.region, { name }))).toBe('AlreadyExists');
    expect(await refusalOf(() => side.port.insertAddress(side.region, { name: OVER_LONG_NAME }))).toBe('Invalid');
    expect(await refusalOf(() => side.port.insertAddress(side.region, { name: unique('ct-address-bad'), address: 'not-an-ip' }))).toBe('Invalid');
    expect(await refusalOf(() => side.port.insertAddress(side.region, { name: unique('ct-address-taken'), address: address?.address ?? '' }))).toBe('Invalid');
    await side.port.deleteAddress(side.region, name);
    expect(await side.port.getAddress(side.region, name)).toBeUndefined();
    expect(await refusalOf(() => side.port.deleteAddress(side.region, name))).toBe('NotFound');
  });

  /** One kind of health check: legacy `httpHealthChecks` or `healthChecks`, with what only that kind refuses. */
  interface HealthCheckKind<Check extends GceHttpHealthCheck | GceHealthCheck> {
    title: string;
    collection: string;
    make(name: string): Check;
    /** Checks of this kind Compute refuses as Invalid beyond the shared ones (`name` is free). */
    invalid(name: string): Check;
    insert(port: ComputePort, check: Check): Promise<void>;
    get(port: ComputePort, name: string): Promise<Check | undefined>;
    update(port: ComputePort, check: Check): Promise<void>;
    remove(port: ComputePort, name: string): Promise<void>;
  }

  function itKeepsHealthChecks<Check extends GceHttpHealthCheck | GceHealthCheck>(kind: HealthCheckKind<Check>): void {
    it(`keeps ${kind.title}; refuses duplicates, bad names, a timeout over the interval, what the kind refuses, and updates or deletes of missing ones`, async () => {
      const side = fixture();
      const name = unique('ct-check');
      await kind.insert(side.port, kind.make(name));
      const stored = await kind.get(side.port, name);
      expect(stored).toMatchObject(kind.make(name));
      expect(pathOf(stored?.selfLink)).toBe(pathOf(side.link(`global/${kind.collection}/${name}`)));
      await kind.update(side.port, { ...kind.make(name), checkIntervalSec: 10 });
      expect((await kind.get(side.port, name))?.checkIntervalSec).toBe(10);
      expect(await refusalOf(() => kind.insert(side.port, kind.make(name)))).toBe('AlreadyExists');
      expect(await refusalOf(() => kind.insert(side.port, kind.make(OVER_LONG_NAME)))).toBe('Invalid');
      expect(await refusalOf(() => kind.insert(side.port, kind.make('Not_A_Name')))).toBe('Invalid');
      expect(await refusalOf(() => kind.insert(side.port, { ...kind.make(unique('ct-check-timeout')), timeoutSec: 20 }))).toBe('Invalid');
      expect(await refusalOf(() => kind.insert(side.port, kind.invalid(unique('ct-check-invalid'))))).toBe('Invalid');
      expect(await refusalOf(() => kind.update(side.port, { ...kind.make(name), timeoutSec: 20 }))).toBe('Invalid');
      expect(await refusalOf(() => kind.update(side.port, kind.make('ct-nobody')))).toBe('NotFound');
      await kind.remove(side.port, name);
      expect(await kind.get(side.port, name)).toBeUndefined();
      expect(await refusalOf(() => kind.remove(side.port, name))).toBe('NotFound');
    });
  }

  itKeepsHealthChecks<GceHttpHealthCheck>({
    title: 'legacy HTTP health checks (a port out of range refused)',
    collection: 'httpHealthChecks',
    make: httpCheck,
    invalid: (name) => ({ ...httpCheck(name), port: 70000 }),
    insert: (port, value) => port.insertHttpHealthCheck(value),
    get: (port, name) => port.getHttpHealthCheck(name),
    update: (port, value) => port.updateHttpHealthCheck(value),
    remove: (port, name) => port.deleteHttpHealthCheck(name),
  });

  itKeepsHealthChecks<GceHealthCheck>({
    title: 'HTTP health checks (a type that is no health check refused)',
    collection: 'healthChecks',
    make: check,
    invalid: (name) => ({ ...check(name), type: 'INVALID' }),
    insert: (port, value) => port.insertHealthCheck(value),
    get: (port, name) => port.getHealthCheck(name),
    update: (port, value) => port.updateHealthCheck(value),
    remove: (port, name) => port.deleteHealthCheck(name),
  });

  it('runs a target pool and its forwarding rule; refuses missing references, a second health check, bad values, and deletions in use', async () => {
    const side = fixture();
    const region = side.region;
    const nodeA = unique('ct-pool-node');
    const nodeB = unique('ct-pool-node');
    await side.createInstance(side.zones[0], nodeA, []);
    await side.createInstance(side.zones[1], nodeB, []);
    const urlA = side.link(`zones/${side.zones[0]}/instances/${nodeA}`);
    const urlB = side.link(`zones/${side.zones[1]}/instances/${nodeB}`);
    const checkName = unique('ct-pool-check');
    await side.port.insertHttpHealthCheck(httpCheck(checkName));
    const checkUrl = side.link(`global/httpHealthChecks/${checkName}`);
    const name = unique('ct-pool');
    const pool = { name, instances: [urlA], healthChecks: [checkUrl], sessionAffinity: 'NONE', description: 'contract' };
    await side.port.insertTargetPool(region, pool);
    const stored = await side.port.getTargetPool(region, name);
    expect(stored).toMatchObject({ name, sessionAffinity: 'NONE', description: 'contract' });
    expect(pathOf(stored?.selfLink)).toBe(pathOf(side.link(`regions/${region}/targetPools/${name}`)));
    expect(stored?.instances.map(pathOf)).toEqual([pathOf(urlA)]);
    expect(stored?.healthChecks.map(pathOf)).toEqual([pathOf(checkUrl)]);
    await side.port.addTargetPoolInstances(region, name, [urlB]);
    await side.port.removeTargetPoolInstances(region, name, [urlA]);
    expect((await side.port.getTargetPool(region, name))?.instances.map(pathOf)).toEqual([pathOf(urlB)]);

    expect(await refusalOf(() => side.port.insertTargetPool(region, pool))).toBe('AlreadyExists');
    expect(await refusalOf(() => side.port.insertTargetPool(region, { ...pool, name: OVER_LONG_NAME }))).toBe('Invalid');
    expect(await refusalOf(() => side.port.insertTargetPool(region, { ...pool, name: unique('ct-pool-hc'), healthChecks: [side.link('global/httpHealthChecks/ct-nobody')] }))).toBe('NotFound');
    expect(await refusalOf(() => side.port.insertTargetPool(region, { ...pool, name: unique('ct-pool-node'), instances: [side.link(`zones/${side.zones[0]}/instances/ct-nobody`)] }))).toBe('NotFound');
    const secondCheck = unique('ct-pool-check');
    await side.port.insertHttpHealthCheck(httpCheck(secondCheck));
    expect(await refusalOf(() => side.port.insertTargetPool(region, { ...pool, name: unique('ct-pool-two'), healthChecks: [checkUrl, side.link(`global/httpHealthChecks/${secondCheck}`)] }))).toBe('Invalid');
    expect(await refusalOf(() => side.port.insertTargetPool(region, { ...pool, name: unique('ct-pool-affinity'), sessionAffinity: 'GENERATED_COOKIE' }))).toBe('Invalid');
    expect(await refusalOf(() => side.port.addTargetPoolInstances(region, name, [side.link(`zones/${side.zones[0]}/instances/ct-nobody`)]))).toBe('NotFound');
    expect(await refusalOf(() => side.port.addTargetPoolInstances(region, 'ct-nobody', [urlA]))).toBe('NotFound');
    expect(await refusalOf(() => side.port.removeTargetPoolInstances(region, 'ct-nobody', [urlA]))).toBe('NotFound');
    expect(await refusalOf(() => side.port.deleteHttpHealthCheck(checkName))).toBe('InUse');

    const target = side.link(`regions/${region}/targetPools/${name}`);
    const rule = { name, IPProtocol: 'TCP', portRange: '80-80', target, networkTier: 'PREMIUM', loadBalancingScheme: 'EXTERNAL', description: 'contract' };
    expect(await refusalOf(() => side.port.insertForwardingRule(region, { ...rule, name: unique('ct-rule-pool'), target: side.link(`regions/${region}/targetPools/ct-nobody`) }))).toBe('NotFound');
    const { target: _target, ...untargeted } = rule;
    expect(await refusalOf(() => side.port.insertForwardingRule(region, { ...untargeted, name: unique('ct-rule-target') }))).toBe('Invalid');
    expect(await refusalOf(() => side.port.insertForwardingRule(region, { ...rule, name: unique('ct-rule-ports'), portRange: '0-70000' }))).toBe('Invalid');
    expect(await refusalOf(() => side.port.insertForwardingRule(region, { ...rule, name: OVER_LONG_NAME }))).toBe('Invalid');
    await side.port.insertForwardingRule(region, rule);
    const forwarding = await side.port.getForwardingRule(region, name);
    expect(forwarding).toMatchObject({ name, IPProtocol: 'TCP', portRange: '80-80', networkTier: 'PREMIUM', loadBalancingScheme: 'EXTERNAL', description: 'contract' });
    expect(forwarding?.IPAddress).toMatch(IPV4);
    expect(pathOf(forwarding?.target)).toBe(pathOf(target));
    expect(await refusalOf(() => side.port.insertForwardingRule(region, rule))).toBe('AlreadyExists');
    expect(await refusalOf(() => side.port.deleteTargetPool(region, name))).toBe('InUse');

    await side.port.deleteForwardingRule(region, name);
    expect(await side.port.getForwardingRule(region, name)).toBeUndefined();
    expect(await refusalOf(() => side.port.deleteForwardingRule(region, name))).toBe('NotFound');
    await side.port.deleteTargetPool(region, name);
    expect(await side.port.getTargetPool(region, name)).toBeUndefined();
    expect(await refusalOf(() => side.port.deleteTargetPool(region, name))).toBe('NotFound');
    await side.port.deleteHttpHealthCheck(checkName);
    await side.port.deleteHttpHealthCheck(secondCheck);
  });

  it('inserts, patches and deletes firewalls; refuses an empty allowed list, a bad protocol or range, a missing network, duplicates, bad names and missing ones', async () => {
    const side = fixture();
    const name = unique('ct-firewall');
    await side.port.insertFirewall(firewall(side, name));
    const stored = await side.port.getFirewall(name);
    expect(stored).toMatchObject({ name, description: 'contract', sourceRanges: ['0.0.0.0/0'], targetTags: ['node'], allowed: [{ IPProtocol: 'tcp', ports: ['80'] }], priority: 1000 });
    expect(pathOf(stored?.network)).toBe(pathOf(side.link(`global/networks/${side.network}`)));
    await side.port.patchFirewall({ ...firewall(side, name), sourceRanges: ['10.0.0.0/8'], destinationRanges: ['203.0.113.7'] });
    expect(await side.port.getFirewall(name)).toMatchObject({ sourceRanges: ['10.0.0.0/8'], destinationRanges: ['203.0.113.7'] });
    // A patch merges into the stored rule and an empty list is not sent (proto3 JSON): the stored list stays.
    await side.port.patchFirewall({ ...firewall(side, name), sourceRanges: ['10.0.0.0/8'], destinationRanges: [] });
    expect((await side.port.getFirewall(name))?.destinationRanges).toEqual(['203.0.113.7']);
    expect(await refusalOf(() => side.port.insertFirewall(firewall(side, name)))).toBe('AlreadyExists');
    expect(await refusalOf(() => side.port.insertFirewall(firewall(side, OVER_LONG_NAME)))).toBe('Invalid');
    expect(await refusalOf(() => side.port.insertFirewall({ ...firewall(side, unique('ct-firewall-empty')), allowed: [] }))).toBe('Invalid');
    expect(await refusalOf(() => side.port.insertFirewall({ ...firewall(side, unique('ct-firewall-protocol')), allowed: [{ IPProtocol: 'bogus' }] }))).toBe('Invalid');
    expect(await refusalOf(() => side.port.insertFirewall({ ...firewall(side, unique('ct-firewall-port')), allowed: [{ IPProtocol: 'tcp', ports: ['70000'] }] }))).toBe('Invalid');
    expect(await refusalOf(() => side.port.insertFirewall({ ...firewall(side, unique('ct-firewall-range')), sourceRanges: ['10.0.0.0/33'] }))).toBe('Invalid');
    expect(await refusalOf(() => side.port.insertFirewall({ ...firewall(side, unique('ct-firewall-network')), network: side.link('global/networks/ct-no-network') }))).toBe('NotFound');
    expect(await refusalOf(() => side.port.patchFirewall({ ...firewall(side, name), allowed: [{ IPProtocol: 'bogus' }] }))).toBe('Invalid');
    expect(await refusalOf(() => side.port.patchFirewall(firewall(side, 'ct-nobody')))).toBe('NotFound');
    await side.port.deleteFirewall(name);
    expect(await side.port.getFirewall(name)).toBeUndefined();
    expect(await refusalOf(() => side.port.deleteFirewall(name))).toBe('NotFound');
  });

  it('runs an instance group, its backend service with fingerprints and an internal forwarding rule; refuses what Compute refuses', async () => {
    const side = fixture();
    const { region } = side;
    const [zone, otherZone] = side.zones;
    const node = unique('ct-ig-node');
    const elsewhere = unique('ct-ig-node');
    await side.createInstance(zone, node, []);
    await side.createInstance(otherZone, elsewhere, []);
    const nodeUrl = side.link(`zones/${zone}/instances/${node}`);
    const group = unique('ct-group');
    await side.port.insertInstanceGroup({ name: group, zone, description: 'contract' });
    const storedGroup = await side.port.getInstanceGroup(zone, group);
    expect(storedGroup).toMatchObject({ name: group, zone, description: 'contract' });
    const groupUrl = side.link(`zones/${zone}/instanceGroups/${group}`);
    expect(pathOf(storedGroup?.selfLink)).toBe(pathOf(groupUrl));
    expect(await refusalOf(() => side.port.insertInstanceGroup({ name: group, zone }))).toBe('AlreadyExists');
    expect(await refusalOf(() => side.port.insertInstanceGroup({ name: OVER_LONG_NAME, zone }))).toBe('Invalid');
    await side.port.addInstanceGroupInstances(zone, group, [nodeUrl]);
    expect((await side.port.listInstanceGroupInstances(zone, group)).map(pathOf)).toEqual([pathOf(nodeUrl)]);
    expect(await refusalOf(() => side.port.addInstanceGroupInstances(zone, group, [nodeUrl]))).toBe('Invalid'); // MEMBER_ALREADY_EXISTS, HTTP 400
    expect(await refusalOf(() => side.port.addInstanceGroupInstances(zone, group, [side.link(`zones/${otherZone}/instances/${elsewhere}`)]))).toBe('Invalid');
    expect(await refusalOf(() => side.port.addInstanceGroupInstances(zone, group, [side.link(`zones/${zone}/instances/ct-nobody`)]))).toBe('NotFound');
    expect(await refusalOf(() => side.port.addInstanceGroupInstances(zone, 'ct-nobody', [nodeUrl]))).toBe('NotFound');
    expect(await refusalOf(() => side.port.listInstanceGroupInstances(zone, 'ct-nobody'))).toBe('NotFound');
    expect(await side.port.getInstanceGroup(zone, 'ct-nobody')).toBeUndefined();

    const checkName = unique('ct-bs-check');
    await side.port.insertHealthCheck(check(checkName));
    const checkUrl = side.link(`global/healthChecks/${checkName}`);
    const name = unique('ct-backend');
    const service = { name, protocol: 'TCP', description: 'contract', healthChecks: [checkUrl], backends: [{ group: groupUrl }], sessionAffinity: 'NONE', loadBalancingScheme: 'INTERNAL' };
    expect(await refusalOf(() => side.port.insertRegionBackendService(region, { ...service, name: unique('ct-backend-hc'), healthChecks: [side.link('global/healthChecks/ct-nobody')] }))).toBe('NotFound');
    expect(await refusalOf(() => side.port.insertRegionBackendService(region, { ...service, name: unique('ct-backend-group'), backends: [{ group: side.link(`zones/${zone}/instanceGroups/ct-nobody`) }] }))).toBe('NotFound');
    expect(await refusalOf(() => side.port.insertRegionBackendService(region, { ...service, name: unique('ct-backend-two'), healthChecks: [checkUrl, checkUrl] }))).toBe('Invalid');
    expect(await refusalOf(() => side.port.insertRegionBackendService(region, { ...service, name: OVER_LONG_NAME }))).toBe('Invalid');
    await side.port.insertRegionBackendService(region, service);
    const stored = await side.port.getRegionBackendService(region, name);
    expect(stored).toMatchObject({ name, protocol: 'TCP', description: 'contract', sessionAffinity: 'NONE', loadBalancingScheme: 'INTERNAL' });
    expect(pathOf(stored?.selfLink)).toBe(pathOf(side.link(`regions/${region}/backendServices/${name}`)));
    expect(stored?.healthChecks.map(pathOf)).toEqual([pathOf(checkUrl)]);
    expect(stored?.backends.map((backend) => pathOf(backend.group))).toEqual([pathOf(groupUrl)]);
    expect(stored?.fingerprint).toEqual(expect.any(String));
    expect(await refusalOf(() => side.port.insertRegionBackendService(region, service))).toBe('AlreadyExists');
    await side.port.updateRegionBackendService(region, { ...service, sessionAffinity: 'CLIENT_IP', fingerprint: stored?.fingerprint ?? '' });
    const updated = await side.port.getRegionBackendService(region, name);
    expect(updated?.sessionAffinity).toBe('CLIENT_IP');
    expect(updated?.fingerprint).not.toBe(stored?.fingerprint);
    expect(await refusalOf(() => side.port.updateRegionBackendService(region, { ...service, fingerprint: stored?.fingerprint ?? '' }))).toBe('PreconditionFailed');
    expect(await refusalOf(() => side.port.updateRegionBackendService(region, { ...service, name: 'ct-nobody', fingerprint: updated?.fingerprint ?? '' }))).toBe('NotFound');
    expect(await refusalOf(() => side.port.deleteHealthCheck(checkName))).toBe('InUse');
    expect(await refusalOf(() => side.port.deleteInstanceGroup(zone, group))).toBe('InUse');

    const backendService = side.link(`regions/${region}/backendServices/${name}`);
    const rule = {
      name,
      IPProtocol: 'TCP',
      ports: ['80'],
      backendService,
      loadBalancingScheme: 'INTERNAL',
      network: side.link(`global/networks/${side.network}`),
      subnetwork: side.link(`regions/${region}/subnetworks/${side.subnetwork}`),
      description: 'contract',
    };
    expect(await refusalOf(() => side.port.insertForwardingRule(region, { ...rule, name: unique('ct-ilb-ports'), ports: ['1', '2', '3', '4', '5', '6'] }))).toBe('Invalid');
    expect(await refusalOf(() => side.port.insertForwardingRule(region, { ...rule, name: unique('ct-ilb-backend'), backendService: side.link(`regions/${region}/backendServices/ct-nobody`) }))).toBe('NotFound');
    await side.port.insertForwardingRule(region, rule);
    const forwarding = await side.port.getForwardingRule(region, name);
    expect(forwarding).toMatchObject({ name, IPProtocol: 'TCP', ports: ['80'], loadBalancingScheme: 'INTERNAL', description: 'contract' });
    expect(forwarding?.IPAddress).toMatch(IPV4);
    expect(pathOf(forwarding?.backendService)).toBe(pathOf(backendService));
    expect(await refusalOf(() => side.port.deleteRegionBackendService(region, name))).toBe('InUse');

    await side.port.deleteForwardingRule(region, name);
    await side.port.deleteRegionBackendService(region, name);
    expect(await side.port.getRegionBackendService(region, name)).toBeUndefined();
    expect(await refusalOf(() => side.port.deleteRegionBackendService(region, name))).toBe('NotFound');
    await side.port.removeInstanceGroupInstances(zone, group, [nodeUrl]);
    expect(await side.port.listInstanceGroupInstances(zone, group)).toEqual([]);
    await side.port.deleteInstanceGroup(zone, group);
    expect(await refusalOf(() => side.port.deleteInstanceGroup(zone, group))).toBe('NotFound');
    await side.port.deleteHealthCheck(checkName);
  });
}
