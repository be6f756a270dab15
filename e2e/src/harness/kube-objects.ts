/**
 * The JSON shapes the tests read and write, as they travel over the wire (timestamps are
 * strings). Only the fields the suite uses are declared; everything else passes through.
 */
export interface ObjectMeta {
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  [field: string]: unknown;
}

export interface Taint {
  key: string;
  value?: string;
  effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
  timeAdded?: string;
}

export interface NodeAddress {
  type: string;
  address: string;
}

export interface NodeCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastHeartbeatTime?: string;
  lastTransitionTime?: string;
}

export interface KubeNode {
  apiVersion?: 'v1';
  kind?: 'Node';
  metadata: ObjectMeta;
  spec?: {
    providerID?: string;
    podCIDR?: string;
    podCIDRs?: string[];
    taints?: Taint[];
    unschedulable?: boolean;
    [field: string]: unknown;
  };
  status?: {
    addresses?: NodeAddress[];
    conditions?: NodeCondition[];
    [field: string]: unknown;
  };
}

export interface ServicePort {
  name?: string;
  protocol?: 'TCP' | 'UDP' | 'SCTP';
  port: number;
  targetPort?: number | string;
  nodePort?: number;
  appProtocol?: string;
}

export interface LoadBalancerIngress {
  ip?: string;
  hostname?: string;
  ipMode?: string;
  ports?: Array<{ port: number; protocol: string; error?: string }>;
}

export interface KubeService {
  apiVersion?: 'v1';
  kind?: 'Service';
  metadata: ObjectMeta;
  spec?: {
    type?: 'ClusterIP' | 'NodePort' | 'LoadBalancer' | 'ExternalName';
    ports?: ServicePort[];
    selector?: Record<string, string>;
    loadBalancerClass?: string;
    externalTrafficPolicy?: 'Cluster' | 'Local';
    [field: string]: unknown;
  };
  status?: {
    loadBalancer?: { ingress?: LoadBalancerIngress[] };
    [field: string]: unknown;
  };
}

export interface KubeLease {
  apiVersion?: 'coordination.k8s.io/v1';
  kind?: 'Lease';
  metadata: ObjectMeta;
  spec?: {
    holderIdentity?: string;
    leaseDurationSeconds?: number;
    acquireTime?: string;
    renewTime?: string;
    leaseTransitions?: number;
  };
}

/** An event from either core/v1 or events.k8s.io/v1, normalised. */
export interface ObservedEvent {
  type: string;
  reason: string;
  message: string;
  involvedObject: { apiVersion?: string; kind?: string; name?: string; namespace?: string; uid?: string };
  /** `source.component` (core/v1) or `reportingController` (events.k8s.io/v1). */
  component?: string;
  count: number;
}

export interface KubeList<T> {
  metadata?: { resourceVersion?: string };
  items: T[];
}
