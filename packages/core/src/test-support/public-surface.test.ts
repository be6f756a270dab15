import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { coreSourceDirectory } from './core-layout.js';
import { compareNames, readIndexSurface, readPublicSurface, renderPublicSurface } from './public-surface.js';

const surfaces = readPublicSurface(dirname(coreSourceDirectory()));

describe('the public surface of @ccm/core', () => {
  it('reads every subpath', () => {
    expect(surfaces.map((surface) => surface.subpath)).toContain('provider');
    for (const surface of surfaces) expect(surface.names.length, `@ccm/core/${surface.subpath} exports nothing: remove the subpath`).toBeGreaterThan(0);
  });

  it('lists its names in each subpath index: no export *, nothing but named re-exports', () => {
    expect(surfaces.flatMap((surface) => surface.problems)).toEqual([]);
  });

  it('exports each name once per subpath', () => {
    for (const surface of surfaces) expect(surface.names, `@ccm/core/${surface.subpath}`).toEqual([...new Set(surface.names)]);
  });

  it('is the reviewed list: the subpaths, their counts and their names', async () => {
    await expect(renderPublicSurface(surfaces)).toMatchFileSnapshot('./public-surface.txt');
  });
});

describe('reading an index', () => {
  it('takes the exported names of named re-exports, types included, under their exported names', () => {
    const text = "/** The face. */\nexport { b, type A } from './a.js';\nexport { c as d } from './c.js';\nexport type { E } from './e.js';\n";
    expect(readIndexSurface('x/index.ts', text)).toEqual({ names: ['A', 'b', 'd', 'E'], problems: [] });
  });

  it.each([
    { text: "export * from './a.js';\n", problem: 'x/index.ts:1: export * re-exports whatever the module holds: list the names' },
    { text: "export { a } from './a.js';\nexport * as b from './b.js';\n", problem: 'x/index.ts:2: export * as b re-exports a whole module: list the names' },
    { text: 'export const a = 1;\n', problem: "x/index.ts:1: an index only re-exports names from the area's files (export { name } from './file.js')" },
    { text: "import { a } from './a.js';\nexport { a };\n", problem: "x/index.ts:1: an index only re-exports names from the area's files (export { name } from './file.js')" },
  ])('reports $problem', ({ text, problem }) => {
    expect(readIndexSurface('x/index.ts', text).problems).toContain(problem);
  });

  it('sorts names case-insensitively, then exactly', () => {
    expect(['b', 'B', 'a', 'C'].sort(compareNames)).toEqual(['a', 'B', 'b', 'C']);
  });

  it('renders a heading with the count per subpath', () => {
    const text = renderPublicSurface([{ subpath: 'net', names: ['Cidr', 'parseIp'], problems: [] }]);
    expect(text).toContain('# subpaths: 1, names: 2\n\n@ccm/core/net (2)\n  Cidr\n  parseIp\n');
  });
});
