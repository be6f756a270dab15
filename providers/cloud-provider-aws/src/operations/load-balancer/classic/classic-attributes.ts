/** Classic ELB attributes from annotations (upstream defaults: no logs, no draining, idle 60, no cross-zone). */
import { ANNOTATIONS, annotationValue, readTyped, type Annotations } from '../../../annotations.js';
import type { ClassicAttributes } from '../../../ports/elb-port.js';

export function buildClassicAttributes(annotations: Annotations): ClassicAttributes {
  const attributes: ClassicAttributes = {
    accessLog: { enabled: (readTyped(annotations, ANNOTATIONS.accessLogEnabled) ?? false) },
    connectionDraining: { enabled: (readTyped(annotations, ANNOTATIONS.connectionDrainingEnabled) ?? false) },
    connectionSettings: { idleTimeout: readTyped(annotations, ANNOTATIONS.connectionIdleTimeout) ?? 60 },
    crossZoneLoadBalancing: { enabled: (readTyped(annotations, ANNOTATIONS.crossZoneLoadBalancingEnabled) ?? false) },
  };
  const emitInterval = readTyped(annotations, ANNOTATIONS.accessLogEmitInterval);
  if (emitInterval !== undefined) attributes.accessLog.emitInterval = emitInterval;
  const bucket = annotationValue(annotations, ANNOTATIONS.accessLogS3BucketName) ?? '';
  if (bucket !== '') attributes.accessLog.s3BucketName = bucket;
  const prefix = annotationValue(annotations, ANNOTATIONS.accessLogS3BucketPrefix) ?? '';
  if (prefix !== '') attributes.accessLog.s3BucketPrefix = prefix;
  const drainingTimeout = readTyped(annotations, ANNOTATIONS.connectionDrainingTimeout);
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
