import { ANNOTATION_PROVIDED_NODE_IP, TAINT_UNINITIALIZED } from '@ccm/core/api';
import { describe, expect, it } from 'vitest';
import { deterministicUid } from './deterministic-uid.js';
import { makeNode } from './make-node.js';
import { makeService } from './make-service.js';

describe('makeNode', () => {
  it('builds a Ready node with a stable UID and no providerID by default', () => {
    const node = makeNode('node-a');
    expect(node.metadata?.uid).toBe(deterministicUid('node/node-a'));
    expect(node.metadata?.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(node.spec).toEqual({});
    expect(node.status?.conditions?.map((condition) => [condition.type, condition.status])).toEqual([['Ready', 'True']]);
    expect(node.status?.addresses).toEqual([{ type: 'Hostname', address: 'node-a' }]);
  });

  it('builds a node as a kubelet with --cloud-provider=external registers it', () => {
    const node = makeNode('node-b', {
      uninitialized: true,
      providedNodeIp: '10.0.0.7',
      ready: false,
      podCidrs: ['10.244.1.0/24', 'fd00:244:1::/64'],
      providerId: 'sandbox://i-1',
      labels: { role: 'worker' },
      taints: [{ key: 'dedicated', value: 'db', effect: 'NoExecute' }],
      conditions: [{ type: 'NetworkUnavailable', status: 'True' }],
    });
    expect(node.spec?.taints).toEqual([
      { key: TAINT_UNINITIALIZED, value: 'true', effect: 'NoSchedule' },
      { key: 'dedicated', value: 'db', effect: 'NoExecute' },
    ]);
    expect(node.metadata?.annotations).toEqual({ [ANNOTATION_PROVIDED_NODE_IP]: '10.0.0.7' });
    expect(node.spec?.podCIDR).toBe('10.244.1.0/24');
    expect(node.spec?.podCIDRs).toEqual(['10.244.1.0/24', 'fd00:244:1::/64']);
    expect(node.spec?.providerID).toBe('sandbox://i-1');
    expect(node.metadata?.labels?.['role']).toBe('worker');
    expect(node.status?.conditions?.map((condition) => [condition.type, condition.status])).toEqual([
      ['Ready', 'False'],
      ['NetworkUnavailable', 'True'],
    ]);
    expect(makeNode('x', { ready: 'Unknown' }).status?.conditions?.[0]?.status).toBe('Unknown');
    expect(makeNode('x', { ready: null }).status?.conditions).toEqual([]);
  });
});

describe('makeService', () => {
  it('builds a defaulted LoadBalancer service', () => {
    const service = makeService('web');
    expect(service.metadata).toMatchObject({ name: 'web', namespace: 'default', uid: deterministicUid('service/default/web') });
    expect(service.spec).toMatchObject({
      type: 'LoadBalancer',
      ports: [{ name: 'http', port: 80, protocol: 'TCP', targetPort: 8080, nodePort: 30000 }],
      externalTrafficPolicy: 'Cluster',
    });
    expect(service.spec?.healthCheckNodePort).toBeUndefined();
    expect(service.spec?.loadBalancerClass).toBeUndefined();
  });

  it('sets class, ETP Local with a health check port, annotations and finalizers', () => {
    const service = makeService('dns', {
      namespace: 'kube-system',
      ports: [{ port: 53, protocol: 'UDP', nodePort: 31053 }],
      loadBalancerClass: 'example.com/lb',
      externalTrafficPolicy: 'Local',
      annotations: { a: 'b' },
      finalizers: ['service.kubernetes.io/load-balancer-cleanup'],
      ingress: [{ ip: '203.0.113.2' }],
    });
    expect(service.spec).toMatchObject({ loadBalancerClass: 'example.com/lb', healthCheckNodePort: 32000, ports: [{ port: 53, protocol: 'UDP', nodePort: 31053, targetPort: 53 }] });
    expect(service.metadata).toMatchObject({ annotations: { a: 'b' }, finalizers: ['service.kubernetes.io/load-balancer-cleanup'] });
    expect(service.status?.loadBalancer?.ingress).toEqual([{ ip: '203.0.113.2' }]);
    expect(makeService('c', { type: 'ClusterIP' }).spec?.ports?.[0]?.nodePort).toBeUndefined();
    expect(makeService('c', { allocateLoadBalancerNodePorts: false }).spec?.ports?.[0]?.nodePort).toBeUndefined();
  });
});
