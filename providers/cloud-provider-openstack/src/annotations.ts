/**
 * Every Service annotation of the OpenStack load balancer (upstream `pkg/openstack/loadbalancer.go`
 * `ServiceAnnotation*`), declared once with its type, default, status and a description (core's
 * Service-input kit). The typed getters parse the values with core's one parse and throw
 * InvalidAnnotationError naming the annotation and the value, before any cloud change (upstream
 * falls back to the default on a malformed value; here a malformed value is a Warning event and
 * nothing changes). docs/cloud-controller-manager.md is generated from this registry.
 */
import type { V1Service } from '@kubernetes/client-node';
import {
  defineAnnotations,
  InvalidAnnotationError,
  parseKeyValuePairs,
  readAnnotation,
  serviceSourceRanges,
  type AnnotationDefinition,
  type AnnotationValueKind,
} from '@ccm/core/service-input';

export type { AnnotationDefinition };

export const LB_METHODS = ['ROUND_ROBIN', 'LEAST_CONNECTIONS', 'SOURCE_IP', 'SOURCE_IP_PORT'] as const;
export type LbMethod = (typeof LB_METHODS)[number];

/** A year in milliseconds: the largest listener timeout Octavia takes. */
const MAX_TIMEOUT_MS = 31_536_000_000;

const PREFIX = 'loadbalancer.openstack.org';

export const ANNOTATIONS = defineAnnotations({
  internal: {
    type: { kind: 'boolean', syntax: 'true-false-any-case' },
    key: 'service.beta.kubernetes.io/openstack-internal-load-balancer',
    defaultValue: 'the `[LoadBalancer] internal-lb` setting (false)',
    status: 'supported',
    description: '`true`: an internal load balancer, reachable on its VIP only (no floating IP; an existing one the CCM created is detached and deleted). `false` with `internal-lb = true` in the cloud config is overridden (internal).',
  },
  floatingNetworkId: {
    type: { kind: 'string' },
    key: `${PREFIX}/floating-network-id`,
    defaultValue: 'the `[LoadBalancer] floating-network-id` setting',
    status: 'supported',
    description: 'External network the floating IP of the VIP is allocated from. Without one (annotation and config) an external Service gets its VIP address only.',
  },
  floatingSubnetId: {
    type: { kind: 'string' },
    key: `${PREFIX}/floating-subnet-id`,
    defaultValue: 'the `[LoadBalancer] floating-subnet-id` setting',
    status: 'supported',
    description: 'Subnet of the floating network the floating IP is allocated from.',
  },
  floatingSubnet: {
    key: `${PREFIX}/floating-subnet`,
    defaultValue: '',
    status: 'accepted-and-ignored',
    reason: 'subnet selection by name pattern is not implemented; use floating-subnet-id',
    description: 'Name (glob, `~regex`, `!` negation) of the floating subnets to try.',
  },
  floatingSubnetTags: {
    key: `${PREFIX}/floating-subnet-tags`,
    defaultValue: '',
    status: 'accepted-and-ignored',
    reason: 'subnet selection by tags is not implemented; use floating-subnet-id',
    description: 'Tags (`&` all, `!` negate) of the floating subnets to try.',
  },
  loadBalancerClass: {
    key: `${PREFIX}/class`,
    defaultValue: '',
    status: 'accepted-and-ignored',
    reason: '`[LoadBalancerClass "name"]` sections are not implemented; the `[LoadBalancer]` settings apply',
    description: 'Name of a `[LoadBalancerClass]` section of the cloud config whose networks and subnets apply.',
  },
  subnetId: {
    type: { kind: 'string' },
    key: `${PREFIX}/subnet-id`,
    defaultValue: 'the `[LoadBalancer] subnet-id` setting, else the subnet of the first node\'s InternalIP',
    status: 'supported',
    description: 'Subnet of the VIP.',
  },
  memberSubnetId: {
    type: { kind: 'string' },
    key: `${PREFIX}/member-subnet-id`,
    defaultValue: 'the `[LoadBalancer] member-subnet-id` setting',
    status: 'supported',
    description: 'Subnet of the pool members (`subnet_id` of every member).',
  },
  networkId: {
    type: { kind: 'string' },
    key: `${PREFIX}/network-id`,
    defaultValue: 'the `[LoadBalancer] network-id` setting',
    status: 'supported',
    description: 'Network of the VIP: its first IPv4 subnet is the VIP subnet when no subnet-id is given.',
  },
  portId: {
    type: { kind: 'string' },
    key: `${PREFIX}/port-id`,
    defaultValue: '',
    status: 'supported',
    description: 'An existing Neutron port used as the VIP port (`vip_port_id`); it is never deleted by the CCM.',
  },
  connectionLimit: {
    type: { kind: 'integer', min: -1, max: 2_147_483_647 },
    key: `${PREFIX}/connection-limit`,
    defaultValue: '-1',
    status: 'supported',
    description: 'Maximum connections per listener (`connection_limit`); -1 is unlimited.',
  },
  keepFloatingIp: {
    type: { kind: 'boolean', syntax: 'true-false-any-case' },
    key: `${PREFIX}/keep-floatingip`,
    defaultValue: 'false',
    status: 'supported',
    description: '`true`: the floating IP the CCM created is kept (detached) when the load balancer is deleted or turns internal.',
  },
  proxyProtocol: {
    type: { kind: 'enum', values: ['true', 'v1', 'v2', 'false'], caseInsensitive: true },
    key: `${PREFIX}/proxy-protocol`,
    defaultValue: 'false',
    status: 'supported',
    description: '`true` or `v1`: pools speak PROXY protocol v1 (`PROXY`); `v2`: `PROXYV2`; `false`: the listener protocol.',
  },
  xForwardedFor: {
    type: { kind: 'boolean', syntax: 'true-false-any-case' },
    key: `${PREFIX}/x-forwarded-for`,
    defaultValue: 'false',
    status: 'supported',
    description: '`true`: HTTP listeners and pools inserting the `X-Forwarded-For` header.',
  },
  lbMethod: {
    type: { kind: 'enum', values: LB_METHODS, caseInsensitive: true },
    key: `${PREFIX}/lb-method`,
    defaultValue: 'the `[LoadBalancer] lb-method` setting (`ROUND_ROBIN`)',
    status: 'supported',
    description: 'Pool algorithm: `ROUND_ROBIN`, `LEAST_CONNECTIONS`, `SOURCE_IP` or `SOURCE_IP_PORT` (OVN only: the amphora provider refuses it, then the Service gets a Warning and the pool keeps its method).',
  },
  timeoutClientData: {
    type: { kind: 'integer', min: 0, max: MAX_TIMEOUT_MS },
    key: `${PREFIX}/timeout-client-data`,
    defaultValue: 'Octavia\'s (50000)',
    status: 'supported',
    description: 'Frontend client inactivity timeout of every listener, in milliseconds.',
  },
  timeoutMemberConnect: {
    type: { kind: 'integer', min: 0, max: MAX_TIMEOUT_MS },
    key: `${PREFIX}/timeout-member-connect`,
    defaultValue: 'Octavia\'s (5000)',
    status: 'supported',
    description: 'Backend member connection timeout of every listener, in milliseconds.',
  },
  timeoutMemberData: {
    type: { kind: 'integer', min: 0, max: MAX_TIMEOUT_MS },
    key: `${PREFIX}/timeout-member-data`,
    defaultValue: 'Octavia\'s (50000)',
    status: 'supported',
    description: 'Backend member inactivity timeout of every listener, in milliseconds.',
  },
  timeoutTcpInspect: {
    type: { kind: 'integer', min: 0, max: MAX_TIMEOUT_MS },
    key: `${PREFIX}/timeout-tcp-inspect`,
    defaultValue: 'Octavia\'s (0)',
    status: 'supported',
    description: 'Time to wait for TCP packets for content inspection, in milliseconds.',
  },
  enableHealthMonitor: {
    type: { kind: 'boolean', syntax: 'true-false-any-case' },
    key: `${PREFIX}/enable-health-monitor`,
    defaultValue: 'the `[LoadBalancer] create-monitor` setting (false)',
    status: 'supported',
    description: '`true`: a health monitor per pool (TCP, `UDP-CONNECT` for UDP; HTTP `GET /healthz` on the healthCheckNodePort for externalTrafficPolicy Local); `false`: monitors are deleted.',
  },
  healthMonitorDelay: {
    type: { kind: 'integer', min: 0, max: 2_147_483_647 },
    key: `${PREFIX}/health-monitor-delay`,
    defaultValue: 'the `[LoadBalancer] monitor-delay` setting (5 s)',
    status: 'supported',
    description: 'Seconds between probes.',
  },
  healthMonitorTimeout: {
    type: { kind: 'integer', min: 0, max: 2_147_483_647 },
    key: `${PREFIX}/health-monitor-timeout`,
    defaultValue: 'the `[LoadBalancer] monitor-timeout` setting (3 s)',
    status: 'supported',
    description: 'Seconds a probe may take.',
  },
  healthMonitorMaxRetries: {
    type: { kind: 'integer', min: 1, max: 10 },
    key: `${PREFIX}/health-monitor-max-retries`,
    defaultValue: 'the `[LoadBalancer] monitor-max-retries` setting (1)',
    status: 'supported',
    description: 'Successful probes before a member is ONLINE (1-10).',
  },
  healthMonitorMaxRetriesDown: {
    type: { kind: 'integer', min: 1, max: 10 },
    key: `${PREFIX}/health-monitor-max-retries-down`,
    defaultValue: 'the `[LoadBalancer] monitor-max-retries-down` setting (3)',
    status: 'supported',
    description: 'Failed probes before a member is ERROR (1-10).',
  },
  flavorId: {
    type: { kind: 'string' },
    key: `${PREFIX}/flavor-id`,
    defaultValue: 'the `[LoadBalancer] flavor-id` setting',
    status: 'supported',
    description: 'Octavia flavor of a new load balancer (read at creation only, as upstream).',
  },
  availabilityZone: {
    type: { kind: 'string' },
    key: `${PREFIX}/availability-zone`,
    defaultValue: 'the `[LoadBalancer] availability-zone` setting',
    status: 'supported',
    description: 'Octavia availability zone of a new load balancer (read at creation only, as upstream).',
  },
  defaultTlsContainerRef: {
    key: `${PREFIX}/default-tls-container-ref`,
    defaultValue: '',
    status: 'accepted-and-ignored',
    reason: 'TLS termination needs Barbican, which this provider does not talk to',
    description: 'Barbican container of the certificate for `TERMINATED_HTTPS` listeners.',
  },
  loadBalancerId: {
    type: { kind: 'string' },
    key: `${PREFIX}/load-balancer-id`,
    defaultValue: '',
    status: 'supported',
    description: 'Written by the CCM: the ID of the Service\'s Octavia load balancer, set once it is found or created (also when a later step of the sync fails), kept when the load balancer is deleted (upstream). Read first when finding the Service\'s load balancer, so what upstream made and annotated is adopted. Upstream also shares the named load balancer between Services; here it may name only the Service\'s own load balancer (`kube_service_<cluster>_<namespace>_<name>`, or the legacy `a<uid>`): naming another existing one (sharing) is refused with a Warning and nothing changes; an ID whose load balancer no longer exists is replaced by the Service\'s own.',
  },
  loadBalancerAddress: {
    type: { kind: 'string' },
    key: `${PREFIX}/load-balancer-address`,
    defaultValue: '',
    status: 'supported',
    description: 'Written by the CCM: the load balancer\'s address (its floating IP, else its VIP), also when the status reports a hostname (the `hostname` annotation, or PROXY protocol with `enable-ingress-hostname`); kept when the load balancer is deleted (upstream). Not read.',
  },
  hostname: {
    type: { kind: 'string' },
    key: `${PREFIX}/hostname`,
    defaultValue: '',
    status: 'supported',
    description: 'Reported as `status.loadBalancer.ingress[].hostname` instead of the IP.',
  },
  nodeSelector: {
    type: { kind: 'key-value-map', syntax: 'key-or-pair' },
    key: `${PREFIX}/node-selector`,
    defaultValue: 'the `[LoadBalancer] node-selector` setting',
    status: 'supported',
    description: 'Comma-separated `key=value` (or `key`) labels: only nodes carrying all of them are members.',
  },
  sourceRanges: {
    type: { kind: 'cidr-list' },
    key: 'service.beta.kubernetes.io/load-balancer-source-ranges',
    defaultValue: '0.0.0.0/0',
    status: 'supported',
    description: 'Comma-separated client CIDRs (`allowed_cidrs` of every listener), used when `spec.loadBalancerSourceRanges` is empty.',
  },
});

export const ALL_ANNOTATIONS: readonly AnnotationDefinition[] = Object.values(ANNOTATIONS);

export type AnnotationName = keyof typeof ANNOTATIONS;

/** The registry names whose values are of `kind`. */
type NamesOf<Kind extends AnnotationValueKind['kind']> = {
  [Name in AnnotationName]: (typeof ANNOTATIONS)[Name] extends { type: { kind: Kind } } ? Name : never;
}[AnnotationName];

/** A non-empty string, or undefined. */
export function stringAnnotation(service: V1Service, name: NamesOf<'string'>): string | undefined {
  return readAnnotation(service, ANNOTATIONS[name]);
}

/** `true`/`false` (any case), else an error; absent or empty: the fallback. */
export function booleanAnnotation(service: V1Service, name: NamesOf<'boolean'>, fallback: boolean): boolean {
  return readAnnotation(service, ANNOTATIONS[name]) ?? fallback;
}

/** A decimal integer within the registry's bounds, else an error; absent or empty: the fallback. */
export function integerAnnotation<T extends number | undefined>(service: V1Service, name: NamesOf<'integer'>, fallback: T): number | T {
  return readAnnotation(service, ANNOTATIONS[name]) ?? fallback;
}

export type ProxyProtocol = 'PROXY' | 'PROXYV2';

/** `true`/`v1` -> PROXY, `v2` -> PROXYV2, `false` -> none (upstream `getProxyProtocolFromServiceAnnotation`). */
export function proxyProtocolAnnotation(service: V1Service): ProxyProtocol | undefined {
  const value = readAnnotation(service, ANNOTATIONS.proxyProtocol);
  if (value === 'true' || value === 'v1') return 'PROXY';
  return value === 'v2' ? 'PROXYV2' : undefined;
}

export function isLbMethod(value: string): value is LbMethod {
  return (LB_METHODS as readonly string[]).includes(value);
}

/** The pool algorithm of the annotation (any case), else undefined. */
export function lbMethodAnnotation(service: V1Service): LbMethod | undefined {
  return readAnnotation(service, ANNOTATIONS.lbMethod);
}

/** `k=v, k2` -> { k: 'v', k2: '' } (upstream `getKeyValueFromServiceAnnotation`); a key is required. */
export function parseNodeSelector(value: string, key: string): Record<string, string> {
  return Object.fromEntries(parseKeyValuePairs(value, 'key-or-pair', (reason) => new InvalidAnnotationError(key, value, reason)));
}

/** The annotation's node selector; an empty annotation selects every node ({}). */
export function nodeSelectorAnnotation(service: V1Service): Record<string, string> | undefined {
  const value = service.metadata?.annotations?.[ANNOTATIONS.nodeSelector.key];
  return value === undefined ? undefined : parseNodeSelector(value, ANNOTATIONS.nodeSelector.key);
}

/**
 * Upstream `GetLoadBalancerSourceRanges` (core's `serviceSourceRanges`) as `allowed_cidrs`, default
 * none. Upstream cloud-provider-openstack (`pkg/openstack/loadbalancer.go`) sends its helper's
 * allow-all default (`0.0.0.0/0`, or `::/0` for IPv6 Services) as `allowed_cidrs`; Octavia treats
 * no `allowed_cidrs` the same (every client), so this provider sends none and keeps the listeners
 * it made untouched (docs/parity.md).
 */
export function sourceRangesOf(service: V1Service): string[] {
  return serviceSourceRanges(service, { whenAbsent: 'none' });
}
