/**
 * Every Service annotation of the OpenStack load balancer (upstream `pkg/openstack/loadbalancer.go`
 * `ServiceAnnotation*`), declared once with its default, its status and a description. Typed
 * getters parse the values and throw `PermanentInvalidServiceConfigurationError` naming the
 * annotation and the value, before any cloud change (upstream falls back to the default on a
 * malformed value; here a malformed value is a Warning event and nothing changes).
 * docs/cloud-controller-manager.md is generated from this registry.
 */
import type { V1Service } from '@kubernetes/client-node';
import { PermanentInvalidServiceConfigurationError } from '@ccm/core/provider';

export interface AnnotationDefinition {
  key: string;
  defaultValue: string;
  /** `supported`; `accepted and ignored`: read, never acted on (the reason says why). */
  status: 'supported' | 'accepted and ignored';
  reason?: string;
  description: string;
}

const PREFIX = 'loadbalancer.openstack.org';

export const ANNOTATIONS = {
  internal: {
    key: 'service.beta.kubernetes.io/openstack-internal-load-balancer',
    defaultValue: 'the `[LoadBalancer] internal-lb` setting (false)',
    status: 'supported',
    description: '`true`: an internal load balancer, reachable on its VIP only (no floating IP; an existing one the CCM created is detached and deleted). `false` with `internal-lb = true` in the cloud config is overridden (internal).',
  },
  floatingNetworkId: {
    key: `${PREFIX}/floating-network-id`,
    defaultValue: 'the `[LoadBalancer] floating-network-id` setting',
    status: 'supported',
    description: 'External network the floating IP of the VIP is allocated from. Without one (annotation and config) an external Service gets its VIP address only.',
  },
  floatingSubnetId: {
    key: `${PREFIX}/floating-subnet-id`,
    defaultValue: 'the `[LoadBalancer] floating-subnet-id` setting',
    status: 'supported',
    description: 'Subnet of the floating network the floating IP is allocated from.',
  },
  floatingSubnet: {
    key: `${PREFIX}/floating-subnet`,
    defaultValue: '',
    status: 'accepted and ignored',
    reason: 'subnet selection by name pattern is not implemented; use floating-subnet-id',
    description: 'Name (glob, `~regex`, `!` negation) of the floating subnets to try.',
  },
  floatingSubnetTags: {
    key: `${PREFIX}/floating-subnet-tags`,
    defaultValue: '',
    status: 'accepted and ignored',
    reason: 'subnet selection by tags is not implemented; use floating-subnet-id',
    description: 'Tags (`&` all, `!` negate) of the floating subnets to try.',
  },
  loadBalancerClass: {
    key: `${PREFIX}/class`,
    defaultValue: '',
    status: 'accepted and ignored',
    reason: '`[LoadBalancerClass "name"]` sections are not implemented; the `[LoadBalancer]` settings apply',
    description: 'Name of a `[LoadBalancerClass]` section of the cloud config whose networks and subnets apply.',
  },
  subnetId: {
    key: `${PREFIX}/subnet-id`,
    defaultValue: 'the `[LoadBalancer] subnet-id` setting, else the subnet of the first node\'s InternalIP',
    status: 'supported',
    description: 'Subnet of the VIP.',
  },
  memberSubnetId: {
    key: `${PREFIX}/member-subnet-id`,
    defaultValue: 'the `[LoadBalancer] member-subnet-id` setting',
    status: 'supported',
    description: 'Subnet of the pool members (`subnet_id` of every member).',
  },
  networkId: {
    key: `${PREFIX}/network-id`,
    defaultValue: 'the `[LoadBalancer] network-id` setting',
    status: 'supported',
    description: 'Network of the VIP: its first IPv4 subnet is the VIP subnet when no subnet-id is given.',
  },
  portId: {
    key: `${PREFIX}/port-id`,
    defaultValue: '',
    status: 'supported',
    description: 'An existing Neutron port used as the VIP port (`vip_port_id`); it is never deleted by the CCM.',
  },
  connectionLimit: {
    key: `${PREFIX}/connection-limit`,
    defaultValue: '-1',
    status: 'supported',
    description: 'Maximum connections per listener (`connection_limit`); -1 is unlimited.',
  },
  keepFloatingIp: {
    key: `${PREFIX}/keep-floatingip`,
    defaultValue: 'false',
    status: 'supported',
    description: '`true`: the floating IP the CCM created is kept (detached) when the load balancer is deleted or turns internal.',
  },
  proxyProtocol: {
    key: `${PREFIX}/proxy-protocol`,
    defaultValue: 'false',
    status: 'supported',
    description: '`true` or `v1`: pools speak PROXY protocol v1 (`PROXY`); `v2`: `PROXYV2`; `false`: the listener protocol.',
  },
  xForwardedFor: {
    key: `${PREFIX}/x-forwarded-for`,
    defaultValue: 'false',
    status: 'supported',
    description: '`true`: HTTP listeners and pools inserting the `X-Forwarded-For` header.',
  },
  lbMethod: {
    key: `${PREFIX}/lb-method`,
    defaultValue: 'the `[LoadBalancer] lb-method` setting (`ROUND_ROBIN`)',
    status: 'supported',
    description: 'Pool algorithm: `ROUND_ROBIN`, `LEAST_CONNECTIONS`, `SOURCE_IP` or `SOURCE_IP_PORT` (OVN only: the amphora provider refuses it, then the Service gets a Warning and the pool keeps its method).',
  },
  timeoutClientData: {
    key: `${PREFIX}/timeout-client-data`,
    defaultValue: 'Octavia\'s (50000)',
    status: 'supported',
    description: 'Frontend client inactivity timeout of every listener, in milliseconds.',
  },
  timeoutMemberConnect: {
    key: `${PREFIX}/timeout-member-connect`,
    defaultValue: 'Octavia\'s (5000)',
    status: 'supported',
    description: 'Backend member connection timeout of every listener, in milliseconds.',
  },
  timeoutMemberData: {
    key: `${PREFIX}/timeout-member-data`,
    defaultValue: 'Octavia\'s (50000)',
    status: 'supported',
    description: 'Backend member inactivity timeout of every listener, in milliseconds.',
  },
  timeoutTcpInspect: {
    key: `${PREFIX}/timeout-tcp-inspect`,
    defaultValue: 'Octavia\'s (0)',
    status: 'supported',
    description: 'Time to wait for TCP packets for content inspection, in milliseconds.',
  },
  enableHealthMonitor: {
    key: `${PREFIX}/enable-health-monitor`,
    defaultValue: 'the `[LoadBalancer] create-monitor` setting (false)',
    status: 'supported',
    description: '`true`: a health monitor per pool (TCP, `UDP-CONNECT` for UDP; HTTP `GET /healthz` on the healthCheckNodePort for externalTrafficPolicy Local); `false`: monitors are deleted.',
  },
  healthMonitorDelay: {
    key: `${PREFIX}/health-monitor-delay`,
    defaultValue: 'the `[LoadBalancer] monitor-delay` setting (5 s)',
    status: 'supported',
    description: 'Seconds between probes.',
  },
  healthMonitorTimeout: {
    key: `${PREFIX}/health-monitor-timeout`,
    defaultValue: 'the `[LoadBalancer] monitor-timeout` setting (3 s)',
    status: 'supported',
    description: 'Seconds a probe may take.',
  },
  healthMonitorMaxRetries: {
    key: `${PREFIX}/health-monitor-max-retries`,
    defaultValue: 'the `[LoadBalancer] monitor-max-retries` setting (1)',
    status: 'supported',
    description: 'Successful probes before a member is ONLINE (1-10).',
  },
  healthMonitorMaxRetriesDown: {
    key: `${PREFIX}/health-monitor-max-retries-down`,
    defaultValue: 'the `[LoadBalancer] monitor-max-retries-down` setting (3)',
    status: 'supported',
    description: 'Failed probes before a member is ERROR (1-10).',
  },
  flavorId: {
    key: `${PREFIX}/flavor-id`,
    defaultValue: 'the `[LoadBalancer] flavor-id` setting',
    status: 'supported',
    description: 'Octavia flavor of a new load balancer (read at creation only, as upstream).',
  },
  availabilityZone: {
    key: `${PREFIX}/availability-zone`,
    defaultValue: 'the `[LoadBalancer] availability-zone` setting',
    status: 'supported',
    description: 'Octavia availability zone of a new load balancer (read at creation only, as upstream).',
  },
  defaultTlsContainerRef: {
    key: `${PREFIX}/default-tls-container-ref`,
    defaultValue: '',
    status: 'accepted and ignored',
    reason: 'TLS termination needs Barbican, which this provider does not talk to',
    description: 'Barbican container of the certificate for `TERMINATED_HTTPS` listeners.',
  },
  loadBalancerId: {
    key: `${PREFIX}/load-balancer-id`,
    defaultValue: '',
    status: 'supported',
    description: 'Upstream writes the ID back and shares the named load balancer between Services. Here it is read first when finding the Service\'s load balancer (so what upstream made and annotated is adopted), but may name only the Service\'s own load balancer (`kube_service_<cluster>_<namespace>_<name>`, or the legacy `a<uid>`); naming another one (sharing) is refused with a Warning and nothing changes. Not written back.',
  },
  loadBalancerAddress: {
    key: `${PREFIX}/load-balancer-address`,
    defaultValue: '',
    status: 'accepted and ignored',
    reason: 'written by upstream\'s Service patcher for the PROXY-protocol hostname case; this CCM does not patch Services',
    description: 'The load balancer\'s address, written by the CCM.',
  },
  hostname: {
    key: `${PREFIX}/hostname`,
    defaultValue: '',
    status: 'supported',
    description: 'Reported as `status.loadBalancer.ingress[].hostname` instead of the IP.',
  },
  nodeSelector: {
    key: `${PREFIX}/node-selector`,
    defaultValue: 'the `[LoadBalancer] node-selector` setting',
    status: 'supported',
    description: 'Comma-separated `key=value` (or `key`) labels: only nodes carrying all of them are members.',
  },
  sourceRanges: {
    key: 'service.beta.kubernetes.io/load-balancer-source-ranges',
    defaultValue: '0.0.0.0/0',
    status: 'supported',
    description: 'Comma-separated client CIDRs (`allowed_cidrs` of every listener), used when `spec.loadBalancerSourceRanges` is empty.',
  },
} as const satisfies Record<string, AnnotationDefinition>;

export const ALL_ANNOTATIONS: readonly AnnotationDefinition[] = Object.values(ANNOTATIONS);

export type AnnotationName = keyof typeof ANNOTATIONS;

function raw(service: V1Service, name: AnnotationName): string | undefined {
  const value = service.metadata?.annotations?.[ANNOTATIONS[name].key];
  return value === undefined ? undefined : value.trim();
}

export function invalidAnnotation(key: string, value: string, why: string): PermanentInvalidServiceConfigurationError {
  return new PermanentInvalidServiceConfigurationError(`annotation ${key}=${JSON.stringify(value)}: ${why}`, { annotation: key, value });
}

/** A non-empty string, or undefined. */
export function stringAnnotation(service: V1Service, name: AnnotationName): string | undefined {
  const value = raw(service, name);
  return value === undefined || value === '' ? undefined : value;
}

/** `true`/`false` (any case), else an error; absent or empty: the fallback. */
export function booleanAnnotation(service: V1Service, name: AnnotationName, fallback: boolean): boolean {
  const value = raw(service, name);
  if (value === undefined || value === '') return fallback;
  const lower = value.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  throw invalidAnnotation(ANNOTATIONS[name].key, value, 'must be true or false');
}

/** A decimal integer within [min, max], else an error; absent or empty: the fallback. */
export function integerAnnotation<T extends number | undefined>(service: V1Service, name: AnnotationName, fallback: T, range: { min: number; max: number }): number | T {
  const value = raw(service, name);
  if (value === undefined || value === '') return fallback;
  if (!/^-?\d+$/.test(value)) throw invalidAnnotation(ANNOTATIONS[name].key, value, 'must be an integer');
  const parsed = Number(value);
  if (parsed < range.min || parsed > range.max) throw invalidAnnotation(ANNOTATIONS[name].key, value, `must be between ${range.min} and ${range.max}`);
  return parsed;
}

export type ProxyProtocol = 'PROXY' | 'PROXYV2';

/** `true`/`v1` -> PROXY, `v2` -> PROXYV2, `false` -> none (upstream `getProxyProtocolFromServiceAnnotation`). */
export function proxyProtocolAnnotation(service: V1Service): ProxyProtocol | undefined {
  const value = raw(service, 'proxyProtocol');
  if (value === undefined || value === '') return undefined;
  switch (value.toLowerCase()) {
    case 'true':
    case 'v1':
      return 'PROXY';
    case 'v2':
      return 'PROXYV2';
    case 'false':
      return undefined;
    default:
      throw invalidAnnotation(ANNOTATIONS.proxyProtocol.key, value, 'must be true, false, v1 or v2');
  }
}

export const LB_METHODS = ['ROUND_ROBIN', 'LEAST_CONNECTIONS', 'SOURCE_IP', 'SOURCE_IP_PORT'] as const;
export type LbMethod = (typeof LB_METHODS)[number];

export function isLbMethod(value: string): value is LbMethod {
  return (LB_METHODS as readonly string[]).includes(value);
}

/** The pool algorithm of the annotation (upper-cased), else undefined. */
export function lbMethodAnnotation(service: V1Service): LbMethod | undefined {
  const value = raw(service, 'lbMethod');
  if (value === undefined || value === '') return undefined;
  const upper = value.toUpperCase();
  if (!isLbMethod(upper)) throw invalidAnnotation(ANNOTATIONS.lbMethod.key, value, `must be one of ${LB_METHODS.join(', ')}`);
  return upper;
}

/** `k=v, k2` -> { k: 'v', k2: '' } (upstream `getKeyValueFromServiceAnnotation`); a key is required. */
export function parseNodeSelector(value: string, key: string): Record<string, string> {
  const selector: Record<string, string> = {};
  for (const item of value.split(',').map((part) => part.trim()).filter((part) => part !== '')) {
    const [label = '', ...rest] = item.split('=');
    const labelKey = label.trim();
    if (labelKey === '' || rest.length > 1) throw invalidAnnotation(key, value, `${JSON.stringify(item)} is not key=value or key`);
    selector[labelKey] = rest.length === 0 ? '' : (rest[0] ?? '').trim();
  }
  return selector;
}

export function nodeSelectorAnnotation(service: V1Service): Record<string, string> | undefined {
  const value = raw(service, 'nodeSelector');
  if (value === undefined) return undefined;
  return parseNodeSelector(value, ANNOTATIONS.nodeSelector.key);
}

const IPV4_CIDR = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/;
const IPV6_CIDR = /^[0-9a-fA-F:.]+\/(\d{1,3})$/;

function isCidr(value: string): boolean {
  const v4 = IPV4_CIDR.exec(value);
  if (v4 !== null) return v4.slice(1, 5).every((octet) => Number(octet) <= 255) && Number(v4[5]) <= 32;
  const v6 = IPV6_CIDR.exec(value);
  return v6 !== null && value.includes(':') && Number(v6[1]) <= 128;
}

/** `spec.loadBalancerSourceRanges`, else the annotation; empty means everyone (upstream `GetLoadBalancerSourceRanges`). */
export function sourceRangesOf(service: V1Service): string[] {
  const fromSpec = (service.spec?.loadBalancerSourceRanges ?? []).map((range) => range.trim()).filter((range) => range !== '');
  const field = fromSpec.length > 0 ? 'spec.loadBalancerSourceRanges' : ANNOTATIONS.sourceRanges.key;
  const ranges = fromSpec.length > 0 ? fromSpec : (raw(service, 'sourceRanges') ?? '').split(',').map((range) => range.trim()).filter((range) => range !== '');
  for (const range of ranges) {
    if (!isCidr(range)) throw invalidAnnotation(field, ranges.join(','), `${JSON.stringify(range)} is not a CIDR`);
  }
  return [...new Set(ranges)].sort();
}
