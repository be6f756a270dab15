import { V1Node, V1NodeCondition, V1ObjectMeta, type V1Lease } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
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
