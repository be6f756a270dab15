import { ANNOTATION_PROVIDED_NODE_IP, TAINT_UNINITIALIZED } from '@ccm/core/api';
import type { KubeNode, NodeAddress, NodeCondition, Taint } from './kube-objects.js';
import type { KubeTestClient } from './kube-test-client.js';

/** What a kubelet started with `--cloud-provider=external` knows about its node. */
export interface KubeletNodeOptions {
  name: string;
  /** Ready condition; true unless told. */
  ready?: boolean;
  /** `--node-ip`: becomes the provided-node-ip annotation and the first InternalIP. */
  providedNodeIp?: string;
  /** `spec.podCIDR(s)` as node IPAM would have set them. */
  podCidrs?: string[];
  /** `--provider-id`, when the kubelet was given one. */
  providerId?: string;
  /** Extra labels (`--node-labels`). */
  labels?: Record<string, string>;
  /** Replaces the addresses the kubelet would report (InternalIP from --node-ip, then Hostname). */
  addresses?: NodeAddress[];
}

/** The uninitialized taint exactly as the kubelet sets it. */
export const UNINITIALIZED_TAINT: Taint = { key: TAINT_UNINITIALIZED, value: 'true', effect: 'NoSchedule' };

/** The Node object a kubelet creates when it registers (POST body; status is sent separately). */
export function kubeletNode(options: KubeletNodeOptions): KubeNode {
  const annotations: Record<string, string> = { 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' };
  if (options.providedNodeIp !== undefined) annotations[ANNOTATION_PROVIDED_NODE_IP] = options.providedNodeIp;
  const spec: NonNullable<KubeNode['spec']> = { taints: [{ ...UNINITIALIZED_TAINT }] };
  if (options.providerId !== undefined) spec.providerID = options.providerId;
  if (options.podCidrs !== undefined && options.podCidrs.length > 0) {
    spec.podCIDR = options.podCidrs[0];
    spec.podCIDRs = [...options.podCidrs];
  }
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: options.name,
      labels: {
        'kubernetes.io/hostname': options.name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'beta.kubernetes.io/arch': 'amd64',
        ...options.labels,
      },
      annotations,
    },
    spec,
  };
}

/** The addresses a kubelet with an external cloud provider reports before the CCM runs. */
export function kubeletAddresses(options: KubeletNodeOptions): NodeAddress[] {
  if (options.addresses !== undefined) return options.addresses;
  const addresses: NodeAddress[] = [];
  if (options.providedNodeIp !== undefined) {
    for (const ip of options.providedNodeIp.split(',')) addresses.push({ type: 'InternalIP', address: ip.trim() });
  }
  addresses.push({ type: 'Hostname', address: options.name });
  return addresses;
}

/** The Ready condition a kubelet posts. */
export function readyCondition(ready: boolean, now = new Date()): NodeCondition {
  const timestamp = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return ready
    ? { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: timestamp, lastTransitionTime: timestamp }
    : { type: 'Ready', status: 'False', reason: 'KubeletNotReady', message: 'container runtime is down', lastHeartbeatTime: timestamp, lastTransitionTime: timestamp };
}

function pressureConditions(now: Date): NodeCondition[] {
  const timestamp = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return [
    ['MemoryPressure', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'],
    ['DiskPressure', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
    ['PIDPressure', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
  ].map(([type, reason, message]) => ({
    type: type as string,
    status: 'False' as const,
    reason: reason as string,
    message: message as string,
    lastHeartbeatTime: timestamp,
    lastTransitionTime: timestamp,
  }));
}

/**
 * Registers a node as a kubelet does: create the Node (tainted uninitialized), then post its
 * status (addresses and conditions) through the status subresource.
 */
export async function registerNode(client: KubeTestClient, options: KubeletNodeOptions): Promise<KubeNode> {
  await client.createNode(kubeletNode(options));
  const now = new Date();
  return client.patchNodeStatus(options.name, {
    status: {
      addresses: kubeletAddresses(options),
      conditions: [...pressureConditions(now), readyCondition(options.ready ?? true, now)],
    },
  });
}

/** Posts a new Ready condition the way a kubelet does (strategic merge on `status.conditions`). */
export function setNodeReady(client: KubeTestClient, name: string, ready: boolean): Promise<KubeNode> {
  return client.patchNodeStatus(name, { status: { conditions: [readyCondition(ready)] } }, 'strategic');
}

export function findTaint(node: KubeNode, key: string, effect?: Taint['effect']): Taint | undefined {
  return node.spec?.taints?.find((taint) => taint.key === key && (effect === undefined || taint.effect === effect));
}

export function findCondition(node: KubeNode, type: string): NodeCondition | undefined {
  return node.status?.conditions?.find((condition) => condition.type === type);
}

/** True once the cloud node controller removed the uninitialized taint. */
export function isInitialized(node: KubeNode): boolean {
  return findTaint(node, TAINT_UNINITIALIZED) === undefined;
}
