import { ComputeTestClient, itemsOf, namesOf } from './compute-test-client.js';

export const SESSION_CLUSTER = 'kubernetes';
export const EXTERNAL_LB = 'a0123456789abcdef0123456789abcd';
export const INTERNAL_LB = 'afedcba9876543210fedcba987654321';

function expectEqual(actual: unknown, expected: unknown, what: string): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

/** Seeds a network, a subnetwork and three nodes in two zones through the Compute API. */
export async function seedNodes(client: ComputeTestClient): Promise<void> {
  const { region, zones, network } = client.simulator;
  const [zoneA, zoneB] = [zones[0] ?? '', zones[1] ?? zones[0] ?? ''];
  await client.mutate('POST', 'global/networks', { name: network, autoCreateSubnetworks: false, description: 'cluster network' });
  await client.mutate('POST', `regions/${region}/subnetworks`, {
    name: 'nodes',
    network: `global/networks/${network}`,
    ipCidrRange: '10.40.0.0/20',
    secondaryIpRanges: [{ rangeName: 'pods', ipCidrRange: '10.100.0.0/16' }],
  });
  // A dual-stack node: an external IPv6 access config from a dual-stack subnetwork.
  await client.mutate('POST', `regions/${region}/subnetworks`, {
    name: 'nodes-dual-stack',
    network: `global/networks/${network}`,
    ipCidrRange: '10.41.0.0/20',
    stackType: 'IPV4_IPV6',
    ipv6AccessType: 'EXTERNAL',
  });
  await client.mutate('POST', `zones/${zoneB}/instances`, {
    name: 'dual-stack-node',
    machineType: `zones/${zoneB}/machineTypes/e2-standard-4`,
    networkInterfaces: [{ subnetwork: `regions/${region}/subnetworks/nodes-dual-stack`, stackType: 'IPV4_IPV6', accessConfigs: [{ type: 'ONE_TO_ONE_NAT' }] }],
  });
  const nodes: [string, string][] = [
    ['kubernetes-node-1', zoneA],
    ['kubernetes-node-2', zoneA],
    ['kubernetes-node-3', zoneB],
  ];
  for (const [name, zone] of nodes) {
    await client.mutate('POST', `zones/${zone}/instances`, {
      name,
      machineType: `zones/${zone}/machineTypes/e2-standard-4`,
      canIpForward: true,
      tags: { items: ['kubernetes-node'] },
      labels: { cluster: SESSION_CLUSTER },
      disks: [{ boot: true, autoDelete: true, initializeParams: { sourceImage: 'projects/cos-cloud/global/images/family/cos-stable' } }],
      networkInterfaces: [{ subnetwork: `regions/${region}/subnetworks/nodes`, accessConfigs: [{ type: 'ONE_TO_ONE_NAT', name: 'External NAT' }] }],
    });
  }
}

/**
 * The calls a GCE cloud controller manager makes, in its order: zone discovery, node lookups
 * (batched name filters), an external target-pool load balancer, an internal backend-service load
 * balancer, node routes, then the deletion of all of it. Throws on the first unexpected answer.
 */
export async function runCcmSession(client: ComputeTestClient): Promise<void> {
  const routes = await createCcmResources(client);
  await deleteCcmResources(client, routes);
}

/** The creating half of runCcmSession; returns the node routes' names. */
export async function createCcmResources(client: ComputeTestClient): Promise<string[]> {
  const { region, zones, network } = client.simulator;
  const [zoneA, zoneB] = [zones[0] ?? '', zones[1] ?? zones[0] ?? ''];
  const networkLink = client.url(`global/networks/${network}`);

  // Zones of the region, the network and its subnetworks.
  expectEqual(namesOf(await client.get('zones', { filter: `region eq .*/regions/${region}` })), zones, 'zones in the region');
  await client.get(`global/networks/${network}`);
  expectEqual(namesOf(await client.get(`regions/${region}/subnetworks`, { filter: `network eq ${networkLink}` })), ['nodes', 'nodes-dual-stack'], 'subnetworks of the network');

  // Node lookups: one get, a name regex per zone, an OR of names across zones.
  const node1 = await client.get(`zones/${zoneA}/instances/kubernetes-node-1`);
  expectEqual((node1['networkInterfaces'] as Record<string, unknown>[])[0]?.['networkIP'], '10.40.0.2', 'first node IP');
  expectEqual(namesOf(await client.get(`zones/${zoneA}/instances`, { filter: 'name eq "kubernetes-node-.*"' })), ['kubernetes-node-1', 'kubernetes-node-2'], 'regex lookup');
  expectEqual(
    namesOf(await client.get('aggregated/instances', { filter: '(name = "kubernetes-node-1") OR (name = "kubernetes-node-3")' })),
    ['kubernetes-node-1', 'kubernetes-node-3'],
    'batched lookup',
  );
  const missing = await client.call('GET', `zones/${zoneB}/instances/kubernetes-node-1`);
  expectEqual(missing.status, 404, 'node in the other zone');

  // External LB: static IP, node health check, firewalls, target pool, forwarding rule.
  await client.mutate('POST', `regions/${region}/addresses`, { name: EXTERNAL_LB, description: '{"kubernetes.io/service-name":"default/web"}', networkTier: 'PREMIUM' });
  const address = await client.get(`regions/${region}/addresses/${EXTERNAL_LB}`);
  const ip = String(address['address']);
  expectEqual(namesOf(await client.get(`regions/${region}/addresses`, { filter: `address eq ${ip}` })), [EXTERNAL_LB], 'address by IP');
  await client.mutate('POST', 'global/httpHealthChecks', {
    name: 'k8s-1234567890abcdef-node',
    description: '{"kubernetes.io/service-name":"k8s-1234567890abcdef-node"}',
    port: 10256,
    requestPath: '/healthz',
    checkIntervalSec: 8,
    timeoutSec: 1,
    healthyThreshold: 1,
    unhealthyThreshold: 3,
  });
  const healthCheck = await client.get('global/httpHealthChecks/k8s-1234567890abcdef-node');
  await client.mutate('PUT', 'global/httpHealthChecks/k8s-1234567890abcdef-node', { ...healthCheck, unhealthyThreshold: 4 });
  await client.mutate('POST', 'global/firewalls', {
    name: `k8s-fw-${EXTERNAL_LB}`,
    description: `{"kubernetes.io/service-name":"default/web", "kubernetes.io/service-ip":"${ip}"}`,
    network: networkLink,
    sourceRanges: ['0.0.0.0/0'],
    destinationRanges: [ip],
    targetTags: ['kubernetes-node'],
    allowed: [{ IPProtocol: 'tcp', ports: ['80', '443'] }],
    priority: 1000,
  });
  await client.mutate('PATCH', `global/firewalls/k8s-fw-${EXTERNAL_LB}`, { name: `k8s-fw-${EXTERNAL_LB}`, sourceRanges: ['10.0.0.0/8'] });
  await client.mutate('POST', 'global/firewalls', {
    name: 'k8s-1234567890abcdef-node-http-hc',
    network: networkLink,
    sourceRanges: ['130.211.0.0/22', '35.191.0.0/16', '209.85.152.0/22', '209.85.204.0/22'],
    targetTags: ['kubernetes-node'],
    allowed: [{ IPProtocol: 'tcp', ports: ['10256'] }],
  });
  await client.mutate('POST', `regions/${region}/targetPools`, {
    name: EXTERNAL_LB,
    description: '{"kubernetes.io/service-name":"default/web"}',
    instances: [client.url(`zones/${zoneA}/instances/kubernetes-node-1`)],
    healthChecks: [String(healthCheck['selfLink'])],
    sessionAffinity: 'NONE',
  });
  await client.mutate('POST', `regions/${region}/targetPools/${EXTERNAL_LB}/addInstance`, {
    instances: [{ instance: client.url(`zones/${zoneA}/instances/kubernetes-node-2`) }, { instance: client.url(`zones/${zoneB}/instances/kubernetes-node-3`) }],
  });
  await client.mutate('POST', `regions/${region}/targetPools/${EXTERNAL_LB}/removeInstance`, { instances: [{ instance: client.url(`zones/${zoneA}/instances/kubernetes-node-2`) }] });
  const pool = await client.get(`regions/${region}/targetPools/${EXTERNAL_LB}`);
  expectEqual((pool['instances'] as unknown[]).length, 2, 'target pool size');
  await client.mutate('POST', `regions/${region}/forwardingRules`, {
    name: EXTERNAL_LB,
    description: '{"kubernetes.io/service-name":"default/web"}',
    IPAddress: ip,
    IPProtocol: 'TCP',
    portRange: '80-443',
    target: String(pool['selfLink']),
    networkTier: 'PREMIUM',
  });
  expectEqual((await client.get(`regions/${region}/addresses/${EXTERNAL_LB}`))['status'], 'IN_USE', 'address in use');
  // The CCM releases the temporary reservation once the forwarding rule holds the IP, which keeps it.
  await client.mutate('DELETE', `regions/${region}/addresses/${EXTERNAL_LB}`);
  expectEqual((await client.get(`regions/${region}/forwardingRules/${EXTERNAL_LB}`))['IPAddress'], ip, 'forwarding rule keeps the released IP');

  // Internal LB: instance groups per zone, health check, backend service, forwarding rule.
  for (const [zone, members] of [
    [zoneA, ['kubernetes-node-1', 'kubernetes-node-2']],
    [zoneB, ['kubernetes-node-3']],
  ] as const) {
    await client.mutate('POST', `zones/${zone}/instanceGroups`, { name: 'k8s-ig--1234567890abcdef', network: networkLink });
    await client.mutate('POST', `zones/${zone}/instanceGroups/k8s-ig--1234567890abcdef/addInstances`, {
      instances: members.map((member) => ({ instance: client.url(`zones/${zone}/instances/${member}`) })),
    });
    const listed = await client.call('POST', `zones/${zone}/instanceGroups/k8s-ig--1234567890abcdef/listInstances`, { instanceState: 'ALL' });
    expectEqual(itemsOf(listed.body).length, members.length, `instance group members in ${zone}`);
  }
  await client.mutate('POST', 'global/healthChecks', {
    name: 'k8s-1234567890abcdef-node',
    description: '{"kubernetes.io/service-name":"k8s-1234567890abcdef-node"}',
    type: 'HTTP',
    httpHealthCheck: { port: 10256, requestPath: '/healthz' },
    checkIntervalSec: 8,
    timeoutSec: 1,
    healthyThreshold: 1,
    unhealthyThreshold: 3,
  });
  const groups = zones.slice(0, 2).map((zone) => ({ group: client.url(`zones/${zone}/instanceGroups/k8s-ig--1234567890abcdef`), balancingMode: 'CONNECTION' }));
  await client.mutate('POST', `regions/${region}/backendServices`, {
    name: INTERNAL_LB,
    description: '{"kubernetes.io/service-name":"default/internal"}',
    protocol: 'TCP',
    loadBalancingScheme: 'INTERNAL',
    sessionAffinity: 'NONE',
    healthChecks: [client.url('global/healthChecks/k8s-1234567890abcdef-node')],
    backends: groups.slice(0, 1),
  });
  const service = await client.get(`regions/${region}/backendServices/${INTERNAL_LB}`);
  await client.mutate('PUT', `regions/${region}/backendServices/${INTERNAL_LB}`, { ...service, backends: groups });
  await client.mutate('POST', `regions/${region}/forwardingRules`, {
    name: INTERNAL_LB,
    description: '{"kubernetes.io/service-name":"default/internal"}',
    IPProtocol: 'TCP',
    ports: ['8080'],
    loadBalancingScheme: 'INTERNAL',
    backendService: client.url(`regions/${region}/backendServices/${INTERNAL_LB}`),
    subnetwork: client.url(`regions/${region}/subnetworks/nodes`),
    network: networkLink,
    allowGlobalAccess: false,
  });
  const rules = await client.get('aggregated/forwardingRules', { filter: 'description eq ".*default/.*"' });
  expectEqual(namesOf(rules).sort(), [EXTERNAL_LB, INTERNAL_LB].sort(), 'forwarding rules of services');

  // Routes: one per node with nextHopInstance, then the CCM's list filter.
  for (const [index, [name, zone]] of ([
    ['kubernetes-node-1', zoneA],
    ['kubernetes-node-3', zoneB],
  ] as const).entries()) {
    await client.mutate('POST', 'global/routes', {
      name: `${SESSION_CLUSTER}-${index}0000000-0000-0000-0000-000000000000`,
      description: 'k8s-node-route',
      destRange: `10.100.${index}.0/24`,
      nextHopInstance: client.url(`zones/${zone}/instances/${name}`),
      network: networkLink,
      priority: 1000,
    });
  }
  const routes = await client.get('global/routes', { filter: `(name eq "${SESSION_CLUSTER}-.*") (network eq "${networkLink}") (description eq "k8s-node-route")` });
  expectEqual(itemsOf(routes).length, 2, 'node routes');

  // Operations are listed per scope.
  const operations = await client.get('aggregated/operations', { maxResults: '5' });
  if (typeof operations['nextPageToken'] !== 'string') throw new Error('aggregated operations: expected a second page');
  await client.get(`regions/${region}/operations`, { filter: 'operationType = "insert"' });

  return itemsOf(routes).map((route) => String(route['name']));
}

/** The deleting half of runCcmSession, in the CCM's order. */
export async function deleteCcmResources(client: ComputeTestClient, routes: string[]): Promise<void> {
  const { region, zones } = client.simulator;
  for (const route of routes) await client.mutate('DELETE', `global/routes/${route}`);
  await client.mutate('DELETE', `regions/${region}/forwardingRules/${INTERNAL_LB}`);
  await client.mutate('DELETE', `regions/${region}/backendServices/${INTERNAL_LB}`);
  await client.mutate('DELETE', 'global/healthChecks/k8s-1234567890abcdef-node');
  for (const zone of zones.slice(0, 2)) await client.mutate('DELETE', `zones/${zone}/instanceGroups/k8s-ig--1234567890abcdef`);
  await client.mutate('DELETE', `regions/${region}/forwardingRules/${EXTERNAL_LB}`);
  await client.mutate('DELETE', `regions/${region}/targetPools/${EXTERNAL_LB}`);
  await client.mutate('DELETE', 'global/httpHealthChecks/k8s-1234567890abcdef-node');
  await client.mutate('DELETE', `global/firewalls/k8s-fw-${EXTERNAL_LB}`);
  await client.mutate('DELETE', 'global/firewalls/k8s-1234567890abcdef-node-http-hc');
  expectEqual(namesOf(await client.get('aggregated/forwardingRules')), [], 'no forwarding rules left');
}
