/** Typed-ish accessors for the parts of a Service the emulator reasons about. */
import type { KubeObject } from '../api/kube-object.js';
import { isPlainObject } from '../util/json.js';
import { ensureObject } from './common.js';

export const serviceTypes = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];

export type ServicePort = Record<string, unknown>;

export function serviceSpec(service: KubeObject): Record<string, unknown> {
  return ensureObject(service, 'spec');
}

export function readServiceSpec(service: KubeObject): Record<string, unknown> {
  return isPlainObject(service['spec']) ? service['spec'] : {};
}

export function servicePorts(service: KubeObject): ServicePort[] {
  const ports = readServiceSpec(service)['ports'];
  return Array.isArray(ports) ? ports.filter(isPlainObject) : [];
}

export function serviceType(service: KubeObject): string {
  const type = readServiceSpec(service)['type'];
  return typeof type === 'string' ? type : 'ClusterIP';
}

export const needsNodePorts = (service: KubeObject): boolean => {
  const type = serviceType(service);
  if (type === 'NodePort') return true;
  return type === 'LoadBalancer' && readServiceSpec(service)['allocateLoadBalancerNodePorts'] !== false;
};

export const needsClusterIp = (service: KubeObject): boolean => serviceType(service) !== 'ExternalName';

export const needsHealthCheckNodePort = (service: KubeObject): boolean =>
  serviceType(service) === 'LoadBalancer' && readServiceSpec(service)['externalTrafficPolicy'] === 'Local';

export const isHeadless = (service: KubeObject): boolean => readServiceSpec(service)['clusterIP'] === 'None';

export function serviceStatus(service: KubeObject): Record<string, unknown> {
  return ensureObject(service, 'status');
}
