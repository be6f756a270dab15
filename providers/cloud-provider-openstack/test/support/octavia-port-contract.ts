/**
 * One contract for the OctaviaPort, run on the in-memory fake (test/fakes/fake-octavia.ts) and on
 * the production adapter (sdk-octavia-port.ts) against the real Octavia of @ccm/openstack-services
 * (issue 23 point 4): the PENDING_* lifecycle, renames in place, children one at a time, and what
 * Octavia refuses: names over 255, a load balancer without a VIP, any change while PENDING_* (409),
 * a second listener on a protocol and port, a duplicate member, a second monitor, unknown IDs.
 * Each "refused while PENDING_*" step runs inside `holdingProvisioning`, so it never races the worker.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import type { LoadBalancerCreateSpec, OctaviaLoadBalancer, OctaviaPort } from '../../src/ports/octavia-port.js';
import { NAME_OVER_255, refusalKind, UNKNOWN_UUID } from './refusal-kind.js';

export interface OctaviaPortContractFixture {
  port: OctaviaPort;
  /** The subnet VIPs are allocated on. */
  vipSubnetId: string;
  /** The provider the side runs (`amphora`). */
  provider: string;
  /** Unique per run. */
  prefix: string;
  /**
   * Runs `body` while no load balancer's provisioning can advance, so that a change right after
   * another one meets PENDING_* for certain: the real Octavia's worker is stopped (on the noop
   * drivers it often finishes before the next request arrives); the fake advances only on reads.
   */
  holdingProvisioning<T>(body: () => Promise<T>): Promise<T>;
}

/** How long a load balancer may stay PENDING_* (the real Octavia on a loaded 2-core machine). */
const SETTLE_TIMEOUT_MS = 120_000;

/** Reads the load balancer until it is no longer PENDING_* (undefined once deleted). */
export async function settledLoadBalancer(port: OctaviaPort, id: string): Promise<OctaviaLoadBalancer | undefined> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  for (;;) {
    const found = await port.getLoadBalancer(id);
    if (found === undefined || !found.provisioningStatus.startsWith('PENDING_')) return found;
    if (Date.now() > deadline) throw new Error(`load balancer ${id} still ${found.provisioningStatus} after ${SETTLE_TIMEOUT_MS / 1000} s`);
    await sleep(200);
  }
}

/** After a delete: Octavia shows the load balancer DELETED for a while, then not at all (both are gone). */
async function deletedStatus(port: OctaviaPort, id: string): Promise<string> {
  return (await settledLoadBalancer(port, id))?.provisioningStatus ?? 'DELETED';
}

const bare = (side: OctaviaPortContractFixture, name: string): LoadBalancerCreateSpec => ({ name, description: 'contract', vipSubnetId: side.vipSubnetId, provider: side.provider, tags: [name], listeners: [] });

const listenerSpec = (name: string, port: number) => ({ name, protocol: 'TCP', port, connectionLimit: -1, allowedCidrs: [], insertHeaders: {}, tags: [] });

export function describeOctaviaPortContract(fixture: () => OctaviaPortContractFixture): void {
  it('creates a load balancer PENDING_CREATE, refuses changes until ACTIVE (Conflict), renames it in place (same ID and VIP) and deletes it', async () => {
    const side = fixture();
    const name = `${side.prefix}-lifecycle`;
    const created = await side.holdingProvisioning(async () => {
      const pending = await side.port.createLoadBalancer(bare(side, name));
      expect(pending).toMatchObject({ name, description: 'contract', provisioningStatus: 'PENDING_CREATE', vipSubnetId: side.vipSubnetId, provider: side.provider, tags: [name] });
      expect(await refusalKind(side.port.renameLoadBalancer(pending.id, `${name}-early`, []))).toBe('Conflict');
      return pending;
    });
    const active = await settledLoadBalancer(side.port, created.id);
    expect(active?.provisioningStatus).toBe('ACTIVE');
    expect((await side.port.findLoadBalancersByName(name)).map((found) => found.id)).toEqual([created.id]);

    await side.holdingProvisioning(async () => {
      await side.port.renameLoadBalancer(created.id, `${name}-renamed`, [`${name}-renamed`]);
      expect(await refusalKind(side.port.updateLoadBalancerTags(created.id, []))).toBe('Conflict');
    });
    const renamed = await settledLoadBalancer(side.port, created.id);
    expect(renamed).toMatchObject({ id: created.id, name: `${name}-renamed`, tags: [`${name}-renamed`], vipAddress: active!.vipAddress, vipPortId: active!.vipPortId, provisioningStatus: 'ACTIVE' });
    expect(await side.port.findLoadBalancersByName(name)).toEqual([]);
    await side.port.updateLoadBalancerTags(created.id, [`${name}-renamed`, 'other']);
    expect((await settledLoadBalancer(side.port, created.id))?.tags.sort()).toEqual([`${name}-renamed`, 'other'].sort());

    await side.holdingProvisioning(async () => {
      await side.port.deleteLoadBalancer(created.id, true);
      expect(await refusalKind(side.port.renameLoadBalancer(created.id, name, []))).toBe('Conflict');
    });
    expect(await deletedStatus(side.port, created.id)).toBe('DELETED');
  });

  it('refuses a load balancer with a name over 255 or without a VIP (Invalid); an unknown load balancer is absent and its changes NotFound', async () => {
    const side = fixture();
    expect(await refusalKind(side.port.createLoadBalancer({ ...bare(side, NAME_OVER_255), tags: [] }))).toBe('Invalid');
    const { vipSubnetId: _subnet, ...withoutVip } = bare(side, `${side.prefix}-no-vip`);
    expect(await refusalKind(side.port.createLoadBalancer(withoutVip))).toBe('Invalid');
    expect(await side.port.findLoadBalancersByName(`${side.prefix}-no-vip`)).toEqual([]);
    expect(await side.port.getLoadBalancer(UNKNOWN_UUID)).toBeUndefined();
    expect(await refusalKind(side.port.renameLoadBalancer(UNKNOWN_UUID, 'x', []))).toBe('NotFound');
    expect(await refusalKind(side.port.deleteLoadBalancer(UNKNOWN_UUID, true))).toBe('NotFound');
    expect(await refusalKind(side.port.deleteListener(UNKNOWN_UUID))).toBe('NotFound');
    expect(await refusalKind(side.port.deletePool(UNKNOWN_UUID))).toBe('NotFound');
    expect(await refusalKind(side.port.listMembers(UNKNOWN_UUID))).toBe('NotFound');
    expect(await side.port.getHealthMonitor(UNKNOWN_UUID)).toBeUndefined();
  });

  it('builds children one at a time and renames them; refuses a second listener on a protocol and port, a duplicate member, a second monitor (Conflict), a listener name over 255 (Invalid)', async () => {
    const side = fixture();
    const name = `${side.prefix}-children`;
    const { id } = await side.port.createLoadBalancer(bare(side, name));
    await settledLoadBalancer(side.port, id);

    const listener = await side.holdingProvisioning(async () => {
      const first = await side.port.createListener(id, listenerSpec(`listener_0_${name}`, 80));
      expect(first).toMatchObject({ name: `listener_0_${name}`, protocol: 'TCP', port: 80, defaultPoolId: undefined });
      expect(await refusalKind(side.port.createListener(id, listenerSpec(`listener_1_${name}`, 81)))).toBe('Conflict');
      return first;
    });
    await settledLoadBalancer(side.port, id);
    expect(await refusalKind(side.port.createListener(id, listenerSpec(`listener_1_${name}`, 80)))).toBe('Conflict');
    expect(await refusalKind(side.port.createListener(id, listenerSpec(NAME_OVER_255, 82)))).toBe('Invalid');
    await settledLoadBalancer(side.port, id);

    const pool = await side.port.createPool(listener.id, { name: `pool_0_${name}`, protocol: 'TCP', method: 'ROUND_ROBIN', sessionPersistence: undefined });
    expect(pool).toMatchObject({ name: `pool_0_${name}`, protocol: 'TCP', method: 'ROUND_ROBIN', listenerIds: [listener.id], healthMonitorId: undefined });
    await settledLoadBalancer(side.port, id);
    expect((await side.port.listListeners(id)).map((entry) => entry.defaultPoolId)).toEqual([pool.id]);

    const member = { name: 'node-1', address: '10.0.0.11', port: 30080 };
    await side.port.createMember(pool.id, member);
    await settledLoadBalancer(side.port, id);
    expect(await refusalKind(side.port.createMember(pool.id, { ...member, name: 'node-1-again' }))).toBe('Conflict');
    expect((await side.port.listMembers(pool.id)).map((entry) => [entry.name, entry.address, entry.port])).toEqual([['node-1', '10.0.0.11', 30080]]);

    const monitorSpec = { name: `monitor_0_${name}`, type: 'TCP', delaySeconds: 5, timeoutSeconds: 3, maxRetries: 1, maxRetriesDown: 3 };
    const monitor = await side.port.createHealthMonitor(pool.id, monitorSpec);
    expect(monitor).toMatchObject(monitorSpec);
    await settledLoadBalancer(side.port, id);
    expect(await refusalKind(side.port.createHealthMonitor(pool.id, { ...monitorSpec, name: 'second' }))).toBe('Conflict');
    expect(await side.port.getHealthMonitor(monitor.id)).toMatchObject(monitorSpec);

    await side.port.renameListener(listener.id, `listener_0_${name}-renamed`, [`${name}-renamed`]);
    await settledLoadBalancer(side.port, id);
    await side.port.renamePool(pool.id, `pool_0_${name}-renamed`);
    await settledLoadBalancer(side.port, id);
    expect((await side.port.listListeners(id)).map((entry) => [entry.id, entry.name, entry.tags])).toEqual([[listener.id, `listener_0_${name}-renamed`, [`${name}-renamed`]]]);
    expect((await side.port.listPools(id)).map((entry) => [entry.id, entry.name])).toEqual([[pool.id, `pool_0_${name}-renamed`]]);

    await side.port.deleteLoadBalancer(id, true);
    expect(await deletedStatus(side.port, id)).toBe('DELETED');
  });

  it('refuses to delete a load balancer with children without cascade (Invalid)', async () => {
    const side = fixture();
    const name = `${side.prefix}-no-cascade`;
    const { id } = await side.port.createLoadBalancer(bare(side, name));
    await settledLoadBalancer(side.port, id);
    await side.port.createListener(id, listenerSpec(`listener_0_${name}`, 80));
    await settledLoadBalancer(side.port, id);
    expect(await refusalKind(side.port.deleteLoadBalancer(id, false))).toBe('Invalid');
    await side.port.deleteLoadBalancer(id, true);
    expect(await deletedStatus(side.port, id)).toBe('DELETED');
  });
}
