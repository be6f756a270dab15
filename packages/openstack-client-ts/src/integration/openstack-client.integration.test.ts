/**
 * openstack-client-ts against the real Keystone, Neutron and Octavia of @ccm/openstack-services
 * and its Nova stand-in (one instance for this file): every resource kind the CCM uses is
 * created, read, updated where the CCM updates it, and deleted. Fails under CI=true when the services cannot start.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { holdingOctaviaWorker, OpenStackCli, openStackServicesForTests, type TestServices } from '@ccm/openstack-services';
import { openStackCliSuite, openStackServicesSuite } from '@ccm/openstack-services/suite';
import { OpenStackClient, type OpenStackClientOptions } from '../openstack-client.js';
import { isOpenStackError } from '../openstack-error.js';
import type { Network, Subnet } from '../network/neutron-types.js';
import { exactNameFilter } from '../compute/nova-client.js';

openStackServicesSuite('openstack-client-ts against real OpenStack services', () => {
  // Unique per run: the services may be shared (OPENSTACK_SERVICES_ENDPOINT_FILE) with other runs.
  const run = Date.now().toString(36);
  const lbName = `kube_service_kubernetes_default_web${run}`;
  let services: TestServices;
  let client: OpenStackClient;
  let options: OpenStackClientOptions;
  let network: Network;
  let subnet: Subnet;
  let external: Network;

  beforeAll(async () => {
    services = await openStackServicesForTests({ log: (line) => console.log(`openstack-services: ${line}`) });
    options = {
      authUrl: services.authUrl,
      region: services.region,
      credentials: { method: 'password', username: services.username, password: services.password, userDomainName: services.userDomainName },
      scope: { projectName: services.projectName, projectDomainName: services.projectDomainName },
    };
    client = new OpenStackClient(options);
  }, 300_000);

  afterAll(async () => {
    await services?.close();
  }, 60_000);

  it('Keystone: password, token and application-credential authentication; catalog by region', async () => {
    const token = await client.session.token();
    expect(token.projectName).toBe(services.projectName);
    expect(token.catalog.map((entry) => entry.type).sort()).toEqual(['compute', 'identity', 'load-balancer', 'network']);
    expect(await client.session.endpoint('network')).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(isOpenStackError(await client.session.endpoint('network', { region: 'Elsewhere' }).catch((error: unknown) => error), 'EndpointNotFound')).toBe(true);

    const byToken = new OpenStackClient({ ...options, credentials: { method: 'token', token: token.id } });
    expect((await byToken.session.token()).userId).toBe(token.userId);

    const identity = await client.session.endpoint('identity');
    const created = await client.session.request('identity', {
      method: 'POST',
      path: `/users/${token.userId}/application_credentials`,
      body: { application_credential: { name: `ccm-${Date.now()}`, roles: [{ name: 'admin' }] } },
    });
    const credential = (created.json as { application_credential: { id: string; secret: string } }).application_credential;
    const { scope: _scope, ...unscoped } = options;
    const byCredential = new OpenStackClient({ ...unscoped, credentials: { method: 'applicationCredential', id: credential.id, secret: credential.secret } });
    const credentialToken = await byCredential.session.token();
    expect(credentialToken.methods).toEqual(['application_credential']);
    expect(credentialToken.projectId).toBe(token.projectId);
    expect(identity).toBe(services.authUrl);

    const wrong = new OpenStackClient({ ...options, credentials: { method: 'password', username: services.username, password: 'not-the-password', userDomainName: services.userDomainName } });
    const error = await wrong.session.token().catch((caught: unknown) => caught);
    expect(isOpenStackError(error, 'Unauthorized')).toBe(true);
    expect(String(error)).not.toContain('not-the-password');
  });

  it('Neutron: networks, subnets, ports (address pairs, security groups), security groups and rules', async () => {
    network = await client.network.networks.create({ name: 'ccm-internal' });
    subnet = await client.network.subnets.create({ network_id: network.id, cidr: '10.0.0.0/24', ip_version: 4, name: 'ccm-internal-subnet' });
    expect((await client.network.networks.get(network.id)).subnets).toEqual([subnet.id]);
    expect((await client.network.subnets.list({ network_id: network.id })).map((candidate) => candidate.id)).toEqual([subnet.id]);

    const port = await client.network.ports.create({ network_id: network.id, name: 'node-1', device_id: `server-${run}`, device_owner: 'compute:nova', 'binding:host_id': 'host-ovs-no_filter' });
    expect(port.fixed_ips[0]!.subnet_id).toBe(subnet.id);
    expect((await client.network.ports.list({ device_id: `server-${run}` })).map((candidate) => candidate.id)).toEqual([port.id]);
    const byAddress = await client.network.ports.list({ fixed_ips: [`ip_address=${port.fixed_ips[0]!.ip_address}`], network_id: network.id });
    expect(byAddress.map((candidate) => candidate.id)).toEqual([port.id]);

    const group = await client.network.securityGroups.create({ name: 'lb-sg-test', description: 'test' });
    const rule = await client.network.securityGroupRules.create({ security_group_id: group.id, direction: 'ingress', ethertype: 'IPv4', protocol: 'tcp', port_range_min: 30080, port_range_max: 30080, remote_ip_prefix: '10.0.0.0/24' });
    expect((await client.network.securityGroups.get(group.id)).security_group_rules.map((candidate) => candidate.id)).toContain(rule.id);
    const updated = await client.network.ports.update(port.id, { allowed_address_pairs: [{ ip_address: '10.244.1.0/24' }], security_groups: [group.id] });
    expect(updated.allowed_address_pairs.map((pair) => pair.ip_address)).toEqual(['10.244.1.0/24']);
    expect(updated.security_groups).toEqual([group.id]);

    await client.network.ports.update(port.id, { security_groups: [] });
    await client.network.securityGroupRules.delete(rule.id);
    await client.network.securityGroups.delete(group.id);
    expect(isOpenStackError(await client.network.securityGroups.get(group.id).catch((error: unknown) => error), 'NotFound')).toBe(true);
    await client.network.ports.delete(port.id);
  }, 120_000);

  it('Neutron: routers with extra routes, and floating IPs on an external network', async () => {
    const extensions = (await client.network.extensions()).map((extension) => extension.alias);
    expect(extensions).toEqual(expect.arrayContaining(['extraroute', 'extraroute-atomic', 'allowed-address-pairs', 'router', 'external-net']));
    external = await client.network.networks.create({ name: `public-${run}`, 'router:external': true });
    await client.network.subnets.create({ network_id: external.id, cidr: '172.24.4.0/24', ip_version: 4 });
    expect((await client.network.networks.list({ 'router:external': true })).map((candidate) => candidate.id)).toContain(external.id);

    const router = await client.network.routers.create({ name: 'ccm-router', external_gateway_info: { network_id: external.id } });
    await client.network.routers.addInterface(router.id, { subnet_id: subnet.id });
    const first = { destination: '10.244.1.0/24', nexthop: '10.0.0.11' };
    const second = { destination: '10.244.2.0/24', nexthop: '10.0.0.12' };
    await client.network.routers.addExtraRoutes(router.id, [first, second]);
    const removed = await client.network.routers.removeExtraRoutes(router.id, [first]);
    expect(removed.routes).toEqual([second]);
    expect((await client.network.routers.get(router.id)).routes).toEqual([second]);

    const port = await client.network.ports.create({ network_id: network.id, name: 'vip' });
    const floating = await client.network.floatingIps.create({ floating_network_id: external.id, description: 'Floating IP for Kubernetes external service default/web from cluster kubernetes' });
    expect(floating.floating_ip_address).toMatch(/^172\.24\.4\./);
    const attached = await client.network.floatingIps.update(floating.id, { port_id: port.id });
    expect(attached.fixed_ip_address).toBe(port.fixed_ips[0]!.ip_address);
    expect((await client.network.floatingIps.list({ port_id: port.id })).map((candidate) => candidate.id)).toEqual([floating.id]);
    await client.network.floatingIps.update(floating.id, { port_id: null });
    await client.network.floatingIps.delete(floating.id);
    await client.network.ports.delete(port.id);

    await client.network.routers.setRoutes(router.id, []);
    await client.network.routers.removeInterface(router.id, { subnet_id: subnet.id });
    await client.network.routers.delete(router.id);
  }, 120_000);

  it('Octavia: a fully populated load balancer, listener/pool/member/monitor changes, status tree, cascade delete', async () => {
    const octavia = client.loadBalancer;
    expect((await octavia.maxVersion())?.[0]).toBe(2);
    const vip = await client.network.ports.create({ network_id: network.id, name: 'octavia-vip' });
    // The worker is held so that the load balancer is still PENDING_CREATE for the change below.
    expect(services.octaviaWorkerProcessGroup).toBeTypeOf('number');
    const created = await holdingOctaviaWorker(services.octaviaWorkerProcessGroup!, async () => {
      const pending = await octavia.loadBalancers.create({
        name: lbName,
        description: 'Kubernetes external service default/web from cluster kubernetes',
        // Octavia's noop network driver cannot read Neutron ports (its get_port has no fixed IPs), so
        // vip_port_id is refused; a subnet plus an address reserved by a real port gives a real VIP.
        vip_subnet_id: subnet.id,
        vip_address: vip.fixed_ips[0]!.ip_address,
        tags: [lbName],
        listeners: [
          {
            name: `listener_0_${lbName}`,
            protocol: 'TCP',
            protocol_port: 80,
            default_pool: {
              name: `pool_0_${lbName}`,
              protocol: 'TCP',
              lb_algorithm: 'ROUND_ROBIN',
              members: [{ name: 'node-1', address: '10.0.0.11', protocol_port: 30080, subnet_id: subnet.id }],
              healthmonitor: { name: `monitor_0_${lbName}`, type: 'TCP', delay: 5, timeout: 3, max_retries: 1, max_retries_down: 3 },
            },
          },
        ],
      });
      expect(pending.provisioning_status).toBe('PENDING_CREATE');
      expect(pending.vip_address).toBe(vip.fixed_ips[0]!.ip_address);
      // Octavia refuses changes while PENDING_*: a retryable conflict.
      const busy = await octavia.loadBalancers.update(pending.id, { name: 'renamed' }).catch((error: unknown) => error);
      expect(isOpenStackError(busy) && [busy.kind, busy.retryable]).toEqual(['Conflict', true]);
      return pending;
    });
    await octavia.loadBalancers.waitForStatus(created.id, 'ACTIVE', { initialDelayMs: 500 });

    const found = await octavia.loadBalancers.list({ name: lbName });
    expect(found.map((candidate) => candidate.id)).toEqual([created.id]);
    const [listener] = await octavia.listeners.list({ loadbalancer_id: created.id });
    expect(listener?.protocol_port).toBe(80);
    const [pool] = await octavia.pools.list({ loadbalancer_id: created.id });
    expect(pool?.healthmonitor_id).not.toBeNull();

    await octavia.listeners.update(listener!.id, { timeout_client_data: 60000, allowed_cidrs: ['10.0.0.0/8'] });
    await octavia.loadBalancers.waitForStatus(created.id, 'ACTIVE', { initialDelayMs: 500 });
    // The amphora provider refuses SOURCE_IP_PORT (an OVN-only method) with a 501: final, not retryable.
    const unsupported = await octavia.pools.update(pool!.id, { lb_algorithm: 'SOURCE_IP_PORT' }).catch((error: unknown) => error);
    expect(isOpenStackError(unsupported) && [unsupported.httpStatus, unsupported.retryable]).toEqual([501, false]);
    await octavia.pools.update(pool!.id, { lb_algorithm: 'LEAST_CONNECTIONS' });
    await octavia.loadBalancers.waitForStatus(created.id, 'ACTIVE', { initialDelayMs: 500 });
    await octavia.pools.replaceMembers(pool!.id, [
      { name: 'node-2', address: '10.0.0.12', protocol_port: 30080, subnet_id: subnet.id },
      { name: 'node-3', address: '10.0.0.13', protocol_port: 30080, subnet_id: subnet.id },
    ]);
    await octavia.loadBalancers.waitForStatus(created.id, 'ACTIVE', { initialDelayMs: 500 });
    expect((await octavia.pools.listMembers(pool!.id)).map((member) => member.name).sort()).toEqual(['node-2', 'node-3']);
    await octavia.healthMonitors.update(pool!.healthmonitor_id!, { delay: 10 });
    await octavia.loadBalancers.waitForStatus(created.id, 'ACTIVE', { initialDelayMs: 500 });
    expect((await octavia.healthMonitors.get(pool!.healthmonitor_id!)).delay).toBe(10);
    await octavia.healthMonitors.delete(pool!.healthmonitor_id!);
    await octavia.loadBalancers.waitForStatus(created.id, 'ACTIVE', { initialDelayMs: 500 });

    const second = await octavia.listeners.create({ loadbalancer_id: created.id, name: `listener_1_${lbName}`, protocol: 'UDP', protocol_port: 53 });
    await octavia.loadBalancers.waitForStatus(created.id, 'ACTIVE', { initialDelayMs: 500 });
    const tree = await octavia.loadBalancers.statusTree(created.id);
    expect(tree.loadbalancer.listeners.map((entry) => entry.name).sort()).toEqual([`listener_0_${lbName}`, `listener_1_${lbName}`]);
    await octavia.listeners.delete(second.id);
    await octavia.loadBalancers.waitForStatus(created.id, 'ACTIVE', { initialDelayMs: 500 });
    await octavia.loadBalancers.update(created.id, { tags: [lbName, 'kube_service_kubernetes_default_other'] });
    await octavia.loadBalancers.waitForStatus(created.id, 'ACTIVE', { initialDelayMs: 500 });
    expect((await octavia.loadBalancers.get(created.id)).tags.sort()).toEqual(['kube_service_kubernetes_default_other', lbName]);

    await octavia.loadBalancers.delete(created.id, undefined, { cascade: true });
    expect(await octavia.loadBalancers.waitForStatus(created.id, 'DELETED', { initialDelayMs: 500 })).toBeUndefined();
  }, 420_000);

  it('Nova (the stand-in): servers with filters and pages, flavors, os-interface, stop/start, microversions', async () => {
    const nova = client.compute;
    const version = await nova.version();
    expect([version.min_version, version.version]).toEqual(['2.1', '2.47']);
    const names = [`node-${run}-a`, `node-${run}-b`, `node-${run}-c`];
    const ids: string[] = [];
    for (const name of names) {
      const created = await nova.createServer({ name, flavorRef: '2', imageRef: '70a599e0-31e7-49b7-b260-868f441e862b', networks: [{ uuid: network.id }], availability_zone: 'zone-b' });
      ids.push(created.id);
    }
    const exact = await nova.listServersDetail({ name: exactNameFilter(names[1]!) });
    expect(exact.map((server) => server.id)).toEqual([ids[1]]);
    const server = exact[0]!;
    const ports = await client.network.ports.list({ device_id: server.id });
    expect(ports.map((port) => port.device_owner)).toEqual(['compute:zone-b']);
    expect(server.addresses[network.name]!.map((address) => address.addr)).toEqual([ports[0]!.fixed_ips[0]!.ip_address]);
    expect([server.status, server['OS-EXT-AZ:availability_zone'], server.flavor.id]).toEqual(['ACTIVE', 'zone-b', '2']);

    // Three servers two at a time: the client follows servers_links.
    const paged = await nova.listServers({ name: `^node-${run}-` }, { pageSize: 2 });
    expect(paged.map((entry) => entry.id).sort()).toEqual([...ids].sort());
    expect((await nova.listServersDetail({ ip: `^${ports[0]!.fixed_ips[0]!.ip_address.replace(/\./g, '\\.')}$` })).map((entry) => entry.id)).toEqual([server.id]);

    const interfaces = await nova.listInterfaces(server.id);
    expect(interfaces.map((entry) => [entry.port_id, entry.net_id])).toEqual([[ports[0]!.id, network.id]]);
    expect((await nova.getInterface(server.id, ports[0]!.id)).fixed_ips[0]!.subnet_id).toBe(subnet.id);

    await nova.stopServer(server.id);
    expect((await nova.getServer(server.id)).status).toBe('SHUTOFF');
    expect((await nova.listServers({ name: `^node-${run}-`, status: 'SHUTOFF' })).map((entry) => entry.id)).toEqual([server.id]);
    const conflict = await nova.stopServer(server.id).catch((error: unknown) => error);
    expect(isOpenStackError(conflict, 'Conflict') && conflict.faultType).toBe('conflictingRequest');
    await nova.startServer(server.id);

    const withFlavor = await nova.withMicroversion('2.47').getServer(server.id);
    expect([withFlavor.flavor.original_name, withFlavor.flavor.ram]).toEqual(['m1.small', 2048]);
    const flavor = await nova.getFlavor('2');
    expect(flavor.name).toBe('m1.small');
    expect((await nova.listFlavors({}, { pageSize: 2 })).map((entry) => entry.id)).toEqual(['1', '2', '3', '4', '5']);
    expect((await nova.listFlavorsDetail({ minRam: 8192 })).map((entry) => entry.name)).toEqual(['m1.large', 'm1.xlarge']);
    expect(isOpenStackError(await nova.withMicroversion('2.90').getServer(server.id).catch((error: unknown) => error))).toBe(true);

    for (const id of ids) await nova.deleteServer(id);
    expect(isOpenStackError(await nova.getServer(ids[0]!).catch((error: unknown) => error), 'NotFound')).toBe(true);
    expect(await client.network.ports.list({ device_id: ids[0]! })).toEqual([]);
  }, 120_000);

  openStackCliSuite('the openstack CLI reads back what openstack-client-ts made', () => {
    it('a server, a port with a floating IP, a router extra route, a load balancer with listener, pool and member', async () => {
      const cli = new OpenStackCli(services);
      const nova = client.compute;
      const created = await nova.createServer({ name: `cli-node-${run}`, flavorRef: '2', imageRef: '70a599e0-31e7-49b7-b260-868f441e862b', networks: [{ uuid: network.id }], availability_zone: 'zone-c' });
      const [serverPort] = await client.network.ports.list({ device_id: created.id });
      const port = await client.network.ports.create({ network_id: network.id, name: `cli-vip-${run}` });
      // The subnet reaches the external network through the router: floating IPs can then attach.
      const router = await client.network.routers.create({ name: `cli-router-${run}`, external_gateway_info: { network_id: external.id } });
      await client.network.routers.addInterface(router.id, { subnet_id: subnet.id });
      const floating = await client.network.floatingIps.create({ floating_network_id: external.id, port_id: port.id });
      await client.network.routers.addExtraRoutes(router.id, [{ destination: '10.244.7.0/24', nexthop: serverPort!.fixed_ips[0]!.ip_address }]);
      const octavia = client.loadBalancer;
      const lbName = `kube_service_kubernetes_default_cli${run}`;
      const lb = await octavia.loadBalancers.create({
        name: lbName,
        vip_subnet_id: subnet.id,
        vip_address: port.fixed_ips[0]!.ip_address,
        listeners: [{ name: `listener_0_${lbName}`, protocol: 'TCP', protocol_port: 443, default_pool: { name: `pool_0_${lbName}`, protocol: 'TCP', lb_algorithm: 'ROUND_ROBIN', members: [{ name: `cli-node-${run}`, address: serverPort!.fixed_ips[0]!.ip_address, protocol_port: 30443, subnet_id: subnet.id }] } }],
      });
      await octavia.loadBalancers.waitForStatus(lb.id, 'ACTIVE', { initialDelayMs: 500 });

      // Independent reads side by side (each CLI run spends seconds starting Python).
      const [server, listed, floatingShown, portShown, routerShown, lbShown, listeners, pools] = await Promise.all([
        cli.json<Record<string, unknown>>(['server', 'show', created.id]),
        cli.json<{ ID: string; Status: string }[]>(['server', 'list', '-n', '--name', `^cli-node-${run}$`]),
        cli.json<Record<string, unknown>>(['floating', 'ip', 'show', floating.id]),
        cli.json<Record<string, unknown>>(['port', 'show', serverPort!.id]),
        cli.json<{ routes: unknown }>(['router', 'show', router.id]),
        cli.json<Record<string, unknown>>(['loadbalancer', 'show', lb.id]),
        cli.json<{ id: string; name: string; protocol_port: number }[]>(['loadbalancer', 'listener', 'list', '--loadbalancer', lb.id]),
        cli.json<{ id: string; name: string }[]>(['loadbalancer', 'pool', 'list', '--loadbalancer', lb.id]),
      ]);
      expect([server['name'], server['status'], server['flavor'], server['OS-EXT-AZ:availability_zone']]).toEqual([`cli-node-${run}`, 'ACTIVE', 'm1.small (2)', 'zone-c']);
      expect(server['addresses']).toEqual({ [network.name]: [serverPort!.fixed_ips[0]!.ip_address] });
      expect(listed.map((entry) => [entry.ID, entry.Status])).toEqual([[created.id, 'ACTIVE']]);
      expect([floatingShown['port_id'], floatingShown['fixed_ip_address'], floatingShown['floating_ip_address']]).toEqual([port.id, port.fixed_ips[0]!.ip_address, floating.floating_ip_address]);
      expect([portShown['device_id'], portShown['device_owner']]).toEqual([created.id, 'compute:zone-c']);
      expect(routerShown.routes).toEqual([{ destination: '10.244.7.0/24', nexthop: serverPort!.fixed_ips[0]!.ip_address }]);
      expect([lbShown['name'], lbShown['provisioning_status'], lbShown['vip_address'], lbShown['vip_subnet_id']]).toEqual([lbName, 'ACTIVE', port.fixed_ips[0]!.ip_address, subnet.id]);
      const [listener] = listeners;
      const [pool] = pools;
      expect([listener?.name, listener?.protocol_port, pool?.name]).toEqual([`listener_0_${lbName}`, 443, `pool_0_${lbName}`]);
      const [listenerShown, poolShown, members] = await Promise.all([
        cli.json<Record<string, unknown>>(['loadbalancer', 'listener', 'show', listener!.id]),
        cli.json<Record<string, unknown>>(['loadbalancer', 'pool', 'show', pool!.id]),
        cli.json<{ name: string; address: string; protocol_port: number }[]>(['loadbalancer', 'member', 'list', pool!.id]),
      ]);
      expect(listenerShown['default_pool_id']).toBe(pool!.id);
      expect([poolShown['lb_algorithm'], poolShown['protocol']]).toEqual(['ROUND_ROBIN', 'TCP']);
      expect(members.map((member) => [member.name, member.address, member.protocol_port])).toEqual([[`cli-node-${run}`, serverPort!.fixed_ips[0]!.ip_address, 30443]]);

      // A failing command is an error naming the command, with the password nowhere in it.
      const missing = await cli.json(['loadbalancer', 'show', 'no-such-lb']).catch((error: unknown) => error as Error);
      expect(String(missing)).toMatch(/openstack loadbalancer show no-such-lb -f json failed/);
      expect(String(missing)).not.toContain(services.password);

      await octavia.loadBalancers.delete(lb.id, undefined, { cascade: true });
      await octavia.loadBalancers.waitForStatus(lb.id, 'DELETED', { initialDelayMs: 500 });
      await client.network.floatingIps.delete(floating.id);
      await client.network.ports.delete(port.id);
      await client.network.routers.setRoutes(router.id, []);
      await client.network.routers.removeInterface(router.id, { subnet_id: subnet.id });
      await client.network.routers.delete(router.id);
      await nova.deleteServer(created.id);
      expect(await cli.json<unknown[]>(['server', 'list', '-n', '--name', `^cli-node-${run}$`])).toEqual([]);
    }, 420_000);
  });
});
