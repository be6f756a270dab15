import type { V1Node, V1Service } from '@kubernetes/client-node';
import { isPermanentInvalidInput } from '@ccm/core/provider';
import { describe, expect, it } from 'vitest';
import type { GceBackendService, GceForwardingRule, GceHealthCheck } from '../../ports/compute-port.js';
import { backendServiceName, instanceGroupName, internalHealthCheckFirewallName, internalHealthCheckName } from './internal-load-balancer-names.js';
import { buildInternalLoadBalancerSpec } from './internal-load-balancer-spec.js';
import {
  backendServiceNeedsUpdate,
  internalForwardingRuleNeedsRecreation,
  internalForwardingRulePorts,
  internalIpToUse,
  MAX_INSTANCES_PER_INSTANCE_GROUP,
  nodesByZone,
  planInstanceGroupMembers,
  planInternalHealthCheck,
} from './internal-planners.js';

const base = 'https://compute.googleapis.com/compute/v1/';
const other = 'http://127.0.0.1:9999/compute/v1/';
const node = (name: string, labels: Record<string, string> = {}): V1Node => ({ metadata: { name, labels } });

describe('internal load balancer names (upstream gce_loadbalancer_naming.go)', () => {
  it.each([
    ['instance group', instanceGroupName('abc123'), 'k8s-ig--abc123'],
    ['instance group without a cluster ID', instanceGroupName(''), 'k8s-ig'],
    ['per-service backend service', backendServiceName('a1234', 'abc123', false, 'TCP', 'None'), 'a1234'],
    // The first 16 hex digits of sha1("None").
    ['shared backend service, affinity None', backendServiceName('a1234', 'abc123', true, 'TCP', 'None'), 'k8s-abc123-internal-tcp-nmv1-6eef6648406c333a'],
    ['shared health check', internalHealthCheckName('a1234', 'abc123', true), 'k8s-abc123-node'],
    ['per-service health check', internalHealthCheckName('a1234', 'abc123', false), 'a1234'],
    ['shared health check firewall', internalHealthCheckFirewallName('k8s-abc123-node'), 'k8s-abc123-node-hc'],
    ['per-service health check firewall', internalHealthCheckFirewallName('a1234'), 'a1234-hc'],
  ])('%s: %s', (_what, actual, expected) => {
    expect(actual).toBe(expected);
  });

  it('shared backend services of another affinity or protocol get another name', () => {
    const none = backendServiceName('a', 'id', true, 'TCP', 'None');
    expect(backendServiceName('a', 'id', true, 'TCP', 'ClientIP')).not.toBe(none);
    expect(backendServiceName('a', 'id', true, 'UDP', 'None')).toMatch(/^k8s-id-internal-udp-nmv1-[0-9a-f]{16}$/);
  });
});

describe('buildInternalLoadBalancerSpec', () => {
  const service = (spec: V1Service['spec'] = {}, annotations: Record<string, string> = {}): V1Service => ({
    metadata: { name: 'web', namespace: 'shop', uid: '11111111-2222-3333-4444-555555555555', annotations },
    spec: { type: 'LoadBalancer', ports: [{ port: 80, protocol: 'TCP' }], ...spec },
  });
  it('Cluster traffic: the shared node health check on 10256 /healthz, a per-service backend service', () => {
    const spec = buildInternalLoadBalancerSpec(service(), 'cid');
    expect(spec.healthCheck).toEqual({ name: 'k8s-cid-node', port: 10256, path: '/healthz', description: '', shared: true, firewallName: 'k8s-cid-node-hc' });
    expect(spec.backendService).toEqual({ name: spec.name, description: '{"kubernetes.io/service-name":"shop/web"}', shared: false });
    expect(spec.instanceGroupName).toBe('k8s-ig--cid');
  });
  it('Local traffic: the Service health check on healthCheckNodePort; backend share ignored', () => {
    const spec = buildInternalLoadBalancerSpec(service({ externalTrafficPolicy: 'Local', healthCheckNodePort: 31000 }, { 'alpha.cloud.google.com/load-balancer-backend-share': 'true' }), 'cid');
    expect(spec.healthCheck).toMatchObject({ name: spec.name, port: 31000, description: '{"kubernetes.io/service-name":"shop/web"}', shared: false, firewallName: `${spec.name}-hc` });
    expect(spec.backendService.shared).toBe(false);
  });
  it.each([['alpha.cloud.google.com/load-balancer-backend-share'], ['cloud.google.com/load-balancer-backend-share']])('%s: true shares the backend service (no description)', (key) => {
    const spec = buildInternalLoadBalancerSpec(service({ sessionAffinity: 'None' }, { [key]: 'true' }), 'cid');
    expect(spec.backendService).toEqual({ name: 'k8s-cid-internal-tcp-nmv1-6eef6648406c333a', description: '', shared: true });
  });
  it('reads global access, the subnet, the requested IP and affinity', () => {
    const spec = buildInternalLoadBalancerSpec(
      service({ loadBalancerIP: '10.0.0.9', sessionAffinity: 'ClientIP' }, { 'networking.gke.io/internal-load-balancer-allow-global-access': 'true', 'networking.gke.io/internal-load-balancer-subnet': 'ilb-subnet' }),
      'cid',
    );
    expect(spec).toMatchObject({ allowGlobalAccess: true, subnetName: 'ilb-subnet', requestedIp: '10.0.0.9', sessionAffinity: 'CLIENT_IP' });
  });
  it.each<[string, V1Service]>([
    ['a bad global-access value', service({}, { 'networking.gke.io/internal-load-balancer-allow-global-access': 'yes' })],
    ['a bad subnet name', service({}, { 'networking.gke.io/internal-load-balancer-subnet': 'Not_A_Subnet' })],
    ['a bad backend-share value', service({}, { 'alpha.cloud.google.com/load-balancer-backend-share': 'on' })],
    ['mixed protocols', service({ ports: [{ port: 80, protocol: 'TCP' }, { port: 53, protocol: 'UDP' }] })],
    ['SCTP', service({ ports: [{ port: 80, protocol: 'SCTP' }] })],
    ['Local without a health check node port', service({ externalTrafficPolicy: 'Local' })],
    ['a bad source range', service({ loadBalancerSourceRanges: ['10.0.0.0/33x'] })],
  ])('rejects %s as invalid input', (_what, bad) => {
    let thrown: unknown;
    try {
      buildInternalLoadBalancerSpec(bad, 'cid');
    } catch (error) {
      thrown = error;
    }
    expect(isPermanentInvalidInput(thrown)).toBe(true);
  });
});

describe('nodesByZone', () => {
  it('groups by the zone label (then the beta one), skips nodes without a zone and nodes of another subnetwork', () => {
    const { zoned, withoutZone } = nodesByZone(
      [
        node('b.c.project.internal', { 'topology.kubernetes.io/zone': 'z1' }),
        node('a', { 'topology.kubernetes.io/zone': 'z1' }),
        node('c', { 'failure-domain.beta.kubernetes.io/zone': 'z2' }),
        node('d'),
        node('e', { 'topology.kubernetes.io/zone': 'z2', 'cloud.google.com/gke-node-pool-subnet': 'other' }),
        node('f', { 'topology.kubernetes.io/zone': 'z2', 'cloud.google.com/gke-node-pool-subnet': 'nodes' }),
        node('g', { 'topology.kubernetes.io/zone': 'z2', 'cloud.google.com/gke-node-pool-subnet': '' }),
      ],
      'nodes',
    );
    expect(Object.fromEntries(zoned)).toEqual({ z1: ['a', 'b'], z2: ['c', 'f', 'g'] });
    expect(withoutZone).toEqual(['d']);
  });
});

describe('planInstanceGroupMembers', () => {
  const url = (name: string): string => `${base}projects/p/zones/z1/instances/${name}`;
  it.each<[string, string[], string[], string[], { add: string[]; remove: string[] }]>([
    ['nothing to do', ['a', 'b'], [url('a'), url('b')], [], { add: [], remove: [] }],
    ['adds and removes as a diff', ['a', 'c'], [url('a'), url('b')], [], { add: ['c'], remove: [url('b')] }],
    ['keeps members whose node has no zone label', ['a'], [url('a'), url('d')], ['d'], { add: [], remove: [] }],
  ])('%s', (_what, desired, observed, keep, expected) => {
    expect(planInstanceGroupMembers(desired, observed, keep)).toEqual(expected);
  });
  it('keeps at most the first 1000 names in name order', () => {
    const names = Array.from({ length: MAX_INSTANCES_PER_INSTANCE_GROUP + 5 }, (_, index) => `n${String(index).padStart(5, '0')}`).reverse();
    const plan = planInstanceGroupMembers(names, [], []);
    expect(plan.add).toHaveLength(MAX_INSTANCES_PER_INSTANCE_GROUP);
    expect(plan.add.at(-1)).toBe('n00999');
  });
});

describe('internalForwardingRulePorts', () => {
  it.each<[number[], object]>([
    [[80], { ports: ['80'] }],
    [[1, 2, 3, 4, 5], { ports: ['1', '2', '3', '4', '5'] }],
    [[1, 2, 3, 4, 5, 6], { allPorts: true }],
  ])('%j -> %j', (ports, expected) => {
    expect(internalForwardingRulePorts(ports)).toEqual(expected);
  });
});

describe('internalForwardingRuleNeedsRecreation (upstream forwardingRulesEqual)', () => {
  const desired: GceForwardingRule = {
    name: 'a',
    IPAddress: '10.0.0.5',
    IPProtocol: 'TCP',
    loadBalancingScheme: 'INTERNAL',
    backendService: `${base}projects/p/regions/r/backendServices/a`,
    ports: ['80', '443'],
    subnetwork: `${base}projects/p/regions/r/subnetworks/s`,
  };
  it.each<[string, Partial<GceForwardingRule>, boolean]>([
    ['the same through another endpoint, ports in another order', { backendService: `${other}projects/p/regions/r/backendServices/a`, ports: ['443', '80'] }, false],
    ['the observed rule has no IP yet', { IPAddress: undefined }, false],
    ['another IP', { IPAddress: '10.0.0.6' }, true],
    ['another protocol', { IPProtocol: 'UDP' }, true],
    ['another scheme', { loadBalancingScheme: 'EXTERNAL' }, true],
    ['other ports', { ports: ['80'] }, true],
    ['all ports', { ports: undefined, allPorts: true }, true],
    ['another backend service', { backendService: `${base}projects/p/regions/r/backendServices/k8s-shared` }, true],
    ['global access', { allowGlobalAccess: true }, true],
    ['another subnetwork', { subnetwork: `${base}projects/p/regions/r/subnetworks/other` }, true],
  ])('%s -> %s', (_what, change, expected) => {
    expect(internalForwardingRuleNeedsRecreation({ ...desired, ...change }, desired)).toBe(expected);
  });
});

describe('backendServiceNeedsUpdate (upstream backendSvcEqual)', () => {
  const desired: GceBackendService = {
    name: 'a',
    protocol: 'TCP',
    description: 'd',
    healthChecks: [`${base}projects/p/global/healthChecks/hc`],
    backends: [{ group: `${base}projects/p/zones/z1/instanceGroups/ig` }, { group: `${base}projects/p/zones/z2/instanceGroups/ig` }],
    sessionAffinity: 'NONE',
    loadBalancingScheme: 'INTERNAL',
  };
  it.each<[string, Partial<GceBackendService>, boolean]>([
    ['the same, other endpoint and order, with a fingerprint', { fingerprint: 'x', backends: [...desired.backends].reverse().map((backend) => ({ group: backend.group.replace(base, other) })) }, false],
    ['a backend less', { backends: desired.backends.slice(0, 1) }, true],
    ['another health check', { healthChecks: [`${base}projects/p/global/healthChecks/other`] }, true],
    ['another affinity', { sessionAffinity: 'CLIENT_IP' }, true],
    ['another protocol', { protocol: 'UDP' }, true],
    ['another description', { description: '' }, true],
  ])('%s -> %s', (_what, change, expected) => {
    expect(backendServiceNeedsUpdate(desired, { ...desired, ...change })).toBe(expected);
  });
});

describe('planInternalHealthCheck', () => {
  const spec = { name: 'k8s-cid-node', port: 10256, path: '/healthz', description: '', shared: true, firewallName: 'k8s-cid-node-hc' };
  const good: GceHealthCheck = { name: 'k8s-cid-node', type: 'HTTP', port: 10256, requestPath: '/healthz', description: '', checkIntervalSec: 8, timeoutSec: 1, healthyThreshold: 1, unhealthyThreshold: 3 };
  it('creates the HTTP check with upstream timings', () => {
    expect(planInternalHealthCheck(spec, undefined)).toEqual(good);
  });
  it.each<[string, Partial<GceHealthCheck>, Partial<GceHealthCheck> | undefined]>([
    ['unchanged', {}, undefined],
    ['larger timings are kept and need nothing', { checkIntervalSec: 30, unhealthyThreshold: 5 }, undefined],
    ['another port', { port: 80 }, { port: 10256 }],
    ['a TCP check becomes HTTP', { type: 'TCP', port: undefined, requestPath: undefined }, { type: 'HTTP', port: 10256, requestPath: '/healthz' }],
    ['smaller timings are raised, larger ones kept', { checkIntervalSec: 2, timeoutSec: 5 }, { checkIntervalSec: 8, timeoutSec: 5 }],
  ])('%s', (_what, observed, expected) => {
    const planned = planInternalHealthCheck(spec, { ...good, ...observed });
    if (expected === undefined) expect(planned).toBeUndefined();
    else expect(planned).toMatchObject(expected);
  });
});

describe('internalIpToUse (upstream ilbIPToUse)', () => {
  const subnet = `${base}projects/p/regions/r/subnetworks/s`;
  it.each<[string, string | undefined, GceForwardingRule | undefined, string, string | undefined]>([
    ['the requested IP wins', '10.0.0.9', { name: 'a', IPAddress: '10.0.0.5', subnetwork: subnet }, subnet, '10.0.0.9'],
    ['the existing rule IP in the same subnetwork', undefined, { name: 'a', IPAddress: '10.0.0.5', subnetwork: subnet.replace(base, other) }, subnet, '10.0.0.5'],
    ['a subnetwork change drops the IP', undefined, { name: 'a', IPAddress: '10.0.0.5', subnetwork: subnet }, `${base}projects/p/regions/r/subnetworks/t`, undefined],
    ['no rule: allocated', undefined, undefined, subnet, undefined],
  ])('%s', (_what, requested, rule, subnetwork, expected) => {
    expect(internalIpToUse(requested, rule, subnetwork)).toBe(expected);
  });
});
