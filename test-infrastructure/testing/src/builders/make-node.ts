import type { V1Node, V1NodeAddress, V1NodeCondition, V1Taint } from '@kubernetes/client-node';
import { ANNOTATION_PROVIDED_NODE_IP, TAINT_UNINITIALIZED } from '@ccm/core/api';
import { deterministicUid } from './deterministic-uid.js';

export type NodeReadiness = 'True' | 'False' | 'Unknown';

export interface MakeNodeOptions {
  /** Default: derived from the name. */
  uid?: string;
  resourceVersion?: string;
  /** `spec.providerID`; left unset when not given (as a kubelet with --cloud-provider=external does). */
  providerId?: string;
  /** Adds `node.cloudprovider.kubernetes.io/uninitialized=true:NoSchedule` (kubelet --cloud-provider=external). */
  uninitialized?: boolean;
  /** Extra taints, after the uninitialized one. */
  taints?: V1Taint[];
  /** Sets the `alpha.kubernetes.io/provided-node-ip` annotation (kubelet --node-ip with an external cloud). */
  providedNodeIp?: string;
  /**
   * The Ready condition: `true`/'True', `false`/'False', 'Unknown', or `undefined` for
   * no Ready condition at all. Default `true`.
   */
  ready?: boolean | NodeReadiness | null;
  /** Extra conditions (NetworkUnavailable, MemoryPressure, ...), after Ready. */
  conditions?: V1NodeCondition[];
  /** `spec.podCIDR` is the first entry. */
  podCidrs?: string[];
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  /** `status.addresses` as the kubelet reports them. Default: a Hostname address equal to the name. */
  addresses?: V1NodeAddress[];
  unschedulable?: boolean;
  creationTimestamp?: Date;
  deletionTimestamp?: Date;
  finalizers?: string[];
}

function readyCondition(ready: boolean | NodeReadiness, at: Date): V1NodeCondition {
  const status: NodeReadiness = ready === true ? 'True' : ready === false ? 'False' : ready;
  return {
    type: 'Ready',
    status,
    reason: status === 'True' ? 'KubeletReady' : status === 'False' ? 'KubeletNotReady' : 'NodeStatusUnknown',
    message: status === 'True' ? 'kubelet is posting ready status' : status === 'False' ? 'container runtime network not ready' : 'Kubelet stopped posting node status.',
    lastHeartbeatTime: at,
    lastTransitionTime: at,
  };
}

/** A Node the way a kubelet registers it; every field can be chosen. */
export function makeNode(name: string, options: MakeNodeOptions = {}): V1Node {
  const created = options.creationTimestamp ?? new Date('2024-01-01T00:00:00Z');
  const annotations: Record<string, string> = { ...options.annotations };
  if (options.providedNodeIp !== undefined) annotations[ANNOTATION_PROVIDED_NODE_IP] = options.providedNodeIp;
  const taints: V1Taint[] = [];
  if (options.uninitialized === true) taints.push({ key: TAINT_UNINITIALIZED, value: 'true', effect: 'NoSchedule' });
  taints.push(...(options.taints ?? []));
  const conditions: V1NodeCondition[] = [];
  const ready = options.ready === undefined ? true : options.ready;
  if (ready !== null) conditions.push(readyCondition(ready, created));
  conditions.push(...(options.conditions ?? []));

  const node: V1Node = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      uid: options.uid ?? deterministicUid(`node/${name}`),
      creationTimestamp: created,
      labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64', ...options.labels },
    },
    spec: {},
    status: {
      conditions,
      addresses: options.addresses ?? [{ type: 'Hostname', address: name }],
    },
  };
  const metadata = node.metadata!;
  const spec = node.spec!;
  if (options.resourceVersion !== undefined) metadata.resourceVersion = options.resourceVersion;
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
  if (options.deletionTimestamp !== undefined) metadata.deletionTimestamp = options.deletionTimestamp;
  if (options.finalizers !== undefined) metadata.finalizers = [...options.finalizers];
  if (options.providerId !== undefined) spec.providerID = options.providerId;
  if (taints.length > 0) spec.taints = taints;
  if (options.podCidrs !== undefined && options.podCidrs.length > 0) {
    spec.podCIDR = options.podCidrs[0]!;
    spec.podCIDRs = [...options.podCidrs];
  }
  if (options.unschedulable !== undefined) spec.unschedulable = options.unschedulable;
  return node;
}
