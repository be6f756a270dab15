/**
 * The OpenStack LoadBalancer over the in-memory Octavia and Neutron: what a sync creates, that a
 * second sync changes nothing, updates as diffs, floating IP ownership, bad annotations, the
 * PENDING_* / 409 / ERROR behaviour of Octavia, and the reserved VIP port mode.
 */
import { describe, expect, it } from 'vitest';
import { isPermanentInvalidInput, isInvalidInput } from '@ccm/core/provider';
import { silentLogger } from '@ccm/core/logging';
import { isOpenStackErrorKind } from '../src/errors.js';
import { CLUSTER, createHarness, makeNode, makeService, NODE_SUBNET, PUBLIC_NETWORK } from './support/load-balancer-harness.js';

const LB_NAME = 'kube_service_kubernetes_default_web';
const FIP_DESCRIPTION = 'Floating IP for Kubernetes external service default/web from cluster kubernetes';

describe('OpenStack load balancer: create and converge', () => {
  it('creates one fully populated load balancer per Service, named and tagged as upstream, with a floating IP on its VIP port', async () => {
    const { octavia, network, loadBalancers, nodes } = createHarness();
    const service = makeService({ ports: [{ name: 'http', port: 80, nodePort: 30080 }, { name: 'dns', port: 53, nodePort: 30053, protocol: 'UDP' }] });
    const status = await loadBalancers.ensureLoadBalancer(CLUSTER, service, nodes);

    expect(octavia.mutations()).toEqual([`createLoadBalancer ${LB_NAME}`]);
    const [loadBalancer] = [...octavia.loadBalancers.values()];
    expect(loadBalancer).toMatchObject({ name: LB_NAME, description: 'Kubernetes external service default/web from cluster kubernetes', tags: [LB_NAME], provisioningStatus: 'ACTIVE', vipSubnetId: NODE_SUBNET.id });
    expect([...octavia.listeners.values()].map((listener) => [listener.name, listener.protocol, listener.port, listener.tags])).toEqual([
      [`listener_0_${LB_NAME}`, 'TCP', 80, [LB_NAME]],
      [`listener_1_${LB_NAME}`, 'UDP', 53, [LB_NAME]],
    ]);
    expect([...octavia.pools.values()].map((pool) => [pool.name, pool.protocol, pool.method])).toEqual([
      [`pool_0_${LB_NAME}`, 'TCP', 'ROUND_ROBIN'],
      [`pool_1_${LB_NAME}`, 'UDP', 'ROUND_ROBIN'],
    ]);
    expect(octavia.membersOf(LB_NAME, 80)).toEqual([
      { name: 'node-1', address: '10.0.0.11', port: 30080 },
      { name: 'node-2', address: '10.0.0.12', port: 30080 },
    ]);
    expect(octavia.membersOf(LB_NAME, 53).map((member) => member.port)).toEqual([30053, 30053]);
    expect(octavia.monitors.size).toBe(0);

    const [floating] = [...network.floatingIps.values()];
    expect(floating).toMatchObject({ floatingNetworkId: PUBLIC_NETWORK, portId: loadBalancer!.vipPortId, description: FIP_DESCRIPTION });
    expect(status).toEqual({ ingress: [{ ip: floating!.address }] });
    expect(await loadBalancers.getLoadBalancer(CLUSTER, service)).toEqual({ exists: true, status: { ingress: [{ ip: floating!.address }] } });
    expect(loadBalancers.getLoadBalancerName(CLUSTER, service)).toBe(LB_NAME);
  });

  it('a second sync changes nothing', async () => {
    const { octavia, network, loadBalancers, nodes } = createHarness({ createMonitor: true });
    const service = makeService({ externalTrafficPolicy: 'Local', healthCheckNodePort: 32000, annotations: { 'loadbalancer.openstack.org/timeout-client-data': '60000' }, loadBalancerSourceRanges: ['10.0.0.0/8'] });
    await loadBalancers.ensureLoadBalancer(CLUSTER, service, nodes);
    const before = octavia.mutations().length;
    const floatingCalls = network.calls.filter((call) => call.startsWith('create')).length;
    await loadBalancers.ensureLoadBalancer(CLUSTER, service, nodes);
    expect(octavia.mutations().slice(before)).toEqual([]);
    expect(network.calls.filter((call) => call.startsWith('create')).length).toBe(floatingCalls);
  });

  it('cuts names to 255 characters', async () => {
    const { octavia, loadBalancers, nodes } = createHarness();
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ name: 'n'.repeat(253) }), nodes);
    const [loadBalancer] = [...octavia.loadBalancers.values()];
    expect(loadBalancer!.name).toHaveLength(255);
    expect(loadBalancer!.name.startsWith('kube_service_kubernetes_default_nnn')).toBe(true);
    expect([...octavia.listeners.values()][0]!.name).toHaveLength(255);
  });

  it('waits for PENDING_* to become ACTIVE with growing delays (1 s x1.2)', async () => {
    const { octavia, loadBalancers, nodes, sleeps } = createHarness();
    octavia.pendingReads = 3;
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService(), nodes);
    expect(sleeps).toEqual([1000, 1200, 1440]);
  });

  it('checks quickly (250 ms apart) before upstream\'s schedule when configured so', async () => {
    const { octavia, network, securityGroups, annotations, nodes } = createHarness();
    const sleeps: number[] = [];
    const { OctaviaLoadBalancerOperations } = await import('../src/operations/load-balancer/octavia-load-balancers.js');
    const { DEFAULT_LOAD_BALANCER_SETTINGS } = await import('../src/operations/load-balancer/load-balancer-settings.js');
    const { DEFAULT_PROVISIONING_WAIT } = await import('../src/operations/load-balancer/provisioning-wait.js');
    const operations = new OctaviaLoadBalancerOperations({ octavia, network, securityGroups, serviceAnnotations: annotations, settings: { ...DEFAULT_LOAD_BALANCER_SETTINGS, floatingNetworkId: PUBLIC_NETWORK }, wait: { ...DEFAULT_PROVISIONING_WAIT, sleep: async (ms) => void sleeps.push(ms) }, logger: silentLogger });
    octavia.pendingReads = 5;
    await operations.ensure(CLUSTER, makeService(), nodes);
    expect(sleeps).toEqual([250, 250, 250, 1000, 1200]);
  });

  it('gives up after the configured steps with a retryable Unavailable error', async () => {
    const { octavia, loadBalancers, nodes, sleeps } = createHarness();
    octavia.pendingReads = 100;
    const error = await loadBalancers.ensureLoadBalancer(CLUSTER, makeService(), nodes).catch((caught: unknown) => caught);
    expect(isOpenStackErrorKind(error, 'Unavailable')).toBe(true);
    expect(String(error)).toContain('still PENDING_CREATE after 10 checks');
    expect(sleeps).toHaveLength(9);
  });

  it('ERROR is a ProvisioningFailed error; later syncs fail the same way and touch nothing (upstream: not ACTIVE), keeping the floating IP', async () => {
    const { octavia, network, loadBalancers, nodes } = createHarness();
    const service = makeService();
    const status = await loadBalancers.ensureLoadBalancer(CLUSTER, service, nodes);
    const [loadBalancer] = [...octavia.loadBalancers.values()];
    loadBalancer!.provisioningStatus = 'ERROR';
    const mutations = octavia.mutations().length;
    const networkCalls = network.calls.length;
    for (let sync = 0; sync < 2; sync++) {
      const error = await loadBalancers.ensureLoadBalancer(CLUSTER, service, nodes).catch((caught: unknown) => caught);
      expect(isOpenStackErrorKind(error, 'ProvisioningFailed')).toBe(true);
      expect(String(error)).toContain(`load balancer ${loadBalancer!.id} is not ACTIVE, current provisioning status: ERROR`);
    }
    expect(octavia.mutations().slice(mutations)).toEqual([]);
    expect(network.calls.slice(networkCalls).filter((call) => /^(create|attach|delete)/.test(call))).toEqual([]);
    expect(await loadBalancers.getLoadBalancer(CLUSTER, service)).toEqual({ exists: true, status });

  });

  it('one that goes to ERROR while we create it is deleted, and the next sync creates it again (upstream createOctaviaLoadBalancer)', async () => {
    const { octavia, loadBalancers, nodes } = createHarness();
    octavia.failNextCreate = true;
    const error = await loadBalancers.ensureLoadBalancer(CLUSTER, makeService(), nodes).catch((caught: unknown) => caught);
    expect(isOpenStackErrorKind(error, 'ProvisioningFailed')).toBe(true);
    const broken = octavia.mutations()[0]?.split(' ')[1];
    expect(octavia.loadBalancers.size).toBe(0);
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService(), nodes);
    expect(octavia.mutations().filter((mutation) => mutation.startsWith('createLoadBalancer') || mutation.startsWith('deleteLoadBalancer')).map((mutation) => mutation.replace(/lb-\S+/, 'lb')))
      .toEqual([`createLoadBalancer ${LB_NAME}`, 'deleteLoadBalancer lb cascade', `createLoadBalancer ${LB_NAME}`]);
    expect(broken).toBe(LB_NAME);
    expect([...octavia.loadBalancers.values()].map((loadBalancer) => loadBalancer.provisioningStatus)).toEqual(['ACTIVE']);
  });

  it('retries a change Octavia refuses with 409 (immutable) after waiting for ACTIVE again', async () => {
    const { octavia, loadBalancers, nodes, operations } = createHarness();
    const service = makeService();
    await loadBalancers.ensureLoadBalancer(CLUSTER, service, nodes);
    const id = [...octavia.loadBalancers.keys()][0]!;
    // Another writer makes it busy between our ACTIVE check and our change.
    const original = octavia.replaceMembers.bind(octavia);
    let refused = 0;
    octavia.replaceMembers = async (poolId, members) => {
      if (refused === 0) {
        refused++;
        octavia.makeBusy(id, 1);
      }
      return original(poolId, members);
    };
    await operations.update(CLUSTER, service, [nodes[0]!]);
    expect(refused).toBe(1);
    expect(octavia.membersOf(LB_NAME, 80).map((member) => member.name)).toEqual(['node-1']);
    expect(octavia.calls.filter((call) => call.startsWith('replaceMembers'))).toHaveLength(2);
  });
});

describe('OpenStack load balancer: finding what upstream made', () => {
  it('adopts a load balancer under the legacy name a<uid> (no new load balancer, same floating IP) and deletes it with the Service', async () => {
    const { octavia, network, loadBalancers, nodes } = createHarness();
    const status = await loadBalancers.ensureLoadBalancer(CLUSTER, makeService(), nodes);
    const [made] = [...octavia.loadBalancers.values()];
    made!.name = 'auid1';
    made!.tags = [];
    const before = octavia.mutations().length;
    expect(await loadBalancers.getLoadBalancer(CLUSTER, makeService())).toEqual({ exists: true, status });
    expect(await loadBalancers.ensureLoadBalancer(CLUSTER, makeService(), nodes)).toEqual(status);
    expect(octavia.mutations().slice(before).filter((mutation) => mutation.startsWith('createLoadBalancer'))).toEqual([]);
    expect(made!.tags).toEqual([LB_NAME]);
    await loadBalancers.ensureLoadBalancerDeleted(CLUSTER, makeService());
    expect(octavia.loadBalancers.size).toBe(0);
    expect(network.floatingIps.size).toBe(0);
  });

  it('finds the load balancer of the load-balancer-id annotation upstream writes, before any name lookup', async () => {
    const { octavia, loadBalancers, nodes } = createHarness();
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService(), nodes);
    const [made] = [...octavia.loadBalancers.values()];
    // A second load balancer of the same name (say, made by hand) would make the name ambiguous.
    await octavia.createLoadBalancer({ name: LB_NAME, description: 'by hand', vipSubnetId: NODE_SUBNET.id, provider: 'amphora', tags: [], listeners: [] });
    const annotated = makeService({ annotations: { 'loadbalancer.openstack.org/load-balancer-id': made!.id } });
    const before = octavia.mutations().length;
    await loadBalancers.ensureLoadBalancer(CLUSTER, annotated, nodes);
    expect(octavia.mutations().slice(before)).toEqual([]);
    await expect(loadBalancers.ensureLoadBalancer(CLUSTER, makeService(), nodes)).rejects.toThrow(`2 load balancers are named ${LB_NAME}`);
  });

  it('refuses the load-balancer-id of another Service\'s load balancer and changes nothing', async () => {
    const { octavia, loadBalancers, nodes } = createHarness();
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ name: 'other' }), nodes);
    const [other] = [...octavia.loadBalancers.values()];
    const before = octavia.mutations().length;
    const error = await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ annotations: { 'loadbalancer.openstack.org/load-balancer-id': other!.id } }), nodes).catch((caught: unknown) => caught);
    expect(isPermanentInvalidInput(error)).toBe(true);
    expect(octavia.mutations().slice(before)).toEqual([]);
  });
});

describe('OpenStack load balancer: a cluster name that changed (upstream loadbalancer_rename.go)', () => {
  const OLD_CLUSTER = 'old-cluster';
  const OLD_NAME = `kube_service_${OLD_CLUSTER}_default_web`;

  it('renames the load balancer of the load-balancer-id annotation, its listeners, pools, monitors and tags, keeping its ID and floating IP', async () => {
    const { octavia, network, loadBalancers, nodes } = createHarness({ createMonitor: true });
    const status = await loadBalancers.ensureLoadBalancer(OLD_CLUSTER, makeService({ ports: [{ port: 80, nodePort: 30080 }, { port: 443, nodePort: 30443 }] }), nodes);
    const [made] = [...octavia.loadBalancers.values()];
    expect(made!.name).toBe(OLD_NAME);
    const floatingIps = [...network.floatingIps.values()].map((floating) => floating.id);
    const annotated = makeService({ ports: [{ port: 80, nodePort: 30080 }, { port: 443, nodePort: 30443 }], annotations: { 'loadbalancer.openstack.org/load-balancer-id': made!.id } });
    const before = octavia.mutations().length;
    expect(await loadBalancers.ensureLoadBalancer(CLUSTER, annotated, nodes)).toEqual(status);
    const changes = octavia.mutations().slice(before).map((call) => call.split(' ')[0]);
    expect(changes.filter((call) => /^(create|delete)/.test(call!))).toEqual([]);
    expect([...octavia.loadBalancers.values()].map((loadBalancer) => [loadBalancer.id, loadBalancer.name, loadBalancer.tags])).toEqual([[made!.id, LB_NAME, [LB_NAME]]]);
    expect([...octavia.listeners.values()].map((listener) => [listener.name, listener.tags]).sort()).toEqual([
      [`listener_0_${LB_NAME}`, [LB_NAME]],
      [`listener_1_${LB_NAME}`, [LB_NAME]],
    ]);
    expect([...octavia.pools.values()].map((pool) => pool.name).sort()).toEqual([`pool_0_${LB_NAME}`, `pool_1_${LB_NAME}`]);
    expect([...octavia.monitors.values()].map((monitor) => monitor.name).sort()).toEqual([`monitor_0_${LB_NAME}`, `monitor_1_${LB_NAME}`]);
    expect([...network.floatingIps.values()].map((floating) => floating.id)).toEqual(floatingIps);
    // Renamed once: the next sync changes nothing.
    const settled = octavia.mutations().length;
    await loadBalancers.ensureLoadBalancer(CLUSTER, annotated, nodes);
    expect(octavia.mutations().slice(settled)).toEqual([]);
  });

  it('deletes a load balancer not renamed yet with its Service', async () => {
    const { octavia, network, loadBalancers, nodes } = createHarness();
    await loadBalancers.ensureLoadBalancer(OLD_CLUSTER, makeService(), nodes);
    const [made] = [...octavia.loadBalancers.values()];
    await loadBalancers.ensureLoadBalancerDeleted(CLUSTER, makeService({ annotations: { 'loadbalancer.openstack.org/load-balancer-id': made!.id } }));
    expect(octavia.loadBalancers.size).toBe(0);
    expect(network.floatingIps.size).toBe(0);
  });

  it('reserved mode: the VIP port made under the old cluster name goes with the renamed load balancer; a reserved port of another Service stays', async () => {
    const { octavia, network, loadBalancers, nodes } = createHarness({ vipPortMode: 'reserved' });
    await loadBalancers.ensureLoadBalancer(OLD_CLUSTER, makeService(), nodes);
    await loadBalancers.ensureLoadBalancer(OLD_CLUSTER, makeService({ name: 'other' }), nodes);
    const [made] = [...octavia.loadBalancers.values()].filter((loadBalancer) => loadBalancer.name === OLD_NAME);
    const [oldPort] = [...network.ports.values()].filter((port) => port.name === `vip_${OLD_NAME}`);
    expect(oldPort?.fixedIps[0]?.address).toBe(made!.vipAddress);
    const annotated = makeService({ annotations: { 'loadbalancer.openstack.org/load-balancer-id': made!.id } });
    await loadBalancers.ensureLoadBalancer(CLUSTER, annotated, nodes);
    expect(octavia.loadBalancers.get(made!.id)?.name).toBe(LB_NAME);
    // Renamed in place: the VIP keeps its port (no port of the new name is made).
    const vipPorts = () => [...network.ports.values()].filter((port) => port.name.startsWith('vip_'));
    expect(vipPorts().map((port) => port.name).sort()).toEqual([`vip_kube_service_${OLD_CLUSTER}_default_other`, `vip_${OLD_NAME}`]);

    await loadBalancers.ensureLoadBalancerDeleted(CLUSTER, annotated);
    expect(octavia.loadBalancers.has(made!.id)).toBe(false);
    expect(vipPorts().map((port) => port.name)).toEqual([`vip_kube_service_${OLD_CLUSTER}_default_other`]);
    expect([...network.floatingIps.values()].map((floating) => floating.portId)).toEqual([vipPorts()[0]!.id]);
  });

  it('renames nothing of another Service named by a copied load-balancer-id annotation', async () => {
    const { octavia, loadBalancers, nodes } = createHarness();
    await loadBalancers.ensureLoadBalancer(OLD_CLUSTER, makeService({ name: 'other' }), nodes);
    const [other] = [...octavia.loadBalancers.values()];
    const before = octavia.mutations().length;
    const error = await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ annotations: { 'loadbalancer.openstack.org/load-balancer-id': other!.id } }), nodes).catch((caught: unknown) => caught);
    expect(isPermanentInvalidInput(error)).toBe(true);
    expect(octavia.mutations().slice(before)).toEqual([]);
    expect(other!.name).toBe(`kube_service_${OLD_CLUSTER}_default_other`);
  });
});

describe('OpenStack load balancer: updates as diffs', () => {
  it('a node change is one batch member update per pool and touches no listener', async () => {
    const { octavia, loadBalancers, nodes } = createHarness();
    const service = makeService({ ports: [{ port: 80, nodePort: 30080 }, { port: 443, nodePort: 30443 }] });
    await loadBalancers.ensureLoadBalancer(CLUSTER, service, nodes);
    const before = octavia.mutations().length;
    await loadBalancers.updateLoadBalancer(CLUSTER, service, [...nodes, makeNode('node-3', '10.0.0.13')]);
    const changes = octavia.mutations().slice(before);
    expect(changes.map((call) => call.split(' ')[0])).toEqual(['replaceMembers', 'replaceMembers']);
    expect(octavia.membersOf(LB_NAME, 443).map((member) => member.address)).toEqual(['10.0.0.11', '10.0.0.12', '10.0.0.13']);
  });

  it('a node without an address is no member; nodePort 0 gives empty pools', async () => {
    const { octavia, loadBalancers, nodes } = createHarness();
    const bare = { ...makeNode('bare', ''), status: { addresses: [] } };
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ ports: [{ port: 80, nodePort: 30080 }, { port: 81, nodePort: 0 }] }), [...nodes, bare]);
    expect(octavia.membersOf(LB_NAME, 80).map((member) => member.name)).toEqual(['node-1', 'node-2']);
    expect(octavia.membersOf(LB_NAME, 81)).toEqual([]);
  });

  it('new ports get a listener, pool and members; removed ports lose theirs', async () => {
    const { octavia, loadBalancers, nodes } = createHarness();
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ ports: [{ port: 80, nodePort: 30080 }, { port: 8080, nodePort: 30081 }] }), nodes);
    const before = octavia.mutations().length;
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ ports: [{ port: 80, nodePort: 30080 }, { port: 443, nodePort: 30443 }] }), nodes);
    expect(octavia.mutations().slice(before).map((call) => call.split(' ')[0])).toEqual(['deletePool', 'deleteListener', 'createListener', 'createPool', 'replaceMembers']);
    expect([...octavia.listeners.values()].map((listener) => listener.port).sort()).toEqual([443, 80]);
    expect(octavia.membersOf(LB_NAME, 443).map((member) => member.port)).toEqual([30443, 30443]);
    expect(octavia.pools.size).toBe(2);
  });

  it('source ranges and timeouts are listener updates; a changed lb-method is a pool update', async () => {
    const { octavia, loadBalancers, nodes } = createHarness();
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService(), nodes);
    const before = octavia.mutations().length;
    const changed = makeService({
      loadBalancerSourceRanges: ['192.168.0.0/16', '10.0.0.0/8'],
      annotations: { 'loadbalancer.openstack.org/timeout-member-data': '70000', 'loadbalancer.openstack.org/connection-limit': '100', 'loadbalancer.openstack.org/lb-method': 'least_connections' },
    });
    await loadBalancers.ensureLoadBalancer(CLUSTER, changed, nodes);
    expect(octavia.mutations().slice(before).map((call) => call.split(' ')[0])).toEqual(['updateListener', 'updatePoolMethod']);
    const [listener] = [...octavia.listeners.values()];
    expect(listener).toMatchObject({ allowedCidrs: ['10.0.0.0/8', '192.168.0.0/16'], timeoutMemberData: 70000, connectionLimit: 100 });
    expect([...octavia.pools.values()][0]!.method).toBe('LEAST_CONNECTIONS');
  });

  it('SOURCE_IP_PORT refused by the amphora provider (501) on an existing pool: a warning, the pool keeps its method', async () => {
    const { octavia, loadBalancers, nodes, warnings } = createHarness();
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService(), nodes);
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ annotations: { 'loadbalancer.openstack.org/lb-method': 'SOURCE_IP_PORT' } }), nodes);
    expect([...octavia.pools.values()][0]!.method).toBe('ROUND_ROBIN');
    expect(warnings.map((warning) => warning.message)).toContain('the load balancer provider does not support this lb-method; the pool keeps its method');
  });

  it('session affinity ClientIP is SOURCE_IP persistence; changing it recreates the pool with its members', async () => {
    const { octavia, loadBalancers, nodes } = createHarness();
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService(), nodes);
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ sessionAffinity: 'ClientIP' }), nodes);
    const [pool] = [...octavia.pools.values()];
    expect(pool!.sessionPersistence).toEqual({ type: 'SOURCE_IP' });
    expect(pool!.members.map((member) => member.name)).toEqual(['node-1', 'node-2']);
  });

  it('x-forwarded-for makes HTTP listeners inserting the header; proxy-protocol v2 makes PROXYV2 pools and ipMode Proxy', async () => {
    const { octavia, loadBalancers, nodes } = createHarness();
    const status = await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ annotations: { 'loadbalancer.openstack.org/x-forwarded-for': 'true', 'loadbalancer.openstack.org/proxy-protocol': 'v2' } }), nodes);
    expect([...octavia.listeners.values()][0]).toMatchObject({ protocol: 'HTTP', insertHeaders: { 'X-Forwarded-For': 'true' } });
    expect([...octavia.pools.values()][0]!.protocol).toBe('PROXYV2');
    expect(status.ingress?.[0]).toMatchObject({ ipMode: 'Proxy' });
  });

  it('proxy protocol with enable-ingress-hostname reports <ip>.<suffix>; the hostname annotation wins over both', async () => {
    const { loadBalancers, nodes } = createHarness({ enableIngressHostname: true });
    const status = await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ annotations: { 'loadbalancer.openstack.org/proxy-protocol': 'true' } }), nodes);
    expect(status.ingress?.[0]?.hostname).toMatch(/^172\.24\.4\.\d+\.nip\.io$/);
    const named = await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ annotations: { 'loadbalancer.openstack.org/hostname': 'lb.example.com' } }), nodes);
    expect(named).toEqual({ ingress: [{ hostname: 'lb.example.com' }] });
  });

  it('node-selector (annotation over config) chooses the members', async () => {
    const { octavia, loadBalancers } = createHarness({ nodeSelector: { pool: 'a' } });
    const nodes = [makeNode('a-1', '10.0.0.11', { pool: 'a' }), makeNode('b-1', '10.0.0.12', { pool: 'b', edge: '' })];
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService(), nodes);
    expect(octavia.membersOf(LB_NAME, 80).map((member) => member.name)).toEqual(['a-1']);
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ annotations: { 'loadbalancer.openstack.org/node-selector': 'edge' } }), nodes);
    expect(octavia.membersOf(LB_NAME, 80).map((member) => member.name)).toEqual(['b-1']);
  });

  it('member-subnet-id is every member\'s subnet', async () => {
    const { octavia, loadBalancers, nodes } = createHarness({ memberSubnetId: 'subnet-members' });
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService(), nodes);
    expect(octavia.membersOf(LB_NAME, 80).map((member) => member.subnetId)).toEqual(['subnet-members', 'subnet-members']);
  });
});

describe('OpenStack load balancer: health monitors', () => {
  it('no monitor by default; enable-health-monitor adds TCP / UDP-CONNECT monitors with the config timing', async () => {
    const { octavia, loadBalancers, nodes } = createHarness({ monitorDelaySeconds: 7, monitorTimeoutSeconds: 4, monitorMaxRetries: 2, monitorMaxRetriesDown: 5 });
    const ports = [{ port: 80, nodePort: 30080 }, { port: 53, nodePort: 30053, protocol: 'UDP' }];
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ ports }), nodes);
    expect(octavia.monitors.size).toBe(0);
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ ports, annotations: { 'loadbalancer.openstack.org/enable-health-monitor': 'true' } }), nodes);
    expect([...octavia.monitors.values()].map((monitor) => [monitor.name, monitor.type, monitor.delaySeconds, monitor.timeoutSeconds, monitor.maxRetries, monitor.maxRetriesDown])).toEqual([
      [`monitor_0_${LB_NAME}`, 'TCP', 7, 4, 2, 5],
      [`monitor_1_${LB_NAME}`, 'UDP-CONNECT', 7, 4, 2, 5],
    ]);
  });

  it('externalTrafficPolicy Local with create-monitor: HTTP GET /healthz monitors and members probed on the healthCheckNodePort', async () => {
    const { octavia, loadBalancers, nodes } = createHarness({ createMonitor: true });
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ externalTrafficPolicy: 'Local', healthCheckNodePort: 32000 }), nodes);
    const [monitor] = [...octavia.monitors.values()];
    expect(monitor).toMatchObject({ type: 'HTTP', httpMethod: 'GET', urlPath: '/healthz', expectedCodes: '200' });
    expect(octavia.membersOf(LB_NAME, 80).map((member) => member.monitorPort)).toEqual([32000, 32000]);

    // Back to Cluster: the monitor type changes (recreated) and members lose their monitor port.
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService(), nodes);
    expect([...octavia.monitors.values()].map((candidate) => candidate.type)).toEqual(['TCP']);
    expect(octavia.membersOf(LB_NAME, 80).map((member) => member.monitorPort)).toEqual([undefined, undefined]);
  });

  it('changed timing annotations update the monitor; enable-health-monitor false deletes it', async () => {
    const { octavia, loadBalancers, nodes } = createHarness({ createMonitor: true });
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService(), nodes);
    const before = octavia.mutations().length;
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ annotations: { 'loadbalancer.openstack.org/health-monitor-delay': '10', 'loadbalancer.openstack.org/health-monitor-max-retries-down': '4' } }), nodes);
    expect(octavia.mutations().slice(before).map((call) => call.split(' ')[0])).toEqual(['updateHealthMonitor']);
    expect([...octavia.monitors.values()][0]).toMatchObject({ delaySeconds: 10, maxRetriesDown: 4 });
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ annotations: { 'loadbalancer.openstack.org/enable-health-monitor': 'false' } }), nodes);
    expect(octavia.monitors.size).toBe(0);
  });
});

describe('OpenStack load balancer: floating IPs and internal load balancers', () => {
  it('internal: no floating IP, the VIP is the address', async () => {
    const { octavia, network, loadBalancers, nodes } = createHarness();
    const status = await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ annotations: { 'service.beta.kubernetes.io/openstack-internal-load-balancer': 'true' } }), nodes);
    expect(network.floatingIps.size).toBe(0);
    expect(status).toEqual({ ingress: [{ ip: [...octavia.loadBalancers.values()][0]!.vipAddress }] });
  });

  it('internal-lb in the config makes every load balancer internal, even annotated false', async () => {
    const { network, loadBalancers, nodes } = createHarness({ internal: true });
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ annotations: { 'service.beta.kubernetes.io/openstack-internal-load-balancer': 'false' } }), nodes);
    expect(network.floatingIps.size).toBe(0);
  });

  it('turning internal deletes the floating IP the CCM created; with keep-floatingip it is only detached', async () => {
    const first = createHarness();
    await first.loadBalancers.ensureLoadBalancer(CLUSTER, makeService(), first.nodes);
    await first.loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ annotations: { 'service.beta.kubernetes.io/openstack-internal-load-balancer': 'true' } }), first.nodes);
    expect(first.network.floatingIps.size).toBe(0);

    const second = createHarness();
    await second.loadBalancers.ensureLoadBalancer(CLUSTER, makeService(), second.nodes);
    await second.loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ annotations: { 'service.beta.kubernetes.io/openstack-internal-load-balancer': 'true', 'loadbalancer.openstack.org/keep-floatingip': 'true' } }), second.nodes);
    expect([...second.network.floatingIps.values()].map((floating) => floating.portId)).toEqual([undefined]);
  });

  it('floating-network-id and floating-subnet-id annotations choose where the floating IP comes from', async () => {
    const { network, loadBalancers, nodes } = createHarness({ floatingNetworkId: undefined });
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ annotations: { 'loadbalancer.openstack.org/floating-network-id': 'net-other', 'loadbalancer.openstack.org/floating-subnet-id': 'subnet-other' } }), nodes);
    expect([...network.floatingIps.values()].map((floating) => floating.floatingNetworkId)).toEqual(['net-other']);
    expect(network.createdFloatingIps.map((spec) => spec.floatingSubnetId)).toEqual(['subnet-other']);
  });

  it('without a floating network the Service keeps its VIP and a warning says so', async () => {
    const { octavia, network, loadBalancers, nodes, warnings } = createHarness({ floatingNetworkId: undefined });
    const status = await loadBalancers.ensureLoadBalancer(CLUSTER, makeService(), nodes);
    expect(network.floatingIps.size).toBe(0);
    expect(status).toEqual({ ingress: [{ ip: [...octavia.loadBalancers.values()][0]!.vipAddress }] });
    expect(warnings.map((warning) => warning.message).join('\n')).toContain('LoadBalancerForcedInternal');
  });

  it('loadBalancerIP naming a free floating IP attaches it (and delete leaves the user\'s address, detached)', async () => {
    const { network, loadBalancers, nodes } = createHarness();
    const user = network.addFloatingIp({ address: '172.24.4.200', floatingNetworkId: PUBLIC_NETWORK, portId: undefined, description: 'reserved by the user' });
    const service = makeService({ loadBalancerIP: '172.24.4.200' });
    const status = await loadBalancers.ensureLoadBalancer(CLUSTER, service, nodes);
    expect(status).toEqual({ ingress: [{ ip: '172.24.4.200' }] });
    expect(network.floatingIps.size).toBe(1);
    await loadBalancers.ensureLoadBalancerDeleted(CLUSTER, service);
    expect(network.floatingIps.get(user.id)).toMatchObject({ portId: undefined });
  });

  it('loadBalancerIP naming a floating IP in use elsewhere is an error before any floating IP change', async () => {
    const { network, loadBalancers, nodes } = createHarness();
    network.addPort({ id: 'other-port', name: '', description: '', networkId: 'x', fixedIps: [] });
    network.addFloatingIp({ address: '172.24.4.201', floatingNetworkId: PUBLIC_NETWORK, portId: 'other-port', description: '' });
    const error = await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ loadBalancerIP: '172.24.4.201' }), nodes).catch((caught: unknown) => caught);
    expect(isInvalidInput(error)).toBe(true);
    expect(String(error)).toContain('spec.loadBalancerIP=172.24.4.201');
  });

  it('loadBalancerIP that is no floating IP yet is created with that address', async () => {
    const { network, loadBalancers, nodes } = createHarness();
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ loadBalancerIP: '172.24.4.250' }), nodes);
    expect([...network.floatingIps.values()].map((floating) => [floating.address, floating.description])).toEqual([['172.24.4.250', FIP_DESCRIPTION]]);
  });
});

describe('OpenStack load balancer: delete', () => {
  it('deletes the floating IP it created and the load balancer with one cascade delete', async () => {
    const { octavia, network, loadBalancers, nodes } = createHarness();
    const service = makeService();
    await loadBalancers.ensureLoadBalancer(CLUSTER, service, nodes);
    const id = [...octavia.loadBalancers.keys()][0]!;
    await loadBalancers.ensureLoadBalancerDeleted(CLUSTER, service);
    expect(octavia.loadBalancers.size).toBe(0);
    expect(octavia.listeners.size + octavia.pools.size + octavia.monitors.size).toBe(0);
    expect(network.floatingIps.size).toBe(0);
    expect(octavia.mutations().at(-1)).toBe(`deleteLoadBalancer ${id} cascade`);
    expect(await loadBalancers.getLoadBalancer(CLUSTER, service)).toEqual({ exists: false, status: undefined });
    // Already gone: resolves.
    await loadBalancers.ensureLoadBalancerDeleted(CLUSTER, service);
  });

  it('deletes a floating IP made by a CCM under another cluster name (upstream matches the description prefix); keeps a user\'s', async () => {
    const { network, loadBalancers, nodes } = createHarness();
    const service = makeService();
    await loadBalancers.ensureLoadBalancer(CLUSTER, service, nodes);
    const [floating] = [...network.floatingIps.values()];
    floating!.description = 'Floating IP for Kubernetes external service default/web from cluster old-name';
    await loadBalancers.ensureLoadBalancerDeleted(CLUSTER, service);
    expect(network.floatingIps.size).toBe(0);

    await loadBalancers.ensureLoadBalancer(CLUSTER, service, nodes);
    const [user] = [...network.floatingIps.values()];
    user!.description = 'reserved by the user';
    await loadBalancers.ensureLoadBalancerDeleted(CLUSTER, service);
    expect([...network.floatingIps.values()].map((entry) => [entry.description, entry.portId])).toEqual([['reserved by the user', undefined]]);
  });

  it('keep-floatingip keeps the address (detached)', async () => {
    const { network, loadBalancers, nodes } = createHarness();
    const service = makeService({ annotations: { 'loadbalancer.openstack.org/keep-floatingip': 'true' } });
    await loadBalancers.ensureLoadBalancer(CLUSTER, service, nodes);
    await loadBalancers.ensureLoadBalancerDeleted(CLUSTER, service);
    expect([...network.floatingIps.values()].map((floating) => [floating.description, floating.portId])).toEqual([[FIP_DESCRIPTION, undefined]]);
  });

  it('a malformed keep-floatingip does not block the delete: the address is kept', async () => {
    const { network, loadBalancers, nodes } = createHarness();
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService(), nodes);
    await loadBalancers.ensureLoadBalancerDeleted(CLUSTER, makeService({ annotations: { 'loadbalancer.openstack.org/keep-floatingip': 'maybe' } }));
    expect(network.floatingIps.size).toBe(1);
  });

  it('cascade-delete false deletes pools and listeners first', async () => {
    const { octavia, loadBalancers, nodes } = createHarness({ cascadeDelete: false });
    const service = makeService({ ports: [{ port: 80, nodePort: 30080 }, { port: 443, nodePort: 30443 }] });
    await loadBalancers.ensureLoadBalancer(CLUSTER, service, nodes);
    const before = octavia.mutations().length;
    await loadBalancers.ensureLoadBalancerDeleted(CLUSTER, service);
    expect(octavia.mutations().slice(before).map((call) => call.split(' ')[0])).toEqual(['deletePool', 'deletePool', 'deleteListener', 'deleteListener', 'deleteLoadBalancer']);
    expect(octavia.loadBalancers.size).toBe(0);
  });

  it('a load balancer another Service also owns (its tag) loses only this Service\'s listeners and tag', async () => {
    const { octavia, loadBalancers, nodes } = createHarness();
    const service = makeService();
    await loadBalancers.ensureLoadBalancer(CLUSTER, service, nodes);
    const loadBalancer = [...octavia.loadBalancers.values()][0]!;
    loadBalancer.tags.push('kube_service_kubernetes_default_other');
    const foreign = await octavia.createListener(loadBalancer.id, { name: 'listener_0_other', protocol: 'TCP', port: 9000, connectionLimit: -1, allowedCidrs: [], insertHeaders: {}, tags: ['kube_service_kubernetes_default_other'] });
    octavia.makeBusy(loadBalancer.id, 0);
    await loadBalancers.ensureLoadBalancerDeleted(CLUSTER, service);
    expect(octavia.loadBalancers.get(loadBalancer.id)?.tags).toEqual(['kube_service_kubernetes_default_other']);
    expect([...octavia.listeners.keys()]).toEqual([foreign.id]);
  });
});

describe('OpenStack load balancer: bad input', () => {
  const bad: Array<[string, Record<string, string>]> = [
    ['service.beta.kubernetes.io/openstack-internal-load-balancer', { 'service.beta.kubernetes.io/openstack-internal-load-balancer': 'yes' }],
    ['loadbalancer.openstack.org/lb-method', { 'loadbalancer.openstack.org/lb-method': 'RANDOM' }],
    ['loadbalancer.openstack.org/connection-limit', { 'loadbalancer.openstack.org/connection-limit': 'many' }],
    ['loadbalancer.openstack.org/proxy-protocol', { 'loadbalancer.openstack.org/proxy-protocol': 'v3' }],
    ['loadbalancer.openstack.org/health-monitor-max-retries', { 'loadbalancer.openstack.org/enable-health-monitor': 'true', 'loadbalancer.openstack.org/health-monitor-max-retries': '11' }],
    ['loadbalancer.openstack.org/health-monitor-timeout', { 'loadbalancer.openstack.org/enable-health-monitor': 'true', 'loadbalancer.openstack.org/health-monitor-delay': '2', 'loadbalancer.openstack.org/health-monitor-timeout': '5' }],
    ['loadbalancer.openstack.org/timeout-client-data', { 'loadbalancer.openstack.org/timeout-client-data': '-5' }],
    ['loadbalancer.openstack.org/x-forwarded-for', { 'loadbalancer.openstack.org/x-forwarded-for': 'on' }],
    ['loadbalancer.openstack.org/node-selector', { 'loadbalancer.openstack.org/node-selector': 'a=b=c' }],
    ['service.beta.kubernetes.io/load-balancer-source-ranges', { 'service.beta.kubernetes.io/load-balancer-source-ranges': '10.0.0.0/33' }],
  ];

  it.each(bad)('%s with a bad value: a permanent invalid-input error naming it, and no cloud call at all', async (key, annotations) => {
    const { octavia, network, loadBalancers, nodes } = createHarness();
    const error = await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ annotations }), nodes).catch((caught: unknown) => caught);
    expect(isPermanentInvalidInput(error)).toBe(true);
    expect(String(error)).toContain(key);
    expect(octavia.calls).toEqual([]);
    expect(network.calls).toEqual([]);
  });

  it('a bad annotation on an existing load balancer changes nothing', async () => {
    const { octavia, loadBalancers, nodes } = createHarness();
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService(), nodes);
    const before = octavia.calls.length;
    await expect(loadBalancers.updateLoadBalancer(CLUSTER, makeService({ annotations: { 'loadbalancer.openstack.org/lb-method': 'x' } }), nodes)).rejects.toThrow(/lb-method/);
    expect(octavia.calls.length).toBe(before);
  });

  it('load-balancer-id naming another load balancer (sharing) is refused before any change', async () => {
    const { octavia, loadBalancers, nodes } = createHarness();
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ name: 'someone-else' }), nodes);
    const [someoneElses] = [...octavia.loadBalancers.values()];
    const before = octavia.mutations().length;
    const error = await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ annotations: { 'loadbalancer.openstack.org/load-balancer-id': someoneElses!.id } }), nodes).catch((caught: unknown) => caught);
    expect(isPermanentInvalidInput(error)).toBe(true);
    expect(octavia.mutations()).toHaveLength(before);
  });

  it('load-balancer-id naming a load balancer that no longer exists (the Service was of another type for a while) is overwritten (upstream: fails every sync)', async () => {
    const { octavia, annotations, loadBalancers, nodes, warnings } = createHarness();
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ annotations: { 'loadbalancer.openstack.org/load-balancer-id': 'deleted-long-ago' } }), nodes);
    const [created] = [...octavia.loadBalancers.values()];
    expect(annotations.writes.at(-1)?.annotations['loadbalancer.openstack.org/load-balancer-id']).toBe(created!.id);
    expect(warnings.map((warning) => warning.message)).toContain('the load-balancer-id annotation names a load balancer that no longer exists; using the Service\'s own');
  });

  it('SCTP is accepted; an unknown protocol is refused', async () => {
    const { loadBalancers, nodes } = createHarness();
    const error = await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ ports: [{ port: 80, nodePort: 30080, protocol: 'QUIC' }] }), nodes).catch((caught: unknown) => caught);
    expect(isPermanentInvalidInput(error)).toBe(true);
  });
});

describe('OpenStack load balancer: VIP placement', () => {
  it('subnet-id annotation places the VIP there; network-id uses the network\'s IPv4 subnet', async () => {
    const { octavia, network, loadBalancers, nodes } = createHarness();
    network.addSubnet({ id: 'subnet-vip', networkId: 'net-vip', cidr: '10.1.0.0/24', ipVersion: 4 });
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ annotations: { 'loadbalancer.openstack.org/subnet-id': 'subnet-vip' } }), nodes);
    expect([...octavia.loadBalancers.values()][0]!.vipSubnetId).toBe('subnet-vip');
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ name: 'other', annotations: { 'loadbalancer.openstack.org/network-id': 'net-vip' } }), nodes);
    expect([...octavia.loadBalancers.values()][1]!.vipSubnetId).toBe('subnet-vip');
  });

  it('an unknown subnet-id is an invalid-input error', async () => {
    const { loadBalancers, nodes } = createHarness();
    const error = await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ annotations: { 'loadbalancer.openstack.org/subnet-id': 'nope' } }), nodes).catch((caught: unknown) => caught);
    expect(isInvalidInput(error)).toBe(true);
  });

  it('port-id passes the user\'s port as vip_port_id (never deleted by the CCM)', async () => {
    const { octavia, network, loadBalancers, nodes } = createHarness();
    network.addPort({ id: 'user-vip', name: 'mine', description: '', networkId: NODE_SUBNET.networkId, fixedIps: [{ subnetId: NODE_SUBNET.id, address: '10.0.0.50' }] });
    const service = makeService({ annotations: { 'loadbalancer.openstack.org/port-id': 'user-vip' } });
    await loadBalancers.ensureLoadBalancer(CLUSTER, service, nodes);
    expect([...octavia.loadBalancers.values()][0]).toMatchObject({ vipPortId: 'user-vip', vipAddress: '10.0.0.50' });
    await loadBalancers.ensureLoadBalancerDeleted(CLUSTER, service);
    expect(network.ports.has('user-vip')).toBe(true);
  });

  it('reserved mode (noop network driver): the CCM reserves the VIP with its own port, passes subnet + address, and puts the floating IP on that port', async () => {
    const { octavia, network, loadBalancers, nodes } = createHarness({ vipPortMode: 'reserved' });
    const service = makeService();
    const status = await loadBalancers.ensureLoadBalancer(CLUSTER, service, nodes);
    const [vipPort] = [...network.ports.values()].filter((port) => port.name === `vip_${LB_NAME}`);
    expect(vipPort?.description).toBe('VIP port for Kubernetes external service default/web from cluster kubernetes');
    const [loadBalancer] = [...octavia.loadBalancers.values()];
    expect(loadBalancer).toMatchObject({ vipSubnetId: NODE_SUBNET.id, vipAddress: vipPort!.fixedIps[0]!.address });
    const [floating] = [...network.floatingIps.values()];
    expect(floating!.portId).toBe(vipPort!.id);
    expect(status).toEqual({ ingress: [{ ip: floating!.address }] });
    expect(await loadBalancers.getLoadBalancer(CLUSTER, service)).toEqual({ exists: true, status: { ingress: [{ ip: floating!.address }] } });

    const mutations = octavia.mutations().length;
    await loadBalancers.ensureLoadBalancer(CLUSTER, service, nodes);
    expect(octavia.mutations().length).toBe(mutations);
    expect(network.calls.filter((call) => call.startsWith('create'))).toHaveLength(2);

    await loadBalancers.ensureLoadBalancerDeleted(CLUSTER, service);
    expect(network.ports.has(vipPort!.id)).toBe(false);
    expect(network.floatingIps.size).toBe(0);
    expect(octavia.loadBalancers.size).toBe(0);
  });

  it('reserved mode, internal with loadBalancerIP: the reserved port holds that address', async () => {
    const { octavia, loadBalancers, nodes } = createHarness({ vipPortMode: 'reserved' });
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ loadBalancerIP: '10.0.0.77', annotations: { 'service.beta.kubernetes.io/openstack-internal-load-balancer': 'true' } }), nodes);
    expect([...octavia.loadBalancers.values()][0]!.vipAddress).toBe('10.0.0.77');
  });
});

describe('OpenStack load balancer: provider-requires-serial-api-calls', () => {
  it('creates the load balancer empty, then listeners, pools, members and monitors one call at a time; members change one by one', async () => {
    const { octavia, loadBalancers, nodes } = createHarness({ serialApiCalls: true, createMonitor: true });
    const service = makeService();
    await loadBalancers.ensureLoadBalancer(CLUSTER, service, nodes);
    expect(octavia.mutations().map((call) => call.split(' ')[0])).toEqual(['createLoadBalancer', 'createListener', 'createPool', 'createMember', 'createMember', 'createHealthMonitor']);
    expect(octavia.membersOf(LB_NAME, 80).map((member) => member.name)).toEqual(['node-1', 'node-2']);
    const before = octavia.mutations().length;
    await loadBalancers.ensureLoadBalancer(CLUSTER, service, nodes);
    expect(octavia.mutations().length).toBe(before);
    await loadBalancers.updateLoadBalancer(CLUSTER, service, [nodes[1]!, makeNode('node-3', '10.0.0.13')]);
    expect(octavia.mutations().slice(before).map((call) => call.split(' ')[0])).toEqual(['deleteMember', 'createMember']);
    expect(octavia.membersOf(LB_NAME, 80).map((member) => member.name).sort()).toEqual(['node-2', 'node-3']);
  });

  it('is what works with the real services\' Octavia: after a fully populated create the children stay PENDING_CREATE and refuse changes (409)', async () => {
    const populated = createHarness();
    populated.octavia.populatedChildrenStayPending = true;
    await populated.loadBalancers.ensureLoadBalancer(CLUSTER, makeService(), populated.nodes);
    const error = await populated.loadBalancers.updateLoadBalancer(CLUSTER, makeService(), [populated.nodes[0]!]).catch((caught: unknown) => caught);
    expect(isOpenStackErrorKind(error, 'Conflict')).toBe(true);

    const serial = createHarness({ serialApiCalls: true });
    serial.octavia.populatedChildrenStayPending = true;
    await serial.loadBalancers.ensureLoadBalancer(CLUSTER, makeService(), serial.nodes);
    await serial.loadBalancers.updateLoadBalancer(CLUSTER, makeService(), [serial.nodes[0]!]);
    expect(serial.octavia.membersOf(LB_NAME, 80).map((member) => member.name)).toEqual(['node-1']);
  });
});
