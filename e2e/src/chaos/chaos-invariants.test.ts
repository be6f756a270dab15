// Each invariant check fails when its invariant is broken on purpose, on synthetic inputs.
import type { ProxyRecord } from '@ccm/testing/chaos';
import type { DriverInstance } from '@ccm/testing/conformance';
import { describe, expect, it } from 'vitest';
import type { KubeNode, KubeService } from '../harness/kube-objects.js';
import { budgetExceedances, isBudgetContinuation, lroFinalReads, peakCallRate } from './call-budget.js';
import { leakedResourceViolations, loadBalancerMismatches, missingRoutes, servicesLeftWithFinalizer, uninitializedNodes, wrongNodeDeletions } from './chaos-invariants.js';
import { isCloudWrite } from './cloud-writes.js';
import { leaseTermViolations, leaseTerms, writesOutsideLeaseTerms } from './lease-terms.js';

const instance: DriverInstance = {
  nodeName: 'n1',
  expectedProviderId: 'sandbox://i-1',
  expectedAddresses: [{ type: 'InternalIP', address: '10.0.0.1' }],
  expectedInstanceType: 'small',
  expectedZone: 'z1',
  expectedRegion: 'r1',
  internalIp: '10.0.0.1',
};

function initializedNode(overrides: Partial<KubeNode> = {}): KubeNode {
  return {
    metadata: { name: 'n1', labels: { 'node.kubernetes.io/instance-type': 'small', 'topology.kubernetes.io/zone': 'z1', 'topology.kubernetes.io/region': 'r1' } },
    spec: { providerID: 'sandbox://i-1', taints: [], podCIDR: '10.244.1.0/24' },
    status: { addresses: [{ type: 'InternalIP', address: '10.0.0.1' }, { type: 'Hostname', address: 'n1' }] },
    ...overrides,
  };
}
const living = new Map([['n1', { instance, kubeletAddresses: [{ type: 'Hostname', address: 'n1' }] }]]);

function record(overrides: Partial<ProxyRecord>): ProxyRecord {
  return { replica: 'replica-a', operation: 'op', method: 'POST', path: '/', write: true, startedAt: 0, answeredAt: 0, status: 200, ...overrides };
}
function leaseWrite(replica: string, holder: string, at: number, operation = 'update leases'): ProxyRecord {
  const body = { metadata: { name: 'cloud-controller-manager' }, spec: { holderIdentity: holder, leaseDurationSeconds: 3 } };
  return record({ replica, operation, method: 'PUT', startedAt: at, answeredAt: at + 5, requestBody: JSON.stringify(body) });
}

describe('chaos invariant checks', () => {
  it('every node initialized: passes for a good node, fails for a missing, tainted, wrong-providerID, unlabelled or wrongly addressed one', () => {
    expect(uninitializedNodes([initializedNode()], living)).toEqual([]);
    expect(uninitializedNodes([], living)).toEqual(['node n1 is missing']);
    expect(uninitializedNodes([initializedNode({ spec: { providerID: 'sandbox://i-1', taints: [{ key: 'node.cloudprovider.kubernetes.io/uninitialized', value: 'true', effect: 'NoSchedule' }] } })], living)[0]).toMatch(/uninitialized taint/);
    expect(uninitializedNodes([initializedNode({ spec: { providerID: 'sandbox://i-2' } })], living)[0]).toMatch(/providerID sandbox:\/\/i-2/);
    expect(uninitializedNodes([initializedNode({ metadata: { name: 'n1', labels: {} } })], living)).toHaveLength(3);
    expect(uninitializedNodes([initializedNode({ status: { addresses: [{ type: 'Hostname', address: 'n1' }] } })], living)[0]).toMatch(/addresses/);
  });

  const service: KubeService = { metadata: { name: 's1' }, spec: { type: 'LoadBalancer', ports: [{ port: 80, protocol: 'TCP' }] }, status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } } };
  it('every LB matches its Service: fails on a missing LB, wrong ports, wrong backends or no ingress', () => {
    const nodes = [initializedNode()];
    expect(loadBalancerMismatches([{ service, view: { exists: true, ports: [80], backendNodeNames: ['n1'] } }], nodes)).toEqual([]);
    expect(loadBalancerMismatches([{ service, view: { exists: false, ports: [], backendNodeNames: [] } }], nodes)).toEqual(['service s1 has no cloud load balancer']);
    expect(loadBalancerMismatches([{ service, view: { exists: true, ports: [81], backendNodeNames: ['n1'] } }], nodes)[0]).toMatch(/cloud ports \[81\]/);
    expect(loadBalancerMismatches([{ service, view: { exists: true, ports: [80], backendNodeNames: ['n1', 'gone'] } }], nodes)[0]).toMatch(/backends/);
    expect(loadBalancerMismatches([{ service: { ...service, status: {} }, view: { exists: true, ports: [80], backendNodeNames: ['n1'] } }], nodes)[0]).toMatch(/no ingress/);
  });

  it('every route exists: fails when a node\'s route is missing or a blackhole', () => {
    const nodes = [initializedNode()];
    expect(missingRoutes(nodes, [{ destinationCidr: '10.244.1.0/24', targetNodeName: 'n1' }])).toEqual([]);
    expect(missingRoutes(nodes, [])).toEqual(['no route 10.244.1.0/24 -> n1']);
    expect(missingRoutes(nodes, [{ destinationCidr: '10.244.1.0/24', targetNodeName: 'n1', blackhole: true }])).toHaveLength(1);
  });

  it('0 leaked cloud resources: a leaked LB planted in the cloud is reported', () => {
    expect(leakedResourceViolations([])).toEqual([]);
    expect(leakedResourceViolations(['load balancer lb-planted (service default/gone)'])).toEqual(['leaked: load balancer lb-planted (service default/gone)']);
  });

  it('0 Ready nodes deleted: a deleted node whose instance still existed is reported', () => {
    const deletion = (name: string, at: number): ProxyRecord => record({ operation: 'delete nodes', method: 'DELETE', path: `/api/v1/nodes/${name}`, startedAt: at });
    const deletedInstances = new Map([['gone', 100]]);
    expect(wrongNodeDeletions([deletion('gone', 200)], deletedInstances)).toEqual([]);
    expect(wrongNodeDeletions([deletion('ready', 200)], deletedInstances)).toEqual(['replica-a deleted node ready whose instance still existed']);
    // Deleted before its instance went away: wrong as well.
    expect(wrongNodeDeletions([deletion('gone', 50)], deletedInstances)).toHaveLength(1);
    // A refused deletion did not delete anything.
    expect(wrongNodeDeletions([{ ...deletion('ready', 200), status: 404 }], deletedInstances)).toEqual([]);
  });

  it('0 Services left with a finalizer after deletion', () => {
    const stuck: KubeService = { metadata: { name: 's1', finalizers: ['service.kubernetes.io/load-balancer-cleanup'] } };
    expect(servicesLeftWithFinalizer([stuck], new Set(['other']))).toEqual([]);
    expect(servicesLeftWithFinalizer([stuck], new Set(['s1']))[0]).toMatch(/s1 still exists after deletion/);
  });

  it('0 moments where two replicas acted: a cloud write outside its sender\'s lease term is reported', () => {
    const kube = [leaseWrite('replica-a', 'a_1', 0, 'create leases'), leaseWrite('replica-a', 'a_1', 1_000), leaseWrite('replica-b', 'b_1', 5_000), leaseWrite('replica-b', 'b_1', 6_000)];
    const terms = leaseTerms(kube, 'cloud-controller-manager');
    expect(terms.map(({ replica, from, until }) => ({ replica, from, until }))).toEqual([
      { replica: 'replica-a', from: 5, until: 4_000 },
      { replica: 'replica-b', from: 5_005, until: 9_000 },
    ]);
    const outside = (records: ProxyRecord[], given = terms) => writesOutsideLeaseTerms(records, given);
    expect(outside([record({ replica: 'replica-a', startedAt: 2_000 }), record({ replica: 'replica-b', startedAt: 5_500 })])).toEqual({ doubleActing: [], afterOwnTerm: [] });
    // replica-a wrote after its term, while replica-b led; replica-b wrote before acquiring.
    expect(outside([record({ replica: 'replica-a', startedAt: 5_500 })]).doubleActing[0]).toMatch(/replica-a sent op .* while replica-b held the lease/);
    expect(outside([record({ replica: 'replica-b', startedAt: 3_000 })]).doubleActing).toHaveLength(1);
    // A follower that never led, writing while nobody leads, acts as a second leader.
    expect(outside([record({ replica: 'replica-c', startedAt: 4_500 })]).doubleActing[0]).toMatch(/it never held the lease before/);
    // The leader writing after its own term, nobody else holding yet: a stalled leader, listed apart and failing the run too.
    expect(outside([record({ replica: 'replica-a', startedAt: 4_500 })])).toEqual({ doubleActing: [], afterOwnTerm: [expect.stringMatching(/its term ended 500 ms before/)] });
    expect(leaseTermViolations(outside([record({ replica: 'replica-a', startedAt: 4_500 })]))).toEqual({
      'double-acting': [],
      "writes after the writer's own lease term": [expect.stringMatching(/replica-a sent op .* while no replica held the lease \(its term ended 500 ms before\)/)],
    });
    expect(Object.values(leaseTermViolations(outside([record({ replica: 'replica-a', startedAt: 2_000 })]))).flat()).toEqual([]);
    // Reads are not writes; a released lease ends the term.
    expect(outside([record({ replica: 'replica-b', startedAt: 3_000, write: false })]).doubleActing).toEqual([]);
    const released = leaseTerms([...kube.slice(0, 2), leaseWrite('replica-a', '', 1_500)], 'cloud-controller-manager');
    expect(outside([record({ replica: 'replica-a', startedAt: 2_000 })], released).afterOwnTerm).toHaveLength(1);
    // A lease of another name (or a refused write) gives no term.
    expect(leaseTerms([{ ...leaseWrite('replica-a', 'a_1', 0), status: 409 }], 'cloud-controller-manager')).toEqual([]);
  });

  it('the cloud call rate stays within the budget: a burst over qps + burst in one second is reported', () => {
    const calls = (replica: string, count: number, spacingMs: number): ProxyRecord[] => Array.from({ length: count }, (_, index) => record({ replica, startedAt: 10_000 + index * spacingMs }));
    // 10 qps, burst 10: 20 within a second is the most a token bucket allows.
    expect(budgetExceedances(calls('replica-a', 20, 50), { qps: 10, burst: 10 })).toEqual([]);
    expect(budgetExceedances(calls('replica-a', 40, 100), { qps: 10, burst: 10 })).toEqual([]);
    expect(budgetExceedances(calls('replica-a', 21, 45), { qps: 10, burst: 10 })[0]).toMatch(/replica-a sent 21 cloud requests within 1000 ms/);
    // Per replica: two replicas of 20 each are within their own budgets.
    expect(budgetExceedances([...calls('replica-a', 20, 40), ...calls('replica-b', 20, 40)], { qps: 10, burst: 10 })).toEqual([]);
  });

  it('the call budget of every provider: continuations of a call are not counted, the calls themselves are', () => {
    const burst = (count: number, operation: string, path = '/'): ProxyRecord[] => Array.from({ length: count }, (_, index) => record({ operation, path, startedAt: 10_000 + index * 2 }));
    const gce = { qps: 20, burst: 50 };
    // GCE: an insert and its operation's waits are one call; 70 inserts in a second are the most 20/s with a burst of 50 allows.
    const inserts = burst(70, 'POST global/firewalls');
    expect(budgetExceedances([...inserts, ...burst(70, 'POST global/operations/{name}/wait'), ...burst(5, 'POST /token')], gce)).toEqual([]);
    expect(budgetExceedances([...inserts, ...burst(1, 'GET global/firewalls/{name}')], gce)[0]).toMatch(/replica-a sent 71 cloud requests within 1000 ms .*budget allows 70/);
    // Further pages of a list belong to its call.
    expect(budgetExceedances([...inserts, ...burst(3, 'GET aggregated/instances', '/compute/v1/projects/p/aggregated/instances?pageToken=abc')], gce)).toEqual([]);
    expect(peakCallRate([...inserts, ...burst(30, 'POST regions/{region}/operations/{name}/wait')])).toBe(70);
    // ARM: long-running-operation polls and Entra's token requests are not calls of the budget; PUTs are.
    const arm = { qps: 10, burst: 50 };
    const puts = burst(60, 'PUT routeTables/routes');
    expect(budgetExceedances([...puts, ...burst(40, 'GET locations/operations'), ...burst(4, 'entra.token')], arm)).toEqual([]);
    expect(budgetExceedances([...puts, ...burst(1, 'GET virtualMachineScaleSets')], arm)).toHaveLength(1);
    // A PUT answered 201 is read back once at its own URL when its operation is done: part of the call; a second read is a call.
    const put = (index: number): ProxyRecord => record({ operation: 'PUT routeTables/routes', method: 'PUT', path: `/rt/routes/r${index}?api-version=1`, status: 201, startedAt: 10_000 + index * 2 });
    const read = (index: number, at: number): ProxyRecord => record({ operation: 'GET routeTables/routes', method: 'GET', path: `/rt/routes/r${index}?api-version=1`, status: 200, startedAt: at });
    const created = Array.from({ length: 55 }, (_, index) => put(index));
    const finalReads = Array.from({ length: 55 }, (_, index) => read(index, 10_200 + index));
    expect(budgetExceedances([...created, ...finalReads], arm)).toEqual([]);
    expect(budgetExceedances([...created, ...finalReads, ...Array.from({ length: 6 }, (_, index) => read(index, 10_400 + index))], arm)[0]).toMatch(/sent 61 cloud requests/);
    expect(lroFinalReads([record({ method: 'PUT', path: '/a', status: 200 }), record({ method: 'GET', path: '/a', startedAt: 1 })]).size).toBe(0);
    // AWS and vSphere: every request is a call.
    expect(budgetExceedances(burst(121, 'DescribeInstances'), { qps: 20, burst: 100 })).toHaveLength(1);
    expect(budgetExceedances(burst(301, 'RetrievePropertiesEx'), { qps: 100, burst: 200 })).toHaveLength(1);
    expect(isBudgetContinuation({ operation: 'POST regions/{region}/targetPools', path: '/' })).toBe(false);
    // Requests granted over the second before but sent late (an OAuth token awaited): with a send delay of 1 s, 10/s burst 50 allows 70 in a second.
    expect(budgetExceedances(burst(70, 'GET virtualMachineScaleSets/virtualMachines'), arm, 1_000, 1_000)).toEqual([]);
    expect(budgetExceedances(burst(71, 'GET virtualMachineScaleSets/virtualMachines'), arm, 1_000, 1_000)[0]).toMatch(/sent 71 cloud requests within 1000 ms .*budget allows 70/);
  });
});

describe('which cloud requests are writes (only the lease holder may send them)', () => {
  const write = (operation: string, method = operation.split(' ')[0] ?? 'POST'): boolean => isCloudWrite(operation, { method, path: '/', headers: {}, body: '' });

  it('GCE: inserts, deletes and patches are writes; reads, operation waits and the token-url are not', () => {
    expect(write('POST global/routes')).toBe(true);
    expect(write('DELETE regions/{region}/forwardingRules/{name}')).toBe(true);
    expect(write('PATCH global/firewalls/{name}')).toBe(true);
    expect(write('POST regions/{region}/targetPools/{name}/addInstance')).toBe(true);
    expect(write('GET zones/{zone}/instances')).toBe(false);
    expect(write('POST global/operations/{name}/wait')).toBe(false);
    expect(write('POST regions/{region}/operations/{name}/wait')).toBe(false);
    expect(write('POST /token')).toBe(false);
  });

  it('ARM: PUT/DELETE are writes; GETs and Entra token requests are not', () => {
    expect(write('PUT routeTables/routes')).toBe(true);
    expect(write('DELETE routeTables/routes')).toBe(true);
    expect(write('GET virtualMachineScaleSets/virtualMachines')).toBe(false);
    expect(write('entra.token', 'POST')).toBe(false);
    expect(write('entra.discovery', 'GET')).toBe(false);
  });
});
