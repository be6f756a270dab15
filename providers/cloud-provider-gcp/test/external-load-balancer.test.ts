import { isImplementedElsewhere, isPermanentInvalidInput } from '@ccm/core/provider';
import { describe, expect, it } from 'vitest';
import type { V1Service } from '@kubernetes/client-node';
import { GceApiError } from '../src/errors.js';
import { fakeError, FAKE_BASE_URL } from './fakes/fake-compute.js';
import type { FakeServiceFinalizers } from './fakes/fake-service-finalizers.js';
import { CLUSTER_ID, createHarness, gceConf, makeNode, makeService, PROJECT, REGION, ZONE } from './helpers.js';

const LB = 'a11111111222233334444555555555555'.slice(0, 32);
const nodes = [makeNode('node-1'), makeNode('node-2')];

async function harnessWithNodes(config = gceConf('node-tags = k8s-node\n')) {
  const harness = await createHarness({ config });
  harness.compute.addInstance(ZONE, 'node-1');
  harness.compute.addInstance(ZONE, 'node-2');
  return harness;
}

describe('GCE external network load balancer', () => {
  it('creates the firewall, the shared node health check and its firewall, the target pool and the forwarding rule; the held address is released', async () => {
    const { cloud, compute } = await harnessWithNodes();
    const status = await cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService({ ports: [{ port: 80 }, { port: 81 }, { port: 443 }] }), nodes);
    const ip = status.ingress?.[0]?.ip ?? '';
    expect(ip).toMatch(/^203\.0\.113\./);
    expect(compute.forwardingRules.get(`${REGION}/${LB}`)).toMatchObject({
      IPAddress: ip,
      IPProtocol: 'TCP',
      portRange: '80-443',
      target: `${FAKE_BASE_URL}projects/${PROJECT}/regions/${REGION}/targetPools/${LB}`,
      networkTier: 'PREMIUM',
      description: '{"kubernetes.io/service-name":"default/web"}',
    });
    expect(compute.targetPools.get(`${REGION}/${LB}`)).toMatchObject({
      sessionAffinity: 'NONE',
      healthChecks: [`${FAKE_BASE_URL}projects/${PROJECT}/global/httpHealthChecks/k8s-${CLUSTER_ID}-node`],
    });
    expect(compute.targetPools.get(`${REGION}/${LB}`)?.instances.map((url) => url.split('/').at(-1))).toEqual(['node-1', 'node-2']);
    expect(compute.healthChecks.get(`k8s-${CLUSTER_ID}-node`)).toMatchObject({ port: 10256, requestPath: '/healthz', checkIntervalSec: 8, timeoutSec: 1, healthyThreshold: 1, unhealthyThreshold: 3 });
    expect(compute.firewalls.get(`k8s-fw-${LB}`)).toMatchObject({
      description: `{"kubernetes.io/service-name":"default/web", "kubernetes.io/service-ip":"${ip}"}`,
      sourceRanges: ['0.0.0.0/0'],
      destinationRanges: [ip],
      targetTags: ['k8s-node'],
      allowed: [{ IPProtocol: 'tcp', ports: ['80-81', '443'] }],
    });
    expect(compute.firewalls.get(`k8s-${CLUSTER_ID}-node-http-hc`)).toMatchObject({ allowed: [{ IPProtocol: 'tcp', ports: ['10256'] }], targetTags: ['k8s-node'] });
    expect(compute.addresses.size).toBe(0);
  });

  it('changes nothing on a second sync', async () => {
    const { cloud, compute } = await harnessWithNodes();
    const first = await cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService(), nodes);
    const before = compute.mutations().length;
    const second = await cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService(), nodes);
    expect(second).toEqual(first);
    // The forwarding rule's IP is held again by an address for the sync, then released: nothing else changes.
    expect(compute.mutations().slice(before)).toEqual(['insertAddress', 'deleteAddress']);
  });

  it('updates target pool membership as a diff on node changes', async () => {
    const { cloud, compute } = await harnessWithNodes();
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService(), nodes);
    compute.addInstance(ZONE, 'node-3');
    const before = compute.mutations().length;
    await cloud.loadBalancer().updateLoadBalancer('kubernetes', makeService(), [makeNode('node-2'), makeNode('node-3')]);
    expect(compute.mutations().slice(before)).toEqual(['addTargetPoolInstances', 'removeTargetPoolInstances']);
    expect(compute.targetPools.get(`${REGION}/${LB}`)?.instances.map((url) => url.split('/').at(-1))).toEqual(['node-2', 'node-3']);
  });

  it('uses a per-service health check for externalTrafficPolicy Local and recreates pool and rule when the policy switches', async () => {
    const { cloud, compute } = await harnessWithNodes();
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService(), nodes);
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService({ externalTrafficPolicy: 'Local', healthCheckNodePort: 31000 }), nodes);
    // Upstream makeHTTPHealthCheck: the check is described by its own name; its firewall like the traffic one.
    const ip = compute.forwardingRules.get(`${REGION}/${LB}`)?.IPAddress ?? '';
    expect(compute.healthChecks.get(LB)).toMatchObject({ port: 31000, requestPath: '/healthz', description: `{"kubernetes.io/service-name":"${LB}"}` });
    expect(compute.targetPools.get(`${REGION}/${LB}`)?.healthChecks[0]).toMatch(new RegExp(`/httpHealthChecks/${LB}$`));
    expect(compute.firewalls.get(`k8s-${LB}-http-hc`)).toMatchObject({
      allowed: [{ IPProtocol: 'tcp', ports: ['31000'] }],
      description: `{"kubernetes.io/service-name":"default/web", "kubernetes.io/service-ip":"${ip}"}`,
      destinationRanges: [ip],
    });
    expect(compute.healthChecks.has(`k8s-${CLUSTER_ID}-node`)).toBe(false);
    expect(compute.firewalls.has(`k8s-${CLUSTER_ID}-node-http-hc`)).toBe(false);
  });

  it('adopts the health checks and their firewalls as upstream describes them: a sync after the swap changes nothing, and deleting removes them (issue 23)', async () => {
    const { cloud, compute } = await harnessWithNodes();
    const local = makeService({ name: 'local', uid: '99999999-2222-3333-4444-555555555555', externalTrafficPolicy: 'Local', healthCheckNodePort: 31000 });
    const LOCAL_LB = 'a99999999222233334444555555555555'.slice(0, 32);
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService(), nodes);
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', local, nodes);
    // What upstream leaves (gce_loadbalancer_external.go makeHTTPHealthCheck, ensureHTTPHealthCheckFirewall):
    // checks described by their own names, both check firewalls with a load balancer IP as destination.
    const sharedIp = compute.forwardingRules.get(`${REGION}/${LB}`)?.IPAddress ?? '';
    const localIp = compute.forwardingRules.get(`${REGION}/${LOCAL_LB}`)?.IPAddress ?? '';
    const upstream = {
      sharedCheck: `{"kubernetes.io/service-name":"k8s-${CLUSTER_ID}-node"}`,
      localCheck: `{"kubernetes.io/service-name":"${LOCAL_LB}"}`,
      localFirewall: `{"kubernetes.io/service-name":"default/local", "kubernetes.io/service-ip":"${localIp}"}`,
    };
    Object.assign(compute.healthChecks.get(`k8s-${CLUSTER_ID}-node`) ?? {}, { description: upstream.sharedCheck });
    Object.assign(compute.healthChecks.get(LOCAL_LB) ?? {}, { description: upstream.localCheck });
    Object.assign(compute.firewalls.get(`k8s-${CLUSTER_ID}-node-http-hc`) ?? {}, { destinationRanges: [sharedIp] });
    Object.assign(compute.firewalls.get(`k8s-${LOCAL_LB}-http-hc`) ?? {}, { description: upstream.localFirewall, destinationRanges: [localIp] });
    const before = compute.mutations().length;
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService(), nodes);
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', local, nodes);
    // Only the held addresses: the Local sync leaves the shared check alone (upstream deletes the
    // other policy's check only with a target pool it recreates).
    expect(compute.mutations().slice(before)).toEqual(['insertAddress', 'deleteAddress', 'insertAddress', 'deleteAddress']);
    expect(compute.healthChecks.get(`k8s-${CLUSTER_ID}-node`)?.description).toBe(upstream.sharedCheck);
    expect(compute.healthChecks.get(LOCAL_LB)?.description).toBe(upstream.localCheck);
    expect(compute.firewalls.get(`k8s-${CLUSTER_ID}-node-http-hc`)?.destinationRanges).toEqual([sharedIp]);
    await cloud.loadBalancer().ensureLoadBalancerDeleted('kubernetes', local);
    await cloud.loadBalancer().ensureLoadBalancerDeleted('kubernetes', makeService());
    expect([...compute.healthChecks.keys(), ...compute.firewalls.keys(), ...compute.targetPools.keys(), ...compute.forwardingRules.keys()]).toEqual([]);
  });

  it('keeps the shared node health check while another load balancer uses it', async () => {
    const { cloud, compute } = await harnessWithNodes();
    const other = makeService({ name: 'other', uid: '99999999-2222-3333-4444-555555555555' });
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService(), nodes);
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', other, nodes);
    await cloud.loadBalancer().ensureLoadBalancerDeleted('kubernetes', makeService());
    expect(compute.healthChecks.has(`k8s-${CLUSTER_ID}-node`)).toBe(true);
    await cloud.loadBalancer().ensureLoadBalancerDeleted('kubernetes', other);
    expect([compute.healthChecks.size, compute.firewalls.size, compute.targetPools.size, compute.forwardingRules.size, compute.addresses.size]).toEqual([0, 0, 0, 0, 0]);
    await cloud.loadBalancer().ensureLoadBalancerDeleted('kubernetes', other);
  });

  it('deletes only what carries its own description', async () => {
    const { cloud, compute } = await harnessWithNodes();
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService(), nodes);
    const rule = compute.forwardingRules.get(`${REGION}/${LB}`);
    if (rule) rule.description = '{"kubernetes.io/service-name":"someone/else"}';
    // The foreign forwarding rule stays, so its target pool cannot go either: the deletion fails loudly.
    await expect(cloud.loadBalancer().ensureLoadBalancerDeleted('kubernetes', makeService())).rejects.toThrow(/InUse/);
    expect(compute.forwardingRules.has(`${REGION}/${LB}`)).toBe(true);
    expect(compute.firewalls.has(`k8s-fw-${LB}`)).toBe(false);
  });

  it('uses a reserved loadBalancerIP and never releases it; an unreserved one is refused before any change', async () => {
    const { cloud, compute } = await harnessWithNodes();
    compute.addresses.set(`${REGION}/my-ip`, { name: 'my-ip', address: '35.1.1.1', networkTier: 'PREMIUM' });
    const status = await cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService({ loadBalancerIP: '35.1.1.1' }), nodes);
    expect(status.ingress).toEqual([{ ip: '35.1.1.1' }]);
    expect(compute.addresses.has(`${REGION}/my-ip`)).toBe(true);
    const fresh = await harnessWithNodes();
    await expect(fresh.cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService({ loadBalancerIP: '35.9.9.9' }), nodes)).rejects.toThrow(/spec\.loadBalancerIP=35\.9\.9\.9/);
    expect(fresh.compute.mutations()).toEqual([]);
  });

  it('a loadBalancerIP that is the forwarding rule\'s ephemeral IP is held as a static address while the rule is recreated (upstream ensureStaticIP), then released', async () => {
    const { cloud, compute } = await harnessWithNodes();
    const first = await cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService(), nodes);
    const ip = first.ingress?.[0]?.ip ?? '';
    const before = compute.mutations().length;
    const changed = makeService({ loadBalancerIP: ip, ports: [{ port: 80 }, { port: 8443 }] });
    expect(await cloud.loadBalancer().ensureLoadBalancer('kubernetes', changed, nodes)).toEqual({ ingress: [{ ip }] });
    const steps = compute.mutations().slice(before);
    expect(steps.indexOf('insertAddress')).toBeGreaterThanOrEqual(0);
    expect(steps.indexOf('insertAddress')).toBeLessThan(steps.indexOf('deleteForwardingRule'));
    expect(steps.indexOf('deleteAddress')).toBeGreaterThan(steps.indexOf('insertForwardingRule'));
    expect(compute.forwardingRules.get(`${REGION}/${LB}`)).toMatchObject({ IPAddress: ip, portRange: '80-8443' });
    expect(compute.addresses.size).toBe(0);
  });

  it('recreates the forwarding rule in the annotated network tier', async () => {
    const { cloud, compute } = await harnessWithNodes();
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService(), nodes);
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService({ annotations: { 'cloud.google.com/network-tier': 'Standard' } }), nodes);
    expect(compute.forwardingRules.get(`${REGION}/${LB}`)?.networkTier).toBe('STANDARD');
  });

  it.each([
    [{ 'cloud.google.com/network-tier': 'Gold' }, /cloud\.google\.com\/network-tier="Gold"/],
    [{ 'networking.gke.io/internal-load-balancer-allow-global-access': 'yes', 'networking.gke.io/load-balancer-type': 'Internal' }, /internal-load-balancer-allow-global-access="yes": must be true or false/],
    [{ 'networking.gke.io/internal-load-balancer-subnet': 'UPPER', 'cloud.google.com/load-balancer-type': 'internal' }, /internal-load-balancer-subnet="UPPER"/],
    [{ 'service.beta.kubernetes.io/load-balancer-source-ranges': '10.0.0.0/8,not-a-cidr' }, /load-balancer-source-ranges=.*"not-a-cidr" is not a CIDR/],
  ])('refuses bad annotation %o permanently, naming it, before any cloud change', async (annotations, message) => {
    const { cloud, compute } = await harnessWithNodes();
    const attempt = cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService({ annotations }), nodes);
    await expect(attempt).rejects.toThrow(message);
    await expect(attempt).rejects.toSatisfy(isPermanentInvalidInput);
    expect(compute.mutations()).toEqual([]);
  });

  it('refuses mixed protocols permanently', async () => {
    const { cloud } = await harnessWithNodes();
    await expect(cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService({ ports: [{ port: 53, protocol: 'UDP' }, { port: 80 }] }), nodes)).rejects.toSatisfy(isPermanentInvalidInput);
  });

  it('leaves Services of other controllers alone', async () => {
    const { cloud, compute } = await harnessWithNodes();
    await expect(cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService({ annotations: { 'cloud.google.com/l4-rbs': 'enabled' } }), nodes)).rejects.toSatisfy(isImplementedElsewhere);
    await expect(cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService({ loadBalancerClass: 'example.com/lb' }), nodes)).rejects.toSatisfy(isImplementedElsewhere);
    expect(compute.mutations()).toEqual([]);
  });

  it('computes node tags from the instances when node-tags is not set, and fails a host without one', async () => {
    const { cloud, compute } = await createHarness({ config: gceConf() });
    compute.addInstance(ZONE, 'pool-a-1', { tags: ['pool', 'pool-a', 'http'] });
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService(), [makeNode('pool-a-1')]);
    expect(compute.firewalls.get(`k8s-fw-${LB}`)?.targetTags).toEqual(['pool-a']);
    compute.addInstance(ZONE, 'untagged');
    await expect(cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService(), [makeNode('untagged')])).rejects.toThrow(/could not find any tag/);
  });

  it('re-reads and retries after a stale fingerprint (412)', async () => {
    const { cloud, compute } = await harnessWithNodes();
    compute.failNext('insertTargetPool', fakeError('PreconditionFailed', 'insertTargetPool'));
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService(), nodes);
    expect(compute.callsOf('insertTargetPool')).toBe(2);
    expect(compute.forwardingRules.size).toBe(1);
  });

  it('builds an empty target pool without nodes when node-tags is set, and fails without node-tags', async () => {
    const withTags = await harnessWithNodes();
    await withTags.cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService(), []);
    expect(withTags.compute.targetPools.get(`${REGION}/${LB}`)?.instances).toEqual([]);
    const withoutTags = await harnessWithNodes(gceConf());
    await expect(withoutTags.cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService(), [])).rejects.toThrow(/without nodes unless node-tags is set/);
    expect(withoutTags.compute.mutations()).toEqual([]);
  });

  it('reports status only when the forwarding rule exists', async () => {
    const { cloud } = await harnessWithNodes();
    expect(await cloud.loadBalancer().getLoadBalancer('kubernetes', makeService())).toEqual({ status: undefined, exists: false });
    const status = await cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService(), nodes);
    expect(await cloud.loadBalancer().getLoadBalancer('kubernetes', makeService())).toEqual({ status, exists: true });
  });

  it('a sync cut short before the forwarding rule leaves resources that still exist for the cleanup, and deleting removes them', async () => {
    const { cloud, compute } = await harnessWithNodes();
    // The target pool insert fails (a leader killed there would stop at the same point): address, firewalls and health check are left.
    compute.failNext('insertTargetPool', fakeError('Invalid', 'insertTargetPool'), 10);
    await expect(cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService(), nodes)).rejects.toThrow();
    expect(compute.forwardingRules.size).toBe(0);
    expect(compute.addresses.size).toBe(1);
    expect(compute.firewalls.has(`k8s-fw-${LB}`)).toBe(true);
    expect(await cloud.loadBalancer().getLoadBalancer('kubernetes', makeService())).toEqual({ status: undefined, exists: true });
    await cloud.loadBalancer().ensureLoadBalancerDeleted('kubernetes', makeService());
    expect(compute.addresses.size).toBe(0);
    expect([...compute.firewalls.keys()]).toEqual([]);
    expect(compute.healthChecks.size).toBe(0);
    expect(await cloud.loadBalancer().getLoadBalancer('kubernetes', makeService())).toEqual({ status: undefined, exists: false });
  });

  it('a resource of the same name owned by another Service is no remnant of this one', async () => {
    const { cloud, compute } = await harnessWithNodes();
    compute.failNext('insertTargetPool', fakeError('Invalid', 'insertTargetPool'), 10);
    await expect(cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService(), nodes)).rejects.toThrow();
    const other = makeService({ name: 'other' });
    expect(await cloud.loadBalancer().getLoadBalancer('kubernetes', { ...other, metadata: { ...other.metadata, uid: makeService().metadata?.uid } })).toEqual({ status: undefined, exists: false });
  });
});

describe('GCE load balancers: upstream finalizers (gke.networking.io/l4-netlb-v1, l4-ilb-v1)', () => {
  const internal = (options: Parameters<typeof makeService>[0] = {}) => makeService({ ...options, annotations: { 'networking.gke.io/load-balancer-type': 'Internal', ...options.annotations } });
  /** The Service as the informer delivers it after the API server took the fake's writes. */
  const asStored = (finalizers: FakeServiceFinalizers, service: V1Service): V1Service => ({ ...service, metadata: { ...service.metadata, finalizers: finalizers.of(service) } });

  it('adds l4-netlb-v1 before the first cloud write and removes it after the load balancer is deleted', async () => {
    const { cloud, compute, finalizers } = await harnessWithNodes();
    compute.failNext('insertFirewall', fakeError('Invalid', 'insertFirewall'), 1);
    await expect(cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService(), nodes)).rejects.toThrow();
    expect(finalizers.of(makeService())).toEqual(['gke.networking.io/l4-netlb-v1']);
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', asStored(finalizers, makeService()), nodes);
    expect(finalizers.writes).toEqual(['add gke.networking.io/l4-netlb-v1']);
    await cloud.loadBalancer().ensureLoadBalancerDeleted('kubernetes', asStored(finalizers, makeService()));
    expect(compute.forwardingRules.size).toBe(0);
    expect(finalizers.of(makeService())).toEqual([]);
    expect(finalizers.writes).toEqual(['add gke.networking.io/l4-netlb-v1', 'remove gke.networking.io/l4-netlb-v1']);
  });

  it('a Service upstream provisioned (its finalizers on it) is deleted and its l4-netlb-v1 finalizer removed; the load balancer exists while the finalizer is there', async () => {
    const { cloud, compute, finalizers } = await harnessWithNodes();
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService(), nodes);
    const swapped = makeService({ name: 'swapped', finalizers: ['service.kubernetes.io/load-balancer-cleanup', 'gke.networking.io/l4-netlb-v1'] });
    compute.forwardingRules.clear();
    expect((await cloud.loadBalancer().getLoadBalancer('kubernetes', swapped)).exists).toBe(true);
    await cloud.loadBalancer().ensureLoadBalancerDeleted('kubernetes', swapped);
    expect(finalizers.of(swapped)).toEqual(['service.kubernetes.io/load-balancer-cleanup']);
    expect(finalizers.writes.at(-1)).toBe('remove gke.networking.io/l4-netlb-v1');
    expect((await cloud.loadBalancer().getLoadBalancer('kubernetes', asStored(finalizers, swapped))).exists).toBe(false);
  });

  it('internal: adds l4-ilb-v1 and removes it after deletion; switching to external removes it and adds l4-netlb-v1', async () => {
    const { cloud, finalizers } = await harnessWithNodes();
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', internal(), nodes);
    expect(finalizers.of(internal())).toEqual(['gke.networking.io/l4-ilb-v1']);
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', asStored(finalizers, makeService()), nodes);
    expect(finalizers.of(makeService())).toEqual(['gke.networking.io/l4-netlb-v1']);
    expect(finalizers.writes).toEqual(['add gke.networking.io/l4-ilb-v1', 'remove gke.networking.io/l4-ilb-v1', 'add gke.networking.io/l4-netlb-v1']);
  });

  it.each([
    ['gke.networking.io/l4-netlb-v2'],
    ['gke.networking.io/l4-netlb-v3'],
  ])('a Service with the RBS controller\'s %s finalizer is another controller\'s: nothing made, nothing deleted', async (finalizer) => {
    const { cloud, compute, finalizers } = await harnessWithNodes();
    const owned = makeService({ finalizers: [finalizer] });
    await expect(cloud.loadBalancer().ensureLoadBalancer('kubernetes', owned, nodes)).rejects.toSatisfy(isImplementedElsewhere);
    await expect(cloud.loadBalancer().updateLoadBalancer('kubernetes', owned, nodes)).rejects.toSatisfy(isImplementedElsewhere);
    await cloud.loadBalancer().ensureLoadBalancerDeleted('kubernetes', owned);
    expect(compute.mutations()).toEqual([]);
    expect(finalizers.writes).toEqual([]);
  });

  it('our l4-netlb-v1 finalizer wins over the l4-rbs annotation (upstream shouldProcessNetLB): synced, then deleted with the finalizer removed', async () => {
    const { cloud, compute, finalizers } = await harnessWithNodes();
    const service = makeService({ annotations: { 'cloud.google.com/l4-rbs': 'enabled' }, finalizers: ['gke.networking.io/l4-netlb-v1'] });
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', service, nodes);
    expect(compute.forwardingRules.size).toBe(1);
    await cloud.loadBalancer().ensureLoadBalancerDeleted('kubernetes', service);
    expect(compute.forwardingRules.size).toBe(0);
    expect(finalizers.of(service)).toEqual([]);
  });

  it('leaves the finalizers of Services handed to another controller alone', async () => {
    const { cloud, finalizers } = await harnessWithNodes();
    const handed = makeService({ annotations: { 'cloud.google.com/l4-rbs': 'enabled' }, finalizers: ['gke.networking.io/l4-netlb-v2'] });
    await expect(cloud.loadBalancer().ensureLoadBalancer('kubernetes', handed, nodes)).rejects.toSatisfy(isImplementedElsewhere);
    await cloud.loadBalancer().ensureLoadBalancerDeleted('kubernetes', handed);
    expect(finalizers.writes).toEqual([]);
  });
});

describe('GCE load balancers on a Shared VPC (network-project-id): firewall rights missing', () => {
  it('raises LoadBalancerManualChange events with the gcloud commands and still provisions the load balancer; deleting raises the delete commands', async () => {
    const { cloud, compute, events } = await harnessWithNodes(gceConf('node-tags = k8s-node\nnetwork-project-id = host-project\n'));
    const forbidden = () => new GceApiError('Required compute.firewalls.create permission', { kind: 'Unauthorized', reason: 'forbidden', operation: 'compute.insertFirewall', retryable: false, httpStatus: 403 });
    compute.failNext('insertFirewall', forbidden(), 2);
    const status = await cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService(), nodes);
    expect(status.ingress?.[0]?.ip).toMatch(/^203\.0\.113\./);
    expect(compute.forwardingRules.has(`${REGION}/${LB}`)).toBe(true);
    expect(events.recorded.map((event) => [event.service, event.reason])).toEqual([
      ['default/web', 'LoadBalancerManualChange'],
      ['default/web', 'LoadBalancerManualChange'],
    ]);
    expect(events.recorded[0]?.message).toMatch(/^Firewall change required by security admin: `gcloud compute firewall-rules create k8s-fw-a\w+ --network \S+ --description .* --allow tcp:80 --source-ranges 0\.0\.0\.0\/0 --target-tags k8s-node --project host-project`$/);
  });

  it('the same 403 without a Shared VPC fails the sync', async () => {
    const { cloud, compute, events } = await harnessWithNodes();
    compute.failNext('insertFirewall', new GceApiError('Required compute.firewalls.create permission', { kind: 'Unauthorized', reason: 'forbidden', operation: 'compute.insertFirewall', retryable: false, httpStatus: 403 }), 1);
    await expect(cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService(), nodes)).rejects.toThrow('permission');
    expect(events.recorded).toEqual([]);
  });
});
