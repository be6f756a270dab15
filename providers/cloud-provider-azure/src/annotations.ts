/**
 * Every Azure Service annotation of upstream's table (`pkg/consts/consts.go`, the
 * `topics/loadbalancer.md` page), declared once with its status, default and description.
 * `readServiceLoadBalancerOptions` parses the supported ones and throws
 * InvalidAnnotationError (core's Service-input kit) naming the annotation and the value before any cloud
 * change (the service controller turns it into one Warning event). The annotations accepted and
 * ignored say why. docs/cloud-controller-manager.md is generated from this registry.
 */
import type { V1Service } from '@kubernetes/client-node';
import { parseIpAddress } from '@ccm/core/net';
import {
  defineAnnotations,
  InvalidAnnotationError,
  parseAnnotationValue,
  parseKeyValuePairs,
  readAnnotation,
  serviceSourceRanges,
  type AnnotationDefinition,
} from '@ccm/core/service-input';
import type { AzureProbeProtocol } from './ports/network-port.js';

export const ANNOTATION_PREFIX = 'service.beta.kubernetes.io/';
export type { AnnotationDefinition };

const BASIC_SKU = 'only the Standard SKU is offered (loadBalancerSku basic is not supported)';
const NO_PLS = 'Private Link services are not offered';
const NO_MULTI_SLB = 'multiple standard load balancers (multipleStandardLoadBalancerConfigurations) are not offered';

const key = (name: string): string => `${ANNOTATION_PREFIX}${name}`;
const ignored = (name: string, defaultValue: string, reason: string, description: string): AnnotationDefinition => ({ key: key(name), defaultValue, status: 'accepted-and-ignored', reason, description });

export const ANNOTATIONS = defineAnnotations({
  internal: { key: key('azure-load-balancer-internal'), defaultValue: 'false', status: 'supported', description: '`true`: an internal frontend on the `<cluster>-internal` load balancer, in the cluster subnet (or `azure-load-balancer-internal-subnet`). Any other value: external.' },
  internalSubnet: { type: { kind: 'string' }, key: key('azure-load-balancer-internal-subnet'), defaultValue: 'subnetName', status: 'supported', description: 'Subnet (of `vnetName`) of the internal frontend; its name is appended to the frontend and rule names (`a<uid>-<subnet>`).' },
  mode: ignored('azure-load-balancer-mode', '', BASIC_SKU, 'Basic SKU: which availability sets get a load balancer (`__auto__` or names).'),
  resourceGroup: { type: { kind: 'string' }, key: key('azure-load-balancer-resource-group'), defaultValue: 'resourceGroup', status: 'supported', description: 'Resource group of the Service\'s public IP (a pre-created one, or where it is created).' },
  ipv4: { type: { kind: 'string' }, key: key('azure-load-balancer-ipv4'), defaultValue: '', status: 'supported', description: 'The frontend IPv4 address (replaces `spec.loadBalancerIP`): internal, a static private address of the subnet; external, the address of an existing public IP of the public IP resource group (kept when the Service goes).' },
  ipv6: { type: { kind: 'string' }, key: key('azure-load-balancer-ipv6'), defaultValue: '', status: 'supported', description: 'The frontend IPv6 address of an IPv6 or dual-stack Service (replaces an IPv6 `spec.loadBalancerIP`): internal, a static private address of the subnet; external, the address of an existing IPv6 public IP.' },
  pipName: { type: { kind: 'string' }, key: key('azure-pip-name'), defaultValue: '', status: 'supported', description: 'Name of the public IP: used when it exists (kept when the Service goes unless this provider created it), else created with that name.' },
  pipNameIpv6: { type: { kind: 'string' }, key: key('azure-pip-name-ipv6'), defaultValue: '', status: 'supported', description: 'Name of the IPv6 public IP of a dual-stack Service (an IPv6-only Service takes it before `azure-pip-name`, upstream `getServicePIPName`).' },
  pipPrefixId: ignored('azure-pip-prefix-id', '', 'allocation from public IP prefixes is not implemented', 'Public IP prefix the public IP is allocated from.'),
  pipPrefixIdIpv6: ignored('azure-pip-prefix-id-ipv6', '', 'allocation from public IP prefixes is not implemented', 'IPv6 public IP prefix.'),
  pipTags: { type: { kind: 'key-value-map', syntax: 'pair' }, key: key('azure-pip-tags'), defaultValue: '', status: 'supported', description: 'Extra tags `k1=v1,k2=v2` on the public IP this provider manages.' },
  pipIpTags: { type: { kind: 'key-value-map', syntax: 'pair' }, key: key('azure-pip-ip-tags'), defaultValue: '', status: 'supported', description: 'IP tags `type=tag,...` (e.g. `RoutingPreference=Internet`) of a public IP this provider creates.' },
  dnsLabelName: { key: key('azure-dns-label-name'), defaultValue: '', status: 'supported', description: 'DNS label of the public IP (`<label>.<location>.cloudapp.azure.com`); an empty value removes it; absent leaves it alone. Recorded in the tag `k8s-azure-dns-label-service`.' },
  allowedServiceTags: { type: { kind: 'list' }, key: key('azure-allowed-service-tags'), defaultValue: '', status: 'supported', description: 'Comma-separated Azure service tags allowed as sources by the Service\'s security rules.' },
  allowedIpRanges: { type: { kind: 'cidr-list' }, key: key('azure-allowed-ip-ranges'), defaultValue: '', status: 'supported', description: 'Comma-separated source CIDRs of the security rules (alternative to `spec.loadBalancerSourceRanges`, which wins).' },
  denyAllExceptSourceRanges: { type: { kind: 'boolean', syntax: 'true-false-any-case' }, key: key('azure-deny-all-except-load-balancer-source-ranges'), defaultValue: 'false', status: 'supported', description: '`true`: a deny-all rule `k8s-azure-lb_deny-all_IPv4` for the Service\'s addresses after its allow rules.' },
  disableNsgRule: { type: { kind: 'boolean', syntax: 'true-false-any-case' }, key: key('azure-disable-load-balancer-nsg-rule'), defaultValue: 'false', status: 'supported', description: '`true`: no security rules for the Service.' },
  sharedSecurityRule: ignored('azure-shared-securityrule', 'false', 'security rules are always shared (one rule per protocol, sources and ports, listing every Service address that needs it), as upstream\'s current code; upstream documents this annotation but no longer reads it', 'Share security rules between Services.'),
  tcpIdleTimeout: { type: { kind: 'integer', min: 4, max: 100, empty: 'invalid' }, key: key('azure-load-balancer-tcp-idle-timeout'), defaultValue: '4', status: 'supported', description: 'Idle timeout of the TCP rules in minutes, 4 to 100.' },
  haPorts: { type: { kind: 'boolean', syntax: 'true-false-any-case' }, key: key('azure-load-balancer-enable-high-availability-ports'), defaultValue: 'false', status: 'supported', description: '`true` on an internal Service: one HA-ports rule (protocol All, port 0) named after the first port.' },
  disableTcpReset: { type: { kind: 'boolean', syntax: 'true-false-any-case' }, key: key('azure-load-balancer-disable-tcp-reset'), defaultValue: 'false', status: 'supported', description: '`true`: TCP reset off on the Service\'s rules.' },
  disableFloatingIp: { type: { kind: 'boolean', syntax: 'true-false-any-case' }, key: key('azure-disable-load-balancer-floating-ip'), defaultValue: 'false', status: 'supported', description: '`true`: floating IP (DSR) off; the backend port is the NodePort and the security rules open the NodePorts.' },
  probeProtocol: { type: { kind: 'enum', values: ['Tcp', 'Http', 'Https'], caseInsensitive: true, empty: 'invalid' }, key: key('azure-load-balancer-health-probe-protocol'), defaultValue: 'Tcp (Http when appProtocol is http)', status: 'supported', description: '`Tcp`, `Http` or `Https` probes for every port of an externalTrafficPolicy Cluster Service.' },
  probeRequestPath: { key: key('azure-load-balancer-health-probe-request-path'), defaultValue: '/', status: 'supported', description: 'Request path of Http/Https probes.' },
  probeInterval: { type: { kind: 'integer', min: 5, max: 119, empty: 'invalid' }, key: key('azure-load-balancer-health-probe-interval'), defaultValue: '5', status: 'supported', description: 'Seconds between probes (at least 5); interval × number of probes must be under 120.' },
  probeNumOfProbe: { type: { kind: 'integer', min: 1, max: 119, empty: 'invalid' }, key: key('azure-load-balancer-health-probe-num-of-probe'), defaultValue: '2', status: 'supported', description: 'Consecutive failures before a backend is out (`probeThreshold`, at least 1).' },
  portNoLbRule: { type: { kind: 'boolean', syntax: 'true-false-any-case' }, key: key('port_{port}_no_lb_rule'), defaultValue: 'false', status: 'supported', description: '`true`: no rule (and no probe) for that service port.' },
  portNoProbeRule: { type: { kind: 'boolean', syntax: 'true-false-any-case' }, key: key('port_{port}_no_probe_rule'), defaultValue: 'false', status: 'supported', description: '`true`: the rule of that port has no probe.' },
  portProbeProtocol: { type: { kind: 'enum', values: ['Tcp', 'Http', 'Https'], caseInsensitive: true, empty: 'invalid' }, key: key('port_{port}_health-probe_protocol'), defaultValue: 'the global probe protocol', status: 'supported', description: 'Probe protocol of that port (`Tcp`, `Http`, `Https`).' },
  portProbePort: { key: key('port_{port}_health-probe_port'), defaultValue: 'the NodePort', status: 'supported', description: 'Probe port of that port: a number, or the name or number of another service port (its NodePort is probed).' },
  portProbeInterval: { type: { kind: 'integer', min: 5, max: 119, empty: 'invalid' }, key: key('port_{port}_health-probe_interval'), defaultValue: 'the global interval', status: 'supported', description: 'Probe interval of that port.' },
  portProbeNumOfProbe: { type: { kind: 'integer', min: 1, max: 119, empty: 'invalid' }, key: key('port_{port}_health-probe_num-of-probe'), defaultValue: 'the global number', status: 'supported', description: 'Probe threshold of that port.' },
  portProbeRequestPath: { key: key('port_{port}_health-probe_request-path'), defaultValue: 'the global path', status: 'supported', description: 'Probe request path of that port.' },
  additionalPublicIps: ignored('azure-additional-public-ips', '', 'cross-region load balancers are not offered', 'Extra public IPs of a cross-region load balancer.'),
  loadBalancerConfigurations: ignored('azure-load-balancer-configurations', '', NO_MULTI_SLB, 'Candidate load balancers of the Service.'),
  plsCreate: ignored('azure-pls-create', 'false', NO_PLS, 'Create a Private Link service.'),
  plsName: ignored('azure-pls-name', '', NO_PLS, 'Private Link service name.'),
  plsResourceGroup: ignored('azure-pls-resource-group', '', NO_PLS, 'Private Link service resource group.'),
  plsIpConfigurationSubnet: ignored('azure-pls-ip-configuration-subnet', '', NO_PLS, 'Private Link service subnet.'),
  plsIpConfigurationIpAddressCount: ignored('azure-pls-ip-configuration-ip-address-count', '1', NO_PLS, 'Private Link service address count.'),
  plsIpConfigurationIpAddress: ignored('azure-pls-ip-configuration-ip-address', '', NO_PLS, 'Private Link service addresses.'),
  plsFqdns: ignored('azure-pls-fqdns', '', NO_PLS, 'Private Link service FQDNs.'),
  plsProxyProtocol: ignored('azure-pls-proxy-protocol', 'false', NO_PLS, 'Private Link service PROXY protocol.'),
  plsVisibility: ignored('azure-pls-visibility', '', NO_PLS, 'Private Link service visibility.'),
  plsAutoApproval: ignored('azure-pls-auto-approval', '', NO_PLS, 'Private Link service auto approval.'),
});

export const ALL_ANNOTATIONS: readonly AnnotationDefinition[] = Object.values(ANNOTATIONS);

export interface ProbeOverrides {
  protocol?: AzureProbeProtocol;
  requestPath?: string;
  intervalInSeconds?: number;
  probeThreshold?: number;
  /** Per port: a port number or the name/number of a service port. */
  port?: string;
}

export interface PortOptions extends ProbeOverrides {
  noLbRule: boolean;
  noProbeRule: boolean;
}

/** What a Service asks of its load balancer, parsed and checked. */
export interface ServiceLoadBalancerOptions {
  internal: boolean;
  internalSubnet?: string;
  publicIpResourceGroup?: string;
  /** From `azure-load-balancer-ipv4`, else an IPv4 `spec.loadBalancerIP`. */
  requestedIp?: string;
  /** From `azure-load-balancer-ipv6`, else an IPv6 `spec.loadBalancerIP`. */
  requestedIpv6?: string;
  publicIpName?: string;
  publicIpNameIpv6?: string;
  publicIpTags: Record<string, string>;
  publicIpIpTags: Array<{ ipTagType: string; tag: string }>;
  /** `undefined`: not managed; '': remove. */
  dnsLabelName?: string;
  allowedServiceTags: string[];
  /** `spec.loadBalancerSourceRanges`, else `azure-allowed-ip-ranges`. */
  sourceRanges: string[];
  denyAllExceptSourceRanges: boolean;
  disableNsgRule: boolean;
  idleTimeoutInMinutes: number;
  highAvailabilityPorts: boolean;
  disableTcpReset: boolean;
  disableFloatingIp: boolean;
  probe: ProbeOverrides;
  /** Keyed by service port number. */
  ports: Map<number, PortOptions>;
}

const DNS_LABEL = /^[a-z][a-z0-9-]{1,61}[a-z0-9]$/;
const PUBLIC_IP_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,78}[A-Za-z0-9_]$|^[A-Za-z0-9]$/;

const invalid = (annotation: string, value: string, why: string): InvalidAnnotationError => new InvalidAnnotationError(annotation, value, why);

function requestPathOf(annotation: string, value: string): string {
  if (!value.startsWith('/')) throw invalid(annotation, value, 'must start with /');
  return value;
}

const PER_PORT = /^service\.beta\.kubernetes\.io\/port_(\d+)_(no_lb_rule|no_probe_rule|health-probe_protocol|health-probe_port|health-probe_interval|health-probe_num-of-probe|health-probe_request-path)$/;

function checkProbeTotal(annotation: string, value: string, interval: number | undefined, threshold: number | undefined): void {
  if ((interval ?? 5) * (threshold ?? 2) >= 120) throw invalid(annotation, value, 'interval × number of probes must be under 120 seconds');
}

/** Parses and checks every supported annotation of `service` (and the fields they stand in for). */
export function readServiceLoadBalancerOptions(service: V1Service): ServiceLoadBalancerOptions {
  const annotations = service.metadata?.annotations ?? {};
  const internal = wantsInternalLoadBalancer(service);

  const internalSubnet = readAnnotation(service, ANNOTATIONS.internalSubnet);
  if (internalSubnet !== undefined && !/^[A-Za-z0-9][A-Za-z0-9_.-]{0,78}[A-Za-z0-9_]?$/.test(internalSubnet)) {
    throw invalid(ANNOTATIONS.internalSubnet.key, internalSubnet, 'is not a subnet name');
  }

  // Upstream `getServiceLoadBalancerIP`: the family's annotation, else spec.loadBalancerIP when it is of that family.
  const ipv4Annotation = readAnnotation(service, ANNOTATIONS.ipv4);
  const ipv6Annotation = readAnnotation(service, ANNOTATIONS.ipv6);
  if (ipv4Annotation !== undefined && ipv4Annotation !== '' && parseIpAddress(ipv4Annotation)?.family !== 4) throw invalid(ANNOTATIONS.ipv4.key, ipv4Annotation, 'must be an IPv4 address');
  if (ipv6Annotation !== undefined && ipv6Annotation !== '' && parseIpAddress(ipv6Annotation)?.family !== 6) throw invalid(ANNOTATIONS.ipv6.key, ipv6Annotation, 'must be an IPv6 address');
  const specIp = (service.spec?.loadBalancerIP ?? '').trim();
  const families = serviceIpFamilies(service);
  const specFamily = specIp === '' ? undefined : parseIpAddress(specIp)?.family;
  if (specIp !== '' && (specFamily === undefined || !families.includes(specFamily === 6 ? 'IPv6' : 'IPv4'))) {
    throw invalid('spec.loadBalancerIP', specIp, `must be an ${families.join(' or ')} address`);
  }
  const requestedIp = ipv4Annotation ?? (specFamily === 4 ? specIp : '');
  const requestedIpv6 = ipv6Annotation ?? (specFamily === 6 ? specIp : '');

  const pipName = readAnnotation(service, ANNOTATIONS.pipName);
  if (pipName !== undefined && !PUBLIC_IP_NAME.test(pipName)) throw invalid(ANNOTATIONS.pipName.key, pipName, 'is not a public IP name');
  const pipNameIpv6 = readAnnotation(service, ANNOTATIONS.pipNameIpv6);
  if (pipNameIpv6 !== undefined && !PUBLIC_IP_NAME.test(pipNameIpv6)) throw invalid(ANNOTATIONS.pipNameIpv6.key, pipNameIpv6, 'is not a public IP name');

  const publicIpTags = readAnnotation(service, ANNOTATIONS.pipTags) ?? {};
  const ipTags = annotations[ANNOTATIONS.pipIpTags.key];
  const publicIpIpTags =
    ipTags === undefined ? [] : parseKeyValuePairs(ipTags, 'pair', (reason) => invalid(ANNOTATIONS.pipIpTags.key, ipTags, reason)).map(([ipTagType, tag]) => ({ ipTagType, tag }));

  const dnsLabelName = annotations[ANNOTATIONS.dnsLabelName.key]?.trim();
  if (dnsLabelName !== undefined && dnsLabelName !== '' && !DNS_LABEL.test(dnsLabelName)) {
    throw invalid(ANNOTATIONS.dnsLabelName.key, dnsLabelName, 'must be 3 to 63 lower-case letters, digits and hyphens, starting with a letter');
  }

  const allowedServiceTags = readAnnotation(service, ANNOTATIONS.allowedServiceTags) ?? [];
  for (const tag of allowedServiceTags) {
    if (!/^[A-Za-z][A-Za-z0-9.]*$/.test(tag)) throw invalid(ANNOTATIONS.allowedServiceTags.key, annotations[ANNOTATIONS.allowedServiceTags.key] ?? '', `${JSON.stringify(tag)} is not a service tag`);
  }
  const sourceRanges = sourceRangesOf(service);

  const probe: ProbeOverrides = {};
  const protocol = readAnnotation(service, ANNOTATIONS.probeProtocol);
  if (protocol !== undefined) probe.protocol = protocol;
  const path = annotations[ANNOTATIONS.probeRequestPath.key];
  if (path !== undefined) probe.requestPath = requestPathOf(ANNOTATIONS.probeRequestPath.key, path);
  const interval = annotations[ANNOTATIONS.probeInterval.key];
  const intervalInSeconds = readAnnotation(service, ANNOTATIONS.probeInterval);
  if (intervalInSeconds !== undefined) probe.intervalInSeconds = intervalInSeconds;
  const threshold = annotations[ANNOTATIONS.probeNumOfProbe.key];
  const probeThreshold = readAnnotation(service, ANNOTATIONS.probeNumOfProbe);
  if (probeThreshold !== undefined) probe.probeThreshold = probeThreshold;
  if (interval !== undefined || threshold !== undefined) {
    const which = threshold !== undefined ? ANNOTATIONS.probeNumOfProbe.key : ANNOTATIONS.probeInterval.key;
    checkProbeTotal(which, (threshold ?? interval) as string, probe.intervalInSeconds, probe.probeThreshold);
  }

  const ports = new Map<number, PortOptions>();
  for (const [annotation, value] of Object.entries(annotations)) {
    const match = PER_PORT.exec(annotation);
    if (!match) continue;
    const port = Number(match[1]);
    const options = ports.get(port) ?? { noLbRule: false, noProbeRule: false };
    switch (match[2]) {
      case 'no_lb_rule':
        options.noLbRule = parseAnnotationValue(annotation, value, ANNOTATIONS.portNoLbRule.type) ?? false;
        break;
      case 'no_probe_rule':
        options.noProbeRule = parseAnnotationValue(annotation, value, ANNOTATIONS.portNoProbeRule.type) ?? false;
        break;
      case 'health-probe_protocol': {
        const portProtocol = parseAnnotationValue(annotation, value, ANNOTATIONS.portProbeProtocol.type);
        if (portProtocol !== undefined) options.protocol = portProtocol;
        break;
      }
      case 'health-probe_port':
        if (value.trim() === '') throw invalid(annotation, value, 'must be a port number or a service port name');
        if (/^\d+$/.test(value.trim()) && (Number(value) < 1 || Number(value) > 65535)) throw invalid(annotation, value, 'must be a port from 1 to 65535');
        options.port = value.trim();
        break;
      case 'health-probe_interval': {
        const portInterval = parseAnnotationValue(annotation, value, ANNOTATIONS.portProbeInterval.type);
        if (portInterval !== undefined) options.intervalInSeconds = portInterval;
        checkProbeTotal(annotation, value, options.intervalInSeconds, options.probeThreshold ?? probe.probeThreshold);
        break;
      }
      case 'health-probe_num-of-probe': {
        const portThreshold = parseAnnotationValue(annotation, value, ANNOTATIONS.portProbeNumOfProbe.type);
        if (portThreshold !== undefined) options.probeThreshold = portThreshold;
        checkProbeTotal(annotation, value, options.intervalInSeconds ?? probe.intervalInSeconds, options.probeThreshold);
        break;
      }
      case 'health-probe_request-path':
        options.requestPath = requestPathOf(annotation, value);
        break;
    }
    ports.set(port, options);
  }

  const publicIpResourceGroup = readAnnotation(service, ANNOTATIONS.resourceGroup);
  return {
    internal,
    ...(internal && internalSubnet !== undefined ? { internalSubnet } : {}),
    ...(publicIpResourceGroup === undefined ? {} : { publicIpResourceGroup }),
    ...(requestedIp === '' ? {} : { requestedIp }),
    ...(requestedIpv6 === '' ? {} : { requestedIpv6 }),
    ...(pipName === undefined ? {} : { publicIpName: pipName }),
    ...(pipNameIpv6 === undefined ? {} : { publicIpNameIpv6: pipNameIpv6 }),
    publicIpTags,
    publicIpIpTags,
    ...(dnsLabelName === undefined ? {} : { dnsLabelName }),
    allowedServiceTags,
    sourceRanges,
    denyAllExceptSourceRanges: readAnnotation(service, ANNOTATIONS.denyAllExceptSourceRanges) ?? false,
    disableNsgRule: readAnnotation(service, ANNOTATIONS.disableNsgRule) ?? false,
    idleTimeoutInMinutes: readAnnotation(service, ANNOTATIONS.tcpIdleTimeout) ?? 4,
    highAvailabilityPorts: readAnnotation(service, ANNOTATIONS.haPorts) ?? false,
    disableTcpReset: readAnnotation(service, ANNOTATIONS.disableTcpReset) ?? false,
    disableFloatingIp: readAnnotation(service, ANNOTATIONS.disableFloatingIp) ?? false,
    probe,
    ports,
  };
}

/**
 * `spec.loadBalancerSourceRanges`, else `azure-allowed-ip-ranges` (core's `serviceSourceRanges`),
 * default none. Upstream cloud-provider-azure takes `servicehelpers.GetLoadBalancerSourceRanges`
 * (default `0.0.0.0/0`) and, when that is the allow-all range and no service tag is given, writes
 * the source `Internet` (external) or `*` (internal) instead; none here leads to the same
 * sources (docs/parity.md). The standard `load-balancer-source-ranges` annotation is not read.
 */
export function sourceRangesOf(service: V1Service): string[] {
  return serviceSourceRanges(service, { whenAbsent: 'none', annotation: ANNOTATIONS.allowedIpRanges.key });
}

/** The Service's IP families in its order (`spec.ipFamilies`; none: IPv4, upstream `getIPFamiliesEnabled`). */
export function serviceIpFamilies(service: V1Service): Array<'IPv4' | 'IPv6'> {
  const families = (service.spec?.ipFamilies ?? []).filter((family): family is 'IPv4' | 'IPv6' => family === 'IPv4' || family === 'IPv6');
  return families.length === 0 ? ['IPv4'] : [...new Set(families)];
}

/** The address a Service asks for in `family`. */
export function requestedIpOf(options: ServiceLoadBalancerOptions, family: 'IPv4' | 'IPv6'): string | undefined {
  return family === 'IPv6' ? options.requestedIpv6 : options.requestedIp;
}

/**
 * The public IP name a Service asks for in `family` (upstream `azure_utils.go` `getServicePIPName`):
 * dual-stack, the family's annotation; single-stack IPv6, `azure-pip-name-ipv6` else `azure-pip-name`.
 */
export function publicIpNameOf(options: ServiceLoadBalancerOptions, family: 'IPv4' | 'IPv6', dualStack: boolean): string | undefined {
  if (dualStack) return family === 'IPv6' ? options.publicIpNameIpv6 : options.publicIpName;
  return family === 'IPv6' ? (options.publicIpNameIpv6 ?? options.publicIpName) : options.publicIpName;
}

/** Only the internal flag (deletion must work even when other annotations became invalid). */
export function wantsInternalLoadBalancer(service: V1Service): boolean {
  return (service.metadata?.annotations?.[ANNOTATIONS.internal.key] ?? '').trim().toLowerCase() === 'true';
}

/** The internal subnet annotation, without validation (deletion names). */
export function internalSubnetOf(service: V1Service): string | undefined {
  const subnet = service.metadata?.annotations?.[ANNOTATIONS.internalSubnet.key]?.trim();
  return wantsInternalLoadBalancer(service) && subnet !== undefined && subnet !== '' ? subnet : undefined;
}
