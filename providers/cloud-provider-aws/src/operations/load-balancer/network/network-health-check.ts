/** NLB target group health check (upstream `buildNLBHealthCheckConfiguration`). */
import type { V1Service } from '@ccm/core/kube';
import { ANNOTATIONS, annotationValue, readTyped, type Annotations } from '../../../annotations.js';
import { InvalidAnnotationError } from '@ccm/core/service-input';
import { localHealthCheckEndpoint, TRAFFIC_PORT } from '../classic/classic-health-check.js';
import type { LoadBalancerSettings, NetworkHealthCheck } from '../load-balancer-spec.js';

const NETWORK_HEALTH_CHECK_PROTOCOLS = ['TCP', 'HTTP', 'HTTPS'];

export function buildNetworkHealthCheck(service: V1Service, annotations: Annotations, settings: LoadBalancerSettings): NetworkHealthCheck {
  let healthCheck: NetworkHealthCheck = {
    protocol: 'TCP',
    port: TRAFFIC_PORT,
    path: '/',
    interval: 30,
    timeout: 10,
    healthyThreshold: 3,
    unhealthyThreshold: 3,
  };
  const local = localHealthCheckEndpoint(service);
  if (service.spec?.externalTrafficPolicy === 'Local') {
    healthCheck = {
      protocol: 'HTTP',
      port: String(local?.nodePort ?? 0),
      path: local?.path ?? '',
      interval: 10,
      timeout: 10,
      healthyThreshold: 2,
      unhealthyThreshold: 2,
    };
  }
  const protocol = annotationValue(annotations, ANNOTATIONS.healthCheckProtocol) ?? '';
  if (protocol !== '') {
    healthCheck.protocol = protocol.toUpperCase();
    if (!NETWORK_HEALTH_CHECK_PROTOCOLS.includes(healthCheck.protocol)) {
      throw new InvalidAnnotationError(ANNOTATIONS.healthCheckProtocol.key, protocol, `expected one of ${NETWORK_HEALTH_CHECK_PROTOCOLS.join(', ')}`);
    }
  }
  const path = annotationValue(annotations, ANNOTATIONS.healthCheckPath) ?? '';
  if (path !== '') healthCheck.path = path;
  const port = annotationValue(annotations, ANNOTATIONS.healthCheckPort) ?? '';
  if (port !== '') {
    if (port !== TRAFFIC_PORT && (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65535)) {
      throw new InvalidAnnotationError(ANNOTATIONS.healthCheckPort.key, port, `expected ${TRAFFIC_PORT} or a port number`);
    }
    healthCheck.port = port;
  }
  // Upstream applies the shared kube-proxy probe last: for a Cluster service it replaces the
  // protocol, port and path annotations (a Classic ELB keeps them: see classic-health-check.ts).
  if (settings.healthProbeMode === 'Shared' && service.spec?.externalTrafficPolicy !== 'Local') {
    healthCheck = { ...healthCheck, protocol: 'HTTP', port: String(settings.sharedHealthProbePort), path: settings.sharedHealthProbePath };
  }
  healthCheck.interval = readTyped(annotations, ANNOTATIONS.healthCheckInterval) ?? healthCheck.interval;
  healthCheck.timeout = readTyped(annotations, ANNOTATIONS.healthCheckTimeout) ?? healthCheck.timeout;
  healthCheck.healthyThreshold = readTyped(annotations, ANNOTATIONS.healthCheckHealthyThreshold) ?? healthCheck.healthyThreshold;
  healthCheck.unhealthyThreshold = readTyped(annotations, ANNOTATIONS.healthCheckUnhealthyThreshold) ?? healthCheck.unhealthyThreshold;
  return healthCheck;
}
