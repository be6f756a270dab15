import { SourceMap } from 'node:module';
import { describe, expect, it } from 'vitest';
import { decodeSegment, encodeValue, isRepositorySource, pruneSourceMap } from './source-map-pruning.mjs';

describe('source map pruning of a provider bundle', () => {
  it.each([0, 1, -1, 15, -16, 16, 1023, -1024, 123456])('VLQ round trip of %i', (value) => {
    expect(decodeSegment(encodeValue(value))).toEqual([value]);
  });

  it('keeps our mappings exactly, unmaps the dependencies\' (no kept mapping spans their code), drops repeated unmapped segments', () => {
    // Line 0: col 0 -> ours.ts 1:0, col 10 -> node_modules/dep.js 5:2, col 20 -> dep 6:0, col 30 -> ours.ts 2:4 (name 0).
    const segments = [
      [0, 0, 0, 0],
      [10, 1, 4, 2],
      [10, 0, 1, -2],
      [10, -1, -4, 4, 0],
    ];
    const map = {
      version: 3,
      sources: ['../src/ours.ts', '../../node_modules/dep/index.js'],
      names: ['start'],
      mappings: segments.map((fields) => fields.map(encodeValue).join('')).join(','),
    };
    const pruned = pruneSourceMap(map, isRepositorySource);
    const before = new SourceMap(map);
    const after = new SourceMap(pruned);
    expect(after.findEntry(0, 5)).toEqual(before.findEntry(0, 5));
    expect(after.findEntry(0, 35)).toEqual(before.findEntry(0, 35));
    expect(before.findEntry(0, 15).originalSource).toContain('node_modules');
    expect(after.findEntry(0, 15).originalSource ?? '').not.toContain('ours.ts');
    expect(after.findEntry(0, 25).originalSource ?? '').not.toContain('ours.ts');
    expect(pruned.mappings.split(',')).toHaveLength(3);
  });

  it('tells repository sources from dependencies', () => {
    expect(isRepositorySource('../../../packages/core/src/app/run.ts')).toBe(true);
    expect(isRepositorySource('../../node_modules/.pnpm/google-gax@5/node_modules/google-gax/build/src/x.js')).toBe(false);
  });
});
