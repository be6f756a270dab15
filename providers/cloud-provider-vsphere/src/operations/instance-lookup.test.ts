// The per-vCenter VM property loader (core's Coalescer over retrieveVms): what the former
// KeyBatcher's tests checked, now against the loader the provider uses.
import { describe, expect, it } from 'vitest';
import { FakeVcenter } from '../../test/fakes/fake-vcenter.js';
import type { VcenterConfig } from '../config/vsphere-config.js';
import type { ObjectRef } from '../ports/vcenter-port.js';
import { createVmLoader } from './instance-lookup.js';

function loaderOver(vcenter: FakeVcenter, options: Parameters<typeof createVmLoader>[1] = {}) {
  const batches: number[] = [];
  const loader = createVmLoader({ config: { name: vcenter.name } as VcenterConfig, port: vcenter }, { batchWindowMs: 5, onBatch: (_name, size) => batches.push(size), ...options });
  return { loader, batches };
}

const ABSENT: ObjectRef = { type: 'VirtualMachine', value: 'vm-404' };

describe('the VM property loader', () => {
  it('coalesces concurrent loads, deduplicates VMs and fans out results (absent VMs are undefined)', async () => {
    const vcenter = new FakeVcenter('vc1');
    const a = vcenter.addVm({ name: 'a', uuid: 'uuid-a' });
    const b = vcenter.addVm({ name: 'b', uuid: 'uuid-b' });
    const { loader, batches } = loaderOver(vcenter);
    const results = await Promise.all([a.ref, b.ref, { ...a.ref }, ABSENT].map((ref) => loader.load(ref)));
    expect(results.map((record) => record?.name)).toEqual(['a', 'b', 'a', undefined]);
    expect(batches).toEqual([3]);
    expect(vcenter.count('retrieveVms')).toBe(1);
  });

  it('sends a batch early at maxBatchSize', async () => {
    const vcenter = new FakeVcenter('vc1');
    const refs = ['a', 'b', 'c'].map((name) => vcenter.addVm({ name, uuid: `uuid-${name}` }).ref);
    const { loader, batches } = loaderOver(vcenter, { maxBatchSize: 2 });
    await Promise.all(refs.map((ref) => loader.load(ref)));
    expect(batches).toEqual([2, 1]);
  });

  it('reads each VM alone when the batch fails, isolating a bad one', async () => {
    const vcenter = new FakeVcenter('vc1');
    const refs = ['a', 'bad', 'b'].map((name) => vcenter.addVm({ name, uuid: `uuid-${name}` }).ref);
    let batchFailed = false;
    vcenter.fail = () => {
      if (!batchFailed) {
        batchFailed = true;
        return new Error('batch failed');
      }
      return undefined;
    };
    const { loader } = loaderOver(vcenter);
    const original = vcenter.retrieveVms.bind(vcenter);
    vcenter.retrieveVms = async (wanted) => {
      if (wanted.length === 1 && wanted[0]?.value === refs[1]?.value) throw new Error('bad key');
      return original(wanted);
    };
    const results = await Promise.allSettled(refs.map((ref) => loader.load(ref)));
    expect(results.map((result) => (result.status === 'fulfilled' ? result.value?.name : (result.reason as Error).message))).toEqual(['a', 'bad key', 'b']);
  });

  it('lets one caller abort without affecting the others', async () => {
    const vcenter = new FakeVcenter('vc1');
    const x = vcenter.addVm({ name: 'x', uuid: 'uuid-x' });
    const y = vcenter.addVm({ name: 'y', uuid: 'uuid-y' });
    const { loader, batches } = loaderOver(vcenter);
    const controller = new AbortController();
    const aborted = loader.load(x.ref, { signal: controller.signal });
    const kept = loader.load(y.ref);
    controller.abort(new Error('gave up'));
    await expect(aborted).rejects.toThrow('gave up');
    expect((await kept)?.name).toBe('y');
    expect(batches).toEqual([1]);
  });
});
