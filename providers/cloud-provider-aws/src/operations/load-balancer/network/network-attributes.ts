/** NLB and target group attributes (upstream `reconcileLBAttributes`, target-group-attributes validation). */
import { parseGoBool } from '@ccm/core/util';
import { ANNOTATIONS, annotationValue, hasAnnotation, readTyped, type Annotations } from '../../../annotations.js';
import { InvalidAnnotationError } from '@ccm/core/service-input';

export const ATTRIBUTE_CROSS_ZONE = 'load_balancing.cross_zone.enabled';
export const ATTRIBUTE_ACCESS_LOGS_ENABLED = 'access_logs.s3.enabled';
export const ATTRIBUTE_ACCESS_LOGS_BUCKET = 'access_logs.s3.bucket';
export const ATTRIBUTE_ACCESS_LOGS_PREFIX = 'access_logs.s3.prefix';
export const TARGET_GROUP_PRESERVE_CLIENT_IP = 'preserve_client_ip.enabled';
export const TARGET_GROUP_PROXY_PROTOCOL_V2 = 'proxy_protocol_v2.enabled';

export function buildNetworkAttributes(annotations: Annotations): Record<string, string> {
  const crossZone = (readTyped(annotations, ANNOTATIONS.crossZoneLoadBalancingEnabled) ?? false);
  const accessLogs = (readTyped(annotations, ANNOTATIONS.accessLogEnabled) ?? false);
  const attributes: Record<string, string> = {
    [ATTRIBUTE_CROSS_ZONE]: String(crossZone),
    [ATTRIBUTE_ACCESS_LOGS_ENABLED]: String(accessLogs),
  };
  if (accessLogs) {
    attributes[ATTRIBUTE_ACCESS_LOGS_BUCKET] = annotationValue(annotations, ANNOTATIONS.accessLogS3BucketName) ?? '';
    attributes[ATTRIBUTE_ACCESS_LOGS_PREFIX] = annotationValue(annotations, ANNOTATIONS.accessLogS3BucketPrefix) ?? '';
  }
  return attributes;
}

/**
 * Pure: the attributes to modify so `actual` has every desired value. A desired key missing from
 * `actual` is sent too (simulators omit keys that real AWS always lists).
 */
export function changedAttributes(actual: Readonly<Record<string, string>>, desired: Readonly<Record<string, string>>): Record<string, string> {
  const changes: Record<string, string> = {};
  for (const [key, value] of Object.entries(desired)) if (actual[key] !== value) changes[key] = value;
  return changes;
}

/** Parses `aws-load-balancer-target-group-attributes`; undefined when absent. */
export function parseTargetGroupAttributes(annotations: Annotations, hasUdpPorts: boolean): Record<string, string> | undefined {
  const key = ANNOTATIONS.targetGroupAttributes.key;
  if (!hasAnnotation(annotations, ANNOTATIONS.targetGroupAttributes)) return undefined;
  const value = annotationValue(annotations, ANNOTATIONS.targetGroupAttributes) ?? '';
  const attributes: Record<string, string> = {};
  if (value.trim() === '') return attributes;
  for (const raw of value.split(',')) {
    const entry = raw.trim();
    const equals = entry.indexOf('=');
    const name = (equals < 0 ? entry : entry.slice(0, equals)).trim();
    const setting = equals < 0 ? '' : entry.slice(equals + 1).trim();
    if (name === '') throw new InvalidAnnotationError(key, value, `empty attribute name in ${JSON.stringify(entry)}`);
    if (Object.prototype.hasOwnProperty.call(attributes, name)) throw new InvalidAnnotationError(key, value, `attribute ${name} is repeated`);
    if (name !== TARGET_GROUP_PRESERVE_CLIENT_IP && name !== TARGET_GROUP_PROXY_PROTOCOL_V2) {
      throw new InvalidAnnotationError(key, value, `unsupported attribute ${name}; supported: ${TARGET_GROUP_PRESERVE_CLIENT_IP}, ${TARGET_GROUP_PROXY_PROTOCOL_V2}`);
    }
    const parsed = parseGoBool(setting);
    if (parsed === undefined) throw new InvalidAnnotationError(key, value, `attribute ${name} needs true or false, got ${JSON.stringify(setting)}`);
    if (name === TARGET_GROUP_PRESERVE_CLIENT_IP && !parsed && hasUdpPorts) {
      throw new InvalidAnnotationError(key, value, `${TARGET_GROUP_PRESERVE_CLIENT_IP}=false is not supported for UDP ports`);
    }
    attributes[name] = String(parsed);
  }
  return attributes;
}
