import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/kube-object.js';
import { createInMemoryKube } from '../kube-emulator.js';
import { statusOf } from '../test-support/status-of.js';

type Service = KubeObject & { spec: Record<string, unknown> & { ports: Array<Record<string, unknown>> } };

describe('Node rules', () => {
  it('validates taint effects, keys and duplicates', () => {
    const kube = createInMemoryKube();
    const status = statusOf(() => kube.create('nodes', { metadata: { name: 'n1' }, spec: { taints: [{ key: 'a', effect: 'Sometimes' }, { effect: 'NoSchedule' }] } }));
    expect(status.message).toBe(
      'Node "n1" is invalid: [spec.taints[0].effect: Unsupported value: "Sometimes": supported values: "NoExecute", "NoSchedule", "PreferNoSchedule", spec.taints[1].key: Required value]',
    );
    const duplicate = statusOf(() => kube.create('nodes', { metadata: { name: 'n1' }, spec: { taints: [{ key: 'a', effect: 'NoSchedule' }, { key: 'a', value: 'x', effect: 'NoSchedule' }] } }));
    expect(duplicate.message).toContain('taints must be unique by key and effect pair');
  });

  it('allows setting providerID and podCIDRs once only', () => {
    const kube = createInMemoryKube();
    kube.create('nodes', { metadata: { name: 'n1' } });
    kube.patch('nodes', 'n1', { spec: { providerID: 'sandbox:///n1', podCIDR: '10.244.1.0/24' } }, 'merge');
    const node = kube.get<KubeObject & { spec: Record<string, unknown> }>('nodes', 'n1');
    expect(node?.spec).toEqual({ providerID: 'sandbox:///n1', podCIDR: '10.244.1.0/24', podCIDRs: ['10.244.1.0/24'], taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }] });
    expect(statusOf(() => kube.patch('nodes', 'n1', { spec: { providerID: 'other' } }, 'merge')).message).toContain(
      'spec.providerID: Forbidden: node updates may not change providerID except from "" to valid',
    );
    expect(statusOf(() => kube.patch('nodes', 'n1', { spec: { podCIDRs: ['10.244.2.0/24'] } }, 'merge')).message).toContain('spec.podCIDRs: Forbidden');
    expect(statusOf(() => kube.create('nodes', { metadata: { name: 'n2' }, spec: { podCIDRs: ['nope'] } })).code).toBe(422);
  });

  it('rejects duplicate addresses and defaults allocatable from capacity', () => {
    const kube = createInMemoryKube();
    const address = { type: 'InternalIP', address: '10.0.0.1' };
    expect(statusOf(() => kube.create('nodes', { metadata: { name: 'n1' }, status: { addresses: [address, address] } })).message).toContain('status.addresses[1]: Duplicate value');
    const created = kube.create<KubeObject & { status: Record<string, unknown> }>('nodes', { metadata: { name: 'n1' }, status: { capacity: { cpu: '4' } } });
    expect(created.status['allocatable']).toEqual({ cpu: '4' });
  });

  it('selects on spec.unschedulable', () => {
    const kube = createInMemoryKube();
    kube.create('nodes', { metadata: { name: 'a' }, spec: { unschedulable: true } });
    kube.create('nodes', { metadata: { name: 'b' }, spec: { unschedulable: false } });
    expect(kube.list('nodes', { fieldSelector: 'spec.unschedulable=true' }).map((node) => node.metadata.name)).toEqual(['a']);
    expect(kube.list('nodes', { fieldSelector: 'spec.unschedulable=false' }).map((node) => node.metadata.name)).toEqual(['b']);
  });
});

describe('Service rules', () => {
  it('defaults, allocates a cluster IP and node ports for LoadBalancer services', () => {
    const kube = createInMemoryKube();
    const service = kube.create<Service>('services', { metadata: { name: 'web' }, spec: { type: 'LoadBalancer', selector: { app: 'web' }, ports: [{ name: 'http', port: 80 }, { name: 'https', port: 443, targetPort: 8443 }] } });
    expect(service.spec).toMatchObject({
      type: 'LoadBalancer',
      sessionAffinity: 'None',
      externalTrafficPolicy: 'Cluster',
      internalTrafficPolicy: 'Cluster',
      allocateLoadBalancerNodePorts: true,
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
    });
    expect(service.spec['clusterIP']).toMatch(/^10\.(9[6-9]|10\d|11[01])\.\d+\.\d+$/);
    expect(service.spec['clusterIPs']).toEqual([service.spec['clusterIP']]);
    expect(service.spec.ports).toEqual([
      { name: 'http', port: 80, protocol: 'TCP', targetPort: 80, nodePort: 30000 },
      { name: 'https', port: 443, protocol: 'TCP', targetPort: 8443, nodePort: 30001 },
    ]);
    const second = kube.create<Service>('services', { metadata: { name: 'other' }, spec: { type: 'NodePort', ports: [{ port: 80 }] } });
    expect(second.spec.ports[0]?.['nodePort']).toBe(30002);
    expect(second.spec['clusterIP']).not.toBe(service.spec['clusterIP']);
  });

  it('keeps allocated values on update and clears node ports when leaving NodePort types', () => {
    const kube = createInMemoryKube();
    const created = kube.create<Service>('services', { metadata: { name: 'web' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } });
    const replaced = kube.update<Service>('services', { metadata: { name: 'web', namespace: 'default' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } });
    expect(replaced.spec['clusterIP']).toBe(created.spec['clusterIP']);
    expect(replaced.spec.ports[0]?.['nodePort']).toBe(created.spec.ports[0]?.['nodePort']);
    const clusterIp = kube.patch<Service>('services', 'web', { spec: { type: 'ClusterIP' } }, 'merge');
    expect(clusterIp.spec.ports[0]).not.toHaveProperty('nodePort');
    expect(clusterIp.spec).not.toHaveProperty('allocateLoadBalancerNodePorts');
    expect(clusterIp.spec).not.toHaveProperty('externalTrafficPolicy');
  });

  it('rejects unknown types, missing ports, taken node ports and changed cluster IPs', () => {
    const kube = createInMemoryKube();
    expect(statusOf(() => kube.create('services', { metadata: { name: 's' }, spec: { type: 'Magic', ports: [{ port: 80 }] } })).message).toBe(
      'Service "s" is invalid: spec.type: Unsupported value: "Magic": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
    );
    expect(statusOf(() => kube.create('services', { metadata: { name: 's' }, spec: {} })).message).toContain('spec.ports: Required value');
    expect(statusOf(() => kube.create('services', { metadata: { name: 's' }, spec: { ports: [{ port: 80 }, { port: 81 }] } })).message).toContain('spec.ports[0].name: Required value');
    kube.create('services', { metadata: { name: 'a' }, spec: { type: 'NodePort', ports: [{ port: 80, nodePort: 31000 }] } });
    expect(statusOf(() => kube.create('services', { metadata: { name: 'b' }, spec: { type: 'NodePort', ports: [{ port: 80, nodePort: 31000 }] } })).message).toContain(
      'spec.ports[0].nodePort: Invalid value: 31000: provided port is already allocated',
    );
    expect(statusOf(() => kube.create('services', { metadata: { name: 'c' }, spec: { ports: [{ port: 80, nodePort: 31001 }] } })).message).toContain("may not be used when `type` is 'ClusterIP'");
    expect(statusOf(() => kube.patch('services', 'a', { spec: { clusterIP: '10.96.100.100' } }, 'merge')).message).toContain('may not change once set');
    expect(statusOf(() => kube.patch('services', 'a', { status: { loadBalancer: { ingress: [{ ip: 'not-an-ip' }] } } }, 'merge', { subresource: 'status' })).code).toBe(422);
  });

  it('selects on spec.type', () => {
    const kube = createInMemoryKube();
    kube.create('services', { metadata: { name: 'a' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } });
    kube.create('services', { metadata: { name: 'b' }, spec: { ports: [{ port: 80 }] } });
    expect(kube.list('services', { fieldSelector: 'spec.type=LoadBalancer' }).map((service) => service.metadata.name)).toEqual(['a']);
    expect(statusOf(() => kube.list('services', { fieldSelector: 'spec.selector=x' }))).toMatchObject({ code: 400, message: 'field label not supported: spec.selector' });
  });
});

describe('other resources', () => {
  it('folds Secret stringData into base64 data and defaults the type', () => {
    const kube = createInMemoryKube();
    const secret = kube.create<KubeObject & { data: Record<string, string> }>('secrets', { metadata: { name: 's' }, stringData: { password: 'hunter2' } });
    expect(secret.data).toEqual({ password: Buffer.from('hunter2').toString('base64') });
    expect(secret).not.toHaveProperty('stringData');
    expect(secret['type']).toBe('Opaque');
    expect(statusOf(() => kube.create('secrets', { metadata: { name: 't' }, data: { key: 'not base64!' } })).code).toBe(400);
    expect(statusOf(() => kube.create('secrets', { metadata: { name: 'u' }, type: 'kubernetes.io/tls', data: {} })).message).toContain('data[tls.crt]: Required value');
  });

  it('rejects bad ConfigMap keys and changes to immutable ConfigMaps', () => {
    const kube = createInMemoryKube();
    expect(statusOf(() => kube.create('configmaps', { metadata: { name: 'c' }, data: { 'bad key': 'x' } })).message).toContain('a valid config key must consist of alphanumeric characters');
    kube.create('configmaps', { metadata: { name: 'frozen' }, data: { a: '1' }, immutable: true });
    expect(statusOf(() => kube.patch('configmaps', 'frozen', { data: { a: '2' } }, 'merge')).message).toContain('data: Forbidden: field is immutable when `immutable` is set');
  });

  it('serves one Event storage through core/v1 and events.k8s.io/v1', () => {
    const kube = createInMemoryKube();
    const created = kube.create('events.events.k8s.io', {
      metadata: { name: 'n1.abc', namespace: 'default' },
      eventTime: '2024-01-01T00:00:00.000001Z',
      reportingController: 'cloud-node-controller',
      reportingInstance: 'ccm-1',
      action: 'Sync',
      reason: 'Synced',
      type: 'Normal',
      note: 'node synced',
      regarding: { kind: 'Node', name: 'n1', apiVersion: 'v1' },
    });
    expect(created).toMatchObject({ apiVersion: 'events.k8s.io/v1', kind: 'Event', note: 'node synced' });
    const core = kube.get<KubeObject & Record<string, unknown>>('events', 'n1.abc', 'default');
    expect(core).toMatchObject({ apiVersion: 'v1', kind: 'Event', message: 'node synced', reportingComponent: 'cloud-node-controller', involvedObject: { kind: 'Node', name: 'n1' } });
    expect(kube.list('events', { fieldSelector: 'involvedObject.name=n1' })).toHaveLength(1);
    expect(kube.list('events.events.k8s.io', { fieldSelector: 'regarding.name=n1,reportingController=cloud-node-controller' })).toHaveLength(1);
    const strict = statusOf(() => kube.create('events.events.k8s.io', { metadata: { name: 'bad' }, regarding: { kind: 'Node', name: 'n1' } }));
    expect(strict.message).toContain('eventTime: Required value');
    const legacy = statusOf(() => kube.create('events', { metadata: { name: 'x', namespace: 'kube-system' }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' } }));
    expect(legacy.message).toContain('involvedObject.namespace: Invalid value: "default": does not match event.namespace');
  });
});

describe('Node admission (TaintNodesByCondition)', () => {
  it('adds the not-ready NoSchedule taint to a new node once, as kube-apiserver does', () => {
    const kube = createInMemoryKube();
    kube.create('nodes', { metadata: { name: 'plain' } });
    kube.create('nodes', { metadata: { name: 'tainted' }, spec: { taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }, { key: 'a', effect: 'NoExecute' }] } });
    expect(kube.get<KubeObject & { spec: Record<string, unknown> }>('nodes', 'plain')?.spec['taints']).toEqual([{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]);
    expect(kube.get<KubeObject & { spec: Record<string, unknown> }>('nodes', 'tainted')?.spec['taints']).toEqual([
      { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
      { key: 'a', effect: 'NoExecute' },
    ]);
    kube.patch('nodes', 'plain', { spec: { taints: [] } }, 'merge');
    expect(kube.get<KubeObject & { spec: Record<string, unknown> }>('nodes', 'plain')?.spec['taints']).toBeUndefined();
  });
});
