import { describe, expect, it } from 'vitest';
import type { OctaviaHealthMonitor, OctaviaListener, OctaviaPool } from '../../ports/octavia-port.js';
import { desiredMembers, listenerUpdate, membersDiffer, planHealthMonitor, planListeners, planPool, planSerialMembers, selectNodes } from './load-balancer-planners.js';
import type { PortPlan } from './load-balancer-spec.js';

const LB = 'kube_service_c_ns_web';

function port(index: number, protocol: string, number: number, extra: Partial<PortPlan['listener']> = {}): PortPlan {
  return {
    index,
    listener: { name: `listener_${index}_${LB}`, protocol, port: number, connectionLimit: -1, allowedCidrs: [], insertHeaders: {}, tags: [LB], ...extra },
    pool: { name: `pool_${index}_${LB}`, protocol, method: 'ROUND_ROBIN', sessionPersistence: undefined },
    nodePort: 30000 + number,
    healthMonitor: undefined,
  };
}

function listener(id: string, protocol: string, number: number, extra: Partial<OctaviaListener> = {}): OctaviaListener {
  return {
    id,
    name: `listener_0_${LB}`,
    protocol,
    port: number,
    connectionLimit: -1,
    defaultPoolId: undefined,
    allowedCidrs: [],
    timeoutClientData: 50000,
    timeoutMemberConnect: 5000,
    timeoutMemberData: 50000,
    timeoutTcpInspect: 0,
    insertHeaders: {},
    tags: [LB],
    ...extra,
  };
}

describe('planListeners', () => {
  it('matches by protocol and port, creates the missing, deletes the unmatched it owns (tagged or untagged), keeps others\'', () => {
    const observed = [listener('a', 'TCP', 80), listener('b', 'TCP', 81), listener('c', 'UDP', 53, { tags: [] }), listener('d', 'TCP', 9000, { tags: ['kube_service_c_ns_other'] })];
    const plan = planListeners([port(0, 'TCP', 80), port(1, 'UDP', 80)], observed, LB);
    expect(plan.create.map((entry) => entry.index)).toEqual([1]);
    expect([...plan.matched.entries()].map(([index, found]) => [index, found.id])).toEqual([[0, 'a']]);
    expect(plan.delete.map((entry) => entry.id)).toEqual(['b', 'c']);
    expect(plan.update).toEqual([]);
  });

  it('a protocol change (x-forwarded-for: TCP -> HTTP) is a new listener and the old one deleted', () => {
    const plan = planListeners([port(0, 'HTTP', 80)], [listener('a', 'TCP', 80)], LB);
    expect(plan.create).toHaveLength(1);
    expect(plan.delete.map((entry) => entry.id)).toEqual(['a']);
  });
});

describe('listenerUpdate', () => {
  const cases: Array<[string, Partial<PortPlan['listener']>, Partial<OctaviaListener>, boolean]> = [
    ['equal', {}, {}, false],
    ['allowed CIDRs in another order are equal', { allowedCidrs: ['10.0.0.0/8', '192.168.0.0/16'] }, { allowedCidrs: ['192.168.0.0/16', '10.0.0.0/8'] }, false],
    ['allowed CIDRs removed', { allowedCidrs: [] }, { allowedCidrs: ['10.0.0.0/8'] }, true],
    // Upstream sends its default source range 0.0.0.0/0 (::/0 for IPv6) where we send none: both let every client in.
    ['upstream\'s allow-all 0.0.0.0/0 equals none', { allowedCidrs: [] }, { allowedCidrs: ['0.0.0.0/0'] }, false],
    ['upstream\'s allow-all ::/0 equals none', { allowedCidrs: [] }, { allowedCidrs: ['::/0'] }, false],
    ['an explicit 0.0.0.0/0 equals none', { allowedCidrs: ['0.0.0.0/0'] }, { allowedCidrs: [] }, false],
    ['allow-all next to a range is not allow-all only', { allowedCidrs: ['10.0.0.0/8'] }, { allowedCidrs: ['0.0.0.0/0', '10.0.0.0/8'] }, true],
    ['connection limit', { connectionLimit: 10 }, {}, true],
    ['an unset timeout keeps Octavia\'s', {}, { timeoutClientData: 12345 }, false],
    ['a set timeout differs', { timeoutClientData: 60000 }, {}, true],
    ['insert headers', { insertHeaders: { 'X-Forwarded-For': 'true' } }, {}, true],
    ['name', {}, { name: 'renamed' }, true],
    ['missing tag', {}, { tags: [] }, true],
    ['extra tags of others are fine', {}, { tags: [LB, 'other'] }, false],
  ];
  it.each(cases)('%s', (_name, desired, observed, differs) => {
    const update = listenerUpdate(port(0, 'TCP', 80, desired), listener('a', 'TCP', 80, { name: `listener_0_${LB}`, ...observed }));
    expect(update !== undefined).toBe(differs);
  });

  it('keeps tags the listener already has', () => {
    expect(listenerUpdate(port(0, 'TCP', 80, { connectionLimit: 5 }), listener('a', 'TCP', 80, { tags: ['other'] }))?.tags).toEqual(['other', LB]);
  });
});

describe('planPool', () => {
  const pool = (extra: Partial<OctaviaPool> = {}): OctaviaPool => ({ id: 'p', name: 'pool', protocol: 'TCP', method: 'ROUND_ROBIN', sessionPersistence: undefined, listenerIds: ['a'], healthMonitorId: undefined, ...extra });
  const desired = port(0, 'TCP', 80).pool;
  it.each([
    ['missing', undefined, 'create'],
    ['equal', pool(), 'keep'],
    ['protocol changed (proxy protocol)', pool({ protocol: 'PROXY' }), 'recreate'],
    ['persistence added', pool({ sessionPersistence: { type: 'SOURCE_IP' } }), 'recreate'],
    ['method changed', pool({ method: 'LEAST_CONNECTIONS' }), 'updateMethod'],
  ] as Array<[string, OctaviaPool | undefined, string]>)('%s -> %s', (_name, observed, kind) => {
    expect(planPool(desired, observed).kind).toBe(kind);
  });
});

describe('members', () => {
  const node = (name: string, addresses: Array<{ type: string; address: string }>, labels: Record<string, string> = {}) => ({ metadata: { name, labels }, status: { addresses } });

  it('InternalIP first, else ExternalIP, else no member; sorted by name; subnet and monitor port when set', () => {
    const nodes = [node('b', [{ type: 'ExternalIP', address: '1.2.3.4' }]), node('a', [{ type: 'Hostname', address: 'a' }, { type: 'InternalIP', address: '10.0.0.1' }]), node('c', [])];
    const plan = { ...port(0, 'TCP', 80), healthMonitor: { name: 'm', type: 'HTTP', delaySeconds: 5, timeoutSeconds: 3, maxRetries: 1, maxRetriesDown: 3 } };
    expect(desiredMembers(nodes, plan, 'subnet-m', 32000)).toEqual([
      { name: 'a', address: '10.0.0.1', port: 30080, subnetId: 'subnet-m', monitorPort: 32000 },
      { name: 'b', address: '1.2.3.4', port: 30080, subnetId: 'subnet-m', monitorPort: 32000 },
    ]);
    expect(desiredMembers(nodes, port(0, 'TCP', 80), undefined, 32000).map((member) => member.monitorPort)).toEqual([undefined, undefined]);
    expect(desiredMembers(nodes, { ...port(0, 'TCP', 80), nodePort: 0 }, undefined, undefined)).toEqual([]);
  });

  it('membersDiffer compares name, address, port and monitor port as a set', () => {
    const a = { name: 'a', address: '10.0.0.1', port: 30080 };
    const b = { name: 'b', address: '10.0.0.2', port: 30080 };
    expect(membersDiffer([a, b], [b, a])).toBe(false);
    expect(membersDiffer([a, b], [a])).toBe(true);
    expect(membersDiffer([a], [{ ...a, monitorPort: 32000 }])).toBe(true);
    expect(membersDiffer([a], [{ ...a, port: 30081 }])).toBe(true);
    expect(membersDiffer([], [])).toBe(false);
  });

  it('planSerialMembers keeps a member of the same address, port and monitor port whatever its name (upstream\'s serial calls name it member_<node>_<address>_<port>)', () => {
    const a = { name: 'node-a', address: '10.0.0.1', port: 30080 };
    const b = { name: 'node-b', address: '10.0.0.2', port: 30080 };
    const upstreamA = { id: 'm1', name: 'member_node-a_10.0.0.1_30080', address: '10.0.0.1', port: 30080 };
    const upstreamGone = { id: 'm2', name: 'member_node-c_10.0.0.3_30080', address: '10.0.0.3', port: 30080 };
    expect(planSerialMembers([a, b], [upstreamA, upstreamGone])).toEqual({ create: [b], delete: [upstreamGone] });
    expect(planSerialMembers([a], [{ ...upstreamA, port: 30081 }])).toEqual({ create: [a], delete: [{ ...upstreamA, port: 30081 }] });
    expect(planSerialMembers([{ ...a, monitorPort: 32000 }], [upstreamA])).toEqual({ create: [{ ...a, monitorPort: 32000 }], delete: [upstreamA] });
    expect(planSerialMembers([a, b], [{ ...a, id: 'x' }, { ...b, id: 'y' }])).toEqual({ create: [], delete: [] });
  });

  it('selectNodes: every label; an empty value only needs the key', () => {
    const nodes = [node('a', [], { role: 'lb', zone: 'x' }), node('b', [], { role: 'web' }), node('c', [], { zone: 'y' })];
    expect(selectNodes(nodes, {}).map((entry) => entry.metadata?.name)).toEqual(['a', 'b', 'c']);
    expect(selectNodes(nodes, { role: 'lb' }).map((entry) => entry.metadata?.name)).toEqual(['a']);
    expect(selectNodes(nodes, { zone: '' }).map((entry) => entry.metadata?.name)).toEqual(['a', 'c']);
  });
});

describe('planHealthMonitor', () => {
  const spec = { name: 'm', type: 'TCP', delaySeconds: 5, timeoutSeconds: 3, maxRetries: 1, maxRetriesDown: 3 };
  const observed = (extra: Partial<OctaviaHealthMonitor> = {}): OctaviaHealthMonitor => ({ id: 'h', ...spec, ...extra });
  it.each([
    ['none wanted, none there', undefined, undefined, 'none'],
    ['none wanted, one there', undefined, observed(), 'delete'],
    ['wanted, none there', spec, undefined, 'create'],
    ['equal', spec, observed(), 'none'],
    ['type changed (ETP Local)', { ...spec, type: 'HTTP', urlPath: '/healthz' }, observed(), 'recreate'],
    ['delay changed', { ...spec, delaySeconds: 10 }, observed(), 'update'],
    ['max retries down changed', { ...spec, maxRetriesDown: 5 }, observed(), 'update'],
    ['renamed', { ...spec, name: 'n' }, observed(), 'update'],
  ] as Array<[string, typeof spec | undefined, OctaviaHealthMonitor | undefined, string]>)('%s -> %s', (_name, desired, found, kind) => {
    expect(planHealthMonitor(desired, found).kind).toBe(kind);
  });
});
