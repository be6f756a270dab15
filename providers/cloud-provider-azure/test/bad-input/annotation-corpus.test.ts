/**
 * Every annotation of the Azure registry fed invalid values. Each annotation either has values
 * that are wrong whatever the cloud does (then reading the Service's options, or building its
 * load balancer spec, throws PermanentInvalidServiceConfigurationError naming the annotation and
 * the value, before any cloud call), or takes any text (then the reason is written here). A
 * seeded fuzzer then feeds every annotation random text: the spec builder returns a spec or throws
 * the typed invalid-input error naming the annotation, never anything else.
 */
import type { V1Service } from '@kubernetes/client-node';
import { InvalidServiceConfigurationError, PermanentInvalidServiceConfigurationError } from '@ccm/core/provider';
import { badInputRuns, expectInvalidAnnotation } from '@ccm/testing/bad-input';
import { describe, expect, it } from 'vitest';
import { ALL_ANNOTATIONS, ANNOTATIONS, readServiceLoadBalancerOptions, type AnnotationDefinition } from '../../src/annotations.js';
import { buildServiceLoadBalancerSpec } from '../../src/operations/load-balancer/service-load-balancer-spec.js';
import fc from 'fast-check';

type Kind = 'external' | 'internal';

interface InvalidValues {
  /** The load balancer kind the values are read for. */
  kind: Kind;
  values: string[];
  /** Other annotations the check needs. */
  with?: Record<string, string>;
}

/** The service port the `port_{port}_...` annotations are written for. */
const PORT = 80;
const INTERNAL = { [ANNOTATIONS.internal.key]: 'true' };
const forPort = (key: string): string => key.replace('{port}', String(PORT));

const NOT_A_BOOLEAN = ['maybe', 'yes', 'on', '1', '2', 'truee'];
const NOT_AN_INTEGER = ['ten', '1.5', '0x10', '-5', '1e2', '99999999999999999999'];
const NOT_A_PROBE_PROTOCOL = ['udp', 'icmp', 'tcp6', 'HTTP2', ''];
const NOT_A_REQUEST_PATH = ['healthz', 'http://example.test/healthz', ''];
const both = (values: string[], extra: Omit<InvalidValues, 'kind' | 'values'> = {}): InvalidValues[] => [
  { kind: 'external', values, ...extra },
  { kind: 'internal', values, ...extra },
];
const ignored = (definition: AnnotationDefinition): { anyValue: string } => ({ anyValue: `accepted and ignored: ${definition.reason ?? ''}` });

/** Per annotation: invalid values, or why any value is accepted at this stage. */
const TABLE: Record<string, InvalidValues[] | { anyValue: string }> = {
  [ANNOTATIONS.internal.key]: { anyValue: 'upstream: only `true` (any case) means internal, anything else is external' },
  [ANNOTATIONS.internalSubnet.key]: [{ kind: 'internal', values: ['-nodes', 'sub net', 'vnet/subnet', 'nodes!', 'a'.repeat(81)] }],
  [ANNOTATIONS.mode.key]: ignored(ANNOTATIONS.mode),
  [ANNOTATIONS.resourceGroup.key]: { anyValue: 'a resource group name resolved by ARM when the public IP is read or created' },
  [ANNOTATIONS.ipv4.key]: both(['not-an-ip', '10.0.0.256', '2001:db8::1', '10.0.0.0/24']),
  [ANNOTATIONS.ipv6.key]: both(['not-an-ip', '10.0.0.1', '2001:db8::/64', 'fd00::zz']),
  [ANNOTATIONS.pipName.key]: [{ kind: 'external', values: ['-pip', 'pip.', 'my pip', 'pip/name', 'a'.repeat(81)] }],
  [ANNOTATIONS.pipNameIpv6.key]: [{ kind: 'external', values: ['-pip', 'pip.', 'my pip', 'pip/name', 'a'.repeat(81)] }],
  [ANNOTATIONS.pipPrefixId.key]: ignored(ANNOTATIONS.pipPrefixId),
  [ANNOTATIONS.pipPrefixIdIpv6.key]: ignored(ANNOTATIONS.pipPrefixIdIpv6),
  // upstream ConvertTagsToMap: every entry must be key=value.
  [ANNOTATIONS.pipTags.key]: [{ kind: 'external', values: ['novalue', '=value', 'a=b,broken', 'a=b,=c'] }],
  [ANNOTATIONS.pipIpTags.key]: [{ kind: 'external', values: ['RoutingPreference', '=Internet', 'RoutingPreference=Internet,FirstPartyUsage'] }],
  [ANNOTATIONS.dnsLabelName.key]: [{ kind: 'external', values: ['My-Label', '1label', 'label-', 'ab', 'label.with.dots', 'a'.repeat(64)] }],
  [ANNOTATIONS.allowedServiceTags.key]: both(['10.0.0.0/8', 'Storage,Azure-Cloud', 'Az ure', '*', '.Storage']),
  [ANNOTATIONS.allowedIpRanges.key]: both(['not-a-cidr', '10.0.0.1', '10.0.0.0/33', '300.0.0.0/8', '10.0.0.0/8,2001:db8::/129', '10.0.0.0/8/8']),
  [ANNOTATIONS.denyAllExceptSourceRanges.key]: both(NOT_A_BOOLEAN),
  [ANNOTATIONS.disableNsgRule.key]: both(NOT_A_BOOLEAN),
  [ANNOTATIONS.sharedSecurityRule.key]: ignored(ANNOTATIONS.sharedSecurityRule),
  [ANNOTATIONS.tcpIdleTimeout.key]: both([...NOT_AN_INTEGER, '3', '101', '0']),
  // upstream: HA ports need an internal standard load balancer.
  [ANNOTATIONS.haPorts.key]: [
    { kind: 'external', values: ['true'] },
    { kind: 'internal', values: NOT_A_BOOLEAN },
  ],
  [ANNOTATIONS.disableTcpReset.key]: both(NOT_A_BOOLEAN),
  [ANNOTATIONS.disableFloatingIp.key]: both(NOT_A_BOOLEAN),
  [ANNOTATIONS.probeProtocol.key]: both(NOT_A_PROBE_PROTOCOL),
  [ANNOTATIONS.probeRequestPath.key]: both(NOT_A_REQUEST_PATH),
  // upstream: interval at least 5, interval × number of probes under 120.
  [ANNOTATIONS.probeInterval.key]: both([...NOT_AN_INTEGER, '4', '0', '120', '60']),
  [ANNOTATIONS.probeNumOfProbe.key]: [...both([...NOT_AN_INTEGER, '0', '120', '24']), { kind: 'external', values: ['4'], with: { [ANNOTATIONS.probeInterval.key]: '30' } }],
  [ANNOTATIONS.portNoLbRule.key]: both(NOT_A_BOOLEAN),
  [ANNOTATIONS.portNoProbeRule.key]: both(NOT_A_BOOLEAN),
  [ANNOTATIONS.portProbeProtocol.key]: both(NOT_A_PROBE_PROTOCOL),
  [ANNOTATIONS.portProbePort.key]: both(['0', '65536', '', 'no-such-port', 'http2']),
  [ANNOTATIONS.portProbeInterval.key]: both([...NOT_AN_INTEGER, '4', '120', '60']),
  [ANNOTATIONS.portProbeNumOfProbe.key]: [...both([...NOT_AN_INTEGER, '0', '24']), { kind: 'external', values: ['4'], with: { [ANNOTATIONS.probeInterval.key]: '30' } }],
  [ANNOTATIONS.portProbeRequestPath.key]: both(NOT_A_REQUEST_PATH),
  [ANNOTATIONS.additionalPublicIps.key]: ignored(ANNOTATIONS.additionalPublicIps),
  [ANNOTATIONS.loadBalancerConfigurations.key]: ignored(ANNOTATIONS.loadBalancerConfigurations),
  [ANNOTATIONS.plsCreate.key]: ignored(ANNOTATIONS.plsCreate),
  [ANNOTATIONS.plsName.key]: ignored(ANNOTATIONS.plsName),
  [ANNOTATIONS.plsResourceGroup.key]: ignored(ANNOTATIONS.plsResourceGroup),
  [ANNOTATIONS.plsIpConfigurationSubnet.key]: ignored(ANNOTATIONS.plsIpConfigurationSubnet),
  [ANNOTATIONS.plsIpConfigurationIpAddressCount.key]: ignored(ANNOTATIONS.plsIpConfigurationIpAddressCount),
  [ANNOTATIONS.plsIpConfigurationIpAddress.key]: ignored(ANNOTATIONS.plsIpConfigurationIpAddress),
  [ANNOTATIONS.plsFqdns.key]: ignored(ANNOTATIONS.plsFqdns),
  [ANNOTATIONS.plsProxyProtocol.key]: ignored(ANNOTATIONS.plsProxyProtocol),
  [ANNOTATIONS.plsVisibility.key]: ignored(ANNOTATIONS.plsVisibility),
  [ANNOTATIONS.plsAutoApproval.key]: ignored(ANNOTATIONS.plsAutoApproval),
};

function makeService(annotations: Record<string, string>): V1Service {
  return {
    metadata: { name: 'web', namespace: 'default', uid: '2b5e5f3a-0c1d-4e2f-9a8b-7c6d5e4f3a2b', annotations },
    spec: {
      type: 'LoadBalancer',
      ports: [
        { name: 'http', port: PORT, nodePort: 30080, protocol: 'TCP' },
        { name: 'https', port: 443, nodePort: 30443, protocol: 'TCP', appProtocol: 'https' },
        { name: 'dns', port: 53, nodePort: 30053, protocol: 'UDP' },
      ],
    },
  };
}

function build(kind: Kind, annotations: Record<string, string>): unknown {
  const service = makeService(kind === 'internal' ? { ...INTERNAL, ...annotations } : annotations);
  return buildServiceLoadBalancerSpec(service, readServiceLoadBalancerOptions(service), { poolName: 'cluster', disableOutboundSnat: false });
}

describe('Azure annotations fed invalid values', () => {
  it('the table covers every annotation of the registry', () => {
    expect(Object.keys(TABLE).sort()).toEqual(ALL_ANNOTATIONS.map((annotation) => annotation.key).sort());
  });

  it('every annotation that takes any text is ignored or says why', () => {
    for (const definition of ALL_ANNOTATIONS) {
      const entry = TABLE[definition.key];
      if (definition.status === 'accepted-and-ignored') expect(entry).toEqual({ anyValue: expect.stringContaining(definition.reason ?? '') });
      if (entry !== undefined && 'anyValue' in entry) expect(entry.anyValue.length).toBeGreaterThan(20);
    }
  });

  it('the service and the valid values the invalid ones are set against build a spec', () => {
    expect(build('external', {})).toBeDefined();
    expect(build('internal', { [ANNOTATIONS.haPorts.key]: 'true', [forPort(ANNOTATIONS.portProbePort.key)]: 'https', [ANNOTATIONS.probeInterval.key]: '30', [ANNOTATIONS.probeNumOfProbe.key]: '3' })).toBeDefined();
  });

  const cases = Object.entries(TABLE).flatMap(([key, entry]) =>
    'anyValue' in entry ? [] : entry.flatMap((group) => group.values.map((value) => ({ key: forPort(key), kind: group.kind, value, with: group.with ?? {} }))),
  );

  it.each(cases)('$key=$value ($kind) throws PermanentInvalidServiceConfigurationError naming both', ({ key, kind, value, with: other }) => {
    expectInvalidAnnotation(() => build(kind, { ...other, [key]: value }), key, value);
  });

  it('spec.loadBalancerSourceRanges (which wins over the annotation) is checked the same way', () => {
    const service = makeService({ [ANNOTATIONS.allowedIpRanges.key]: '10.0.0.0/8' });
    service.spec = { ...service.spec, loadBalancerSourceRanges: ['10.0.0.0/8', 'not-a-cidr'] };
    expect(() => readServiceLoadBalancerOptions(service)).toThrow(PermanentInvalidServiceConfigurationError);
  });

  it('random values for every annotation give a spec or the typed invalid-input error, nothing else', () => {
    const keys = ALL_ANNOTATIONS.flatMap((annotation) => (annotation.key.includes('{port}') ? [forPort(annotation.key), annotation.key.replace('{port}', '443'), annotation.key.replace('{port}', '53')] : [annotation.key]));
    const value = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.string({ unit: 'binary', maxLength: 60 }),
      fc.constantFrom('', ' ', ',', '=', '*', '/', '-1', '0', '1', '4', '5', '60', '100', '1e3', 'true', 'TRUE', 'false', 'Http', 'tcp', 'https', 'http', '10.0.0.0/8', '10.0.0.7', 'a=b,c=d', 'Internet'),
    );
    fc.assert(
      fc.property(fc.constantFrom<Kind>('external', 'internal'), fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: 4 }), (kind, annotations) => {
        try {
          build(kind, annotations);
        } catch (error) {
          if (!(error instanceof InvalidServiceConfigurationError)) throw error;
          if (error.annotation === undefined || !error.message.includes(error.annotation)) throw error;
          if (error.value === undefined || !error.message.includes(JSON.stringify(error.value))) throw error;
        }
      }),
      { seed: 1315, numRuns: badInputRuns() },
    );
  });
});
