import { describe, expect, it } from 'vitest';
import type { InventoryPart } from './match-in-inventory.js';
import { decideInventoryRead, VM_INVENTORY_READS, VmInventory, type InventoryReadDecision, type InventoryReadInput } from './vm-inventory.js';

describe('decideInventoryRead', () => {
  const { minLookups, reuseMs, refreshAfterMs } = VM_INVENTORY_READS;
  it.each<[string, InventoryReadInput, InventoryReadDecision]>([
    ['no inventory, a lone lookup: search', { ageMs: undefined, lookups: 1, lookupsWithoutMatch: 1 }, 'search-each'],
    ['no inventory, fewer lookups than a read costs: search', { ageMs: undefined, lookups: minLookups - 1, lookupsWithoutMatch: minLookups - 1 }, 'search-each'],
    ['no inventory, a storm: read', { ageMs: undefined, lookups: minLookups, lookupsWithoutMatch: minLookups }, 'read'],
    ['a young inventory, a lone lookup: use it', { ageMs: 10, lookups: 1, lookupsWithoutMatch: 1 }, 'use-current'],
    ['a young inventory without the storm\'s VMs: use it (they are searched)', { ageMs: refreshAfterMs - 1, lookups: 50, lookupsWithoutMatch: 50 }, 'use-current'],
    ['an older inventory with the storm\'s VMs: use it', { ageMs: refreshAfterMs + 1, lookups: 50, lookupsWithoutMatch: 0 }, 'use-current'],
    ['an older inventory, a few misses: use it (they are searched)', { ageMs: refreshAfterMs + 1, lookups: 50, lookupsWithoutMatch: minLookups - 1 }, 'use-current'],
    ['an older inventory, a storm of misses: read again', { ageMs: refreshAfterMs + 1, lookups: 50, lookupsWithoutMatch: minLookups }, 'read'],
    ['an expired inventory, a lone lookup: search', { ageMs: reuseMs, lookups: 1, lookupsWithoutMatch: 0 }, 'search-each'],
    ['an expired inventory, a storm: read', { ageMs: reuseMs, lookups: minLookups, lookupsWithoutMatch: 0 }, 'read'],
  ])('%s', (_title, input, expected) => {
    expect(decideInventoryRead(input)).toBe(expected);
  });
});

describe('VmInventory', () => {
  const part = (names: string[]): InventoryPart<string> => ({
    place: 'dc-1',
    vms: names.map((name) => ({ ref: { type: 'VirtualMachine', value: name }, uuid: `uuid-${name}`, guestHostName: name, guestIpAddress: '', guestIps: [] })),
  });

  it('answers a storm with one read, shares a read in flight with later lookups, and reads again for a storm of VMs it does not have', async () => {
    let now = 0;
    let names = ['a', 'b', 'c', 'd'];
    const reads: string[][] = [];
    let release: (() => void) | undefined;
    const inventory = new VmInventory<string>(
      async () => {
        reads.push([...names]);
        if (reads.length === 1) await new Promise<void>((resolve) => (release = resolve));
        return [part(names)];
      },
      { now: () => now, policy: { windowMs: 1 } },
    );
    const step = (name: string) => [{ by: 'dnsName' as const, value: name }];
    const storm = ['a', 'b', 'c', 'd'].map((name) => inventory.forLookup(step(name)));
    await expect.poll(() => reads.length).toBe(1);
    // Arrives while the read is out: waits for it and uses it.
    const late = inventory.forLookup(step('a'));
    release?.();
    const snapshots = await Promise.all([...storm, late]);
    expect(new Set(snapshots).size).toBe(1);
    expect(snapshots[0]?.parts).toEqual([part(['a', 'b', 'c', 'd'])]);
    expect(reads).toHaveLength(1);

    // New VMs, asked for after refreshAfterMs by a storm: one new read.
    names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    now = VM_INVENTORY_READS.refreshAfterMs;
    const second = await Promise.all(['e', 'f', 'g', 'h'].map((name) => inventory.forLookup(step(name))));
    expect(reads).toHaveLength(2);
    expect(second[0]?.parts).toEqual([part(names)]);
    expect(second[0]?.readAt).toBe(VM_INVENTORY_READS.refreshAfterMs);

    // Expired: a lone lookup searches.
    now += VM_INVENTORY_READS.reuseMs;
    await expect(inventory.forLookup(step('a'))).resolves.toBeUndefined();
    expect(reads).toHaveLength(2);
  });

  it('lets a lookup give up without stopping the others', async () => {
    const inventory = new VmInventory<string>(async () => [part(['a'])], { policy: { windowMs: 5, minLookups: 2 } });
    const controller = new AbortController();
    const gaveUp = inventory.forLookup([{ by: 'dnsName', value: 'a' }], controller.signal);
    const kept = inventory.forLookup([{ by: 'dnsName', value: 'a' }]);
    const third = inventory.forLookup([{ by: 'dnsName', value: 'b' }]);
    controller.abort(new Error('gave up'));
    await expect(gaveUp).rejects.toThrow('gave up');
    // Two lookups remain: enough for this policy's read.
    await expect(kept).resolves.toMatchObject({ parts: [part(['a'])] });
    await expect(third).resolves.toMatchObject({ parts: [part(['a'])] });
  });
});
