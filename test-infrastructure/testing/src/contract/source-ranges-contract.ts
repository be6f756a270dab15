import type { V1Service } from '@kubernetes/client-node';
import { InvalidAnnotationError } from '@ccm/core/service-input';
import { expect, it } from 'vitest';

export interface SourceRangesContractOptions {
  /** The provider's reader of the Service's client source ranges. */
  read: (service: V1Service) => readonly string[];
  /** What a Service without ranges gets (from the provider's upstream; cite it at the call). */
  defaultRanges: readonly string[];
  /** The annotation the provider reads the ranges from. */
  annotation: string;
}

/** A LoadBalancer Service with `spec.loadBalancerSourceRanges` (when given) and annotations. */
export function sourceRangesService(ranges: readonly string[] | undefined, annotations: Record<string, string> = {}): V1Service {
  return {
    metadata: { name: 'web', namespace: 'default', uid: 'u-1', annotations },
    spec: { type: 'LoadBalancer', ports: [{ port: 80, nodePort: 30080 }], ...(ranges === undefined ? {} : { loadBalancerSourceRanges: [...ranges] }) },
  };
}

/**
 * The tests every provider's source ranges pass (core's `serviceSourceRanges` with the provider's
 * default): call inside a `describe`, next to the provider's own cases.
 */
export function itReadsSourceRanges({ read, defaultRanges, annotation }: SourceRangesContractOptions): void {
  it(`no ranges: ${JSON.stringify(defaultRanges)}`, () => {
    expect(read(sourceRangesService(undefined))).toEqual(defaultRanges);
    expect(read(sourceRangesService([], { [annotation]: ' ' }))).toEqual(defaultRanges);
  });

  it('the spec wins over the annotation; canonical, de-duplicated, sorted', () => {
    expect(read(sourceRangesService(['192.168.0.9/24', '10.0.0.0/8', '10.0.0.0/8'], { [annotation]: '172.16.0.0/12' }))).toEqual(['10.0.0.0/8', '192.168.0.0/24']);
    expect(read(sourceRangesService(undefined, { [annotation]: '172.16.0.0/12, 10.0.0.0/8' }))).toEqual(['10.0.0.0/8', '172.16.0.0/12']);
  });

  it('a bad annotation names the annotation and its value', () => {
    expect(() => read(sourceRangesService(undefined, { [annotation]: '10.0.0.0/8,nope' }))).toThrow(InvalidAnnotationError);
    expect(() => read(sourceRangesService(undefined, { [annotation]: '10.0.0.0/8,nope' }))).toThrow(`annotation ${annotation}="10.0.0.0/8,nope": "nope" is not a CIDR`);
  });
}
