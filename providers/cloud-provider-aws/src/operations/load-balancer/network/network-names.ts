/**
 * Names of NLB resources (upstream `buildTargetGroupName`, `buildNLBSecurityGroupName`). Stable
 * identifiers: existing clusters find their resources by these names.
 */
import { createHash } from 'node:crypto';
import type { NetworkPortMapping, ServiceIdentity } from '../load-balancer-spec.js';

const sanitize = (value: string): string => value.replace(/[^a-zA-Z0-9]/g, '');

export function targetGroupName(clusterId: string, service: ServiceIdentity, mapping: NetworkPortMapping): string {
  const hash = createHash('sha1');
  for (const part of [
    clusterId,
    service.namespace,
    service.name,
    String(mapping.frontendPort),
    String(mapping.trafficPort),
    mapping.trafficProtocol,
    'instance',
    mapping.healthCheck.protocol,
    String(mapping.healthCheck.interval),
  ]) {
    hash.update(part);
  }
  return `${targetGroupNamePrefix(service)}${hash.digest('hex').slice(0, 10)}`;
}

/** What every target group name of the Service starts with (several Services may share it). */
export function targetGroupNamePrefix(service: Pick<ServiceIdentity, 'namespace' | 'name'>): string {
  return `k8s-${sanitize(service.namespace).slice(0, 8)}-${sanitize(service.name).slice(0, 8)}-`;
}

export function networkSecurityGroupName(clusterName: string, service: ServiceIdentity): string {
  const digest = createHash('sha256').update(`${clusterName}${service.name}${service.namespace}${service.uid}`).digest('hex');
  return `k8s-${sanitize(service.namespace).slice(0, 8)}-${sanitize(service.name).slice(0, 8)}-${digest.slice(0, 10)}`;
}

export const NETWORK_SECURITY_GROUP_DESCRIPTION = '[k8s] Managed SecurityGroup for LoadBalancer';
