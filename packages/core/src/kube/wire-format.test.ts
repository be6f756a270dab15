import { CoreV1Api, V1Node, V1NodeCondition, V1ObjectMeta, type V1Lease } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { FakeApiServer } from './client-node/test-support/fake-api-server.js';
import type { JsonValue } from './json-value.js';
import { fromWire, toJson, toWire } from './wire-format.js';

describe('wire format', () => {
  it('writes Dates as RFC 3339, keeps maps and arrays of models, drops undeclared properties', () => {
    const node = {
      metadata: { name: 'n1', labels: { zone: 'z1' }, creationTimestamp: new Date('2024-05-01T10:00:00Z'), extra: 'dropped' },
      status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: new Date('2024-05-01T10:00:01.500Z') }] },
    };
    expect(toWire(node, 'V1Node')).toEqual({
      metadata: { name: 'n1', labels: { zone: 'z1' }, creationTimestamp: '2024-05-01T10:00:00.000Z' },
      status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2024-05-01T10:00:01.500Z' }] },
    });
  });

  it('reads wire JSON into client-node model instances with Dates', () => {
    const node = fromWire<V1Node>(
      { metadata: { name: 'n1', creationTimestamp: '2024-05-01T10:00:00Z', unknown: 1 }, status: { conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2024-05-01T10:00:02Z' }] } },
      'V1Node',
    );
    expect(node).toBeInstanceOf(V1Node);
    expect(node.metadata).toBeInstanceOf(V1ObjectMeta);
    expect(node.metadata?.creationTimestamp).toEqual(new Date('2024-05-01T10:00:00Z'));
    expect(node.status?.conditions?.[0]).toBeInstanceOf(V1NodeCondition);
    expect(node.status?.conditions?.[0]?.lastHeartbeatTime).toEqual(new Date('2024-05-01T10:00:02Z'));
    expect(node.metadata).not.toHaveProperty('unknown');
  });

  it('passes types that are not models through (Lease MicroTime stays the wire string)', () => {
    const wire = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'ccm' }, spec: { holderIdentity: 'a', renewTime: '2024-05-01T10:00:00.123456Z', leaseDurationSeconds: 15 } };
    const lease = fromWire<V1Lease>(wire, 'V1Lease');
    expect(lease.spec).toMatchObject({ holderIdentity: 'a', renewTime: '2024-05-01T10:00:00.123456Z', leaseDurationSeconds: 15 });
    expect(toWire(lease, 'V1Lease')).toEqual(wire);
  });

  it('round-trips an object unchanged', () => {
    const wire = { metadata: { name: 'web', namespace: 'default', annotations: { a: 'b' } }, spec: { type: 'LoadBalancer', ports: [{ port: 80, protocol: 'TCP', targetPort: 8080 }] } };
    expect(toWire(fromWire(wire, 'V1Service'), 'V1Service')).toEqual(wire);
  });

  it('reads into an object that shares nothing with the wire JSON, free-form fields included', () => {
    const wire = {
      metadata: { name: 'n1', labels: { zone: 'z1' }, managedFields: [{ manager: 'kubelet', fieldsV1: { 'f:status': { 'f:addresses': {} } } }] },
      spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] },
      status: { capacity: { cpu: '2' } },
    };
    const before = structuredClone(wire);
    const node = fromWire<V1Node>(wire, 'V1Node');
    node.metadata!.labels!['zone'] = 'changed';
    (node.metadata!.managedFields![0]!.fieldsV1 as Record<string, unknown>)['f:status'] = 'changed';
    node.spec!.taints![0]!.key = 'changed';
    node.status!.capacity!['cpu'] = 'changed';
    expect(wire).toEqual(before);
  });

  it('toJson turns Dates into strings and undefined into null', () => {
    expect(toJson({ at: new Date('2024-05-01T10:00:00Z'), gone: undefined })).toEqual({ at: '2024-05-01T10:00:00.000Z' });
    expect(toJson(undefined)).toBeNull();
  });
});

describe('fromWire against client-node decoding the same answers', () => {
  const service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 's1', namespace: 'default', resourceVersion: '3', creationTimestamp: '2026-01-01T00:00:00Z', annotations: { 'service.beta.kubernetes.io/aws-load-balancer-type': 'nlb' }, finalizers: ['service.kubernetes.io/load-balancer-cleanup'] },
    spec: { type: 'LoadBalancer', ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 8080, nodePort: 30080 }, { port: 443, targetPort: 'https' }], selector: { app: 'web' }, externalTrafficPolicy: 'Local', healthCheckNodePort: 32000, ipFamilies: ['IPv4'] },
    status: { loadBalancer: { ingress: [{ ip: '203.0.113.10', ports: [{ port: 80, protocol: 'TCP' }] }] }, conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:01Z', reason: 'r', message: 'm' }] },
  };
  const node = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: 'n1',
      labels: { 'kubernetes.io/hostname': 'n1' },
      annotations: { 'example.com/ünïcödé': 'välue' },
      creationTimestamp: '2026-01-01T00:00:00Z',
      managedFields: [{ manager: 'kubelet', operation: 'Update', time: '2026-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:status': { 'f:conditions': { '.': {} } } } }],
    },
    spec: { taints: [{ key: 'node.cloudprovider.kubernetes.io/uninitialized', value: 'true', effect: 'NoSchedule' }] },
    status: { capacity: { cpu: '2' }, conditions: [{ type: 'Ready', status: 'False', lastHeartbeatTime: '2026-01-01T00:00:02Z' }], images: [{ names: ['a'], sizeBytes: 12 }] },
  };
  const event = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'n1.1', namespace: 'default' },
    involvedObject: { kind: 'Node', name: 'n1' },
    reason: 'Synced',
    type: 'Normal',
    count: 3,
    firstTimestamp: '2026-01-01T00:00:03Z',
    eventTime: '2026-01-01T00:00:03.123456Z',
    series: { count: 2, lastObservedTime: '2026-01-01T00:00:04.000001Z' },
  };

  it('decodes Nodes, Services and Events to exactly what client-node returns for them', async () => {
    const nodeText = JSON.stringify(node);
    const server = new FakeApiServer();
    await server.start();
    try {
      server.on('GET', /^\/api\/v1\/nodes\/n1$/, () => ({ body: nodeText }));
      server.on('GET', /^\/api\/v1\/namespaces\/default\/services\/s1$/, () => ({ body: service }));
      server.on('GET', /^\/api\/v1\/namespaces\/default\/events\/n1\.1$/, () => ({ body: event }));
      const core = server.kubeConfig().makeApiClient(CoreV1Api);
      expect(fromWire(JSON.parse(nodeText) as JsonValue, 'V1Node')).toStrictEqual(await core.readNode({ name: 'n1' }));
      expect(fromWire(service as JsonValue, 'V1Service')).toStrictEqual(await core.readNamespacedService({ name: 's1', namespace: 'default' }));
      expect(fromWire(event as JsonValue, 'CoreV1Event')).toStrictEqual(await core.readNamespacedEvent({ name: 'n1.1', namespace: 'default' }));
      // A map key `__proto__` (not a valid label or annotation key) stays an own key, as it always did here (client-node drops it).
      const protoKey = JSON.parse(nodeText.replace('"annotations":{', '"annotations":{"__proto__":"an own key",')) as JsonValue;
      expect(Object.keys((fromWire(protoKey, 'V1Node') as V1Node).metadata?.annotations ?? {})).toEqual(['__proto__', 'example.com/ünïcödé']);
    } finally {
      await server.close();
    }
  });
});
