import { ANNOTATION_PROVIDED_NODE_IP, TAINT_SHUTDOWN, TAINT_UNINITIALIZED } from '@ccm/core/api';
import { describe, expect, it } from 'vitest';
import type { KubeNode } from './kube-objects.js';
import { findCondition, findTaint, isInitialized, kubeletAddresses, kubeletNode, readyCondition } from './node-registration.js';

describe('kubeletNode', () => {
  it('builds the node a kubelet with --cloud-provider=external registers', () => {
    const node = kubeletNode({ name: 'worker-1' });
    expect(node.metadata.name).toBe('worker-1');
    expect(node.metadata.labels?.['kubernetes.io/hostname']).toBe('worker-1');
    expect(node.spec?.taints).toEqual([{ key: TAINT_UNINITIALIZED, value: 'true', effect: 'NoSchedule' }]);
    expect(node.spec?.providerID).toBeUndefined();
    expect(node.spec?.podCIDR).toBeUndefined();
    expect(node.metadata.annotations?.[ANNOTATION_PROVIDED_NODE_IP]).toBeUndefined();
    expect(isInitialized(node)).toBe(false);
  });

  it('records --node-ip as the provided-node-ip annotation and the first InternalIP', () => {
    const options = { name: 'worker-2', providedNodeIp: '10.0.0.7' };
    expect(kubeletNode(options).metadata.annotations?.[ANNOTATION_PROVIDED_NODE_IP]).toBe('10.0.0.7');
    expect(kubeletAddresses(options)).toEqual([
      { type: 'InternalIP', address: '10.0.0.7' },
      { type: 'Hostname', address: 'worker-2' },
    ]);
  });

  it('sets pod CIDRs, provider ID and extra labels when given', () => {
    const node = kubeletNode({ name: 'w', podCidrs: ['10.244.1.0/24', 'fd00:1::/64'], providerId: 'sandbox://i-1', labels: { role: 'x' } });
    expect(node.spec?.podCIDR).toBe('10.244.1.0/24');
    expect(node.spec?.podCIDRs).toEqual(['10.244.1.0/24', 'fd00:1::/64']);
    expect(node.spec?.providerID).toBe('sandbox://i-1');
    expect(node.metadata.labels?.['role']).toBe('x');
  });
});

describe('node views', () => {
  const node: KubeNode = {
    metadata: { name: 'n' },
    spec: { taints: [{ key: TAINT_SHUTDOWN, effect: 'NoSchedule' }] },
    status: { conditions: [readyCondition(false, new Date('2026-01-01T00:00:00.123Z'))] },
  };

  it('finds taints by key and optionally effect', () => {
    expect(findTaint(node, TAINT_SHUTDOWN)).toBeDefined();
    expect(findTaint(node, TAINT_SHUTDOWN, 'NoExecute')).toBeUndefined();
    expect(isInitialized(node)).toBe(true);
  });

  it('builds kubelet Ready conditions with second-precision timestamps', () => {
    expect(findCondition(node, 'Ready')).toEqual({
      type: 'Ready',
      status: 'False',
      reason: 'KubeletNotReady',
      message: 'container runtime is down',
      lastHeartbeatTime: '2026-01-01T00:00:00Z',
      lastTransitionTime: '2026-01-01T00:00:00Z',
    });
    expect(readyCondition(true).reason).toBe('KubeletReady');
  });
});
