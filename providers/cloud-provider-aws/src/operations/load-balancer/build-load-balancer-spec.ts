/**
 * Pure translation of a Service into a load balancer spec (upstream `EnsureLoadBalancer`'s
 * preamble plus the annotation readers). Every check happens here, before any cloud call, so a
 * bad annotation never leaves a half-built load balancer behind.
 */
import type { V1Service } from '@ccm/core/kube';
import type { Logger } from '@ccm/core/logging';
import { parseIpAddress } from '@ccm/core/net';
import { defaultLoadBalancerName } from '@ccm/core/provider';
import { InvalidAnnotationError } from '@ccm/core/service-input';
import {
  ANNOTATIONS,
  annotationsOf,
  annotationValue,
  hasAnnotation,
  LOAD_BALANCER_TYPE_NLB,
  LOAD_BALANCER_TYPES_ELSEWHERE,
  loadBalancerSourceRanges,
  readTyped,
  sslPortSelection,
  type Annotations,
} from '../../annotations.js';
import { UnsupportedServiceError } from '../../errors.js';
import { buildClassicAttributes } from './classic/classic-attributes.js';
import { buildClassicHealthCheck } from './classic/classic-health-check.js';
import { buildClassicListener, type ListenerPort } from './classic/classic-listeners.js';
import type {
  ClassicLoadBalancerSpec,
  CommonLoadBalancerSpec,
  LoadBalancerSettings,
  LoadBalancerSpec,
  NetworkLoadBalancerSpec,
  NetworkPortMapping,
} from './load-balancer-spec.js';
import { buildNetworkAttributes, parseTargetGroupAttributes } from './network/network-attributes.js';
import { buildNetworkHealthCheck } from './network/network-health-check.js';

export type LoadBalancerKind = 'classic' | 'network' | 'elsewhere';

/** `nlb` -> network; `nlb-ip`/`external` -> the AWS Load Balancer Controller; else classic. */
export function loadBalancerKind(service: V1Service): LoadBalancerKind {
  const type = annotationValue(annotationsOf(service), ANNOTATIONS.type) ?? '';
  if (type === LOAD_BALANCER_TYPE_NLB) return 'network';
  if (LOAD_BALANCER_TYPES_ELSEWHERE.includes(type)) return 'elsewhere';
  return 'classic';
}

/** Upstream: any non-empty value but `false` means internal. */
export function isInternal(annotations: Annotations): boolean {
  const value = annotationValue(annotations, ANNOTATIONS.internal) ?? '';
  return value !== '' && value !== 'false';
}

function listenerPorts(service: V1Service, network: boolean, logger: Logger): ListenerPort[] {
  const ports = service.spec?.ports ?? [];
  if ((service.spec?.sessionAffinity ?? 'None') !== 'None') {
    throw new UnsupportedServiceError(`unsupported load balancer affinity: ${service.spec?.sessionAffinity}`);
  }
  if (ports.length === 0) throw new UnsupportedServiceError('requested load balancer with no ports');
  const protocols = new Set(ports.map((port) => port.protocol ?? 'TCP'));
  if (protocols.size > 1) throw new UnsupportedServiceError('mixed protocol is not supported for LoadBalancer');
  const result: ListenerPort[] = [];
  for (const port of ports) {
    const protocol = port.protocol ?? 'TCP';
    if (!(protocol === 'TCP' || (network && protocol === 'UDP'))) {
      throw new UnsupportedServiceError(`Protocol ${protocol} not supported by LoadBalancer`);
    }
    if (!port.nodePort) {
      logger.warn('ignoring port without NodePort', { port: port.port, name: port.name });
      continue;
    }
    result.push({ name: port.name ?? '', port: port.port, nodePort: port.nodePort, protocol });
  }
  if ((service.spec?.loadBalancerIP ?? '') !== '') throw new UnsupportedServiceError('LoadBalancerIP cannot be specified for AWS ELB');
  if (result.length === 0) throw new UnsupportedServiceError('no Service port has a NodePort; AWS load balancers forward to node ports');
  return result;
}

function commonSpec(service: V1Service, annotations: Annotations): CommonLoadBalancerSpec {
  return {
    service: { namespace: service.metadata?.namespace ?? '', name: service.metadata?.name ?? '', uid: service.metadata?.uid ?? '' },
    loadBalancerName: defaultLoadBalancerName(service),
    internal: isInternal(annotations),
    subnetNamesOrIds: (readTyped(annotations, ANNOTATIONS.subnets) ?? []),
    securityGroups: (readTyped(annotations, ANNOTATIONS.securityGroups) ?? []),
    additionalTags: (readTyped(annotations, ANNOTATIONS.additionalResourceTags) ?? {}),
    sourceRanges: loadBalancerSourceRanges(service),
    targetNodeLabels: (readTyped(annotations, ANNOTATIONS.targetNodeLabels) ?? {}),
    frontendPorts: (service.spec?.ports ?? []).map((port) => ({ port: port.port, protocol: (port.protocol ?? 'TCP').toLowerCase() })),
  };
}

export function buildLoadBalancerSpec(service: V1Service, settings: LoadBalancerSettings, logger: Logger): LoadBalancerSpec {
  const kind = loadBalancerKind(service);
  if (kind === 'elsewhere') throw new Error('load balancers of type nlb-ip/external are implemented elsewhere');
  return kind === 'network' ? buildNetworkSpec(service, settings, logger) : buildClassicSpec(service, settings, logger);
}

function buildClassicSpec(service: V1Service, settings: LoadBalancerSettings, logger: Logger): ClassicLoadBalancerSpec {
  const annotations = annotationsOf(service);
  const ports = listenerPorts(service, false, logger);
  if (hasAnnotation(annotations, ANNOTATIONS.targetGroupAttributes)) {
    throw new InvalidAnnotationError(ANNOTATIONS.targetGroupAttributes.key, annotationValue(annotations, ANNOTATIONS.targetGroupAttributes) ?? '', 'target group attributes are only supported for NLB');
  }
  const sslPorts = sslPortSelection(annotations);
  const listeners = ports.map((port) => buildClassicListener(port, annotations, sslPorts));
  const proxyProtocolValue = annotationValue(annotations, ANNOTATIONS.proxyProtocol) ?? '';
  if (proxyProtocolValue !== '' && proxyProtocolValue !== '*') {
    throw new InvalidAnnotationError(ANNOTATIONS.proxyProtocol.key, proxyProtocolValue, "the only value supported is '*'");
  }
  const sslPolicy = annotationValue(annotations, ANNOTATIONS.sslNegotiationPolicy);
  return {
    ...commonSpec(service, annotations),
    kind: 'classic',
    listeners,
    extraSecurityGroups: (readTyped(annotations, ANNOTATIONS.extraSecurityGroups) ?? []),
    attributes: buildClassicAttributes(annotations),
    proxyProtocol: proxyProtocolValue === '*',
    sslNegotiationPolicy: sslPolicy === undefined || sslPolicy === '' ? undefined : sslPolicy,
    healthCheck: buildClassicHealthCheck(service, listeners, annotations, settings),
  };
}

function buildNetworkSpec(service: V1Service, settings: LoadBalancerSettings, logger: Logger): NetworkLoadBalancerSpec {
  const annotations = annotationsOf(service);
  const ports = listenerPorts(service, true, logger);
  const extraGroups = annotationValue(annotations, ANNOTATIONS.extraSecurityGroups) ?? '';
  if (extraGroups.trim() !== '') {
    throw new InvalidAnnotationError(ANNOTATIONS.extraSecurityGroups.key, extraGroups, 'extra security groups are not supported for NLB');
  }
  const sslPorts = sslPortSelection(annotations);
  const certificate = annotationValue(annotations, ANNOTATIONS.sslCertificate) ?? '';
  const healthCheck = buildNetworkHealthCheck(service, annotations, settings);
  const mappings = ports.map((port): NetworkPortMapping => {
    const mapping: NetworkPortMapping = {
      frontendPort: port.port,
      frontendProtocol: port.protocol,
      trafficPort: port.nodePort,
      trafficProtocol: port.protocol,
      healthCheck: { ...healthCheck },
    };
    const selected = sslPorts === undefined || sslPorts.numbers.has(port.port) || sslPorts.names.has(port.name);
    if (port.protocol !== 'UDP' && certificate !== '' && selected) {
      mapping.frontendProtocol = 'TLS';
      mapping.sslCertificateArn = certificate;
      mapping.sslPolicy = annotationValue(annotations, ANNOTATIONS.sslNegotiationPolicy) ?? '';
      if (annotationValue(annotations, ANNOTATIONS.backendProtocol) === 'ssl') mapping.trafficProtocol = 'TLS';
    }
    return mapping;
  });
  const common = commonSpec(service, annotations);
  const securityGroups = settings.nlbSecurityGroupMode === 'Managed' ? common.securityGroups : [];
  if (settings.nlbSecurityGroupMode !== 'Managed' && common.securityGroups.length > 0) {
    logger.warn('ignoring the security-groups annotation on an NLB: NLBSecurityGroupMode is not Managed', {
      service: `${common.service.namespace}/${common.service.name}`,
    });
  }
  const eipValue = annotationValue(annotations, ANNOTATIONS.eipAllocations);
  const privateIpValue = annotationValue(annotations, ANNOTATIONS.privateIpv4Addresses);
  const privateIps = (readTyped(annotations, ANNOTATIONS.privateIpv4Addresses) ?? []);
  const notIpv4 = privateIps.find((address) => parseIpAddress(address)?.family !== 4);
  if (notIpv4 !== undefined) {
    throw new InvalidAnnotationError(ANNOTATIONS.privateIpv4Addresses.key, privateIpValue ?? '', `${JSON.stringify(notIpv4)} is not an IPv4 address`);
  }
  return {
    ...common,
    securityGroups,
    kind: 'network',
    mappings,
    attributes: buildNetworkAttributes(annotations),
    targetGroupAttributes: parseTargetGroupAttributes(annotations, ports.some((port) => port.protocol === 'UDP')),
    eipAllocations: eipValue === undefined ? undefined : (readTyped(annotations, ANNOTATIONS.eipAllocations) ?? []),
    privateIpv4Addresses: privateIpValue === undefined ? undefined : privateIps,
  };
}
