/**
 * The load balancer operations through the SDK adapters (`sdk-octavia-port.ts`,
 * `sdk-load-balancer-network-port.ts`) against the real Keystone, Neutron and Octavia of
 * @ccm/openstack-services. That Octavia runs the amphora provider with the noop drivers, so the
 * operations run with `vipPortMode: reserved` (the noop network driver creates no VIP port) and
 * `provider-requires-serial-api-calls` (children of a fully populated create stay PENDING_CREATE
 * and refuse changes); see docs/testing.md. Fails under CI=true when the services cannot start.
 */
import type { V1Node, V1Service } from '@kubernetes/client-node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { silentLogger, type Logger } from '@ccm/core/logging';
import { OpenStackCli, openStackServicesForTests, type TestServices } from '@ccm/openstack-services';
import { openStackCliSuite, openStackServicesSuite } from '@ccm/openstack-services/suite';
import { isOpenStackError, type Network, type OpenStackClient, type Subnet } from 'openstack-client-ts';
import { OctaviaLoadBalancerOperations } from '../../src/operations/load-balancer/octavia-load-balancers.js';
import { DEFAULT_LOAD_BALANCER_SETTINGS } from '../../src/operations/load-balancer/load-balancer-settings.js';
import { abortableSleep } from '../../src/operations/load-balancer/provisioning-wait.js';
import type { OctaviaPort } from '../../src/ports/octavia-port.js';
import { createSdkLoadBalancerNetworkPort } from '../../src/ports/sdk/sdk-load-balancer-network-port.js';
import { createSdkOctaviaPort } from '../../src/ports/sdk/sdk-octavia-port.js';
import { createSdkSecurityGroupPort } from '../../src/ports/sdk/sdk-security-group-port.js';
import { RecordingServiceAnnotations } from '../fakes/recording-service-annotations.js';
import { adminClientOf } from '../support/admin-client.js';

/** The port with every changing call counted (anything but find/get/list). */
function counting(port: OctaviaPort, changes: string[]): OctaviaPort {
  return new Proxy(port, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string' || /^(find|get|list)/.test(property)) return value;
      return (...args: unknown[]) => {
        changes.push(property);
        return (value as (...inner: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

openStackServicesSuite('OpenStack load balancer through the SDK adapters against real OpenStack services', () => {
  const run = Date.now().toString(36);
  const cluster = `it${run}`;
  let services: TestServices;
  let client: OpenStackClient;
  let network: Network;
  let subnet: Subnet;
  let external: Network;
  const nodes: V1Node[] = [];
  const changes: string[] = [];
  const warnings: string[] = [];
  let operations: OctaviaLoadBalancerOperations;
  /** The same with batch member updates (the default): for the node change. */
  let batchOperations: OctaviaLoadBalancerOperations;
  /** The same with `manage-security-groups = true`. */
  let securityGroupOperations: OctaviaLoadBalancerOperations;
  const annotations = new RecordingServiceAnnotations();

  const service = (annotations: Record<string, string> = {}, spec: Partial<NonNullable<V1Service['spec']>> = {}): V1Service => ({
    metadata: { name: 'web', namespace: 'default', uid: 'uid-1', annotations },
    spec: { type: 'LoadBalancer', ports: [{ name: 'http', port: 80, nodePort: 30080, protocol: 'TCP' }, { name: 'dns', port: 53, nodePort: 30053, protocol: 'UDP' }], ...spec },
  });

  beforeAll(async () => {
    services = await openStackServicesForTests({ log: (line) => console.log(`openstack-services: ${line}`) });
    client = adminClientOf(services);
    network = await client.network.networks.create({ name: `nodes-${run}` });
    subnet = await client.network.subnets.create({ network_id: network.id, cidr: '10.20.0.0/24', ip_version: 4, name: `nodes-${run}` });
    external = await client.network.networks.create({ name: `public-${run}`, 'router:external': true });
    await client.network.subnets.create({ network_id: external.id, cidr: '172.30.4.0/24', ip_version: 4 });
    // Floating IPs need the external network reachable from the VIP subnet, through a router.
    const router = await client.network.routers.create({ name: `router-${run}`, external_gateway_info: { network_id: external.id } });
    await client.network.routers.addInterface(router.id, { subnet_id: subnet.id });
    for (const name of ['node-1', 'node-2', 'node-3']) {
      const port = await client.network.ports.create({ network_id: network.id, name: `${name}-${run}`, device_id: `server-${name}-${run}`, device_owner: 'compute:nova' });
      nodes.push({ metadata: { name }, spec: { providerID: `openstack:///server-${name}-${run}` }, status: { addresses: [{ type: 'InternalIP', address: port.fixed_ips[0]!.ip_address }] } });
    }
    const logger: Logger = { ...silentLogger, warn: (message) => warnings.push(message), child: () => logger };
    const context = {
      octavia: counting(createSdkOctaviaPort(client.loadBalancer), changes),
      network: createSdkLoadBalancerNetworkPort(client.network),
      securityGroups: createSdkSecurityGroupPort(client.network),
      serviceAnnotations: annotations,
      settings: { ...DEFAULT_LOAD_BALANCER_SETTINGS, floatingNetworkId: external.id, createMonitor: true, vipPortMode: 'reserved' as const, serialApiCalls: true },
      wait: { quickChecks: 3, quickDelayMs: 250, steps: 30, initialDelayMs: 500, factor: 1.2, sleep: abortableSleep },
      logger,
    };
    operations = new OctaviaLoadBalancerOperations(context);
    batchOperations = new OctaviaLoadBalancerOperations({ ...context, settings: { ...context.settings, serialApiCalls: false } });
    securityGroupOperations = new OctaviaLoadBalancerOperations({ ...context, settings: { ...context.settings, manageSecurityGroups: true } });
  }, 300_000);

  afterAll(async () => {
    await services?.close();
  }, 60_000);

  it('creates the load balancer, listeners, pools, members, monitors and the floating IP; a second sync changes nothing', async () => {
    const status = await operations.ensure(cluster, service(), nodes.slice(0, 2));
    const lbName = `kube_service_${cluster}_default_web`;
    const [loadBalancer] = await client.loadBalancer.loadBalancers.list({ name: lbName });
    expect(loadBalancer).toMatchObject({ provisioning_status: 'ACTIVE', description: `Kubernetes external service default/web from cluster ${cluster}`, vip_subnet_id: subnet.id, provider: 'amphora' });
    expect(loadBalancer!.tags).toEqual([lbName]);

    const listeners = await client.loadBalancer.listeners.list({ loadbalancer_id: loadBalancer!.id });
    expect(listeners.map((listener) => [listener.name, listener.protocol, listener.protocol_port]).sort()).toEqual([
      [`listener_0_${lbName}`, 'TCP', 80],
      [`listener_1_${lbName}`, 'UDP', 53],
    ]);
    const pools = await client.loadBalancer.pools.list({ loadbalancer_id: loadBalancer!.id });
    expect(pools.map((pool) => pool.name).sort()).toEqual([`pool_0_${lbName}`, `pool_1_${lbName}`]);
    for (const pool of pools) {
      const members = await client.loadBalancer.pools.listMembers(pool.id);
      expect(members.map((member) => [member.name, member.address]).sort()).toEqual(nodes.slice(0, 2).map((node) => [node.metadata!.name, node.status!.addresses![0]!.address]));
      const monitor = await client.loadBalancer.healthMonitors.get(pool.healthmonitor_id!);
      expect(monitor.type).toBe(pool.protocol === 'UDP' ? 'UDP-CONNECT' : 'TCP');
    }

    const [vipPort] = await client.network.ports.list({ name: `vip_${lbName}` });
    expect(vipPort!.fixed_ips[0]!.ip_address).toBe(loadBalancer!.vip_address);
    const [floating] = await client.network.floatingIps.list({ port_id: vipPort!.id });
    expect(floating).toMatchObject({ floating_network_id: external.id, description: `Floating IP for Kubernetes external service default/web from cluster ${cluster}` });
    expect(status).toEqual({ ingress: [{ ip: floating!.floating_ip_address }] });
    expect(await operations.status(cluster, service())).toEqual(status);
    expect(annotations.writes.at(-1)).toEqual({ service: 'default/web', annotations: { 'loadbalancer.openstack.org/load-balancer-id': loadBalancer!.id, 'loadbalancer.openstack.org/load-balancer-address': floating!.floating_ip_address } });

    changes.length = 0;
    expect(await operations.ensure(cluster, service(), nodes.slice(0, 2))).toEqual(status);
    expect(changes).toEqual([]);
  }, 300_000);

  openStackCliSuite('read back through the openstack CLI (a second, independent client)', () => {
    it('the load balancer, listeners, pools, members and floating IP the CCM made', async () => {
      const cli = new OpenStackCli(services);
      const lbName = `kube_service_${cluster}_default_web`;
      const [vipPort] = await client.network.ports.list({ name: `vip_${lbName}` });
      const [balancers, floatingIps] = await Promise.all([
        cli.json<Array<{ id: string; name: string; provisioning_status: string; vip_address: string }>>(['loadbalancer', 'list', '--name', lbName]),
        cli.json<Array<{ 'Floating IP Address': string; Port: string; 'Fixed IP Address': string }>>(['floating', 'ip', 'list', '--port', vipPort!.id]),
      ]);
      expect(balancers.map((balancer) => [balancer.name, balancer.provisioning_status])).toEqual([[lbName, 'ACTIVE']]);
      const id = balancers[0]!.id;
      expect(floatingIps.map((floating) => [floating.Port, floating['Fixed IP Address']])).toEqual([[vipPort!.id, balancers[0]!.vip_address]]);
      expect((await operations.status(cluster, service()))?.ingress?.[0]?.ip).toBe(floatingIps[0]!['Floating IP Address']);
      const [shown, listeners, pools] = await Promise.all([
        cli.json<{ description: string; tags: string | string[] }>(['loadbalancer', 'show', id]),
        cli.json<Array<{ name: string; protocol: string; protocol_port: number }>>(['loadbalancer', 'listener', 'list', '--loadbalancer', id]),
        cli.json<Array<{ id: string; name: string; protocol: string; lb_algorithm: string }>>(['loadbalancer', 'pool', 'list', '--loadbalancer', id]),
      ]);
      expect(shown.description).toBe(`Kubernetes external service default/web from cluster ${cluster}`);
      expect(String(shown.tags)).toContain(lbName);
      expect(listeners.map((listener) => [listener.name, listener.protocol, listener.protocol_port]).sort()).toEqual([
        [`listener_0_${lbName}`, 'TCP', 80],
        [`listener_1_${lbName}`, 'UDP', 53],
      ]);
      expect(pools.map((pool) => [pool.name, pool.protocol, pool.lb_algorithm]).sort()).toEqual([
        [`pool_0_${lbName}`, 'TCP', 'ROUND_ROBIN'],
        [`pool_1_${lbName}`, 'UDP', 'ROUND_ROBIN'],
      ]);
      const members = await Promise.all(pools.map((pool) => cli.json<Array<{ name: string; address: string; protocol_port: number }>>(['loadbalancer', 'member', 'list', pool.id])));
      for (const [index, pool] of pools.entries()) {
        const nodePort = pool.protocol === 'UDP' ? 30053 : 30080;
        expect(members[index]!.map((member) => [member.name, member.address, member.protocol_port]).sort()).toEqual(nodes.slice(0, 2).map((node) => [node.metadata!.name, node.status!.addresses![0]!.address, nodePort]));
      }
    }, 300_000);
  });

  it('a node change is one batch member update per pool', async () => {
    changes.length = 0;
    await batchOperations.update(cluster, service(), nodes);
    expect(changes).toEqual(['replaceMembers', 'replaceMembers']);
    const [loadBalancer] = await client.loadBalancer.loadBalancers.list({ name: `kube_service_${cluster}_default_web` });
    for (const pool of await client.loadBalancer.pools.list({ loadbalancer_id: loadBalancer!.id })) {
      expect((await client.loadBalancer.pools.listMembers(pool.id)).map((member) => member.name).sort()).toEqual(['node-1', 'node-2', 'node-3']);
    }
  }, 300_000);

  it('externalTrafficPolicy Local: HTTP monitors and members probed on the healthCheckNodePort; listener settings as diffs', async () => {
    const local = service({ 'loadbalancer.openstack.org/timeout-client-data': '60000' }, { externalTrafficPolicy: 'Local', healthCheckNodePort: 32100, loadBalancerSourceRanges: ['10.0.0.0/8'], ports: [{ name: 'http', port: 80, nodePort: 30080, protocol: 'TCP' }] });
    changes.length = 0;
    await operations.ensure(cluster, local, nodes);
    // The UDP listener is gone; the TCP listener updated; members recreated with their monitor port; the TCP monitor recreated as HTTP.
    expect(changes).toEqual(['deletePool', 'deleteListener', 'updateListener', ...Array(3).fill('deleteMember'), ...Array(3).fill('createMember'), 'deleteHealthMonitor', 'createHealthMonitor']);
    const [loadBalancer] = await client.loadBalancer.loadBalancers.list({ name: `kube_service_${cluster}_default_web` });
    const [listener] = await client.loadBalancer.listeners.list({ loadbalancer_id: loadBalancer!.id });
    expect(listener).toMatchObject({ protocol_port: 80, timeout_client_data: 60000, allowed_cidrs: ['10.0.0.0/8'] });
    const [pool] = await client.loadBalancer.pools.list({ loadbalancer_id: loadBalancer!.id });
    expect(await client.loadBalancer.healthMonitors.get(pool!.healthmonitor_id!)).toMatchObject({ type: 'HTTP', url_path: '/healthz', http_method: 'GET', expected_codes: '200' });
    expect((await client.loadBalancer.pools.listMembers(pool!.id)).map((member) => member.monitor_port)).toEqual([32100, 32100, 32100]);
  }, 300_000);

  it('SOURCE_IP_PORT is refused by the amphora provider (501): a warning and the pool keeps its method', async () => {
    warnings.length = 0;
    // One port, so that no new pool is created (a new pool with SOURCE_IP_PORT fails the sync, as upstream).
    await operations.ensure(cluster, service({ 'loadbalancer.openstack.org/lb-method': 'SOURCE_IP_PORT' }, { ports: [{ name: 'http', port: 80, nodePort: 30080, protocol: 'TCP' }] }), nodes);
    expect(warnings).toContain('the load balancer provider does not support this lb-method; the pool keeps its method');
    const [loadBalancer] = await client.loadBalancer.loadBalancers.list({ name: `kube_service_${cluster}_default_web` });
    for (const pool of await client.loadBalancer.pools.list({ loadbalancer_id: loadBalancer!.id })) expect(pool.lb_algorithm).toBe('ROUND_ROBIN');
  }, 300_000);

  it('manage-security-groups: creates the group, attaches it to the member ports, follows a new node, and detaches and deletes it; groups of other names are never touched', async () => {
    const guarded: V1Service = { metadata: { name: 'guarded', namespace: 'default', uid: `uid-${run}` }, spec: { type: 'LoadBalancer', ports: [{ name: 'http', port: 80, nodePort: 30080, protocol: 'TCP' }, { name: 'dns', port: 53, nodePort: 30053, protocol: 'UDP' }] } };
    const groupName = `lb-sg-uid-${run}-default-guarded`;
    const portOf = async (node: V1Node) => (await client.network.ports.list({ device_id: `server-${node.metadata!.name}-${run}` }))[0]!;
    // Another Service's group and one whose name only starts like ours, on node-1's port.
    const foreign = await client.network.securityGroups.create({ name: `lb-sg-uid-other-${run}-default-guarded`, description: 'another Service' });
    const lookalike = await client.network.securityGroups.create({ name: `${groupName}-x`, description: 'not ours' });
    const foreignRule = await client.network.securityGroupRules.create({ security_group_id: foreign.id, direction: 'ingress', ethertype: 'IPv4', protocol: 'tcp', port_range_min: 30080, port_range_max: 30080, remote_ip_prefix: '10.20.0.0/24' });
    const port1 = await portOf(nodes[0]!);
    const baseline = port1.security_groups;
    await client.network.ports.update(port1.id, { security_groups: [...baseline, foreign.id, lookalike.id] });
    const untouched = async () => {
      for (const group of [foreign, lookalike]) {
        const now = await client.network.securityGroups.get(group.id);
        expect([now.name, now.description]).toEqual([group.name, group.description]);
        expect(now.security_group_rules.map((rule) => rule.id).sort()).toEqual(group.security_group_rules.map((rule) => rule.id).concat(group.id === foreign.id ? [foreignRule.id] : []).sort());
      }
    };

    await securityGroupOperations.ensure(cluster, guarded, nodes.slice(0, 2));
    const [group] = await client.network.securityGroups.list({ name: groupName });
    expect(group!.description).toBe(`Security Group for default/guarded Service LoadBalancer in cluster ${cluster}`);
    expect(group!.security_group_rules.map((rule) => [rule.direction, rule.ethertype, rule.protocol, rule.port_range_min, rule.port_range_max, rule.remote_ip_prefix]).sort()).toEqual([
      ['ingress', 'IPv4', 'tcp', 30080, 30080, subnet.cidr],
      ['ingress', 'IPv4', 'udp', 30053, 30053, subnet.cidr],
    ]);
    expect((await portOf(nodes[0]!)).security_groups.sort()).toEqual([...baseline, foreign.id, lookalike.id, group!.id].sort());
    expect((await portOf(nodes[1]!)).security_groups).toContain(group!.id);
    expect((await portOf(nodes[2]!)).security_groups).not.toContain(group!.id);

    await securityGroupOperations.update(cluster, guarded, nodes);
    expect((await portOf(nodes[2]!)).security_groups).toContain(group!.id);
    await untouched();

    await securityGroupOperations.delete(cluster, guarded);
    expect(await client.network.securityGroups.list({ name: groupName })).toEqual([]);
    expect((await portOf(nodes[0]!)).security_groups.sort()).toEqual([...baseline, foreign.id, lookalike.id].sort());
    for (const node of nodes.slice(1)) expect((await portOf(node)).security_groups).not.toContain(group!.id);
    await untouched();
    await client.network.ports.update(port1.id, { security_groups: baseline });
    await client.network.securityGroups.delete(foreign.id);
    await client.network.securityGroups.delete(lookalike.id);
  }, 300_000);

  it('a cluster-name change renames the load balancer, its listener, pool and monitor in place: same IDs, VIP, VIP port and floating IP; delete then removes them all', async () => {
    const oldCluster = `old${run}`;
    const renamed: V1Service = { metadata: { name: 'renamed', namespace: 'default', uid: `uid-renamed-${run}` }, spec: { type: 'LoadBalancer', ports: [{ name: 'http', port: 80, nodePort: 30081, protocol: 'TCP' }] } };
    const oldName = `kube_service_${oldCluster}_default_renamed`;
    const newName = `kube_service_${cluster}_default_renamed`;
    const before = await operations.ensure(oldCluster, renamed, nodes.slice(0, 2));
    const [original] = await client.loadBalancer.loadBalancers.list({ name: oldName });
    const children = async (id: string) => {
      const [listeners, pools] = await Promise.all([client.loadBalancer.listeners.list({ loadbalancer_id: id }), client.loadBalancer.pools.list({ loadbalancer_id: id })]);
      const monitors = await Promise.all(pools.map((pool) => client.loadBalancer.healthMonitors.get(pool.healthmonitor_id!)));
      return { listeners: listeners.map((entry) => [entry.id, entry.name]), pools: pools.map((entry) => [entry.id, entry.name]), monitors: monitors.map((entry) => [entry.id, entry.name]) };
    };
    const old = await children(original!.id);
    expect([old.listeners[0]![1], old.pools[0]![1], old.monitors[0]![1]]).toEqual([`listener_0_${oldName}`, `pool_0_${oldName}`, `monitor_0_${oldName}`]);
    const vipPorts = await client.network.ports.list({ fixed_ips: [`ip_address=${original!.vip_address}`] });
    expect(vipPorts).toHaveLength(1);
    const [floating] = await client.network.floatingIps.list({ port_id: vipPorts[0]!.id });
    expect(before).toEqual({ ingress: [{ ip: floating!.floating_ip_address }] });
    // The Service as the first sync left it: the annotation naming its load balancer is how the next sync finds it under the new name.
    const written = annotations.writes.filter((write) => write.service === 'default/renamed').at(-1)!.annotations;
    expect(written['loadbalancer.openstack.org/load-balancer-id']).toBe(original!.id);
    const annotated: V1Service = { ...renamed, metadata: { ...renamed.metadata, annotations: written } };

    changes.length = 0;
    expect(await operations.ensure(cluster, annotated, nodes.slice(0, 2))).toEqual(before);
    expect(changes).toEqual(['updateHealthMonitor', 'renamePool', 'renameListener', 'renameLoadBalancer']);
    const [current] = await client.loadBalancer.loadBalancers.list({ name: newName });
    expect(current).toMatchObject({ id: original!.id, vip_address: original!.vip_address, vip_port_id: original!.vip_port_id, vip_subnet_id: original!.vip_subnet_id, provisioning_status: 'ACTIVE', tags: [newName] });
    expect(await client.loadBalancer.loadBalancers.list({ name: oldName })).toEqual([]);
    expect(await children(original!.id)).toEqual({
      listeners: [[old.listeners[0]![0], `listener_0_${newName}`]],
      pools: [[old.pools[0]![0], `pool_0_${newName}`]],
      monitors: [[old.monitors[0]![0], `monitor_0_${newName}`]],
    });
    expect((await client.network.floatingIps.list({ port_id: vipPorts[0]!.id })).map((entry) => [entry.id, entry.floating_ip_address])).toEqual([[floating!.id, floating!.floating_ip_address]]);
    expect((await client.network.ports.list({ fixed_ips: [`ip_address=${original!.vip_address}`] })).map((port) => port.id)).toEqual([vipPorts[0]!.id]);
    changes.length = 0;
    expect(await operations.ensure(cluster, annotated, nodes.slice(0, 2))).toEqual(before);
    expect(changes).toEqual([]);

    await operations.delete(cluster, annotated);
    expect(await operations.status(cluster, annotated)).toBeUndefined();
    expect(await client.network.floatingIps.list({ port_id: vipPorts[0]!.id })).toEqual([]);
    expect(await client.network.ports.list({ fixed_ips: [`ip_address=${original!.vip_address}`] })).toEqual([]);
  }, 300_000);

  it('turning internal deletes the floating IP; delete removes the load balancer (cascade) and the reserved VIP port', async () => {
    const lbName = `kube_service_${cluster}_default_web`;
    const internal = service({ 'service.beta.kubernetes.io/openstack-internal-load-balancer': 'true' });
    const status = await operations.ensure(cluster, internal, nodes);
    const [loadBalancer] = await client.loadBalancer.loadBalancers.list({ name: lbName });
    expect(status).toEqual({ ingress: [{ ip: loadBalancer!.vip_address }] });
    const [vipPort] = await client.network.ports.list({ name: `vip_${lbName}` });
    expect(await client.network.floatingIps.list({ port_id: vipPort!.id })).toEqual([]);

    await operations.delete(cluster, internal);
    const gone = await client.loadBalancer.loadBalancers.get(loadBalancer!.id).catch((error: unknown) => error);
    if (!isOpenStackError(gone, 'NotFound')) expect((gone as { provisioning_status: string }).provisioning_status).toBe('DELETED');
    expect(await client.network.ports.list({ name: `vip_${lbName}` })).toEqual([]);
    expect(await operations.status(cluster, internal)).toBeUndefined();
    await operations.delete(cluster, internal);
  }, 300_000);
});
