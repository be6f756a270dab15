/**
 * Service defaulting and the update rules kube applies before validation: keep allocated
 * values the client omitted, and drop fields that only make sense for the previous type.
 */
import type { KubeObject } from '../api/kube-object.js';
import { deepEqual, isPlainObject } from '../util/json.js';
import type { StoredObject } from './resource-definition.js';
import { ensureObject } from './common.js';
import { isHeadless, needsClusterIp, needsHealthCheckNodePort, needsNodePorts, readServiceSpec, serviceSpec, servicePorts, serviceStatus, serviceType } from './service-fields.js';

export function applyServiceDefaults(service: KubeObject): void {
  const spec = serviceSpec(service);
  if (spec['type'] === undefined) spec['type'] = 'ClusterIP';
  if (spec['sessionAffinity'] === undefined) spec['sessionAffinity'] = 'None';
  if (spec['sessionAffinity'] === 'ClientIP' && spec['sessionAffinityConfig'] === undefined) {
    spec['sessionAffinityConfig'] = { clientIP: { timeoutSeconds: 10800 } };
  }
  for (const port of servicePorts(service)) {
    if (port['protocol'] === undefined) port['protocol'] = 'TCP';
    if ((port['targetPort'] === undefined || port['targetPort'] === 0 || port['targetPort'] === '') && port['port'] !== undefined) port['targetPort'] = port['port'];
  }
  const type = serviceType(service);
  if ((type === 'NodePort' || type === 'LoadBalancer') && spec['externalTrafficPolicy'] === undefined) spec['externalTrafficPolicy'] = 'Cluster';
  if (type !== 'ExternalName' && spec['internalTrafficPolicy'] === undefined) spec['internalTrafficPolicy'] = 'Cluster';
  if (type === 'LoadBalancer' && spec['allocateLoadBalancerNodePorts'] === undefined) spec['allocateLoadBalancerNodePorts'] = true;
  if (typeof spec['clusterIP'] === 'string' && spec['clusterIP'] !== '' && spec['clusterIPs'] === undefined) spec['clusterIPs'] = [spec['clusterIP']];
  const clusterIps = spec['clusterIPs'];
  if (Array.isArray(clusterIps) && clusterIps.length > 0 && (spec['clusterIP'] === undefined || spec['clusterIP'] === '')) spec['clusterIP'] = clusterIps[0];
  defaultIngressIpMode(service);
}

/** Since LoadBalancerIPMode went GA, an ingress entry with an IP gets `ipMode: VIP` by default. */
function defaultIngressIpMode(service: KubeObject): void {
  if (!isPlainObject(service['status'])) return;
  const loadBalancer = service['status']['loadBalancer'];
  if (!isPlainObject(loadBalancer) || !Array.isArray(loadBalancer['ingress'])) return;
  for (const ingress of loadBalancer['ingress']) {
    if (isPlainObject(ingress) && typeof ingress['ip'] === 'string' && ingress['ip'] !== '' && ingress['ipMode'] === undefined) ingress['ipMode'] = 'VIP';
  }
}

export function prepareServiceForCreate(service: KubeObject): void {
  service['status'] = { loadBalancer: {} };
  applyServiceDefaults(service);
}

const portIdentity = (port: Record<string, unknown>): string => `${String(port['port'])}/${String(port['protocol'] ?? 'TCP')}`;

/** Values the client may omit on update because the apiserver allocated them (kube's patchAllocatedValues). */
function keepAllocatedValues(service: KubeObject, old: KubeObject): void {
  const spec = serviceSpec(service);
  const oldSpec = readServiceSpec(old);
  if (needsClusterIp(service) && needsClusterIp(old) && (spec['clusterIP'] === undefined || spec['clusterIP'] === '')) {
    for (const key of ['clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy']) {
      if (oldSpec[key] !== undefined && (spec[key] === undefined || spec[key] === '')) spec[key] = oldSpec[key];
    }
  }
  if (needsNodePorts(service)) {
    const oldPorts = servicePorts(old);
    for (const port of servicePorts(service)) {
      if (port['nodePort'] !== undefined && port['nodePort'] !== 0) continue;
      const match = oldPorts.find((oldPort) => portIdentity(oldPort) === portIdentity(port));
      if (match?.['nodePort'] !== undefined) port['nodePort'] = match['nodePort'];
    }
  }
  if (needsHealthCheckNodePort(service) && (spec['healthCheckNodePort'] === undefined || spec['healthCheckNodePort'] === 0) && oldSpec['healthCheckNodePort'] !== undefined) {
    spec['healthCheckNodePort'] = oldSpec['healthCheckNodePort'];
  }
}

/** Fields tied to the previous type are cleared when the client left them unchanged (kube's dropTypeDependentFields). */
function dropTypeDependentFields(service: KubeObject, old: KubeObject): void {
  const spec = serviceSpec(service);
  const oldSpec = readServiceSpec(old);
  const unchanged = (key: string): boolean => deepEqual(spec[key], oldSpec[key]);
  if (needsNodePorts(old) && !needsNodePorts(service)) {
    const oldPorts = servicePorts(old);
    for (const port of servicePorts(service)) {
      const match = oldPorts.find((oldPort) => portIdentity(oldPort) === portIdentity(port));
      if (match && match['nodePort'] === port['nodePort']) delete port['nodePort'];
    }
  }
  if (needsHealthCheckNodePort(old) && !needsHealthCheckNodePort(service) && unchanged('healthCheckNodePort')) delete spec['healthCheckNodePort'];
  if (serviceType(service) !== 'LoadBalancer') {
    if (unchanged('allocateLoadBalancerNodePorts')) delete spec['allocateLoadBalancerNodePorts'];
    if (unchanged('loadBalancerClass')) delete spec['loadBalancerClass'];
  }
  const type = serviceType(service);
  if (type !== 'NodePort' && type !== 'LoadBalancer' && unchanged('externalTrafficPolicy')) delete spec['externalTrafficPolicy'];
  if (!needsClusterIp(service) && needsClusterIp(old)) {
    for (const key of ['clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy', 'internalTrafficPolicy']) if (unchanged(key)) delete spec[key];
  }
}

export function prepareServiceForUpdate(service: KubeObject, old: StoredObject): void {
  keepAllocatedValues(service, old as KubeObject);
  dropTypeDependentFields(service, old as KubeObject);
  clearLoadBalancerStatusOnTypeChange(service, old as KubeObject);
  applyServiceDefaults(service);
}

/**
 * A Service that stops being of type LoadBalancer loses its load balancer status at once (a real
 * kube-apiserver answers the type change with `status.loadBalancer: {}`).
 */
function clearLoadBalancerStatusOnTypeChange(service: KubeObject, old: KubeObject): void {
  if (serviceType(old) === 'LoadBalancer' && serviceType(service) !== 'LoadBalancer') serviceStatus(service)['loadBalancer'] = {};
}

export function renderServiceDefaults(service: KubeObject): void {
  ensureObject(service, 'spec');
  ensureObject(serviceStatus(service), 'loadBalancer');
  if (!isHeadless(service) && needsClusterIp(service)) {
    const spec = serviceSpec(service);
    if (typeof spec['clusterIP'] === 'string' && spec['clusterIP'] !== '' && spec['clusterIPs'] === undefined) spec['clusterIPs'] = [spec['clusterIP']];
  }
}
