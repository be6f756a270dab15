/** Classic ELB health check (upstream `ensureLoadBalancerHealthCheck` / `getExpectedHealthCheck`). */
import type { V1Service } from '@ccm/core/kube';
import { ANNOTATIONS, annotationValue, readTyped, portNumberOf, type Annotations } from '../../../annotations.js';
import { InvalidAnnotationError } from '@ccm/core/service-input';
import type { ClassicHealthCheck, ClassicListener } from '../../../ports/elb-port.js';
import type { LoadBalancerSettings } from '../load-balancer-spec.js';

export const TRAFFIC_PORT = 'traffic-port';
const DEFAULT_PATH = '/';
const CLASSIC_PROTOCOLS = ['TCP', 'SSL', 'HTTP', 'HTTPS'];

/** `/healthz` and the health-check node port for externalTrafficPolicy Local, else undefined. */
export function localHealthCheckEndpoint(service: V1Service): { path: string; nodePort: number } | undefined {
  if (service.spec?.externalTrafficPolicy !== 'Local') return undefined;
  const nodePort = service.spec.healthCheckNodePort ?? 0;
  return nodePort === 0 ? undefined : { path: '/healthz', nodePort };
}

export function buildClassicHealthCheck(
  service: V1Service,
  listeners: readonly ClassicListener[],
  annotations: Annotations,
  settings: LoadBalancerSettings,
): ClassicHealthCheck {
  const firstNodePort = listeners[0]?.instancePort ?? 0;
  let protocol: string;
  let port: number;
  let path: string;
  const local = localHealthCheckEndpoint(service);
  const portAnnotation = annotationValue(annotations, ANNOTATIONS.healthCheckPort);
  if (local) {
    protocol = 'HTTP';
    path = local.path;
    port = portAnnotation === TRAFFIC_PORT ? firstNodePort : local.nodePort;
  } else if (settings.healthProbeMode === 'Shared') {
    protocol = 'HTTP';
    port = settings.sharedHealthProbePort;
    path = settings.sharedHealthProbePath;
  } else {
    const backend = (annotationValue(annotations, ANNOTATIONS.backendProtocol) ?? '').toLowerCase();
    protocol = backend === 'https' || backend === 'ssl' ? 'SSL' : 'TCP';
    port = firstNodePort;
    path = '';
  }
  const protocolAnnotation = annotationValue(annotations, ANNOTATIONS.healthCheckProtocol) ?? '';
  if (protocolAnnotation !== '') {
    if (!CLASSIC_PROTOCOLS.includes(protocolAnnotation.toUpperCase())) {
      throw new InvalidAnnotationError(ANNOTATIONS.healthCheckProtocol.key, protocolAnnotation, `expected one of ${CLASSIC_PROTOCOLS.join(', ')}`);
    }
    protocol = protocolAnnotation.toUpperCase();
  }
  if (portAnnotation !== undefined && portAnnotation !== '' && portAnnotation !== TRAFFIC_PORT) {
    port = portNumberOf(ANNOTATIONS.healthCheckPort, portAnnotation) ?? port;
    if (port > 65535) throw new InvalidAnnotationError(ANNOTATIONS.healthCheckPort.key, portAnnotation, 'not a port number');
  }
  if (protocol === 'HTTP' || protocol === 'HTTPS') {
    if (path === '') path = DEFAULT_PATH;
    const pathAnnotation = annotationValue(annotations, ANNOTATIONS.healthCheckPath) ?? '';
    if (pathAnnotation !== '') path = pathAnnotation;
  } else {
    path = '';
  }
  return {
    target: `${protocol}:${port}${path}`,
    healthyThreshold: readTyped(annotations, ANNOTATIONS.healthCheckHealthyThreshold) ?? 2,
    unhealthyThreshold: readTyped(annotations, ANNOTATIONS.healthCheckUnhealthyThreshold) ?? 6,
    timeout: readTyped(annotations, ANNOTATIONS.healthCheckTimeout) ?? 5,
    interval: readTyped(annotations, ANNOTATIONS.healthCheckInterval) ?? 10,
  };
}

/** Upstream compares the five fields one by one. */
export function classicHealthChecksEqual(actual: ClassicHealthCheck | undefined, expected: ClassicHealthCheck): boolean {
  return (
    actual !== undefined &&
    actual.target === expected.target &&
    actual.healthyThreshold === expected.healthyThreshold &&
    actual.unhealthyThreshold === expected.unhealthyThreshold &&
    actual.interval === expected.interval &&
    actual.timeout === expected.timeout
  );
}
