import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeEc2 } from '../../test/fakes/fake-ec2.js';
import { awsError } from '../../test/fakes/fake-errors.js';
import { BatchingInstanceLookup } from './instance-lookup.js';
import { KeyCoalescer } from './key-coalescer.js';

describe('KeyCoalescer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers concurrent keys with one batched call after the window', async () => {
    const fetchMany = vi.fn(async (keys: string[]) => new Map(keys.map((key) => [key, key.toUpperCase()])));
    const coalescer = new KeyCoalescer<string, string>({ fetchMany, fetchOne: async (key) => key, missing: () => 'missing', windowMs: 5 });
    const answers = Promise.all([coalescer.load('a'), coalescer.load('b'), coalescer.load('a')]);
    expect(fetchMany).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(5);
    expect(await answers).toEqual(['A', 'B', 'A']);
    expect(fetchMany).toHaveBeenCalledTimes(1);
    expect(fetchMany).toHaveBeenCalledWith(['a', 'b']);
  });

  it('flushes as soon as the batch is full', async () => {
    const fetchMany = vi.fn(async (keys: string[]) => new Map(keys.map((key) => [key, key])));
    const coalescer = new KeyCoalescer<string, string>({ fetchMany, fetchOne: async (key) => key, missing: () => '', windowMs: 1000, maxBatchSize: 2 });
    const first = Promise.all([coalescer.load('a'), coalescer.load('b')]);
    await vi.advanceTimersByTimeAsync(0);
    expect(await first).toEqual(['a', 'b']);
    const second = coalescer.load('c');
    await vi.advanceTimersByTimeAsync(1000);
    expect(await second).toBe('c');
    expect(fetchMany.mock.calls).toEqual([[['a', 'b']], [['c']]]);
  });

  it('uses the missing answer for keys the batch did not return', async () => {
    const coalescer = new KeyCoalescer<string, string>({ fetchMany: async () => new Map([['a', 'A']]), fetchOne: async () => 'x', missing: (key) => `no ${key}` });
    const answers = Promise.all([coalescer.load('a'), coalescer.load('b')]);
    await vi.advanceTimersByTimeAsync(5);
    expect(await answers).toEqual(['A', 'no b']);
  });

  it('falls back to single lookups with per-key errors when the batch fails', async () => {
    const fetchOne = vi.fn(async (key: string) => {
      if (key === 'bad') throw new Error('bad key');
      return key.toUpperCase();
    });
    const coalescer = new KeyCoalescer<string, string>({ fetchMany: async () => Promise.reject(new Error('batch failed')), fetchOne, missing: () => '' });
    const good = coalescer.load('good');
    const bad = coalescer.load('bad');
    const badResult = bad.catch((error: Error) => error.message);
    await vi.advanceTimersByTimeAsync(5);
    expect(await good).toBe('GOOD');
    expect(await badResult).toBe('bad key');
    expect(fetchOne).toHaveBeenCalledTimes(2);
  });

  it('lets one caller abort without affecting the others', async () => {
    const coalescer = new KeyCoalescer<string, string>({ fetchMany: async (keys) => new Map(keys.map((key) => [key, key])), fetchOne: async (key) => key, missing: () => '' });
    const controller = new AbortController();
    const aborted = coalescer.load('a', controller.signal).catch((error: unknown) => `aborted: ${String(error)}`);
    const kept = coalescer.load('a');
    controller.abort('stop');
    await vi.advanceTimersByTimeAsync(5);
    expect(await aborted).toBe('aborted: stop');
    expect(await kept).toBe('a');
    await expect(coalescer.load('b', AbortSignal.abort('early'))).rejects.toBe('early');
  });
});

describe('BatchingInstanceLookup', () => {
  function setup() {
    const ec2 = new FakeEc2();
    ec2.addInstance({ instanceId: 'i-1', privateDnsName: 'ip-10-0-0-1.ec2.internal' });
    ec2.addInstance({ instanceId: 'i-2', privateDnsName: 'ip-10-0-0-2.ec2.internal', state: 'stopped' });
    ec2.addInstance({ instanceId: 'i-3', privateDnsName: 'ip-10-0-0-3.ec2.internal', state: 'terminated' });
    return { ec2, lookup: new BatchingInstanceLookup(ec2, { windowMs: 1 }) };
  }

  it('describes many IDs with one call', async () => {
    const { ec2, lookup } = setup();
    const [one, two, three] = await Promise.all([lookup.byId('i-1'), lookup.byId('i-2'), lookup.byId('i-3')]);
    expect([one?.instanceId, two?.state, three?.state]).toEqual(['i-1', 'stopped', 'terminated']);
    expect(ec2.log.inputs('ec2.describeInstances')).toEqual([{ instanceIds: ['i-1', 'i-2', 'i-3'] }]);
  });

  it('isolates an unknown ID: the batch fails, every ID is retried alone (upstream #1351)', async () => {
    const { ec2, lookup } = setup();
    const [known, unknown] = await Promise.all([lookup.byId('i-1'), lookup.byId('i-404')]);
    expect(known?.instanceId).toBe('i-1');
    expect(unknown).toBeUndefined();
    expect(ec2.log.inputs('ec2.describeInstances')).toEqual([{ instanceIds: ['i-1', 'i-404'] }, { instanceIds: ['i-1'] }, { instanceIds: ['i-404'] }]);
  });

  it('reports a per-ID error that is not "not found"', async () => {
    const { ec2, lookup } = setup();
    ec2.log.failNext('ec2.describeInstances', awsError('ec2.describeInstances', 'RequestLimitExceeded'), 1);
    ec2.log.failNext('ec2.describeInstances', awsError('ec2.describeInstances', 'UnauthorizedOperation', 'denied', 403), 1);
    await expect(lookup.byId('i-1')).rejects.toMatchObject({ kind: 'Unauthorized' });
  });

  it('finds live instances by private DNS name in one call', async () => {
    const { ec2, lookup } = setup();
    const [one, two, gone] = await Promise.all([
      lookup.byPrivateDnsName('ip-10-0-0-1.ec2.internal'),
      lookup.byPrivateDnsName('ip-10-0-0-2.ec2.internal'),
      lookup.byPrivateDnsName('ip-10-0-0-3.ec2.internal'),
    ]);
    expect(one.map((instance) => instance.instanceId)).toEqual(['i-1']);
    expect(two.map((instance) => instance.instanceId)).toEqual(['i-2']);
    expect(gone).toEqual([]);
    expect(ec2.log.inputs('ec2.describeInstances')).toEqual([
      {
        filters: [
          { name: 'private-dns-name', values: ['ip-10-0-0-1.ec2.internal', 'ip-10-0-0-2.ec2.internal', 'ip-10-0-0-3.ec2.internal'] },
          { name: 'instance-state-name', values: ['pending', 'running', 'shutting-down', 'stopping', 'stopped'] },
        ],
      },
    ]);
  });
});
