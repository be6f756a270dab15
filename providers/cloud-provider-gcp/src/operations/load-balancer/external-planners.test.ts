import { describe, expect, it } from 'vitest';
import type { GceFirewall } from '../../ports/compute-port.js';
import { firewallNeedsUpdate, firewallPorts, forwardingRuleNeedsRecreation, healthCheckFirewallNeedsUpdate, planHealthCheck, planTargetPoolMembers, targetPoolNeedsRecreation } from './external-planners.js';

const base = 'https://compute.googleapis.com/compute/v1/';
const other = 'http://127.0.0.1:9999/compute/v1/';

describe('firewallPorts', () => {
  it.each([
    [[80], ['80']],
    [[443, 80, 81, 82], ['80-82', '443']],
    [[8080, 8080, 9000, 9001], ['8080', '9000-9001']],
  ])('%j -> %j', (ports, expected) => {
    expect(firewallPorts(ports)).toEqual(expected);
  });
});

describe('firewallNeedsUpdate', () => {
  const desired: GceFirewall = {
    name: 'k8s-fw-a',
    network: `${base}projects/p/global/networks/n`,
    description: 'd',
    sourceRanges: ['0.0.0.0/0'],
    destinationRanges: ['1.2.3.4'],
    targetTags: ['a', 'b'],
    allowed: [{ IPProtocol: 'tcp', ports: ['80', '443'] }],
    priority: 1000,
  };
  it.each<[string, Partial<GceFirewall>, boolean]>([
    ['the same, written through another endpoint, in another order', { network: `${other}projects/p/global/networks/n`, targetTags: ['b', 'a'], allowed: [{ IPProtocol: 'TCP', ports: ['443', '80'] }] }, false],
    ['other source ranges', { sourceRanges: ['10.0.0.0/8'] }, true],
    ['another destination', { destinationRanges: ['5.6.7.8'] }, true],
    ['other tags', { targetTags: ['a'] }, true],
    ['other ports', { allowed: [{ IPProtocol: 'tcp', ports: ['80'] }] }, true],
    ['another description', { description: 'x' }, true],
    ['another priority', { priority: 999 }, true],
  ])('%s -> %s', (_case, observed, expected) => {
    expect(firewallNeedsUpdate(desired, { ...desired, ...observed })).toBe(expected);
  });
});

describe('healthCheckFirewallNeedsUpdate (upstream ensureHTTPHealthCheckFirewall)', () => {
  const desired: GceFirewall = {
    name: 'k8s-abc-node-http-hc',
    network: `${base}projects/p/global/networks/n`,
    description: '{"kubernetes.io/cluster-id":"abc"}',
    sourceRanges: ['130.211.0.0/22', '35.191.0.0/16'],
    destinationRanges: [],
    targetTags: ['a'],
    allowed: [{ IPProtocol: 'tcp', ports: ['10256'] }],
    priority: 1000,
  };
  it.each<[string, Partial<GceFirewall>, boolean]>([
    ['upstream\'s: the IP of the load balancer that created it as destination', { destinationRanges: ['34.1.0.7'] }, false],
    ['other tags, priority or network endpoint', { targetTags: ['b'], priority: 900, network: `${other}projects/p/global/networks/n` }, false],
    ['source ranges in another order', { sourceRanges: ['35.191.0.0/16', '130.211.0.0/22'] }, false],
    ['another description', { description: '{"kubernetes.io/cluster-id":"old"}' }, true],
    ['other source ranges', { sourceRanges: ['10.0.0.0/8'] }, true],
    ['another port', { allowed: [{ IPProtocol: 'tcp', ports: ['31000'] }] }, true],
    ['another protocol', { allowed: [{ IPProtocol: 'udp', ports: ['10256'] }] }, true],
    ['two allowed entries', { allowed: [{ IPProtocol: 'tcp', ports: ['10256'] }, { IPProtocol: 'udp', ports: ['10256'] }] }, true],
  ])('%s -> %s', (_case, observed, expected) => {
    expect(healthCheckFirewallNeedsUpdate(desired, { ...desired, ...observed })).toBe(expected);
  });
});

describe('planHealthCheck', () => {
  const spec = { name: 'k8s-c-node', port: 10256, path: '/healthz', description: 'd', firewallDescription: 'fd', shared: true, firewallName: 'f' };
  const current = { name: 'k8s-c-node', port: 10256, requestPath: '/healthz', description: 'd', checkIntervalSec: 8, timeoutSec: 1, healthyThreshold: 1, unhealthyThreshold: 3 };
  it('creates a missing check with the upstream timing', () => {
    expect(planHealthCheck(spec, undefined)).toEqual(current);
  });
  it('leaves a matching check, and larger timings someone set, alone', () => {
    expect(planHealthCheck(spec, current)).toBeUndefined();
    expect(planHealthCheck(spec, { ...current, checkIntervalSec: 30, unhealthyThreshold: 5 })).toBeUndefined();
  });
  it('raises smaller timings and fixes port, path and description', () => {
    expect(planHealthCheck(spec, { ...current, checkIntervalSec: 2, port: 80 })).toEqual(current);
    expect(planHealthCheck(spec, { ...current, timeoutSec: 5, requestPath: '/' })).toEqual({ ...current, timeoutSec: 5 });
  });
});

describe('planTargetPoolMembers', () => {
  it('adds and removes by resource path', () => {
    const observed = { name: 'p', instances: [`${other}projects/p/zones/z/instances/a`, `${other}projects/p/zones/z/instances/b`], healthChecks: [] };
    expect(planTargetPoolMembers([`${base}projects/p/zones/z/instances/b`, `${base}projects/p/zones/z/instances/c`], observed)).toEqual({
      add: [`${base}projects/p/zones/z/instances/c`],
      remove: [`${other}projects/p/zones/z/instances/a`],
    });
  });
});

describe('recreation', () => {
  const check = `${base}projects/p/global/httpHealthChecks/k8s-c-node`;
  it.each([
    [{ sessionAffinity: 'NONE', healthChecks: [check] }, false],
    [{ sessionAffinity: 'CLIENT_IP', healthChecks: [check] }, true],
    [{ healthChecks: [`${base}projects/p/global/httpHealthChecks/a1`] }, true],
    [{ healthChecks: [] }, true],
  ])('target pool %j -> %s', (observed, expected) => {
    expect(targetPoolNeedsRecreation({ name: 'a', instances: [], ...observed }, 'NONE', check)).toBe(expected);
  });
  const desired = { IPAddress: '1.2.3.4', IPProtocol: 'TCP', portRange: '80-443', target: `${base}projects/p/regions/r/targetPools/a`, networkTier: 'PREMIUM' };
  it.each([
    [{}, false],
    [{ target: `${other}projects/p/regions/r/targetPools/a` }, false],
    [{ portRange: '80-80' }, true],
    [{ IPAddress: '5.6.7.8' }, true],
    [{ IPProtocol: 'UDP' }, true],
    [{ networkTier: 'STANDARD' }, true],
  ])('forwarding rule %j -> %s', (observed, expected) => {
    expect(forwardingRuleNeedsRecreation({ name: 'a', ...desired, ...observed }, desired)).toBe(expected);
  });
});
