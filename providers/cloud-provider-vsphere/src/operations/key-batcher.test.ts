import { describe, expect, it } from 'vitest';
import { KeyBatcher } from './key-batcher.js';

function batcher(overrides: Partial<ConstructorParameters<typeof KeyBatcher<string, string | undefined>>[0]> = {}) {
  const batches: string[][] = [];
  const singles: string[] = [];
  const instance = new KeyBatcher<string, string | undefined>({
    fetchMany: async (keys) => {
      batches.push(keys);
      return new Map(keys.filter((key) => !key.startsWith('missing')).map((key) => [key, key.toUpperCase()]));
    },
    fetchOne: async (key) => {
      singles.push(key);
      if (key === 'bad') throw new Error('bad key');
      return key.toUpperCase();
    },
    missing: () => undefined,
    windowMs: 5,
    ...overrides,
  });
  return { instance, batches, singles };
}

describe('KeyBatcher', () => {
  it('coalesces concurrent loads, deduplicates keys and fans out results', async () => {
    const { instance, batches } = batcher();
    const results = await Promise.all(['a', 'b', 'a', 'missing-c'].map((key) => instance.load(key)));
    expect(results).toEqual(['A', 'B', 'A', undefined]);
    expect(batches).toEqual([['a', 'b', 'missing-c']]);
  });

  it('flushes early at maxBatchSize', async () => {
    const { instance, batches } = batcher({ maxBatchSize: 2 });
    await Promise.all(['a', 'b', 'c'].map((key) => instance.load(key)));
    expect(batches).toEqual([['a', 'b'], ['c']]);
  });

  it('falls back to single loads when the batch fails, isolating a bad key', async () => {
    const { instance, singles } = batcher({
      fetchMany: async () => {
        throw new Error('batch failed');
      },
    });
    const results = await Promise.allSettled(['a', 'bad', 'b'].map((key) => instance.load(key)));
    expect(results.map((result) => (result.status === 'fulfilled' ? result.value : (result.reason as Error).message))).toEqual(['A', 'bad key', 'B']);
    expect(singles.sort()).toEqual(['a', 'b', 'bad']);
  });

  it('lets one caller abort without affecting the others', async () => {
    const { instance, batches } = batcher();
    const controller = new AbortController();
    const aborted = instance.load('x', controller.signal);
    const kept = instance.load('y');
    controller.abort(new Error('gave up'));
    await expect(aborted).rejects.toThrow('gave up');
    await expect(kept).resolves.toBe('Y');
    expect(batches).toEqual([['y']]);
  });
});
