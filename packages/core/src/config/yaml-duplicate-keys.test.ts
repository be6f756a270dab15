import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { findDuplicateYamlKeys } from './yaml-duplicate-keys.js';

describe('findDuplicateYamlKeys', () => {
  it('finds repeated keys in every mapping, not merge keys', () => {
    const text = 'a: 1\nb:\n  c: 1\n  c: 2\na: 3\nbase: &base {x: 1}\nd:\n  <<: *base\n  <<: *base\n';
    const duplicates = findDuplicateYamlKeys(parseDocument(text, { uniqueKeys: false }));
    expect(duplicates.map((node) => text.slice(0, node.range?.[0]).split('\n').length).sort()).toEqual([4, 5]);
  });

  it('is linear: 30,000 distinct keys take well under a second', () => {
    const text = Array.from({ length: 30_000 }, (_, index) => `k${index}: 1`).join('\n');
    const document = parseDocument(text, { uniqueKeys: false });
    const started = performance.now();
    expect(findDuplicateYamlKeys(document)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
