import type { V1LoadBalancerIngress, V1Service, V1ServicePort } from '@kubernetes/client-node';
import { deterministicUid } from './deterministic-uid.js';

export interface MakeServicePort {
  name?: string;
  port: number;
  protocol?: 'TCP' | 'UDP' | 'SCTP';
  /** Default: `port`. */
  targetPort?: number | string;
  /** Default: 30000 + index for NodePort and LoadBalancer services. */
  nodePort?: number;
  appProtocol?: string;
}

export interface MakeServiceOptions {
  /** Default `default`. */
  namespace?: string;
  /** Default: derived from namespace and name. */
  uid?: string;
  resourceVersion?: string;
  /** Default `LoadBalancer`. */
  type?: 'ClusterIP' | 'NodePort' | 'LoadBalancer' | 'ExternalName';
  /** Default one TCP port 80 -> 8080 named `http`. */
  ports?: MakeServicePort[];
  loadBalancerClass?: string;
  externalTrafficPolicy?: 'Cluster' | 'Local';
  /** Default 32000 when `externalTrafficPolicy` is Local on a LoadBalancer service. */
  healthCheckNodePort?: number;
  loadBalancerSourceRanges?: string[];
  loadBalancerIP?: string;
  ipFamilies?: Array<'IPv4' | 'IPv6'>;
  ipFamilyPolicy?: 'SingleStack' | 'PreferDualStack' | 'RequireDualStack';
  sessionAffinity?: 'None' | 'ClientIP';
  allocateLoadBalancerNodePorts?: boolean;
  selector?: Record<string, string>;
  annotations?: Record<string, string>;
  labels?: Record<string, string>;
  finalizers?: string[];
  deletionTimestamp?: Date;
  creationTimestamp?: Date;
  /** `status.loadBalancer.ingress`. */
  ingress?: V1LoadBalancerIngress[];
  /** Default `10.96.0.10` (none for ExternalName). */
  clusterIP?: string;
}

/** A Service as the API server would return it after defaulting. */
export function makeService(name: string, options: MakeServiceOptions = {}): V1Service {
  const namespace = options.namespace ?? 'default';
  const type = options.type ?? 'LoadBalancer';
  const withNodePorts = (type === 'LoadBalancer' && options.allocateLoadBalancerNodePorts !== false) || type === 'NodePort';
  const ports: V1ServicePort[] = (options.ports ?? [{ name: 'http', port: 80, targetPort: 8080 }]).map((port, index) => {
    const servicePort: V1ServicePort = { port: port.port, protocol: port.protocol ?? 'TCP', targetPort: port.targetPort ?? port.port };
    if (port.name !== undefined) servicePort.name = port.name;
    if (port.appProtocol !== undefined) servicePort.appProtocol = port.appProtocol;
    if (port.nodePort !== undefined) servicePort.nodePort = port.nodePort;
    else if (withNodePorts) servicePort.nodePort = 30000 + index;
    return servicePort;
  });
  const service: V1Service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name,
      namespace,
      uid: options.uid ?? deterministicUid(`service/${namespace}/${name}`),
      creationTimestamp: options.creationTimestamp ?? new Date('2024-01-01T00:00:00Z'),
    },
    spec: {
      type,
      ports,
      selector: options.selector ?? { app: name },
      sessionAffinity: options.sessionAffinity ?? 'None',
      ipFamilies: options.ipFamilies ?? ['IPv4'],
      ipFamilyPolicy: options.ipFamilyPolicy ?? 'SingleStack',
    },
    status: { loadBalancer: {} },
  };
  const metadata = service.metadata!;
  const spec = service.spec!;
  if (type !== 'ExternalName') {
    spec.clusterIP = options.clusterIP ?? '10.96.0.10';
    spec.clusterIPs = [spec.clusterIP];
  }
  if (type === 'LoadBalancer' || type === 'NodePort') spec.externalTrafficPolicy = options.externalTrafficPolicy ?? 'Cluster';
  if (type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local') spec.healthCheckNodePort = options.healthCheckNodePort ?? 32000;
  else if (options.healthCheckNodePort !== undefined) spec.healthCheckNodePort = options.healthCheckNodePort;
  if (options.loadBalancerClass !== undefined) spec.loadBalancerClass = options.loadBalancerClass;
  if (options.loadBalancerSourceRanges !== undefined) spec.loadBalancerSourceRanges = [...options.loadBalancerSourceRanges];
  if (options.loadBalancerIP !== undefined) spec.loadBalancerIP = options.loadBalancerIP;
  if (options.allocateLoadBalancerNodePorts !== undefined) spec.allocateLoadBalancerNodePorts = options.allocateLoadBalancerNodePorts;
  if (options.resourceVersion !== undefined) metadata.resourceVersion = options.resourceVersion;
  if (options.annotations !== undefined) metadata.annotations = { ...options.annotations };
  if (options.labels !== undefined) metadata.labels = { ...options.labels };
  if (options.finalizers !== undefined) metadata.finalizers = [...options.finalizers];
  if (options.deletionTimestamp !== undefined) metadata.deletionTimestamp = options.deletionTimestamp;
  if (options.ingress !== undefined) service.status = { loadBalancer: { ingress: options.ingress.map((entry) => ({ ...entry })) } };
  return service;
}
