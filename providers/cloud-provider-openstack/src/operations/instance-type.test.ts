import type { CallOptions } from '@ccm/core/cloud';
import { describe, expect, it } from 'vitest';
import type { ComputePort, OpenStackFlavor, OpenStackServer } from '../ports/compute-port.js';
import { InstanceTypes } from './instance-type.js';

/** A call that answers when the test says so, and rejects when its signal is aborted (as the SDK adapter). */
interface HeldCall<T> {
  signal: AbortSignal | undefined;
  answer(value: T): void;
  fail(error: unknown): void;
}

class HeldCompute implements ComputePort {
  readonly listCalls: HeldCall<OpenStackFlavor[]>[] = [];
  readonly getCalls: (HeldCall<OpenStackFlavor> & { flavorId: string })[] = [];

  #held<T>(options: CallOptions | undefined, record: (call: HeldCall<T>) => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const signal = options?.signal;
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      record({ signal, answer: resolve, fail: reject });
    });
  }

  listFlavors(options?: CallOptions): Promise<OpenStackFlavor[]> {
    return this.#held(options, (call) => this.listCalls.push(call));
  }

  getFlavor(flavorId: string, options?: CallOptions): Promise<OpenStackFlavor> {
    return this.#held(options, (call) => this.getCalls.push({ ...call, flavorId }));
  }

  getServer(): Promise<OpenStackServer> {
    throw new Error('not used');
  }

  listServersByName(): Promise<OpenStackServer[]> {
    throw new Error('not used');
  }

  serversNamed(): Promise<OpenStackServer[]> {
    throw new Error('not used');
  }
}

function server(flavorId: string, originalName = ''): OpenStackServer {
  return { id: `server-${flavorId}`, name: 'node', status: 'ACTIVE', availabilityZone: 'nova', flavor: { id: flavorId, originalName }, addresses: {}, accessIPv4: '', accessIPv6: '', metadata: {} };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

describe('InstanceTypes', () => {
  it("answers the second caller when the first caller aborts: the shared read carries no caller's signal", async () => {
    const compute = new HeldCompute();
    const types = new InstanceTypes(compute);
    const first = new AbortController();
    const firstAnswer = types.instanceTypeOf(server('2'), { signal: first.signal });
    const secondAnswer = types.instanceTypeOf(server('2'), { signal: new AbortController().signal });
    await until(() => compute.listCalls.length === 1);
    expect(compute.listCalls[0]?.signal).toBeUndefined();
    first.abort(new Error('first caller gave up'));
    await expect(firstAnswer).rejects.toThrow('first caller gave up');
    compute.listCalls[0]?.answer([{ id: '2', name: 'm1.small' }]);
    await expect(secondAnswer).resolves.toBe('m1.small');
    // The read that outlived its first caller is kept for later callers.
    await expect(types.instanceTypeOf(server('2'), { signal: AbortSignal.abort(new Error('already gone')) })).rejects.toThrow('already gone');
    await expect(types.instanceTypeOf(server('2'))).resolves.toBe('m1.small');
    expect(compute.listCalls).toHaveLength(1);
    expect(compute.getCalls).toHaveLength(0);
  });

  it('lists the flavors once for every flavor, and reads by ID only a flavor the list does not show', async () => {
    const compute = new HeldCompute();
    const types = new InstanceTypes(compute);
    const answers = [types.instanceTypeOf(server('1')), types.instanceTypeOf(server('2')), types.instanceTypeOf(server('private'))];
    await until(() => compute.listCalls.length === 1);
    compute.listCalls[0]?.answer([
      { id: '1', name: 'm1.tiny' },
      { id: '2', name: 'not a label value!' },
    ]);
    await until(() => compute.getCalls.length === 1);
    expect(compute.getCalls[0]?.flavorId).toBe('private');
    compute.getCalls[0]?.answer({ id: 'private', name: 'gpu.large' });
    await expect(Promise.all(answers)).resolves.toEqual(['m1.tiny', '2', 'gpu.large']);
    await expect(types.instanceTypeOf(server('private'))).resolves.toBe('gpu.large');
    expect([compute.listCalls.length, compute.getCalls.length]).toEqual([1, 1]);
  });

  it('reads by ID when the list fails, lists again at the next unknown flavor, and forgets a failed read', async () => {
    const compute = new HeldCompute();
    const types = new InstanceTypes(compute);
    const answer = types.instanceTypeOf(server('1'));
    await until(() => compute.listCalls.length === 1);
    compute.listCalls[0]?.fail(new Error('403 policy'));
    await until(() => compute.getCalls.length === 1);
    compute.getCalls[0]?.fail(new Error('404 flavor'));
    await expect(answer).rejects.toThrow('404 flavor');
    const again = types.instanceTypeOf(server('1'));
    await until(() => compute.listCalls.length === 2);
    compute.listCalls[1]?.answer([{ id: '1', name: 'm1.tiny' }]);
    await expect(again).resolves.toBe('m1.tiny');
  });

  it('takes a valid original_name without a call, and refuses a server without flavor ID', async () => {
    const compute = new HeldCompute();
    const types = new InstanceTypes(compute);
    await expect(types.instanceTypeOf(server('1', 'gp.large'))).resolves.toBe('gp.large');
    await expect(types.instanceTypeOf(server(''))).rejects.toThrow('flavor original_name/id not found');
    expect([compute.listCalls.length, compute.getCalls.length]).toEqual([0, 0]);
  });
});
