/**
 * Service annotations this provider reads: declared once, with where each applies, its default
 * and its status. The docs table (docs/cloud-controller-manager.md) is generated from this list.
 * Stable identifiers: never rename a key.
 */
export const ANNOTATION_PREFIX = 'service.beta.kubernetes.io/';

/** How an annotation applies to one load balancer kind. */
export type AnnotationSupport = 'yes' | 'no (rejected)' | 'ignored' | 'create only';

export interface AnnotationDefinition {
  key: string;
  classic: AnnotationSupport;
  network: AnnotationSupport;
  status: 'supported' | 'not supported';
  /** Default behaviour when the annotation is absent. */
  defaultValue: string;
  description: string;
  /** Why the annotation is not supported (status 'not supported'). */
  reason?: string;
}

function annotation(name: string, definition: Omit<AnnotationDefinition, 'key'>): AnnotationDefinition {
  return { key: `${ANNOTATION_PREFIX}${name}`, ...definition };
}

export const ANNOTATIONS = {
  type: annotation('aws-load-balancer-type', {
    classic: 'yes', network: 'yes', status: 'supported', defaultValue: 'Classic ELB',
    description: '`nlb`: Network Load Balancer with instance targets. `nlb-ip` or `external`: left to the AWS Load Balancer Controller (ImplementedElsewhere). Anything else: Classic ELB. Changing it moves the Service to the new kind and deletes the old load balancer we own.',
  }),
  internal: annotation('aws-load-balancer-internal', {
    classic: 'create only', network: 'create only', status: 'supported', defaultValue: 'internet-facing',
    description: 'Any non-empty value except `false` makes the load balancer internal (scheme `internal`; private subnets are acceptable). Only read when the load balancer is created.',
  }),
  subnets: annotation('aws-load-balancer-subnets', {
    classic: 'yes', network: 'create only', status: 'supported', defaultValue: 'auto-discovery',
    description: 'Comma-separated subnet IDs (`subnet-...`) and/or `Name` tag values in the VPC. Every entry must resolve. Default: one subnet per availability zone, discovered by cluster and `kubernetes.io/role/elb` / `kubernetes.io/role/internal-elb` tags.',
  }),
  securityGroups: annotation('aws-load-balancer-security-groups', {
    classic: 'yes', network: 'yes', status: 'supported', defaultValue: 'a managed group',
    description: 'Comma-separated security group IDs that replace the managed group. These groups are attached as given; their rules are never changed and they are never deleted. NLB: only with `NLBSecurityGroupMode = Managed`, otherwise ignored.',
  }),
  extraSecurityGroups: annotation('aws-load-balancer-extra-security-groups', {
    classic: 'yes', network: 'no (rejected)', status: 'supported', defaultValue: 'none',
    description: 'Comma-separated security group IDs attached in addition to the primary group. Never changed or deleted.',
  }),
  additionalResourceTags: annotation('aws-load-balancer-additional-resource-tags', {
    classic: 'yes', network: 'yes', status: 'supported', defaultValue: 'none',
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
    classic: 'yes', network: 'yes', status: 'supported', defaultValue: '`false`',
    description: 'Boolean. Classic attribute `AccessLog.Enabled`; NLB attribute `access_logs.s3.enabled`.',
  }),
  accessLogEmitInterval: annotation('aws-load-balancer-access-log-emit-interval', {
    classic: 'yes', network: 'ignored', status: 'supported', defaultValue: 'AWS default (60)',
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
    classic: 'yes', network: 'ignored', status: 'supported', defaultValue: '`false`',
    description: 'Boolean. Classic attribute `ConnectionDraining.Enabled`.',
  }),
  connectionDrainingTimeout: annotation('aws-load-balancer-connection-draining-timeout', {
    classic: 'yes', network: 'ignored', status: 'supported', defaultValue: 'AWS default (300)',
    description: 'Integer seconds. Classic attribute `ConnectionDraining.Timeout`.',
  }),
  connectionIdleTimeout: annotation('aws-load-balancer-connection-idle-timeout', {
    classic: 'yes', network: 'ignored', status: 'supported', defaultValue: '`60`',
    description: 'Integer seconds. Classic attribute `ConnectionSettings.IdleTimeout`.',
  }),
  crossZoneLoadBalancingEnabled: annotation('aws-load-balancer-cross-zone-load-balancing-enabled', {
    classic: 'yes', network: 'yes', status: 'supported', defaultValue: '`false`',
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
    classic: 'yes', network: 'yes', status: 'supported', defaultValue: 'Classic 2; NLB 3 (Local 2)',
    description: 'Integer; at least 2.',
  }),
  healthCheckUnhealthyThreshold: annotation('aws-load-balancer-healthcheck-unhealthy-threshold', {
    classic: 'yes', network: 'yes', status: 'supported', defaultValue: 'Classic 6; NLB 3 (Local 2)',
    description: 'Integer; at least 2. NLB: updated together with the healthy threshold.',
  }),
  healthCheckTimeout: annotation('aws-load-balancer-healthcheck-timeout', {
    classic: 'yes', network: 'ignored', status: 'supported', defaultValue: 'Classic 5',
    description: 'Integer seconds; at least 2. NLB: validated but not sent (as upstream; AWS fixes NLB health-check timeouts).',
  }),
  healthCheckInterval: annotation('aws-load-balancer-healthcheck-interval', {
    classic: 'yes', network: 'yes', status: 'supported', defaultValue: 'Classic 10; NLB 30 (Local 10)',
    description: 'Integer seconds; at least 5. NLB: changing it recreates the target group.',
  }),
  targetGroupAttributes: annotation('aws-load-balancer-target-group-attributes', {
    classic: 'no (rejected)', network: 'yes', status: 'supported', defaultValue: 'AWS defaults',
    description: '`preserve_client_ip.enabled=true|false,proxy_protocol_v2.enabled=true|false`. No other keys; `preserve_client_ip.enabled=false` is refused with UDP ports. Removing the annotation keeps the last values.',
  }),
  eipAllocations: annotation('aws-load-balancer-eip-allocations', {
    classic: 'ignored', network: 'create only', status: 'supported', defaultValue: 'AWS-assigned addresses',
    description: 'Comma-separated Elastic IP allocation IDs, one per subnet, in subnet order. Only used when the NLB is created.',
  }),
  privateIpv4Addresses: annotation('aws-load-balancer-private-ipv4-addresses', {
    classic: 'ignored', network: 'create only', status: 'supported', defaultValue: 'AWS-assigned addresses',
    description: 'Comma-separated private IPv4 addresses, one per subnet, in subnet order (internal NLBs). Only used when the NLB is created.',
  }),
  targetNodeLabels: annotation('aws-load-balancer-target-node-labels', {
    classic: 'yes', network: 'yes', status: 'supported', defaultValue: 'all nodes',
    description: '`k1=v1,k2`: only nodes carrying every label are targets; a key without a value only needs to exist.',
  }),
  scheme: annotation('aws-load-balancer-scheme', {
    classic: 'ignored', network: 'ignored', status: 'not supported', defaultValue: '-',
    description: 'AWS Load Balancer Controller annotation.',
    reason: 'Not read by the upstream AWS cloud controller manager; use `aws-load-balancer-internal`.',
  }),
  ipAddressType: annotation('aws-load-balancer-ip-address-type', {
    classic: 'ignored', network: 'ignored', status: 'not supported', defaultValue: '-',
    description: 'AWS Load Balancer Controller annotation.',
    reason: 'Not read by the upstream AWS cloud controller manager; load balancers are created IPv4-only.',
  }),
} as const satisfies Record<string, AnnotationDefinition>;

export type AnnotationName = keyof typeof ANNOTATIONS;

export const ALL_ANNOTATIONS: readonly AnnotationDefinition[] = Object.values(ANNOTATIONS);

/** `aws-load-balancer-type` values. */
export const LOAD_BALANCER_TYPE_NLB = 'nlb';
export const LOAD_BALANCER_TYPES_ELSEWHERE: readonly string[] = ['nlb-ip', 'external'];
