import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * Tests import these workspace packages from their sources, so that one test process holds one
 * instance of each module: core's own tests use the in-memory kube of `@ccm/testing/kube`, which
 * itself imports `@ccm/core/*`; resolved to dist, those would be a second copy of core (another
 * `KubeApiError` class, another registry of metrics). The aliases follow each package's
 * `exports` (`./dist/<path>.js` -> `./src/<path>.ts`), so a new subpath needs no change here.
 */
const SOURCE_PACKAGES = ['packages/core', 'packages/testing'];

function sourceAliases(): Array<{ find: RegExp; replacement: string }> {
  const aliases: Array<{ find: RegExp; replacement: string }> = [];
  for (const directory of SOURCE_PACKAGES) {
    const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as { name: string; exports: Record<string, string | { default: string }> };
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      const built = typeof target === 'string' ? target : target.default;
      if (!built.startsWith('./dist/') || !built.endsWith('.js')) continue;
      const specifier = subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;
      const source = `./src/${built.slice('./dist/'.length, -'.js'.length)}.ts`;
      aliases.push({ find: new RegExp(`^${specifier.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`), replacement: resolve(directory, source) });
    }
  }
  return aliases;
}

export default defineConfig({
  resolve: { alias: sourceAliases() },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'providers/*/src/**/*.test.ts',
      'providers/*/test/**/*.test.ts',
      'e2e/src/**/*.test.ts',
      'manifests/**/*.test.ts',
      'scripts/**/*.test.ts',
      'charts/**/*.test.ts',
      'docs/*.test.ts',
    ],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 20_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
