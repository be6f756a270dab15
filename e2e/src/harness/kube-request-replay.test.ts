import { describe, expect, it } from 'vitest';
import type { RecordedKubeRequest } from './kube-api-proxy.js';
import { ccmView, diffViews, replayOrder, ServerIdentityMap } from './kube-request-replay.js';

describe('ServerIdentityMap', () => {
  it('translates resourceVersions and UIDs learned from answers, in URLs and bodies', () => {
    const map = new ServerIdentityMap();
    map.learn({ metadata: { resourceVersion: '250', uid: 'real-uid' } }, { metadata: { resourceVersion: '12', uid: 'emulator-uid' } });
    expect(map.translateUrl('/api/v1/nodes?watch=true&resourceVersion=250')).toBe('/api/v1/nodes?watch=true&resourceVersion=12');
    expect(JSON.parse(map.translateBody('{"metadata":{"resourceVersion":"250","uid":"real-uid","name":"n"}}'))).toEqual({ metadata: { resourceVersion: '12', uid: 'emulator-uid', name: 'n' } });
    expect(map.translate('0')).toBe('0');
  });

  it("keeps an object's own version when a later list shares the real revision", () => {
    const map = new ServerIdentityMap();
    map.learn({ kind: 'Lease', metadata: { resourceVersion: '250' } }, { kind: 'Lease', metadata: { resourceVersion: '12' } });
    map.learn({ kind: 'NodeList', metadata: { resourceVersion: '250' }, items: [] }, { kind: 'NodeList', metadata: { resourceVersion: '13' }, items: [] });
    expect(map.translate('250')).toBe('12');
  });

  it('learns the versions of list items by namespace and name', () => {
    const map = new ServerIdentityMap();
    map.learn(
      { metadata: { resourceVersion: '300' }, items: [{ metadata: { name: 'a', resourceVersion: '290' } }] },
      { metadata: { resourceVersion: '20' }, items: [{ metadata: { name: 'a', resourceVersion: '18' } }] },
    );
    expect(map.translate('290')).toBe('18');
    expect(map.translate('300')).toBe('20');
  });
});

describe('ccmView and diffViews', () => {
  it('compares what the CCM reads and ignores what servers allocate or stamp', () => {
    const real = { kind: 'Service', metadata: { name: 's', namespace: 'default', uid: 'x', resourceVersion: '1' }, spec: { type: 'LoadBalancer', clusterIP: '10.96.3.4', ports: [{ port: 80, nodePort: 31000 }] } };
    const emulator = { kind: 'Service', metadata: { name: 's', namespace: 'default', uid: 'y', resourceVersion: '9' }, spec: { type: 'LoadBalancer', clusterIP: '10.96.0.2', ports: [{ port: 80, nodePort: 30001 }] } };
    expect(diffViews(ccmView(real), ccmView(emulator))).toEqual([]);
    const changed = { ...emulator, spec: { ...emulator.spec, type: 'ClusterIP' } };
    expect(diffViews(ccmView(real), ccmView(changed))).toEqual(['.spec.type: "LoadBalancer" != "ClusterIP"']);
  });

  it("leaves kube-apiserver's own Events out of lists", () => {
    const own = { kind: 'Event', metadata: { name: 'e1' }, reportingComponent: 'ipallocator-repair-controller', reason: 'ClusterIPNotAllocated' };
    expect(ccmView({ kind: 'EventList', items: [own] })).toEqual({ kind: 'EventList', items: [] });
  });
});

describe('replayOrder', () => {
  const request = (sequence: number, startedAt: number, method: string, url: string, status: number): RecordedKubeRequest =>
    ({ sequence, startedAt, client: 'ccm', method, url, contentType: undefined, body: '', status, responseBody: '', watch: false }) as RecordedKubeRequest;

  it('replays a write refused with 409 after the concurrent write to the same object that won, though its answer came first', () => {
    const refusedPut = request(10, 5, 'PUT', '/api/v1/nodes/n1', 409);
    const winningPatch = request(11, 6, 'PATCH', '/api/v1/nodes/n1/status', 200);
    const read = request(12, 11.5, 'GET', '/api/v1/nodes/n1', 200);
    expect(replayOrder([read, winningPatch, refusedPut]).map((entry) => entry.sequence)).toEqual([11, 10, 12]);
  });

  it('replays a write that succeeded before the concurrent DELETE of its object, though the DELETE was answered first', () => {
    const deleted = request(20, 5, 'DELETE', '/api/v1/nodes/gone', 200);
    const read = request(21, 5.5, 'GET', '/api/v1/nodes', 200);
    const statusPatch = request(22, 4, 'PATCH', '/api/v1/nodes/gone/status', 200);
    const afterDelete = request(23, 22.5, 'PATCH', '/api/v1/nodes/gone/status', 404);
    expect(replayOrder([deleted, read, statusPatch, afterDelete]).map((entry) => entry.sequence)).toEqual([22, 20, 21, 23]);
    // Not in flight together (the patch was sent after the DELETE's answer): completion order.
    const sentLater = request(24, 20.5, 'PATCH', '/api/v1/nodes/gone/status', 200);
    expect(replayOrder([deleted, sentLater]).map((entry) => entry.sequence)).toEqual([20, 24]);
  });

  it('keeps completion order for a 409 without a concurrent winner, and for writes to other objects', () => {
    const refused = request(10, 5, 'PUT', '/api/v1/nodes/n1', 409);
    const otherObject = request(11, 6, 'PATCH', '/api/v1/nodes/n2', 200);
    const afterwards = request(12, 10.5, 'PUT', '/api/v1/nodes/n1', 200);
    expect(replayOrder([refused, otherObject, afterwards]).map((entry) => entry.sequence)).toEqual([10, 11, 12]);
  });
});
