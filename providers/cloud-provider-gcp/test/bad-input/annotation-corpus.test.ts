/**
 * Every annotation of the GCP registry fed invalid values. Each annotation either has values
 * that are wrong whatever the cloud does (then the spec builder throws
 * PermanentInvalidServiceConfigurationError naming the annotation and the value, before any
 * cloud call), or takes any text (then the reason is written here). A seeded fuzzer then feeds
 * every annotation random text: the builders return a spec or throw the typed invalid-input
 * error naming the annotation, never anything else.
 */
import { tryParseCidr } from '@ccm/core/net';
import { InvalidServiceConfigurationError, PermanentInvalidServiceConfigurationError } from '@ccm/core/provider';
import { badInputRuns, expectInvalidAnnotation } from '@ccm/testing/bad-input';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALL_ANNOTATIONS, ANNOTATIONS, handedToRegionalBackendService, wantsInternalLoadBalancer } from '../../src/annotations.js';
import { schemeOf } from '../../src/gcp-load-balancers.js';
import { buildInternalLoadBalancerSpec } from '../../src/operations/load-balancer/internal-load-balancer-spec.js';
import { buildExternalLoadBalancerSpec } from '../../src/operations/load-balancer/load-balancer-spec.js';
import { CLUSTER_ID, makeService } from '../helpers.js';

type Kind = 'external' | 'internal';

interface InvalidValues {
  /** The load balancer whose spec builder reads the values. */
  kind: Kind;
  values: string[];
}

/** Upstream compares with "true" only; this provider refuses anything but `true`/`false` (documented in the registry). */
const NOT_A_BOOLEAN = ['True', 'TRUE', 'yes', '1', 'on', 'maybe', 'true '];
/** Upstream `GetLoadBalancerSourceRanges` (utilnet.ParseIPNets) refuses these. */
const NOT_CIDRS = ['not-a-cidr', '10.0.0.0', '10.0.0.0/8,bogus', '300.0.0.0/8', '10.0.0.0/33', '10.0.0.0/-1', '10.0.0/8', '2001:db8::/129', '2001:db8:::1/64', ':::::/64', '0.0.0.0/0/0'];

/** Per annotation: invalid values, or why any value is accepted by the spec builders. */
const TABLE: Record<string, InvalidValues[] | { anyValue: string }> = {
  [ANNOTATIONS.loadBalancerType.key]: { anyValue: 'upstream GetLoadBalancerAnnotationType: `Internal`/`internal` is the internal load balancer, anything else the external one' },
  [ANNOTATIONS.legacyLoadBalancerType.key]: { anyValue: 'deprecated spelling of load-balancer-type: `Internal`/`internal` is internal, anything else external' },
  [ANNOTATIONS.allowGlobalAccess.key]: [{ kind: 'internal', values: NOT_A_BOOLEAN }],
  [ANNOTATIONS.internalSubnet.key]: [{ kind: 'internal', values: ['Nodes', '1subnet', 'sub_net', 'subnet-', 'sub net', 'projects/p/regions/r/subnetworks/s', `s${'a'.repeat(63)}`] }],
  [ANNOTATIONS.backendShare.key]: [{ kind: 'internal', values: NOT_A_BOOLEAN }],
  [ANNOTATIONS.legacyBackendShare.key]: [{ kind: 'internal', values: NOT_A_BOOLEAN }],
  [ANNOTATIONS.networkTier.key]: [{ kind: 'external', values: ['', 'Gold', 'Premium ', 'Standard,Premium', 'FIXED_STANDARD', 'premium-tier'] }],
  [ANNOTATIONS.regionalBackendService.key]: { anyValue: 'upstream: only `enabled` hands the Service over to another controller; any other value is ignored' },
  [ANNOTATIONS.sourceRanges.key]: [
    { kind: 'external', values: NOT_CIDRS },
    { kind: 'internal', values: NOT_CIDRS },
  ],
};

const INTERNAL = { [ANNOTATIONS.loadBalancerType.key]: 'Internal' };

function build(kind: Kind, annotations: Record<string, string>): unknown {
  if (kind === 'internal') return buildInternalLoadBalancerSpec(makeService({ annotations: { ...INTERNAL, ...annotations } }), CLUSTER_ID);
  return buildExternalLoadBalancerSpec(makeService({ annotations }), CLUSTER_ID);
}

describe('GCP annotations fed invalid values', () => {
  it('the table covers every annotation of the registry', () => {
    expect(Object.keys(TABLE).sort()).toEqual(ALL_ANNOTATIONS.map((annotation) => annotation.key).sort());
  });

  const cases = Object.entries(TABLE).flatMap(([key, entry]) =>
    'anyValue' in entry ? [] : entry.flatMap((group) => group.values.map((value) => ({ key, kind: group.kind, value }))),
  );

  it.each(cases)('$key=$value ($kind) throws PermanentInvalidServiceConfigurationError naming both', ({ key, kind, value }) => {
    expectInvalidAnnotation(() => build(kind, { [key]: value }), key, value);
  });

  it('the valid spellings are accepted', () => {
    expect(build('internal', { [ANNOTATIONS.allowGlobalAccess.key]: 'true', [ANNOTATIONS.internalSubnet.key]: 'nodes-1', [ANNOTATIONS.backendShare.key]: 'false', [ANNOTATIONS.legacyBackendShare.key]: 'true' })).toMatchObject({ allowGlobalAccess: true, subnetName: 'nodes-1', backendService: { shared: true } });
    expect(build('external', { [ANNOTATIONS.networkTier.key]: 'Standard', [ANNOTATIONS.sourceRanges.key]: '10.0.0.0/8, 2001:db8::/32' })).toMatchObject({ networkTier: 'STANDARD', sourceRanges: ['10.0.0.0/8', '2001:db8::/32'] });
  });

  it('spec.loadBalancerSourceRanges is checked the same way', () => {
    expect(() => buildExternalLoadBalancerSpec(makeService({ loadBalancerSourceRanges: ['10.0.0.0/8', '10.0.0.0/40'] }), CLUSTER_ID)).toThrow(PermanentInvalidServiceConfigurationError);
  });

  it('random values for every annotation give a spec or the typed invalid-input error, nothing else', () => {
    const keys = ALL_ANNOTATIONS.map((annotation) => annotation.key);
    const value = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.string({ unit: 'binary', maxLength: 60 }),
      fc.constantFrom('', ' ', ',', '=', '*', '-1', '0', 'true', 'false', 'Internal', 'internal', 'enabled', 'Standard', 'premium', 'subnet-a', '10.0.0.0/8', '10.0.0.0/8,192.168.0.0/16', '::/0', '256.0.0.0/8', '10.0.0.0/33'),
    );
    fc.assert(
      fc.property(fc.constantFrom<Kind>('external', 'internal'), fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: 4 }), (kind, annotations) => {
        const service = makeService({ annotations });
        // The readers that pick the load balancer never refuse a value.
        schemeOf(service);
        wantsInternalLoadBalancer(service);
        handedToRegionalBackendService(service);
        let spec: { sourceRanges: string[]; subnetName?: string | undefined } | undefined;
        try {
          spec = build(kind, annotations) as typeof spec;
        } catch (error) {
          if (!(error instanceof InvalidServiceConfigurationError)) throw error;
          if (error.annotation === undefined || !error.message.includes(error.annotation)) throw error;
          if (error.value === undefined || !error.message.includes(JSON.stringify(error.value))) throw error;
          return;
        }
        // What the builders accept, GCE accepts: real CIDRs, a GCE name for the subnetwork.
        for (const range of spec?.sourceRanges ?? []) expect(tryParseCidr(range), range).toBeDefined();
        if (spec?.subnetName !== undefined) expect(spec.subnetName).toMatch(/^[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?$/);
      }),
      { seed: 1314, numRuns: badInputRuns() },
    );
  });
});
