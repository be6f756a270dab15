/**
 * What one Service needs on the cluster load balancer, from the Service and its parsed
 * annotations: rules (one per port and protocol, or one HA-ports rule), their probes and the
 * security rule specs. Pure; the frontend and the backend pool are named here too.
 */
import type { V1Service, V1ServicePort } from '@kubernetes/client-node';
import { PermanentInvalidServiceConfigurationError } from '@ccm/core/provider';
import { ANNOTATIONS, type ProbeOverrides, type ServiceLoadBalancerOptions } from '../../annotations.js';
import type { AzureLoadBalancingRule, AzureProbe, AzureProbeProtocol, AzureTransportProtocol } from '../../ports/network-port.js';
import { tryParseCidr } from '@ccm/core/net';
import { frontendNameOf, nameForFamily, ruleNameOf, serviceBaseName, type IpFamily } from './load-balancer-names.js';

export const LOCAL_PROBE_PATH = '/healthz';
export const DEFAULT_PROBE_INTERVAL_SECONDS = 5;
export const DEFAULT_PROBE_THRESHOLD = 2;

export interface LoadBalancerSettings {
  /** The backend pool of the family: `<cluster>`, `<cluster>-IPv6`. */
  poolName: string;
  disableOutboundSnat: boolean;
  /** The frontend's family (default IPv4); a dual-stack Service has one spec per family. */
  family?: IpFamily;
  /** Two families: the IPv6 names get `-IPv6` (upstream `getResourceByIPFamily`). */
  dualStack?: boolean;
}

/** A security rule a Service needs: protocol, sources and destination ports (its address is added by the planner). */
export interface SecurityRuleSpec {
  protocol: 'Tcp' | 'Udp';
  sources: string[];
  ports: string[];
}

export interface ServiceLoadBalancerSpec {
  base: string;
  family: IpFamily;
  frontendName: string;
  rules: AzureLoadBalancingRule[];
  probes: AzureProbe[];
  security: SecurityRuleSpec[];
  denyAll: boolean;
}

function transportOf(port: V1ServicePort): 'Tcp' | 'Udp' {
  const protocol = port.protocol ?? 'TCP';
  if (protocol === 'TCP') return 'Tcp';
  if (protocol === 'UDP') return 'Udp';
  throw new PermanentInvalidServiceConfigurationError(`spec.ports[${JSON.stringify(port.name ?? port.port)}].protocol=${JSON.stringify(protocol)}: Azure load balancers take TCP and UDP only`, {
    annotation: 'spec.ports.protocol',
    value: protocol,
  });
}

function probeProtocolByAppProtocol(port: V1ServicePort): AzureProbeProtocol | undefined {
  const appProtocol = (port.appProtocol ?? '').toLowerCase();
  if (appProtocol === 'http') return 'Http';
  if (appProtocol === 'https') return 'Https';
  return undefined;
}

/** The probe port of a per-port override: a number, or a service port's name or number (its NodePort). */
function probePortOf(service: V1Service, value: string, annotation: string): number {
  const ports = service.spec?.ports ?? [];
  const named = ports.find((candidate) => candidate.name === value || String(candidate.port) === value);
  if (named) return named.nodePort ?? named.port;
  if (/^\d+$/.test(value)) return Number(value);
  throw new PermanentInvalidServiceConfigurationError(`annotation ${annotation}=${JSON.stringify(value)}: no service port has that name`, { annotation, value });
}

/**
 * The probe of one port. With externalTrafficPolicy Local every rule shares one probe named
 * `localProbeName` (upstream `getExpectedLBRules`: the rule name of TCP on the health check node port).
 */
function probeOf(service: V1Service, port: V1ServicePort, name: string, localProbeName: string, options: ServiceLoadBalancerOptions): AzureProbe | undefined {
  const perPort = options.ports.get(port.port);
  if (perPort?.noProbeRule === true) return undefined;
  const merged: ProbeOverrides = { ...options.probe, ...Object.fromEntries(Object.entries(perPort ?? {}).filter(([, value]) => value !== undefined)) };
  const intervalInSeconds = merged.intervalInSeconds ?? DEFAULT_PROBE_INTERVAL_SECONDS;
  const probeThreshold = merged.probeThreshold ?? DEFAULT_PROBE_THRESHOLD;
  if (service.spec?.externalTrafficPolicy === 'Local' && service.spec.healthCheckNodePort !== undefined) {
    // kube-proxy answers on the health check NodePort for nodes with a ready endpoint.
    return { name: localProbeName, protocol: 'Http', port: service.spec.healthCheckNodePort, requestPath: LOCAL_PROBE_PATH, intervalInSeconds, probeThreshold };
  }
  const explicit = perPort?.protocol ?? options.probe.protocol;
  const protocol = explicit ?? probeProtocolByAppProtocol(port) ?? (transportOf(port) === 'Udp' ? undefined : 'Tcp');
  // UDP ports get no probe unless one is asked for (upstream).
  if (protocol === undefined) return undefined;
  const probePort = perPort?.port === undefined ? (port.nodePort ?? port.port) : probePortOf(service, perPort.port, `service.beta.kubernetes.io/port_${port.port}_health-probe_port`);
  return {
    name,
    protocol,
    port: probePort,
    ...(protocol === 'Tcp' ? {} : { requestPath: merged.requestPath ?? '/' }),
    intervalInSeconds,
    probeThreshold,
  };
}

export function buildServiceLoadBalancerSpec(service: V1Service, options: ServiceLoadBalancerOptions, settings: LoadBalancerSettings): ServiceLoadBalancerSpec {
  const base = serviceBaseName(service);
  const family = settings.family ?? 'IPv4';
  const named = (name: string): string => nameForFamily(name, settings.dualStack ?? false, family);
  const subnet = options.internal ? options.internalSubnet : undefined;
  const frontendName = named(frontendNameOf(base, subnet));
  const ports = (service.spec?.ports ?? []).filter((port) => options.ports.get(port.port)?.noLbRule !== true);
  const floating = !options.disableFloatingIp;
  const loadDistribution = service.spec?.sessionAffinity === 'ClientIP' ? 'SourceIP' : 'Default';
  const rules: AzureLoadBalancingRule[] = [];
  const probes: AzureProbe[] = [];
  const localProbeName = named(ruleNameOf(base, subnet, 'TCP', service.spec?.healthCheckNodePort ?? 0));
  const addProbe = (probe: AzureProbe | undefined): void => {
    if (probe !== undefined && !probes.some((known) => known.name === probe.name)) probes.push(probe);
  };

  if (options.highAvailabilityPorts) {
    if (!options.internal) {
      throw new PermanentInvalidServiceConfigurationError(`annotation ${ANNOTATIONS.haPorts.key}="true": high-availability ports need an internal load balancer (${ANNOTATIONS.internal.key}: "true")`, {
        annotation: ANNOTATIONS.haPorts.key,
        value: 'true',
      });
    }
    const first = ports[0];
    if (first !== undefined) {
      const name = named(ruleNameOf(base, subnet, first.protocol ?? 'TCP', first.port));
      const probe = probeOf(service, first, name, localProbeName, options);
      addProbe(probe);
      rules.push({
        name,
        frontendIpConfigurationName: frontendName,
        backendAddressPoolName: settings.poolName,
        ...(probe ? { probeName: probe.name } : {}),
        protocol: 'All',
        frontendPort: 0,
        backendPort: 0,
        enableFloatingIp: floating,
        idleTimeoutInMinutes: options.idleTimeoutInMinutes,
        enableTcpReset: !options.disableTcpReset,
        loadDistribution,
        disableOutboundSnat: false,
      });
    }
  } else {
    for (const port of ports) {
      const transport: AzureTransportProtocol = transportOf(port);
      const name = named(ruleNameOf(base, subnet, port.protocol ?? 'TCP', port.port));
      const probe = probeOf(service, port, name, localProbeName, options);
      addProbe(probe);
      rules.push({
        name,
        frontendIpConfigurationName: frontendName,
        backendAddressPoolName: settings.poolName,
        ...(probe ? { probeName: probe.name } : {}),
        protocol: transport,
        frontendPort: port.port,
        backendPort: floating ? port.port : (port.nodePort ?? port.port),
        enableFloatingIp: floating,
        idleTimeoutInMinutes: transport === 'Tcp' ? options.idleTimeoutInMinutes : 4,
        enableTcpReset: transport === 'Tcp' && !options.disableTcpReset,
        loadDistribution,
        disableOutboundSnat: options.internal ? false : settings.disableOutboundSnat,
      });
    }
  }

  return {
    base,
    family,
    frontendName,
    rules,
    probes,
    security: options.disableNsgRule ? [] : securitySpecsOf(ports, options, floating, family),
    denyAll: !options.disableNsgRule && options.denyAllExceptSourceRanges,
  };
}

/** Whether a source range is of `family` (upstream splits the sources by family: each family's rules take its own). */
function rangeOfFamily(range: string, family: IpFamily): boolean {
  const parsed = tryParseCidr(range);
  return parsed === undefined || (parsed.family === 6) === (family === 'IPv6');
}

const ALLOW_ALL = new Set(['0.0.0.0/0', '::/0']);

/** One rule per protocol for the CIDR sources, one per service tag (ARM takes one tag per rule). */
function securitySpecsOf(ports: V1ServicePort[], options: ServiceLoadBalancerOptions, floating: boolean, family: IpFamily): SecurityRuleSpec[] {
  const ranges = options.sourceRanges.some((range) => ALLOW_ALL.has(range)) ? [] : [...new Set(options.sourceRanges)].sort();
  const familyRanges = ranges.filter((range) => rangeOfFamily(range, family));
  const sourceSets: string[][] = [];
  if (familyRanges.length > 0) sourceSets.push(familyRanges);
  for (const tag of [...new Set(options.allowedServiceTags)].sort()) sourceSets.push([tag]);
  // Ranges of the other family only: this family's addresses get no allow rule from them.
  if (sourceSets.length === 0 && ranges.length === 0) sourceSets.push([options.internal ? '*' : 'Internet']);
  const byProtocol = new Map<'Tcp' | 'Udp', Set<string>>();
  for (const port of ports) {
    const protocol = transportOf(port);
    const destination = String(floating ? port.port : (port.nodePort ?? port.port));
    byProtocol.set(protocol, (byProtocol.get(protocol) ?? new Set()).add(destination));
  }
  const specs: SecurityRuleSpec[] = [];
  for (const [protocol, destinations] of [...byProtocol.entries()].sort(([left], [right]) => left.localeCompare(right))) {
    const sorted = [...destinations].sort((left, right) => Number(left) - Number(right));
    for (const sources of sourceSets) specs.push({ protocol, sources, ports: sorted });
  }
  return specs;
}
