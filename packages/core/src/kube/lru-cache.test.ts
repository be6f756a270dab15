import { describe, expect, it } from 'vitest';
import { LruCache } from './lru-cache.js';

describe('LruCache', () => {
  it('evicts the least recently used entry', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
    expect(cache.size).toBe(2);
  });

  it('deletes the entries a predicate calls stale', () => {
    const cache = new LruCache<string, number>(5);
    for (const [key, value] of [['a', 1], ['b', 2], ['c', 3], ['d', 4]] as const) cache.set(key, value);
    expect(cache.deleteWhere((value) => value % 2 === 0)).toBe(2);
    expect(cache.size).toBe(2);
    expect(cache.get('a')).toBe(1);
    expect(cache.get('b')).toBeUndefined();
  });

  it('rejects a zero capacity', () => {
    expect(() => new LruCache(0)).toThrow(RangeError);
  });
});
