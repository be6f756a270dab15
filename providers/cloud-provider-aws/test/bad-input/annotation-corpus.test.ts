/**
 * Every annotation of the AWS registry fed invalid values. Each annotation either has values
 * that are wrong whatever the cloud does (then the spec builder throws InvalidAnnotationError
 * naming the annotation and the value, before any cloud call), or takes any text (then the
 * reason is written here). A seeded fuzzer then feeds every annotation random text: the
 * builder returns a spec or throws the typed invalid-input error, never anything else.
 */
import { silentLogger } from '@ccm/core/logging';
import { InvalidServiceConfigurationError } from '@ccm/core/provider';
import { ANNOTATION_LOAD_BALANCER_SOURCE_RANGES } from '@ccm/core/api';
import { badInputRuns, expectInvalidAnnotation } from '@ccm/testing/bad-input';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALL_ANNOTATIONS, ANNOTATIONS } from '../../src/annotations.js';
import { InvalidAnnotationError } from '@ccm/core/service-input';
import { buildLoadBalancerSpec } from '../../src/operations/load-balancer/build-load-balancer-spec.js';
import { DEFAULT_LOAD_BALANCER_SETTINGS } from '../../src/operations/load-balancer/load-balancer-spec.js';
import { makeService } from '../helpers.js';

type Kind = 'classic' | 'network';

interface InvalidValues {
  /** The load balancer kind the values are read for. */
  kind: Kind;
  values: string[];
  /** Other annotations the check needs (e.g. a certificate for the backend protocol). */
  with?: Record<string, string>;
}

const NLB = { [ANNOTATIONS.type.key]: 'nlb' };
const NOT_A_NUMBER = ['ten', '1.5', '0x10', '', ' 5', '99999999999999999999'].filter((value) => value !== '');
const NOT_A_BOOLEAN = ['maybe', 'yes', 'on', '2', 'TRUE '];

/** Per annotation: invalid values, or why any value is accepted at this stage. */
const TABLE: Record<string, InvalidValues[] | { anyValue: string }> = {
  [ANNOTATIONS.type.key]: { anyValue: 'upstream: `nlb` is NLB, `nlb-ip`/`external` are left to the AWS Load Balancer Controller, anything else is Classic' },
  [ANNOTATIONS.internal.key]: { anyValue: 'upstream: any non-empty value except `false` means internal' },
  [ANNOTATIONS.subnets.key]: { anyValue: 'IDs or Name tags, resolved against the cloud (UnresolvedAnnotationError, retried)' },
  [ANNOTATIONS.securityGroups.key]: { anyValue: 'security group IDs checked by EC2 when attached' },
  [ANNOTATIONS.extraSecurityGroups.key]: [{ kind: 'network', values: ['sg-0123', 'sg-1,sg-2'] }],
  [ANNOTATIONS.additionalResourceTags.key]: { anyValue: 'upstream getKeyValuePropertiesFromAnnotation never fails (entries without a key are skipped)' },
  [ANNOTATIONS.sslCertificate.key]: { anyValue: 'a certificate ARN checked by ACM/IAM on the listener call' },
  [ANNOTATIONS.sslPorts.key]: { anyValue: 'port numbers or port names; a name that matches no port selects nothing' },
  [ANNOTATIONS.sslNegotiationPolicy.key]: { anyValue: 'a policy name checked by ELB' },
  [ANNOTATIONS.backendProtocol.key]: [{ kind: 'classic', values: ['ftp', 'udp'], with: { [ANNOTATIONS.sslCertificate.key]: 'arn:aws:acm:us-east-1:123456789012:certificate/x' } }],
  [ANNOTATIONS.proxyProtocol.key]: [{ kind: 'classic', values: ['true', 'all', '**'] }],
  [ANNOTATIONS.accessLogEnabled.key]: [
    { kind: 'classic', values: NOT_A_BOOLEAN },
    { kind: 'network', values: NOT_A_BOOLEAN },
  ],
  [ANNOTATIONS.accessLogEmitInterval.key]: [{ kind: 'classic', values: [...NOT_A_NUMBER, '0', '-5'] }],
  [ANNOTATIONS.accessLogS3BucketName.key]: { anyValue: 'a bucket name checked by S3/ELB' },
  [ANNOTATIONS.accessLogS3BucketPrefix.key]: { anyValue: 'any key prefix' },
  [ANNOTATIONS.connectionDrainingEnabled.key]: [{ kind: 'classic', values: NOT_A_BOOLEAN }],
  [ANNOTATIONS.connectionDrainingTimeout.key]: [{ kind: 'classic', values: [...NOT_A_NUMBER, '0'] }],
  [ANNOTATIONS.connectionIdleTimeout.key]: [{ kind: 'classic', values: [...NOT_A_NUMBER, '0'] }],
  [ANNOTATIONS.crossZoneLoadBalancingEnabled.key]: [
    { kind: 'classic', values: NOT_A_BOOLEAN },
    { kind: 'network', values: NOT_A_BOOLEAN },
  ],
  [ANNOTATIONS.healthCheckProtocol.key]: [
    { kind: 'classic', values: ['ICMP', 'udp', 'https2'] },
    { kind: 'network', values: ['ICMP', 'SSL', 'udp'] },
  ],
  [ANNOTATIONS.healthCheckPort.key]: [
    { kind: 'classic', values: ['0', '65536', 'http', '-1'] },
    { kind: 'network', values: ['http', 'traffic', '1.5'] },
  ],
  [ANNOTATIONS.healthCheckPath.key]: { anyValue: 'any HTTP path' },
  [ANNOTATIONS.healthCheckHealthyThreshold.key]: [
    { kind: 'classic', values: [...NOT_A_NUMBER, '1'] },
    { kind: 'network', values: [...NOT_A_NUMBER, '1'] },
  ],
  [ANNOTATIONS.healthCheckUnhealthyThreshold.key]: [
    { kind: 'classic', values: [...NOT_A_NUMBER, '1'] },
    { kind: 'network', values: [...NOT_A_NUMBER, '1'] },
  ],
  [ANNOTATIONS.healthCheckTimeout.key]: [{ kind: 'classic', values: [...NOT_A_NUMBER, '1'] }],
  [ANNOTATIONS.healthCheckInterval.key]: [
    { kind: 'classic', values: [...NOT_A_NUMBER, '4'] },
    { kind: 'network', values: [...NOT_A_NUMBER, '4'] },
  ],
  [ANNOTATIONS.targetGroupAttributes.key]: [
    { kind: 'network', values: ['=true', 'preserve_client_ip.enabled=maybe', 'unknown.attribute=1', 'proxy_protocol_v2.enabled=true,proxy_protocol_v2.enabled=false'] },
  ],
  [ANNOTATIONS.eipAllocations.key]: { anyValue: 'allocation IDs resolved against the cloud (count checked against the subnets found)' },
  [ANNOTATIONS.privateIpv4Addresses.key]: [{ kind: 'network', values: ['not-an-ip', '2001:db8::1', '10.0.0.256'] }],
  [ANNOTATIONS.targetNodeLabels.key]: { anyValue: 'upstream getKeyValuePropertiesFromAnnotation never fails' },
  [ANNOTATIONS.scheme.key]: { anyValue: 'not supported: ignored, as documented' },
  [ANNOTATIONS.ipAddressType.key]: { anyValue: 'not supported: ignored, as documented' },
};

function build(kind: Kind, annotations: Record<string, string>): unknown {
  const service = makeService({ annotations: kind === 'network' ? { ...NLB, ...annotations } : annotations });
  return buildLoadBalancerSpec(service, DEFAULT_LOAD_BALANCER_SETTINGS, silentLogger);
}

describe('AWS annotations fed invalid values', () => {
  it('the table covers every annotation of the registry', () => {
    expect(Object.keys(TABLE).sort()).toEqual(ALL_ANNOTATIONS.map((annotation) => annotation.key).sort());
  });

  const cases = Object.entries(TABLE).flatMap(([key, entry]) =>
    'anyValue' in entry ? [] : entry.flatMap((group) => group.values.map((value) => ({ key, kind: group.kind, value, with: group.with ?? {} }))),
  );

  it.each(cases)('$key=$value ($kind) throws InvalidAnnotationError naming both', ({ key, kind, value, with: other }) => {
    expect(() => build(kind, { ...other, [key]: value })).toThrow(InvalidAnnotationError);
    expectInvalidAnnotation(() => build(kind, { ...other, [key]: value }), key, value);
  });

  it('the source-ranges annotation (core) is checked the same way', () => {
    expect(() => build('classic', { [ANNOTATION_LOAD_BALANCER_SOURCE_RANGES]: '10.0.0.0/8,not-a-cidr' })).toThrow(InvalidAnnotationError);
  });

  it('random values for every annotation give a spec or the typed invalid-input error, nothing else', () => {
    const keys = [...ALL_ANNOTATIONS.map((annotation) => annotation.key), ANNOTATION_LOAD_BALANCER_SOURCE_RANGES];
    const value = fc.oneof(fc.string({ maxLength: 60 }), fc.string({ unit: 'binary', maxLength: 60 }), fc.constantFrom('', ' ', ',', '=', '*', '-1', '0', '1e3', 'true', '10.0.0.0/8'));
    fc.assert(
      fc.property(fc.constantFrom<Kind>('classic', 'network'), fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: 4 }), (kind, annotations) => {
        try {
          build(kind, annotations);
        } catch (error) {
          if (!(error instanceof InvalidServiceConfigurationError)) throw error;
          if (error instanceof InvalidAnnotationError && !(error.annotation !== undefined && error.message.includes(error.annotation))) throw error;
        }
      }),
      { seed: 1313, numRuns: badInputRuns() },
    );
  });
});
