/** Classic ELB attributes from annotations (upstream defaults: no logs, no draining, idle 60, no cross-zone). */
import { ANNOTATIONS } from '../../../annotations.js';
import type { ClassicAttributes } from '../../../ports/elb-port.js';
import { booleanAnnotation, get, integerAnnotation, type Annotations } from '../annotation-values.js';

export function buildClassicAttributes(annotations: Annotations): ClassicAttributes {
  const attributes: ClassicAttributes = {
    accessLog: { enabled: booleanAnnotation(annotations, ANNOTATIONS.accessLogEnabled.key, false) },
    connectionDraining: { enabled: booleanAnnotation(annotations, ANNOTATIONS.connectionDrainingEnabled.key, false) },
    connectionSettings: { idleTimeout: integerAnnotation(annotations, ANNOTATIONS.connectionIdleTimeout.key, 1) ?? 60 },
    crossZoneLoadBalancing: { enabled: booleanAnnotation(annotations, ANNOTATIONS.crossZoneLoadBalancingEnabled.key, false) },
  };
  const emitInterval = integerAnnotation(annotations, ANNOTATIONS.accessLogEmitInterval.key, 1);
  if (emitInterval !== undefined) attributes.accessLog.emitInterval = emitInterval;
  const bucket = get(annotations, ANNOTATIONS.accessLogS3BucketName.key) ?? '';
  if (bucket !== '') attributes.accessLog.s3BucketName = bucket;
  const prefix = get(annotations, ANNOTATIONS.accessLogS3BucketPrefix.key) ?? '';
  if (prefix !== '') attributes.accessLog.s3BucketPrefix = prefix;
  const drainingTimeout = integerAnnotation(annotations, ANNOTATIONS.connectionDrainingTimeout.key, 1);
  if (drainingTimeout !== undefined) attributes.connectionDraining.timeout = drainingTimeout;
  return attributes;
}

/**
 * Whether `actual` already has every value we want. Upstream deep-compares the whole response,
 * which never matches real AWS (extra fields) and rewrites the attributes on every sync; we only
 * compare what we set.
 */
export function classicAttributesSatisfied(actual: ClassicAttributes, desired: ClassicAttributes): boolean {
  const matches = <T extends object>(current: T, wanted: T): boolean =>
    Object.entries(wanted).every(([key, value]) => value === undefined || (current as Record<string, unknown>)[key] === value);
  return (
    matches(actual.accessLog, desired.accessLog) &&
    matches(actual.connectionDraining, desired.connectionDraining) &&
    matches(actual.connectionSettings, desired.connectionSettings) &&
    matches(actual.crossZoneLoadBalancing, desired.crossZoneLoadBalancing)
  );
}
