/**
 * The client source ranges of a Service (upstream k8s.io/cloud-provider/service/helpers
 * `GetLoadBalancerSourceRanges`): `spec.loadBalancerSourceRanges` when set, else the
 * `service.beta.kubernetes.io/load-balancer-source-ranges` annotation (comma-separated), else
 * the provider's default. Each provider decides the default from its upstream (see
 * docs/parity.md): `allow-all` is upstream's `0.0.0.0/0`; `none` is an empty list, for clouds
 * where no ranges already means everyone and the provider keeps what its upstream sends.
 */
import type { V1Service } from '@kubernetes/client-node';
import { ANNOTATION_LOAD_BALANCER_SOURCE_RANGES } from '../api/well-known.js';
import { InvalidAnnotationError } from './invalid-annotation-error.js';
import { parseCidrList, splitList } from './read-annotation.js';

export const ALLOW_ALL_IPV4 = '0.0.0.0/0';
export const SPEC_LOAD_BALANCER_SOURCE_RANGES = 'spec.loadBalancerSourceRanges';

export interface SourceRangesPolicy {
  /** What a Service without ranges gets: `allow-all` (`0.0.0.0/0`) or `none` ([]). */
  whenAbsent: 'allow-all' | 'none';
  /** The annotation read when the spec has none; default the upstream one. */
  annotation?: string;
}

/**
 * The ranges as Go prints them (`10.0.0.7/8` is `10.0.0.0/8`), de-duplicated and sorted. A range
 * that does not parse (Go `ParseCIDRSloppy`) throws InvalidAnnotationError naming the field or
 * annotation and its value.
 */
export function serviceSourceRanges(service: V1Service, policy: SourceRangesPolicy): string[] {
  const annotation = policy.annotation ?? ANNOTATION_LOAD_BALANCER_SOURCE_RANGES;
  const fromSpec = (service.spec?.loadBalancerSourceRanges ?? []).map((range) => range.trim()).filter((range) => range !== '');
  if (fromSpec.length > 0) {
    return parseCidrList(fromSpec, (reason) => new InvalidAnnotationError(SPEC_LOAD_BALANCER_SOURCE_RANGES, fromSpec.join(','), reason));
  }
  const text = (service.metadata?.annotations?.[annotation] ?? '').trim();
  const ranges = parseCidrList(splitList(text), (reason) => new InvalidAnnotationError(annotation, text, reason));
  if (ranges.length === 0 && policy.whenAbsent === 'allow-all') return [ALLOW_ALL_IPV4];
  return ranges;
}
