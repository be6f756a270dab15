import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  areaOf,
  CORE_LAYERS,
  coreSourceDirectory,
  findShippedTestImports,
  findSubpathProblems,
  findUpwardImports,
  importSpecifiers,
  isTestOnly,
  readSources,
  type PackageExports,
  type SourceFile,
} from './core-layout.js';

const sourceDirectory = coreSourceDirectory();
const sources = readSources(sourceDirectory);
const manifest = JSON.parse(readFileSync(join(sourceDirectory, '..', 'package.json'), 'utf8')) as { exports: PackageExports };

describe('@ccm/core layout', () => {
  it('reads the whole source tree', () => {
    expect(sources.length).toBeGreaterThan(200);
    expect(new Set(sources.map((file) => areaOf(file.path)))).toEqual(new Set([...CORE_LAYERS.flat(), 'test-support']));
  });

  it('has one test-support convention: tests next to their code, shared test code in test-support/ (no __tests__/)', () => {
    expect(sources.map((file) => file.path).filter((path) => /(^|\/)__tests__\//.test(path))).toEqual([]);
  });

  it('has no upward import: an area imports only its own files and lower layers', () => {
    expect(findUpwardImports(sources)).toEqual([]);
  });

  it('ships no test-only code, no test package and no private path of another package', () => {
    expect(findShippedTestImports(sources)).toEqual([]);
  });

  it('has no root entry, one subpath per public area, and no test-only code behind a subpath', () => {
    expect(findSubpathProblems(manifest.exports, sources)).toEqual([]);
  });
});

/** A small tree for the checks themselves: the checks must fail when the rules are broken. */
const file = (path: string, ...specifiers: string[]): SourceFile => ({ path, specifiers });
const layers = [['util'], ['kube', 'cloud'], ['app']];

describe('the layout checks', () => {
  it.each([
    { name: 'a lower layer', files: [file('kube/a.ts', '../util/x.js')], problems: 0 },
    { name: 'its own area', files: [file('kube/a.ts', './b.js', './client/c.js')], problems: 0 },
    { name: 'a package', files: [file('kube/a.ts', '@kubernetes/client-node')], problems: 0 },
    { name: 'a higher layer', files: [file('kube/a.ts', '../app/run.js')], problems: 1 },
    { name: 'an area of the same layer', files: [file('cloud/a.ts', '../kube/ports.js')], problems: 1 },
    { name: 'a deep path upward', files: [file('util/deep/a.ts', '../../kube/x.js')], problems: 1 },
    { name: 'an area with no layer', files: [file('extra/a.ts', '../util/x.js')], problems: 1 },
    { name: 'a file directly in src/', files: [file('index.ts', './app/index.js', './util/index.js')], problems: 1 },
    { name: 'a test importing upward (tests may)', files: [file('util/a.test.ts', '../app/run.js')], problems: 0 },
  ])('an import of $name gives $problems problem(s)', ({ files, problems }) => {
    expect(findUpwardImports(files, layers)).toHaveLength(problems);
  });

  it.each([
    { name: 'a test-support file', files: [file('kube/a.ts', './test-support/fake.js')], problems: 1 },
    { name: 'a test-support file', files: [file('app/a.ts', './test-support/harness.js')], problems: 1 },
    { name: 'vitest', files: [file('app/a.ts', 'vitest')], problems: 1 },
    { name: '@ccm/testing', files: [file('app/a.ts', '@ccm/testing/kube')], problems: 1 },
    { name: 'a private path of a package', files: [file('kube/wire.ts', '@kubernetes/client-node/dist/gen/models/ObjectSerializer.js')], problems: 1 },
    { name: 'a public subpath of a package', files: [file('kube/wire.ts', '@kubernetes/client-node', 'node:fs/promises')], problems: 0 },
    { name: 'test-support, from a test', files: [file('kube/a.test.ts', './test-support/fake.js', 'vitest')], problems: 0 },
  ])('a shipped import of $name gives $problems problem(s)', ({ files, problems }) => {
    expect(findShippedTestImports(files)).toHaveLength(problems);
  });

  const complete = (): PackageExports => ({
    './util': { types: './dist/util/index.d.ts', default: './dist/util/index.js' },
    './kube': { types: './dist/kube/index.d.ts', default: './dist/kube/index.js' },
    './cloud': { types: './dist/cloud/index.d.ts', default: './dist/cloud/index.js' },
    './app': { types: './dist/app/index.d.ts', default: './dist/app/index.js' },
    './package.json': './package.json',
  });
  const tree = (...extra: SourceFile[]): SourceFile[] => [
    file('util/index.ts'),
    file('kube/index.ts', './ports.js'),
    file('kube/ports.ts'),
    file('cloud/index.ts'),
    file('app/index.ts'),
    ...extra,
  ];

  it('accepts a complete layout', () => {
    expect(findSubpathProblems(complete(), tree(), layers)).toEqual([]);
  });

  it('accepts an internal area: no subpath, no index', () => {
    const exports = complete();
    delete exports['./cloud'];
    expect(findSubpathProblems(exports, tree().filter((source) => source.path !== 'cloud/index.ts'), layers)).toEqual([]);
  });

  it.each([
    { name: 'a subpath that is no area', change: (exports: PackageExports) => (exports['./in-memory'] = './dist/in-memory/index.js'), files: tree(), problem: 'subpath ./in-memory is not an area of the layers' },
    { name: 'a subpath pointing elsewhere', change: (exports: PackageExports) => (exports['./kube'] = { default: './dist/kube/ports.js' }), files: tree(), problem: './kube must point at ./dist/kube/index.js (and index.d.ts)' },
    {
      name: 'test-only code behind a subpath',
      change: () => undefined,
      files: [...tree().filter((source) => source.path !== 'kube/ports.ts'), file('kube/ports.ts', './test-support/in-memory.js'), file('kube/test-support/in-memory.ts')],
      problem: 'test-only code is reachable from @ccm/core/kube',
    },
    { name: 'a root export', change: (exports: PackageExports) => (exports['.'] = { default: './dist/index.js' }), files: tree(), problem: 'the root export "." is gone for good: import from @ccm/core/<area>' },
    { name: 'a subpath without its index', change: () => undefined, files: tree().filter((source) => source.path !== 'cloud/index.ts'), problem: 'subpath ./cloud has no cloud/index.ts' },
    { name: 'an index without its subpath', change: (exports: PackageExports) => delete exports['./cloud'], files: tree(), problem: 'area "cloud" has an index.ts but no subpath export ./cloud: add the subpath or remove the index' },
  ])('reports $name', ({ change, files, problem }) => {
    const exports = complete();
    change(exports);
    expect(findSubpathProblems(exports, files, layers).map((found) => found.problem)).toContain(problem);
  });

  it.each([
    ['cloud/coalescer.test.ts', true],
    ['app/test-support/command-harness.ts', true],
    ['controllers/test-support/fake-cloud.ts', true],
    ['controllers/node/cloud-node-controller.ts', false],
    ['kube/client-node/to-kube-api-error.ts', false],
  ])('%s is test-only: %s', (path, expected) => {
    expect(isTestOnly(path)).toBe(expected);
  });

  it('finds static, side-effect and dynamic imports', () => {
    const text = "/** e.g. `import x from './no.js'` */\nimport { a } from './a.js';\n// import { n } from './neither.js';\nimport type { B } from '../b.js';\nexport * from './c.js';\nimport './d.js';\nconst e = await import('./e.js');";
    expect(importSpecifiers(text)).toEqual([
      './a.js',
      '../b.js',
      './c.js',
      './d.js',
      './e.js',
    ]);
  });
});
