/**
 * Every annotation of the OpenStack registry fed invalid values. Each annotation either has values
 * that are wrong whatever the cloud does (then `buildLoadBalancerSpec` throws
 * PermanentInvalidServiceConfigurationError naming the annotation and the value, before any cloud
 * call), or takes any text (then the reason is written here). A seeded fuzzer then feeds every
 * annotation random text: the builder returns a spec or throws the typed invalid-input error
 * naming the annotation, never anything else.
 */
import type { V1Service } from '@kubernetes/client-node';
import { InvalidServiceConfigurationError, PermanentInvalidServiceConfigurationError } from '@ccm/core/provider';
import { badInputRuns, expectInvalidAnnotation } from '@ccm/testing/bad-input';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALL_ANNOTATIONS, ANNOTATIONS } from '../../src/annotations.js';
import { buildLoadBalancerSpec } from '../../src/operations/load-balancer/load-balancer-spec.js';
import { DEFAULT_LOAD_BALANCER_SETTINGS, type LoadBalancerSettings } from '../../src/operations/load-balancer/load-balancer-settings.js';

interface InvalidValues {
  values: string[];
  /** Other annotations the check needs (e.g. a monitor for its timing). */
  with?: Record<string, string>;
}

/** Upstream `getBoolFromServiceAnnotation` knows `true` and `false` only (anything else: a logged error). */
const NOT_A_BOOLEAN = ['maybe', 'yes', 'on', '1', '0', 't'];
/** Upstream `getIntFromServiceAnnotation` is `strconv.Atoi`. */
const NOT_AN_INTEGER = ['ten', '1.5', '0x10', '1e3', '+-1', '5s', '99999999999999999999'];
const MONITOR = { [ANNOTATIONS.enableHealthMonitor.key]: 'true' };

/** Per annotation: invalid values, or why any value is accepted at this stage. */
const TABLE: Record<string, InvalidValues[] | { anyValue: string }> = {
  [ANNOTATIONS.internal.key]: [{ values: NOT_A_BOOLEAN }],
  [ANNOTATIONS.floatingNetworkId.key]: { anyValue: 'a Neutron network ID, checked by Neutron when the floating IP is created' },
  [ANNOTATIONS.floatingSubnetId.key]: { anyValue: 'a Neutron subnet ID, checked by Neutron when the floating IP is created' },
  [ANNOTATIONS.floatingSubnet.key]: { anyValue: 'accepted and ignored (subnet selection by name pattern is not implemented)' },
  [ANNOTATIONS.floatingSubnetTags.key]: { anyValue: 'accepted and ignored (subnet selection by tags is not implemented)' },
  [ANNOTATIONS.loadBalancerClass.key]: { anyValue: 'accepted and ignored ([LoadBalancerClass] sections are not implemented)' },
  [ANNOTATIONS.subnetId.key]: { anyValue: 'a Neutron subnet ID, checked by Octavia when the load balancer is created' },
  [ANNOTATIONS.memberSubnetId.key]: { anyValue: 'a Neutron subnet ID, checked by Octavia when the members are set' },
  [ANNOTATIONS.networkId.key]: { anyValue: 'a Neutron network ID, looked up in Neutron for its subnets' },
  [ANNOTATIONS.portId.key]: { anyValue: 'a Neutron port ID, checked by Octavia (vip_port_id) when the load balancer is created' },
  [ANNOTATIONS.connectionLimit.key]: [{ values: [...NOT_AN_INTEGER, '-2', '2147483648'] }],
  [ANNOTATIONS.keepFloatingIp.key]: [{ values: NOT_A_BOOLEAN }],
  [ANNOTATIONS.proxyProtocol.key]: [{ values: ['v3', 'yes', 'PROXY', '1', 'v1,v2'] }],
  [ANNOTATIONS.xForwardedFor.key]: [{ values: NOT_A_BOOLEAN }],
  [ANNOTATIONS.lbMethod.key]: [{ values: ['RANDOM', 'round-robin', 'ROUND ROBIN', 'LEAST_CONN', 'SOURCE_IP,ROUND_ROBIN'] }],
  [ANNOTATIONS.timeoutClientData.key]: [{ values: [...NOT_AN_INTEGER, '-1', '31536000001'] }],
  [ANNOTATIONS.timeoutMemberConnect.key]: [{ values: [...NOT_AN_INTEGER, '-1', '31536000001'] }],
  [ANNOTATIONS.timeoutMemberData.key]: [{ values: [...NOT_AN_INTEGER, '-1', '31536000001'] }],
  [ANNOTATIONS.timeoutTcpInspect.key]: [{ values: [...NOT_AN_INTEGER, '-1', '31536000001'] }],
  [ANNOTATIONS.enableHealthMonitor.key]: [{ values: NOT_A_BOOLEAN }],
  [ANNOTATIONS.healthMonitorDelay.key]: [{ values: [...NOT_AN_INTEGER, '-1'] }],
  [ANNOTATIONS.healthMonitorTimeout.key]: [
    { values: [...NOT_AN_INTEGER, '-1'] },
    // Octavia: the timeout must not exceed the delay (5 s by default).
    { values: ['6', '60'], with: MONITOR },
  ],
  // Octavia: max_retries and max_retries_down are 1-10.
  [ANNOTATIONS.healthMonitorMaxRetries.key]: [{ values: [...NOT_AN_INTEGER, '0', '11', '-1'] }],
  [ANNOTATIONS.healthMonitorMaxRetriesDown.key]: [{ values: [...NOT_AN_INTEGER, '0', '11', '-1'] }],
  [ANNOTATIONS.flavorId.key]: { anyValue: 'an Octavia flavor ID, checked by Octavia when the load balancer is created' },
  [ANNOTATIONS.availabilityZone.key]: { anyValue: 'an Octavia availability zone name, checked by Octavia when the load balancer is created' },
  [ANNOTATIONS.defaultTlsContainerRef.key]: { anyValue: 'accepted and ignored (no Barbican, no TERMINATED_HTTPS listeners)' },
  [ANNOTATIONS.loadBalancerId.key]: { anyValue: 'compared with the Service\'s own load balancer once it is looked up in Octavia (an existing other one is refused then, a gone one replaced)' },
  [ANNOTATIONS.loadBalancerAddress.key]: { anyValue: 'written by the CCM (the load balancer\'s address), never read' },
  [ANNOTATIONS.hostname.key]: { anyValue: 'reported as the ingress hostname as it is; upstream does not check it either (the API server validates the status)' },
  [ANNOTATIONS.nodeSelector.key]: [{ values: ['=worker', 'role=a=b', 'zone,=x', 'a==b'] }],
  // Upstream `GetLoadBalancerSourceRanges` refuses what is not a CIDR.
  [ANNOTATIONS.sourceRanges.key]: [{ values: ['not-a-cidr', '10.0.0.0/8,not-a-cidr', '10.0.0.256/8', '10.0.0.0/33', '10.0.0.1', 'fd00::/129'] }],
};

function makeService(annotations: Record<string, string>, spec: Partial<NonNullable<V1Service['spec']>> = {}): V1Service {
  return { metadata: { name: 'web', namespace: 'shop', annotations }, spec: { type: 'LoadBalancer', ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }], ...spec } };
}

function build(annotations: Record<string, string>, settings: LoadBalancerSettings = DEFAULT_LOAD_BALANCER_SETTINGS, spec: Partial<NonNullable<V1Service['spec']>> = {}): unknown {
  return buildLoadBalancerSpec(makeService(annotations, spec), 'kubernetes', settings);
}

describe('OpenStack annotations fed invalid values', () => {
  it('the table covers every annotation of the registry', () => {
    expect(Object.keys(TABLE).sort()).toEqual(ALL_ANNOTATIONS.map((annotation) => annotation.key).sort());
  });

  it('every annotation the table accepts any value of is accepted with odd text', () => {
    for (const [key, entry] of Object.entries(TABLE)) {
      if (!('anyValue' in entry)) continue;
      expect(() => build({ [key]: '!@#$ not an id = , ;' }), key).not.toThrow();
    }
  });

  const cases = Object.entries(TABLE).flatMap(([key, entry]) =>
    'anyValue' in entry ? [] : entry.flatMap((group) => group.values.map((value) => ({ key, value, with: group.with ?? {} }))),
  );

  it.each(cases)('$key=$value throws PermanentInvalidServiceConfigurationError naming both', ({ key, value, with: other }) => {
    expectInvalidAnnotation(() => build({ ...other, [key]: value }), key, value);
  });

  it('random values for every annotation give a spec or the typed invalid-input error naming the annotation, nothing else', () => {
    const keys = ALL_ANNOTATIONS.map((annotation) => annotation.key);
    const value = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.string({ unit: 'binary', maxLength: 60 }),
      fc.constantFrom('', ' ', ',', '=', '*', '-1', '0', '1', '10', '11', '1e3', 'true', 'false', 'TRUE', 'v2', 'round_robin', '10.0.0.0/8', 'fd00::/8', 'a=b,c'),
    );
    const settings = fc.record({ createMonitor: fc.boolean(), internal: fc.boolean(), provider: fc.constantFrom('amphora', 'ovn') });
    const spec = fc.record({ externalTrafficPolicy: fc.constantFrom('Cluster', 'Local'), healthCheckNodePort: fc.constantFrom(0, 32000), sessionAffinity: fc.constantFrom('None', 'ClientIP') });
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: 5 }), settings, spec, (annotations, overrides, fields) => {
        try {
          build(annotations, { ...DEFAULT_LOAD_BALANCER_SETTINGS, ...overrides }, fields);
        } catch (error) {
          if (!(error instanceof InvalidServiceConfigurationError)) throw error;
          if (error.annotation === undefined || !keys.includes(error.annotation) || !error.message.includes(error.annotation)) throw error;
        }
      }),
      { seed: 1316, numRuns: badInputRuns() },
    );
  });
});
