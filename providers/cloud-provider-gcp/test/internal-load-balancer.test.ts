import { isImplementedElsewhere, isPermanentInvalidInput } from '@ccm/core/provider';
import { describe, expect, it } from 'vitest';
import { fakeError, FAKE_BASE_URL } from './fakes/fake-compute.js';
import { CLUSTER_ID, createHarness, gceConf, makeNode, makeService, PROJECT, REGION, ZONE, OTHER_ZONE, type ServiceOptions } from './helpers.js';

const LB = 'a11111111222233334444555555555555'.slice(0, 32);
const IG = `k8s-ig--${CLUSTER_ID}`;
const SUBNET_URL = `${FAKE_BASE_URL}projects/${PROJECT}/regions/${REGION}/subnetworks/nodes`;
const INTERNAL = { 'networking.gke.io/load-balancer-type': 'Internal' };
const zoned = (name: string, zone = ZONE) => makeNode(name, { labels: { 'topology.kubernetes.io/zone': zone } });
const nodes = [zoned('node-1'), zoned('node-2'), zoned('node-3', OTHER_ZONE), makeNode('node-no-zone')];
const ilb = (options: ServiceOptions = {}) => makeService({ ...options, annotations: { ...INTERNAL, ...options.annotations } });

async function harness(extra = '') {
  const created = await createHarness({ config: gceConf(`node-tags = k8s-node\nsubnetwork-name = nodes\n${extra}`) });
  for (const node of ['node-1', 'node-2']) created.compute.addInstance(ZONE, node);
  created.compute.addInstance(OTHER_ZONE, 'node-3');
  return created;
}

const members = (compute: Awaited<ReturnType<typeof harness>>['compute'], zone: string): string[] =>
  (compute.instanceGroups.get(`${zone}/${IG}`)?.members ?? []).map((url) => url.split('/').at(-1) ?? url).sort();

describe('GCE internal load balancer', () => {
  it('creates the instance groups per zone, the shared health check, the backend service, the INTERNAL forwarding rule and the firewalls; the held address is released', async () => {
    const { cloud, compute } = await harness();
    const status = await cloud.loadBalancer().ensureLoadBalancer('kubernetes', ilb({ ports: [{ port: 80 }, { port: 81 }, { port: 443 }] }), nodes);
    const ip = status.ingress?.[0]?.ip ?? '';
    expect(ip).toMatch(/^10\.128\.0\./);
    expect(members(compute, ZONE)).toEqual(['node-1', 'node-2']);
    expect(members(compute, OTHER_ZONE)).toEqual(['node-3']);
    expect(compute.instanceGroups.size).toBe(2);
    expect(compute.globalHealthChecks.get(`k8s-${CLUSTER_ID}-node`)).toMatchObject({ type: 'HTTP', port: 10256, requestPath: '/healthz', description: '', checkIntervalSec: 8, timeoutSec: 1, healthyThreshold: 1, unhealthyThreshold: 3 });
    expect(compute.backendServices.get(`${REGION}/${LB}`)).toMatchObject({
      protocol: 'TCP',
      loadBalancingScheme: 'INTERNAL',
      sessionAffinity: 'NONE',
      description: '{"kubernetes.io/service-name":"default/web"}',
      healthChecks: [`${FAKE_BASE_URL}projects/${PROJECT}/global/healthChecks/k8s-${CLUSTER_ID}-node`],
    });
    expect(compute.backendServices.get(`${REGION}/${LB}`)?.backends.map((backend) => backend.group).sort()).toEqual([
      `${FAKE_BASE_URL}projects/${PROJECT}/zones/${ZONE}/instanceGroups/${IG}`,
      `${FAKE_BASE_URL}projects/${PROJECT}/zones/${OTHER_ZONE}/instanceGroups/${IG}`,
    ]);
    expect(compute.forwardingRules.get(`${REGION}/${LB}`)).toMatchObject({
      IPAddress: ip,
      IPProtocol: 'TCP',
      loadBalancingScheme: 'INTERNAL',
      ports: ['80', '81', '443'],
      backendService: `${FAKE_BASE_URL}projects/${PROJECT}/regions/${REGION}/backendServices/${LB}`,
      network: `${FAKE_BASE_URL}projects/${PROJECT}/global/networks/default`,
      subnetwork: SUBNET_URL,
      description: '{"kubernetes.io/service-name":"default/web"}',
    });
    expect(compute.forwardingRules.get(`${REGION}/${LB}`)?.allowGlobalAccess).toBeUndefined();
    expect(compute.firewalls.get(`k8s-fw-${LB}`)).toMatchObject({
      description: `{"kubernetes.io/service-name":"default/web", "kubernetes.io/service-ip":"${ip}"}`,
      sourceRanges: ['0.0.0.0/0'],
      destinationRanges: [ip],
      targetTags: ['k8s-node'],
      allowed: [{ IPProtocol: 'tcp', ports: ['80-81', '443'] }],
    });
    expect(compute.firewalls.get(`k8s-${CLUSTER_ID}-node-hc`)).toMatchObject({
      sourceRanges: ['130.211.0.0/22', '209.85.152.0/22', '209.85.204.0/22', '35.191.0.0/16'],
      allowed: [{ IPProtocol: 'tcp', ports: ['10256'] }],
      targetTags: ['k8s-node'],
      destinationRanges: [],
    });
    expect(compute.addresses.size).toBe(0);
    expect(compute.targetPools.size).toBe(0);
    expect(compute.healthChecks.size).toBe(0);
    // Instance groups come from node names and zone labels: no instance look-up for them.
    expect(compute.callsOf('listInstances')).toBe(0);
  });

  it('changes nothing on a second sync but holding and releasing the address', async () => {
    const { cloud, compute } = await harness();
    const first = await cloud.loadBalancer().ensureLoadBalancer('kubernetes', ilb(), nodes);
    const before = compute.mutations().length;
    expect(await cloud.loadBalancer().ensureLoadBalancer('kubernetes', ilb(), nodes)).toEqual(first);
    expect(compute.mutations().slice(before)).toEqual(['insertAddress', 'deleteAddress']);
    expect((await cloud.loadBalancer().getLoadBalancer('kubernetes', ilb())).status).toEqual(first);
  });

  it.each<[string, ServiceOptions]>([
    ['networking.gke.io/load-balancer-type: Internal', { annotations: { 'networking.gke.io/load-balancer-type': 'Internal' } }],
    ['networking.gke.io/load-balancer-type: internal', { annotations: { 'networking.gke.io/load-balancer-type': 'internal' } }],
    ['the deprecated cloud.google.com/load-balancer-type: Internal', { annotations: { 'cloud.google.com/load-balancer-type': 'Internal' } }],
    ['the deprecated cloud.google.com/load-balancer-type: internal', { annotations: { 'cloud.google.com/load-balancer-type': 'internal' } }],
    ['loadBalancerClass networking.gke.io/l4-regional-internal-legacy', { loadBalancerClass: 'networking.gke.io/l4-regional-internal-legacy' }],
  ])('%s asks for the internal load balancer', async (_what, options) => {
    const { cloud, compute } = await harness();
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService(options), nodes);
    expect(compute.forwardingRules.get(`${REGION}/${LB}`)?.loadBalancingScheme).toBe('INTERNAL');
  });

  it.each<[string, ServiceOptions]>([
    ['no annotation', {}],
    ['load-balancer-type External', { annotations: { 'networking.gke.io/load-balancer-type': 'External' } }],
    ['the external legacy class wins over the Internal annotation', { loadBalancerClass: 'networking.gke.io/l4-regional-external-legacy', annotations: INTERNAL }],
  ])('%s gives the external load balancer', async (_what, options) => {
    const { cloud, compute } = await harness();
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService(options), nodes);
    expect(compute.forwardingRules.get(`${REGION}/${LB}`)?.loadBalancingScheme).toBe('EXTERNAL');
    expect(compute.backendServices.size).toBe(0);
  });

  it('a loadBalancerClass of another controller is left alone', async () => {
    const { cloud, compute } = await harness();
    await expect(cloud.loadBalancer().ensureLoadBalancer('kubernetes', ilb({ loadBalancerClass: 'networking.gke.io/l4-regional-internal' }), nodes)).rejects.toSatisfy(isImplementedElsewhere);
    expect(compute.mutations()).toEqual([]);
  });

  it('global access on and off recreates the forwarding rule with the same IP', async () => {
    const { cloud, compute } = await harness();
    const ip = (await cloud.loadBalancer().ensureLoadBalancer('kubernetes', ilb(), nodes)).ingress?.[0]?.ip;
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', ilb({ annotations: { 'networking.gke.io/internal-load-balancer-allow-global-access': 'true' } }), nodes);
    expect(compute.forwardingRules.get(`${REGION}/${LB}`)).toMatchObject({ allowGlobalAccess: true, IPAddress: ip });
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', ilb({ annotations: { 'networking.gke.io/internal-load-balancer-allow-global-access': 'false' } }), nodes);
    expect(compute.forwardingRules.get(`${REGION}/${LB}`)?.allowGlobalAccess).toBeUndefined();
    expect(compute.forwardingRules.get(`${REGION}/${LB}`)?.IPAddress).toBe(ip);
    expect(compute.callsOf('deleteForwardingRule')).toBe(2);
  });

  it('the subnet annotation moves the VIP to that subnetwork with a new IP', async () => {
    const { cloud, compute } = await harness();
    const ip = (await cloud.loadBalancer().ensureLoadBalancer('kubernetes', ilb(), nodes)).ingress?.[0]?.ip;
    const moved = await cloud.loadBalancer().ensureLoadBalancer('kubernetes', ilb({ annotations: { 'networking.gke.io/internal-load-balancer-subnet': 'ilb-subnet' } }), nodes);
    expect(moved.ingress?.[0]?.ip).not.toBe(ip);
    expect(compute.forwardingRules.get(`${REGION}/${LB}`)?.subnetwork).toBe(`${FAKE_BASE_URL}projects/${PROJECT}/regions/${REGION}/subnetworks/ilb-subnet`);
  });

  it('source ranges (spec or annotation) go to the traffic firewall; UDP Services get a UDP backend service, rule and firewall', async () => {
    const { cloud, compute } = await harness();
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', ilb({ loadBalancerSourceRanges: ['10.1.0.0/16'], ports: [{ port: 53, protocol: 'UDP' }] }), nodes);
    expect(compute.firewalls.get(`k8s-fw-${LB}`)).toMatchObject({ sourceRanges: ['10.1.0.0/16'], allowed: [{ IPProtocol: 'udp', ports: ['53'] }] });
    expect(compute.backendServices.get(`${REGION}/${LB}`)?.protocol).toBe('UDP');
    expect(compute.forwardingRules.get(`${REGION}/${LB}`)).toMatchObject({ IPProtocol: 'UDP', ports: ['53'] });
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', ilb({ annotations: { 'service.beta.kubernetes.io/load-balancer-source-ranges': '192.168.0.0/24, 10.2.0.0/16' } }), nodes);
    expect(compute.firewalls.get(`k8s-fw-${LB}`)?.sourceRanges).toEqual(['10.2.0.0/16', '192.168.0.0/24']);
    // The protocol change recreated the rule before the backend service was updated.
    expect(compute.forwardingRules.get(`${REGION}/${LB}`)).toMatchObject({ IPProtocol: 'TCP', ports: ['80'] });
    expect(compute.backendServices.get(`${REGION}/${LB}`)?.protocol).toBe('TCP');
  });

  it('the deprecated backend-share annotation shares too', async () => {
    const { cloud, compute } = await harness();
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', ilb({ sessionAffinity: 'None', annotations: { 'cloud.google.com/load-balancer-backend-share': 'true' } }), nodes);
    expect([...compute.backendServices.keys()]).toEqual([`${REGION}/k8s-${CLUSTER_ID}-internal-tcp-nmv1-6eef6648406c333a`]);
  });

  it('nodes of another subnetwork (cloud.google.com/gke-node-pool-subnet) are left out of the instance groups', async () => {
    const { cloud, compute } = await harness();
    const other = makeNode('node-2', { labels: { 'topology.kubernetes.io/zone': ZONE, 'cloud.google.com/gke-node-pool-subnet': 'other-subnet' } });
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', ilb(), [zoned('node-1'), other]);
    expect(members(compute, ZONE)).toEqual(['node-1']);
  });

  it('more than five ports: allPorts', async () => {
    const { cloud, compute } = await harness();
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', ilb({ ports: [1, 2, 3, 4, 5, 6].map((port) => ({ port })) }), nodes);
    expect(compute.forwardingRules.get(`${REGION}/${LB}`)).toMatchObject({ allPorts: true });
    expect(compute.forwardingRules.get(`${REGION}/${LB}`)?.ports).toBeUndefined();
  });

  it('a requested IP is used; a user reservation of it is never released', async () => {
    const { cloud, compute } = await harness();
    await compute.insertAddress(REGION, { name: 'user-ip', address: '10.128.0.200', addressType: 'INTERNAL' });
    const status = await cloud.loadBalancer().ensureLoadBalancer('kubernetes', ilb({ loadBalancerIP: '10.128.0.200' }), nodes);
    expect(status.ingress?.[0]?.ip).toBe('10.128.0.200');
    expect([...compute.addresses.keys()]).toEqual([`${REGION}/user-ip`]);
    await cloud.loadBalancer().ensureLoadBalancerDeleted('kubernetes', ilb({ loadBalancerIP: '10.128.0.200' }));
    expect([...compute.addresses.keys()]).toEqual([`${REGION}/user-ip`]);
  });

  it('externalTrafficPolicy Local: the Service health check on healthCheckNodePort; switching back deletes it and its firewall', async () => {
    const { cloud, compute } = await harness();
    const local = ilb({ externalTrafficPolicy: 'Local', healthCheckNodePort: 31555 });
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', local, nodes);
    expect(compute.globalHealthChecks.get(LB)).toMatchObject({ port: 31555, requestPath: '/healthz', description: '{"kubernetes.io/service-name":"default/web"}' });
    expect(compute.firewalls.get(`${LB}-hc`)).toMatchObject({ allowed: [{ IPProtocol: 'tcp', ports: ['31555'] }] });
    expect(compute.globalHealthChecks.has(`k8s-${CLUSTER_ID}-node`)).toBe(false);
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', ilb(), nodes);
    expect(compute.backendServices.get(`${REGION}/${LB}`)?.healthChecks[0]).toMatch(new RegExp(`/healthChecks/k8s-${CLUSTER_ID}-node$`));
    expect(compute.globalHealthChecks.has(LB)).toBe(false);
    expect(compute.firewalls.has(`${LB}-hc`)).toBe(false);
  });

  it('backend share: the shared backend service; turning it off moves to the per-service one and deletes the unused shared one', async () => {
    const { cloud, compute } = await harness();
    const shared = ilb({ sessionAffinity: 'None', annotations: { 'alpha.cloud.google.com/load-balancer-backend-share': 'true' } });
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', shared, nodes);
    const sharedName = `k8s-${CLUSTER_ID}-internal-tcp-nmv1-6eef6648406c333a`;
    expect(compute.backendServices.get(`${REGION}/${sharedName}`)).toMatchObject({ description: '' });
    expect(compute.forwardingRules.get(`${REGION}/${LB}`)?.backendService).toMatch(new RegExp(`/backendServices/${sharedName}$`));
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', ilb({ sessionAffinity: 'None' }), nodes);
    expect([...compute.backendServices.keys()]).toEqual([`${REGION}/${LB}`]);
  });

  it('node changes update the instance groups as diffs and the backend service when a zone appears', async () => {
    const { cloud, compute } = await harness();
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', ilb(), [zoned('node-1'), zoned('node-2')]);
    expect(compute.backendServices.get(`${REGION}/${LB}`)?.backends).toHaveLength(1);
    await cloud.loadBalancer().updateLoadBalancer('kubernetes', ilb(), [zoned('node-2'), zoned('node-3', OTHER_ZONE)]);
    expect(members(compute, ZONE)).toEqual(['node-2']);
    expect(members(compute, OTHER_ZONE)).toEqual(['node-3']);
    expect(compute.backendServices.get(`${REGION}/${LB}`)?.backends).toHaveLength(2);
    const before = compute.mutations().length;
    await cloud.loadBalancer().updateLoadBalancer('kubernetes', ilb(), [zoned('node-2'), zoned('node-3', OTHER_ZONE)]);
    expect(compute.mutations().slice(before)).toEqual([]);
  });

  it('a stale fingerprint (412) on the backend service update re-reads and retries', async () => {
    const { cloud, compute } = await harness();
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', ilb(), [zoned('node-1')]);
    compute.failNext('updateRegionBackendService', fakeError('PreconditionFailed', 'updateRegionBackendService'));
    await cloud.loadBalancer().updateLoadBalancer('kubernetes', ilb(), [zoned('node-1'), zoned('node-3', OTHER_ZONE)]);
    expect(compute.callsOf('updateRegionBackendService')).toBe(2);
    expect(compute.backendServices.get(`${REGION}/${LB}`)?.backends).toHaveLength(2);
  });

  it('a backend service update sends the fingerprint it read', async () => {
    const { cloud, compute } = await harness();
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', ilb(), [zoned('node-1')]);
    const stored = compute.backendServices.get(`${REGION}/${LB}`);
    if (stored) stored.fingerprint = 'changed-by-someone';
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', ilb({ sessionAffinity: 'ClientIP' }), [zoned('node-1')]);
    expect(compute.backendServices.get(`${REGION}/${LB}`)?.sessionAffinity).toBe('CLIENT_IP');
  });

  it('deletion removes everything; shared instance groups and health check stay while another ILB uses them', async () => {
    const { cloud, compute } = await harness();
    const other = ilb({ name: 'other', uid: '99999999-2222-3333-4444-555555555555' });
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', ilb(), nodes);
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', other, nodes);
    await cloud.loadBalancer().ensureLoadBalancerDeleted('kubernetes', ilb());
    expect(compute.forwardingRules.has(`${REGION}/${LB}`)).toBe(false);
    expect(compute.backendServices.has(`${REGION}/${LB}`)).toBe(false);
    expect(compute.firewalls.has(`k8s-fw-${LB}`)).toBe(false);
    expect(compute.instanceGroups.size).toBe(2);
    expect(compute.globalHealthChecks.has(`k8s-${CLUSTER_ID}-node`)).toBe(true);
    expect(compute.firewalls.has(`k8s-${CLUSTER_ID}-node-hc`)).toBe(true);
    await cloud.loadBalancer().ensureLoadBalancerDeleted('kubernetes', other);
    expect(compute.instanceGroups.size).toBe(0);
    expect(compute.globalHealthChecks.size).toBe(0);
    expect(compute.backendServices.size).toBe(0);
    expect(compute.forwardingRules.size).toBe(0);
    expect(compute.addresses.size).toBe(0);
    expect([...compute.firewalls.keys()]).toEqual([]);
    // Deleting again is a no-op.
    await cloud.loadBalancer().ensureLoadBalancerDeleted('kubernetes', other);
  });

  it('a Service whose annotation broke after creation is still deleted completely', async () => {
    const { cloud, compute } = await harness();
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', ilb({ externalTrafficPolicy: 'Local', healthCheckNodePort: 31000, annotations: { 'alpha.cloud.google.com/load-balancer-backend-share': 'true' } }), nodes);
    // Now Cluster with a broken backend-share value: the names computed from the Service no longer match what exists.
    await cloud.loadBalancer().ensureLoadBalancerDeleted('kubernetes', ilb({ annotations: { 'alpha.cloud.google.com/load-balancer-backend-share': 'maybe' } }));
    expect(compute.backendServices.size + compute.instanceGroups.size + compute.globalHealthChecks.size + compute.forwardingRules.size + compute.firewalls.size + compute.addresses.size).toBe(0);
  });

  it('deletion leaves a forwarding rule whose description names another Service', async () => {
    const { cloud, compute } = await harness();
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', ilb(), nodes);
    const rule = compute.forwardingRules.get(`${REGION}/${LB}`);
    if (rule) rule.description = '{"kubernetes.io/service-name":"other/svc"}';
    await cloud.loadBalancer().ensureLoadBalancerDeleted('kubernetes', ilb());
    expect(compute.forwardingRules.has(`${REGION}/${LB}`)).toBe(true);
  });

  it('switching external -> internal deletes the external resources; internal -> external deletes the internal ones', async () => {
    const { cloud, compute } = await harness();
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService(), nodes);
    expect(compute.targetPools.size).toBe(1);
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', ilb(), nodes);
    expect(compute.targetPools.size).toBe(0);
    expect(compute.healthChecks.size).toBe(0);
    expect(compute.firewalls.has(`k8s-${CLUSTER_ID}-node-http-hc`)).toBe(false);
    expect(compute.forwardingRules.get(`${REGION}/${LB}`)?.loadBalancingScheme).toBe('INTERNAL');
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService(), nodes);
    expect(compute.forwardingRules.get(`${REGION}/${LB}`)?.loadBalancingScheme).toBe('EXTERNAL');
    expect(compute.backendServices.size).toBe(0);
    expect(compute.instanceGroups.size).toBe(0);
    expect(compute.globalHealthChecks.size).toBe(0);
    expect(compute.firewalls.has(`k8s-${CLUSTER_ID}-node-hc`)).toBe(false);
  });

  it('deleting a Service whose annotation was removed before the switch still removes the internal resources', async () => {
    const { cloud, compute } = await harness();
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', ilb(), nodes);
    await cloud.loadBalancer().ensureLoadBalancerDeleted('kubernetes', makeService());
    expect(compute.backendServices.size + compute.instanceGroups.size + compute.globalHealthChecks.size + compute.forwardingRules.size + compute.firewalls.size).toBe(0);
  });

  it.each<[string, Record<string, string>]>([
    ['allow-global-access', { 'networking.gke.io/internal-load-balancer-allow-global-access': 'yes' }],
    ['internal-load-balancer-subnet', { 'networking.gke.io/internal-load-balancer-subnet': 'Bad Subnet' }],
    ['load-balancer-backend-share', { 'cloud.google.com/load-balancer-backend-share': 'maybe' }],
  ])('a bad %s annotation is invalid input and changes nothing', async (_what, annotations) => {
    const { cloud, compute } = await harness();
    await expect(cloud.loadBalancer().ensureLoadBalancer('kubernetes', ilb({ annotations }), nodes)).rejects.toSatisfy(isPermanentInvalidInput);
    expect(compute.mutations()).toEqual([]);
  });

  it('ILBSubsets: a new ILB is left to another controller; one with the v1 finalizer is still handled', async () => {
    const { cloud, compute } = await harness('alpha-features = ILBSubsets\n');
    await expect(cloud.loadBalancer().ensureLoadBalancer('kubernetes', ilb(), nodes)).rejects.toSatisfy(isImplementedElsewhere);
    expect(compute.mutations()).toEqual([]);
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', ilb({ finalizers: ['gke.networking.io/l4-ilb-v1'] }), nodes);
    expect(compute.forwardingRules.has(`${REGION}/${LB}`)).toBe(true);
  });

  it('the v2 finalizer on a new ILB: another controller owns it', async () => {
    const { cloud, compute } = await harness();
    await expect(cloud.loadBalancer().ensureLoadBalancer('kubernetes', ilb({ finalizers: ['gke.networking.io/l4-ilb-v2'] }), nodes)).rejects.toSatisfy(isImplementedElsewhere);
    expect(compute.mutations()).toEqual([]);
  });

  it('a cloud failure leaves no held address behind', async () => {
    const { cloud, compute } = await harness();
    compute.failNext('insertForwardingRule', fakeError('Invalid', 'insertForwardingRule'));
    await expect(cloud.loadBalancer().ensureLoadBalancer('kubernetes', ilb(), nodes)).rejects.toThrow();
    expect(compute.addresses.size).toBe(0);
  });
});
