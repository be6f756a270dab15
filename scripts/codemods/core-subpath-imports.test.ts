import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without type declarations
import { exportedNames, rewrite } from './core-subpath-imports.mjs';

type Rewrite = (text: string, fileName: string, owners: Map<string, string>, problems: string[]) => string | undefined;
const rewriteImports = rewrite as Rewrite;

const owners = new Map([
  ['CloudProvider', 'provider'],
  ['defineCloudProvider', 'provider'],
  ['composeCloudPort', 'cloud'],
  ['CloudApiBudget', 'cloud'],
  ['Logger', 'logging'],
  ['silentLogger', 'logging'],
  ['V1Node', 'kube'],
]);

function run(text: string): { result: string | undefined; problems: string[] } {
  const problems: string[] = [];
  return { result: rewriteImports(text, 'example.ts', owners, problems), problems };
}

describe('core-subpath-imports', () => {
  it.each([
    {
      name: 'names of several areas become one import per subpath, sorted',
      text: "import { silentLogger, CloudApiBudget, defineCloudProvider } from '@ccm/core';\n",
      expected: "import { CloudApiBudget } from '@ccm/core/cloud';\nimport { silentLogger } from '@ccm/core/logging';\nimport { defineCloudProvider } from '@ccm/core/provider';\n",
    },
    {
      name: 'a type-only import stays type-only',
      text: "import type { CloudProvider, Logger } from '@ccm/core';\n",
      expected: "import type { Logger } from '@ccm/core/logging';\nimport type { CloudProvider } from '@ccm/core/provider';\n",
    },
    {
      name: 'inline type modifiers and aliases are kept',
      text: "import { composeCloudPort as compose, type CloudApiBudget, type Logger, silentLogger } from '@ccm/core';\n",
      expected: "import { composeCloudPort as compose, type CloudApiBudget } from '@ccm/core/cloud';\nimport { type Logger, silentLogger } from '@ccm/core/logging';\n",
    },
    {
      name: 're-exports are split too',
      text: "export { defineCloudProvider, type V1Node } from '@ccm/core';\nexport type { Logger } from '@ccm/core';\n",
      expected: "export type { V1Node } from '@ccm/core/kube';\nexport { defineCloudProvider } from '@ccm/core/provider';\nexport type { Logger } from '@ccm/core/logging';\n",
    },
    {
      name: 'imports of a subpath already, and of other packages, are left alone',
      text: "import { composeCloudPort } from '@ccm/core/cloud';\nimport { x } from '@ccm/core-extra';\n",
      expected: undefined,
    },
  ])('$name', ({ text, expected }) => {
    const { result, problems } = run(text);
    expect(problems).toEqual([]);
    expect(result).toBe(expected);
  });

  it('is safe to run again: a rewritten file does not change', () => {
    const once = run("import { CloudApiBudget, type Logger } from '@ccm/core';\n").result as string;
    expect(run(once).result).toBeUndefined();
  });

  it('breaks a long import over lines, one name a line', () => {
    const long = Array.from({ length: 30 }, (_, index) => `name${index}`);
    const problems: string[] = [];
    const many = new Map(long.map((name) => [name, 'provider']));
    const result = rewriteImports(`import { ${long.join(', ')} } from '@ccm/core';\n`, 'example.ts', many, problems);
    expect(result).toBe(`import {\n${long.map((name) => `  ${name},`).join('\n')}\n} from '@ccm/core/provider';\n`);
  });

  it.each([
    { text: "import * as core from '@ccm/core';\n", problem: "example.ts:1: namespace import of '@ccm/core' left as it is: import names from the subpaths" },
    { text: "import '@ccm/core';\n", problem: "example.ts:1: side-effect import of '@ccm/core' left as it is" },
    { text: "export * from '@ccm/core';\n", problem: "example.ts:1: export * from '@ccm/core' left as it is: re-export the subpaths you mean" },
    { text: "\nimport { CloudProvider, Mystery } from '@ccm/core';\n", problem: 'example.ts:2: no subpath of @ccm/core exports Mystery; left as it is' },
    { text: "const core = await import('@ccm/core');\n", problem: "example.ts:1: dynamic import('@ccm/core') left as it is: name a subpath" },
  ])('reports and leaves: $text', ({ text, problem }) => {
    const { result, problems } = run(text);
    expect(result).toBeUndefined();
    expect(problems).toEqual([problem]);
  });

  it('knows where the names of the real subpaths live (the area that declares them)', () => {
    const real = (exportedNames as () => Map<string, string>)();
    expect(Object.fromEntries(['CloudProvider', 'defineCloudProvider', 'composeCloudPort', 'createMetricsRegistry', 'V1Node', 'LABEL_ZONE', 'Logger', 'MetricsSink', 'CloudConfigError', 'parseGoBool'].map((name) => [name, real.get(name)]))).toEqual({
      CloudProvider: 'provider',
      defineCloudProvider: 'provider',
      composeCloudPort: 'cloud',
      createMetricsRegistry: 'app',
      V1Node: 'kube',
      LABEL_ZONE: 'api',
      Logger: 'logging',
      MetricsSink: 'metrics',
      CloudConfigError: 'config',
      parseGoBool: 'util',
    });
  }, 60_000);
});
