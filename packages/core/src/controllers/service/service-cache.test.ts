import { describe, expect, it } from 'vitest';
import { ServiceCache } from './service-cache.js';
import { defaultExternalService } from './test-support/builders.js';

// Upstream runs these steps in order on one cache.
describe('TestServiceCache', () => {
  const cache = new ServiceCache();
  it('Add', () => {
    cache.getOrCreate('addTest').state = defaultExternalService();
    expect(cache.size).toBe(1);
  });
  it('Del', () => {
    cache.delete('addTest');
    expect(cache.size).toBe(0);
  });
  it('Set and Get', () => {
    cache.set('addTest', { state: defaultExternalService() });
    expect(cache.get('addTest')?.state).toBeDefined();
  });
  it('ListKeys', () => {
    cache.set('addTest1', { state: defaultExternalService() });
    expect(cache.listKeys().sort()).toEqual(['addTest', 'addTest1']);
  });
  it('GetByKey', () => {
    expect(cache.get('addTest')).toBeDefined();
    expect(cache.get('missing')).toBeUndefined();
  });
  it('allServices', () => {
    expect(cache.allServices()).toHaveLength(2);
  });
  it('getOrCreate returns the existing entry', () => {
    const entry = cache.getOrCreate('addTest');
    expect(cache.getOrCreate('addTest')).toBe(entry);
  });
});
