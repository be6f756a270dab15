/**
 * Service annotations this provider reads: declared once, with where each applies, its type, its
 * default and its status (core's Service-input kit). Every read of an annotation goes through
 * this file: the typed readers below parse with core's one parse (upstream's Go semantics:
 * strconv.ParseBool/ParseInt, `getKeyValuePropertiesFromAnnotation`, `getPortSets`) and throw
 * InvalidAnnotationError naming the annotation and the value. The docs table
 * (docs/cloud-controller-manager.md) is generated from this list. Stable identifiers: never rename
 * a key.
 */
import type { V1Service } from '@ccm/core/kube';
import {
  annotationsOf as serviceAnnotations,
  annotationText,
  defineAnnotations,
  InvalidAnnotationError,
  parseAnnotationValue,
  readAnnotation,
  serviceSourceRanges,
  SPEC_LOAD_BALANCER_SOURCE_RANGES,
  type AnnotationDefinition,
  type AnnotationValue,
  type AnnotationValueType,
  type ServiceAnnotations,
} from '@ccm/core/service-input';

import { UnsupportedServiceError } from './errors.js';

export type { AnnotationDefinition };
export const ANNOTATION_PREFIX = 'service.beta.kubernetes.io/';

/** How an annotation applies to one load balancer kind (the docs' Classic ELB and NLB columns). */
export type AnnotationSupport = 'yes' | 'no (rejected)' | 'ignored' | 'create only';

/** The docs columns AWS adds: how each load balancer kind reads the annotation. */
export const ANNOTATION_COLUMNS = ['Classic ELB', 'NLB'] as const;

type AwsAnnotation = Omit<AnnotationDefinition, 'key' | 'columns'> & { classic: AnnotationSupport; network: AnnotationSupport };

function annotation<const Definition extends AwsAnnotation>(name: string, definition: Definition): Omit<Definition, 'classic' | 'network'> & { key: string; columns: Readonly<Record<string, string>> } {
  const { classic, network, ...rest } = definition;
  return { key: `${ANNOTATION_PREFIX}${name}`, ...rest, columns: { 'Classic ELB': classic, NLB: network } };
}

export const ANNOTATIONS = defineAnnotations({
  type: annotation('aws-load-balancer-type', {
    classic: 'yes', network: 'yes', status: 'supported', defaultValue: 'Classic ELB',
    description: '`nlb`: Network Load Balancer with instance targets. `nlb-ip` or `external`: left to the AWS Load Balancer Controller (ImplementedElsewhere). Anything else: Classic ELB. Changing it moves the Service to the new kind and deletes the old load balancer we own.',
  }),
  internal: annotation('aws-load-balancer-internal', {
    classic: 'create only', network: 'create only', status: 'supported', defaultValue: 'internet-facing',
    description: 'Any non-empty value except `false` makes the load balancer internal (scheme `internal`; private subnets are acceptable). Only read when the load balancer is created.',
  }),
  subnets: annotation('aws-load-balancer-subnets', {
    type: { kind: 'list' }, classic: 'yes', network: 'create only', status: 'supported', defaultValue: 'auto-discovery',
    description: 'Comma-separated subnet IDs (`subnet-...`) and/or `Name` tag values in the VPC. Every entry must resolve. Default: one subnet per availability zone, discovered by cluster and `kubernetes.io/role/elb` / `kubernetes.io/role/internal-elb` tags.',
  }),
  securityGroups: annotation('aws-load-balancer-security-groups', {
    type: { kind: 'list' }, classic: 'yes', network: 'yes', status: 'supported', defaultValue: 'a managed group',
    description: 'Comma-separated security group IDs that replace the managed group. These groups are attached as given; their rules are never changed and they are never deleted. NLB: only with `NLBSecurityGroupMode = Managed`, otherwise ignored.',
  }),
  extraSecurityGroups: annotation('aws-load-balancer-extra-security-groups', {
    type: { kind: 'list' }, classic: 'yes', network: 'no (rejected)', status: 'supported', defaultValue: 'none',
    description: 'Comma-separated security group IDs attached in addition to the primary group. Never changed or deleted.',
  }),
  additionalResourceTags: annotation('aws-load-balancer-additional-resource-tags', {
    type: { kind: 'key-value-map', syntax: 'lenient' }, classic: 'yes', network: 'yes', status: 'supported', defaultValue: 'none',
    description: '`k1=v1,k2=v2,k3` tags added to the load balancer, its security group, target groups and listeners. On an existing Classic ELB, missing or changed tags are added on every sync (removed keys stay).',
  }),
  sslCertificate: annotation('aws-load-balancer-ssl-cert', {
    classic: 'yes', network: 'yes', status: 'supported', defaultValue: 'no TLS',
    description: 'ACM or IAM certificate ARN. Classic: SSL/HTTPS listeners. NLB: TLS listeners (never for UDP ports).',
  }),
  sslPorts: annotation('aws-load-balancer-ssl-ports', {
    classic: 'yes', network: 'yes', status: 'supported', defaultValue: '`*` (all ports)',
    description: 'Comma-separated port numbers or port names that get TLS when a certificate is set; `*` or empty means all ports.',
  }),
  sslNegotiationPolicy: annotation('aws-load-balancer-ssl-negotiation-policy', {
    classic: 'yes', network: 'yes', status: 'supported', defaultValue: 'the AWS default policy',
    description: 'Classic: predefined policy name; creates policy `k8s-SSLNegotiationPolicy-<name>` and sets it on every SSL/HTTPS listener. NLB: the listener `SslPolicy`.',
  }),
  backendProtocol: annotation('aws-load-balancer-backend-protocol', {
    classic: 'yes', network: 'yes', status: 'supported', defaultValue: '`tcp`',
    description: 'Classic with a certificate: `http`/`https` give an HTTPS front, `ssl`/`tcp` an SSL front, the instance protocol is the value. Classic without a certificate: `http` gives HTTP/HTTP listeners. NLB: `ssl` makes TLS target groups behind TLS listeners. `https`/`ssl` also make the Classic health check SSL.',
  }),
  proxyProtocol: annotation('aws-load-balancer-proxy-protocol', {
    classic: 'yes', network: 'ignored', status: 'supported', defaultValue: 'off',
    description: 'Only `*` is accepted: enables policy `k8s-proxyprotocol-enabled` on every backend port. Removing it disables the policy. NLB: use `aws-load-balancer-target-group-attributes: proxy_protocol_v2.enabled=true`.',
  }),
  accessLogEnabled: annotation('aws-load-balancer-access-log-enabled', {
    type: { kind: 'boolean', syntax: 'go', trim: false }, classic: 'yes', network: 'yes', status: 'supported', defaultValue: '`false`',
    description: 'Boolean. Classic attribute `AccessLog.Enabled`; NLB attribute `access_logs.s3.enabled`.',
  }),
  accessLogEmitInterval: annotation('aws-load-balancer-access-log-emit-interval', {
    type: { kind: 'integer', min: 1, trim: false }, classic: 'yes', network: 'ignored', status: 'supported', defaultValue: 'AWS default (60)',
    description: 'Integer minutes (5 or 60). Classic attribute `AccessLog.EmitInterval`.',
  }),
  accessLogS3BucketName: annotation('aws-load-balancer-access-log-s3-bucket-name', {
    classic: 'yes', network: 'yes', status: 'supported', defaultValue: 'none',
    description: 'S3 bucket for access logs. NLB: applied only when access logs are enabled.',
  }),
  accessLogS3BucketPrefix: annotation('aws-load-balancer-access-log-s3-bucket-prefix', {
    classic: 'yes', network: 'yes', status: 'supported', defaultValue: 'none',
    description: 'S3 key prefix for access logs. NLB: applied only when access logs are enabled.',
  }),
  connectionDrainingEnabled: annotation('aws-load-balancer-connection-draining-enabled', {
    type: { kind: 'boolean', syntax: 'go', trim: false }, classic: 'yes', network: 'ignored', status: 'supported', defaultValue: '`false`',
    description: 'Boolean. Classic attribute `ConnectionDraining.Enabled`.',
  }),
  connectionDrainingTimeout: annotation('aws-load-balancer-connection-draining-timeout', {
    type: { kind: 'integer', min: 1, trim: false }, classic: 'yes', network: 'ignored', status: 'supported', defaultValue: 'AWS default (300)',
    description: 'Integer seconds. Classic attribute `ConnectionDraining.Timeout`.',
  }),
  connectionIdleTimeout: annotation('aws-load-balancer-connection-idle-timeout', {
    type: { kind: 'integer', min: 1, trim: false }, classic: 'yes', network: 'ignored', status: 'supported', defaultValue: '`60`',
    description: 'Integer seconds. Classic attribute `ConnectionSettings.IdleTimeout`.',
  }),
  crossZoneLoadBalancingEnabled: annotation('aws-load-balancer-cross-zone-load-balancing-enabled', {
    type: { kind: 'boolean', syntax: 'go', trim: false }, classic: 'yes', network: 'yes', status: 'supported', defaultValue: '`false`',
    description: 'Boolean. Classic `CrossZoneLoadBalancing.Enabled`; NLB `load_balancing.cross_zone.enabled`.',
  }),
  healthCheckProtocol: annotation('aws-load-balancer-healthcheck-protocol', {
    classic: 'yes', network: 'yes', status: 'supported', defaultValue: 'TCP (HTTP for externalTrafficPolicy Local)',
    description: 'Classic: TCP, SSL, HTTP or HTTPS. NLB: TCP, HTTP or HTTPS (changing it recreates the target group).',
  }),
  healthCheckPort: annotation('aws-load-balancer-healthcheck-port', {
    classic: 'yes', network: 'yes', status: 'supported', defaultValue: '`traffic-port` (healthCheckNodePort for Local)',
    description: '`traffic-port` or a port number. Classic with externalTrafficPolicy Local and `traffic-port`: the first listener\'s node port.',
  }),
  healthCheckPath: annotation('aws-load-balancer-healthcheck-path', {
    classic: 'yes', network: 'yes', status: 'supported', defaultValue: '`/` (`/healthz` for Local)',
    description: 'Path for HTTP/HTTPS health checks; ignored for TCP/SSL.',
  }),
  healthCheckHealthyThreshold: annotation('aws-load-balancer-healthcheck-healthy-threshold', {
    type: { kind: 'integer', min: 2, trim: false }, classic: 'yes', network: 'yes', status: 'supported', defaultValue: 'Classic 2; NLB 3 (Local 2)',
    description: 'Integer; at least 2.',
  }),
  healthCheckUnhealthyThreshold: annotation('aws-load-balancer-healthcheck-unhealthy-threshold', {
    type: { kind: 'integer', min: 2, trim: false }, classic: 'yes', network: 'yes', status: 'supported', defaultValue: 'Classic 6; NLB 3 (Local 2)',
    description: 'Integer; at least 2. NLB: updated together with the healthy threshold.',
  }),
  healthCheckTimeout: annotation('aws-load-balancer-healthcheck-timeout', {
    type: { kind: 'integer', min: 2, trim: false }, classic: 'yes', network: 'ignored', status: 'supported', defaultValue: 'Classic 5',
    description: 'Integer seconds; at least 2. NLB: validated but not sent (as upstream; AWS fixes NLB health-check timeouts).',
  }),
  healthCheckInterval: annotation('aws-load-balancer-healthcheck-interval', {
    type: { kind: 'integer', min: 5, trim: false }, classic: 'yes', network: 'yes', status: 'supported', defaultValue: 'Classic 10; NLB 30 (Local 10)',
    description: 'Integer seconds; at least 5. NLB: changing it recreates the target group.',
  }),
  targetGroupAttributes: annotation('aws-load-balancer-target-group-attributes', {
    classic: 'no (rejected)', network: 'yes', status: 'supported', defaultValue: 'AWS defaults',
    description: '`preserve_client_ip.enabled=true|false,proxy_protocol_v2.enabled=true|false`. No other keys; `preserve_client_ip.enabled=false` is refused with UDP ports. Removing the annotation keeps the last values.',
  }),
  eipAllocations: annotation('aws-load-balancer-eip-allocations', {
    type: { kind: 'list' }, classic: 'ignored', network: 'create only', status: 'supported', defaultValue: 'AWS-assigned addresses',
    description: 'Comma-separated Elastic IP allocation IDs, one per subnet, in subnet order. Only used when the NLB is created.',
  }),
  privateIpv4Addresses: annotation('aws-load-balancer-private-ipv4-addresses', {
    type: { kind: 'list' }, classic: 'ignored', network: 'create only', status: 'supported', defaultValue: 'AWS-assigned addresses',
    description: 'Comma-separated private IPv4 addresses, one per subnet, in subnet order (internal NLBs). Only used when the NLB is created.',
  }),
  targetNodeLabels: annotation('aws-load-balancer-target-node-labels', {
    type: { kind: 'key-value-map', syntax: 'lenient' }, classic: 'yes', network: 'yes', status: 'supported', defaultValue: 'all nodes',
    description: '`k1=v1,k2`: only nodes carrying every label are targets; a key without a value only needs to exist.',
  }),
  scheme: annotation('aws-load-balancer-scheme', {
    classic: 'ignored', network: 'ignored', status: 'accepted-and-ignored', defaultValue: '-',
    description: 'AWS Load Balancer Controller annotation.',
    reason: 'Not read by the upstream AWS cloud controller manager; use `aws-load-balancer-internal`.',
  }),
  ipAddressType: annotation('aws-load-balancer-ip-address-type', {
    classic: 'ignored', network: 'ignored', status: 'accepted-and-ignored', defaultValue: '-',
    description: 'AWS Load Balancer Controller annotation.',
    reason: 'Not read by the upstream AWS cloud controller manager; load balancers are created IPv4-only.',
  }),
});

export type AnnotationName = keyof typeof ANNOTATIONS;

export const ALL_ANNOTATIONS: readonly AnnotationDefinition[] = Object.values(ANNOTATIONS);

/** `aws-load-balancer-type` values. */
export const LOAD_BALANCER_TYPE_NLB = 'nlb';
export const LOAD_BALANCER_TYPES_ELSEWHERE: readonly string[] = ['nlb-ip', 'external'];

export type Annotations = ServiceAnnotations;

export function annotationsOf(service: V1Service): Annotations {
  return serviceAnnotations(service);
}

/** The raw text of an annotation, or undefined when absent. */
export function annotationValue(annotations: Annotations, definition: AnnotationDefinition): string | undefined {
  return annotationText(annotations, definition.key);
}

export function hasAnnotation(annotations: Annotations, definition: AnnotationDefinition): boolean {
  return annotationText(annotations, definition.key) !== undefined;
}

/** The typed value of a typed annotation; undefined when absent or empty. */
export function readTyped<Definition extends AnnotationDefinition & { type: AnnotationValueType }>(annotations: Annotations, definition: Definition): AnnotationValue<Definition['type']> | undefined {
  return readAnnotation(annotations, definition);
}

/** A port number annotation that also takes a word (`traffic-port`): the number, at least 1. */
export function portNumberOf(definition: AnnotationDefinition, text: string): number | undefined {
  return parseAnnotationValue(definition.key, text, { kind: 'integer', min: 1, trim: false });
}

/** Ports named by `aws-load-balancer-ssl-ports` (upstream `getPortSets`); undefined means every port. */
export interface PortSelection {
  numbers: Set<number>;
  names: Set<string>;
}

export function sslPortSelection(annotations: Annotations): PortSelection | undefined {
  const value = annotationValue(annotations, ANNOTATIONS.sslPorts) ?? '';
  if (value === '' || value === '*') return undefined;
  const selection: PortSelection = { numbers: new Set(), names: new Set() };
  for (const raw of value.split(',')) {
    const item = raw.trim();
    if (/^[+-]?\d+$/.test(item)) selection.numbers.add(Number.parseInt(item, 10));
    else selection.names.add(item);
  }
  return selection;
}

export function selectsPort(selection: PortSelection | undefined, port: number, name: string): boolean {
  return selection === undefined || selection.numbers.has(port) || selection.names.has(name);
}

/**
 * Client source ranges (core's `serviceSourceRanges`, upstream `GetLoadBalancerSourceRanges`),
 * default `0.0.0.0/0`: upstream cloud-provider-aws `EnsureLoadBalancer` (`pkg/providers/v1/aws.go`)
 * calls `servicehelpers.GetLoadBalancerSourceRanges(apiService)` for Classic ELBs and NLBs alike.
 */
export function loadBalancerSourceRanges(service: V1Service): string[] {
  try {
    return serviceSourceRanges(service, { whenAbsent: 'allow-all' });
  } catch (error) {
    // A bad spec field is no annotation: the Service's own error, with upstream's wording.
    if (error instanceof InvalidAnnotationError && error.annotation === SPEC_LOAD_BALANCER_SOURCE_RANGES) {
      throw new UnsupportedServiceError(`service.Spec.LoadBalancerSourceRanges: ${JSON.stringify(service.spec?.loadBalancerSourceRanges ?? [])} is not valid. Expecting a list of IP ranges. For example, 10.0.0.0/24 (${error.message})`);
    }
    throw error;
  }
}
