/** The objects the benchmark writes: kubelet-style Nodes and plain LoadBalancer Services. */
import type { SandboxCloud, SandboxInstance } from '@ccm/testing';
import type { BenchInstance } from './bench-cloud.js';

export const TAINT_UNINITIALIZED = 'node.cloudprovider.kubernetes.io/uninitialized';

/** Zero-padded so names sort like their numbers. */
export function benchNodeName(index: number): string {
  return `bench-node-${String(index).padStart(5, '0')}`;
}

/** Cloud instances for `count` nodes (no public address: the public pool has only 254). */
export function createBenchInstances(cloud: SandboxCloud, count: number, firstIndex = 0): SandboxInstance[] {
  const instances: SandboxInstance[] = [];
  for (let index = firstIndex; index < firstIndex + count; index++) {
    instances.push(cloud.state.createInstance({ name: benchNodeName(index), externalIp: false }));
  }
  return instances;
}

function readyCondition(now: string): Record<string, string> {
  return { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: now, lastTransitionTime: now };
}

/**
 * A Node as a kubelet with `--cloud-provider=external` registers it: the uninitialized taint,
 * Ready, and the addresses the kubelet detected itself (InternalIP and Hostname).
 */
export function uninitializedNode(instance: BenchInstance): object {
  const now = new Date().toISOString();
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: instance.name, labels: { 'kubernetes.io/hostname': instance.name, 'kubernetes.io/os': 'linux' } },
    spec: { taints: [{ key: TAINT_UNINITIALIZED, value: 'true', effect: 'NoSchedule' }] },
    status: {
      conditions: [readyCondition(now)],
      addresses: [
        { type: 'InternalIP', address: instance.internalIp },
        { type: 'Hostname', address: instance.hostname },
      ],
    },
  };
}

/**
 * A Node the CCM has already initialized: provider ID, topology and instance-type labels (beta
 * and GA, consistent) and the cloud's addresses, so a refresh finds nothing to change.
 */
export function initializedNode(instance: SandboxInstance): object {
  const now = new Date().toISOString();
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: instance.name,
      labels: {
        'kubernetes.io/hostname': instance.name,
        'kubernetes.io/os': 'linux',
        'node.kubernetes.io/instance-type': instance.instanceType,
        'beta.kubernetes.io/instance-type': instance.instanceType,
        'topology.kubernetes.io/zone': instance.zone,
        'failure-domain.beta.kubernetes.io/zone': instance.zone,
        'topology.kubernetes.io/region': instance.region,
        'failure-domain.beta.kubernetes.io/region': instance.region,
      },
    },
    spec: { providerID: `sandbox://${instance.id}` },
    status: {
      conditions: [readyCondition(now)],
      addresses: instance.addresses.map(({ type, address }) => ({ type, address })),
    },
  };
}

export function benchServiceName(index: number): string {
  return `bench-lb-${String(index).padStart(5, '0')}`;
}

export function loadBalancerService(name: string): object {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: 'default' },
    spec: {
      type: 'LoadBalancer',
      selector: { app: name },
      ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 8080 }],
    },
  };
}

export function hasUninitializedTaint(node: { spec?: { taints?: Array<{ key?: string }> } }): boolean {
  return (node.spec?.taints ?? []).some((taint) => taint.key === TAINT_UNINITIALIZED);
}
