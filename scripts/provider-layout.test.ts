// The layout check: every folder under providers/ has the anatomy of docs/adding-a-provider.md
// (scripts/provider-layout.ts), its generated pages of docs/ are what its renderer produces, and e2e reaches providers only through their `./conformance` entry. A complete
// provider written into a temporary folder passes, and loses the check with any one piece gone.
import { mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { renderReferenceDocs } from './generate-docs.mjs';
import { checkProviderLayout, filesBelow, importedModules, makefileTargets, providerFolders } from './provider-layout.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('every provider has the common anatomy', () => {
  const folders = providerFolders(root);

  it('finds the providers', () => {
    expect(folders).toEqual(expect.arrayContaining(['cloud-provider-aws', 'cloud-provider-sandbox', 'cloud-provider-vsphere']));
  });

  it.each(folders)('%s', (folder) => {
    expect(checkProviderLayout(join(root, 'providers', folder))).toEqual([]);
  });

  // The renderer's pages (scripts/generate-docs.mjs finds them the same way) against the committed files.
  it.each(folders)('%s: the generated pages of docs/ are what the renderer produces', async (folder) => {
    const pages = (await renderReferenceDocs(join(root, 'providers', folder), { source: true })) as Record<string, string>;
    expect(Object.keys(pages)).toContain('cloud-controller-manager.md');
    for (const [name, content] of Object.entries(pages)) {
      const stale = `providers/${folder}/docs/${name} is out of date: run \`npx -y pnpm@10.34.8 build && npx -y pnpm@10.34.8 --filter @ccm/${folder} run docs\``;
      expect(readFileSync(join(root, 'providers', folder, 'docs', name), 'utf8'), stale).toBe(content);
    }
  }, 120_000);
});

describe('e2e uses providers only through their conformance entry', () => {
  const manifest = JSON.parse(readFileSync(join(root, 'e2e', 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  const dependencies = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });

  it('depends on no cloud SDK: only the kit, the Kubernetes client, a YAML parser (kubeconfigs, manifests) and provider packages', () => {
    const allowed = (name: string): boolean =>
      ['@ccm/core', '@ccm/testing', '@ccm/kube-emulator', '@kubernetes/client-node', 'yaml'].includes(name) || /^@ccm\/cloud-provider-[a-z0-9]+$/.test(name);
    expect(dependencies.filter((name) => !allowed(name))).toEqual([]);
  });

  it('imports a provider package only as @ccm/cloud-provider-<cloud>/conformance, and nothing under providers/ by path', () => {
    const offending: string[] = [];
    for (const name of filesBelow(join(root, 'e2e', 'src')).filter((file) => file.endsWith('.ts'))) {
      for (const specifier of importedModules(readFileSync(join(root, 'e2e', 'src', name), 'utf8'))) {
        const providerPackage = specifier.startsWith('@ccm/cloud-provider-') && !/^@ccm\/cloud-provider-[a-z0-9]+\/conformance$/.test(specifier);
        if (providerPackage || specifier.includes('providers/') || specifier === '@ccm/vsphere-client') offending.push(`e2e/src/${name}: ${specifier}`);
      }
    }
    expect(offending).toEqual([]);
  });
});

/** A minimal provider `cloud-provider-acme` with every piece of the anatomy. */
const COMPLETE_PROVIDER: Readonly<Record<string, string>> = {
  'package.json': JSON.stringify({
    name: '@ccm/cloud-provider-acme',
    scripts: { build: 'tsc -b tsconfig.json tsconfig.conformance.json', docs: 'node ../../scripts/generate-docs.mjs .' },
    exports: { '.': { default: './dist/index.js' }, './conformance': { default: './dist-test/conformance/index.js' } },
    dependencies: { '@ccm/core': 'workspace:*', 'acme-sdk': '^1.0.0' },
    image: { name: 'ghcr.io/ccm-ts/acme-cloud-controller-manager', description: 'Acme cloud controller manager', ports: ['10258/tcp'] },
  }),
  'src/cloud-controller-manager/main.ts': "import { registerAcmeCloudProvider } from '../acme-cloud.js';\n",
  'src/acme-cloud.ts': "import { createSdkWidgetPort } from './ports/sdk/sdk-widget-port.js';\n",
  'src/config/read-acme-config.ts': 'export const config = {};\n',
  'src/operations/widget-operations.ts': "import type { WidgetPort } from '../ports/widget-port.js';\n",
  'src/ports/widget-port.ts': 'export interface WidgetPort {\n  get(id: string): Promise<string>;\n}\n',
  'src/ports/sdk/sdk-widget-port.ts': "import { AcmeClient } from 'acme-sdk';\n",
  'src/docs/render-acme-reference.ts': "export function renderAcmeReference(): string {\n  return '';\n}\n\nexport function referenceDocs(): Record<string, string> {\n  return { 'cloud-controller-manager.md': renderAcmeReference() };\n}\n",
  'test/fakes/fake-widget.ts': "import type { WidgetPort } from '../../src/ports/widget-port.js';\n",
  'test/conformance/acme-driver.ts': 'export class AcmeDriver {}\n',
  'test/conformance/index.ts': "export * from './acme-driver.js';\n",
  'tsconfig.conformance.json': '{}\n',
  Makefile: 'CLOUD := acme\ninclude $(dir $(lastword $(MAKEFILE_LIST)))../provider.mk\n\n.PHONY: test-simulator\n\ntest-simulator: build\n\ttrue\n',
  'README.md': '# acme-cloud-controller-manager\n',
  'docs/cloud-controller-manager.md': '# reference\n',
  'docs/getting-started.md': '# getting started\n',
  'docs/testing.md': '# testing\n',
};

describe('the layout check on a provider missing a piece', () => {
  let directory = '';

  afterEach(() => {
    if (directory !== '') rmSync(directory, { recursive: true, force: true });
    directory = '';
  });

  function writeProvider(files: Readonly<Record<string, string>>): string {
    directory = join(mkdtempSync(join(tmpdir(), 'provider-layout-')), 'cloud-provider-acme');
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(directory, name)), { recursive: true });
      writeFileSync(join(directory, name), text);
    }
    return directory;
  }

  it('passes a complete provider', () => {
    expect(checkProviderLayout(writeProvider(COMPLETE_PROVIDER))).toEqual([]);
  });

  const withoutFile = Object.keys(COMPLETE_PROVIDER)
    .filter((name) => !['src/operations/widget-operations.ts', 'src/ports/widget-port.ts', 'package.json'].includes(name))
    .map((name): [string, (provider: string) => void, RegExp] => [name, (provider) => unlinkSync(join(provider, name)), new RegExp(name.replaceAll('.', '\\.').replace(/^src\/(config|ports\/sdk)\/.*/, 'src/$1/ has no TypeScript file'))]);

  it.each<[string, (provider: string) => void, RegExp]>([
    ...withoutFile,
    ['src/operations/', (provider) => unlinkSync(join(provider, 'src/operations/widget-operations.ts')), /src\/operations\/ has no TypeScript file/],
    ['a port', (provider) => unlinkSync(join(provider, 'src/ports/widget-port.ts')), /src\/ports\/ declares no port/],
    ['the fake of a second port', (provider) => writeFileSync(join(provider, 'src/ports/gadget-port.ts'), 'export interface GadgetPort {}\n'), /one fake per port: test\/fakes\/fake-gadget\.ts missing/],
    ['its cloud in the Makefile', (provider) => writeFileSync(join(provider, 'Makefile'), 'CLOUD := other\ninclude ../provider.mk\n'), /Makefile does not set CLOUD := acme/],
    ['the shared Makefile include', (provider) => writeFileSync(join(provider, 'Makefile'), 'CLOUD := acme\n\ntest:\n\ttrue\n'), /Makefile does not include \.\.\/provider\.mk/],
    ['a shared target of its own', (provider) => writeFileSync(join(provider, 'Makefile'), 'CLOUD := acme\ninclude ../provider.mk\n\nbundle: build\n\ttrue\n'), /Makefile redefines the shared target\(s\) bundle of \.\.\/provider\.mk/],
    ['referenceDocs()', (provider) => writeFileSync(join(provider, 'src/docs/render-acme-reference.ts'), "export function renderAcmeReference(): string {\n  return '';\n}\n"), /exports no referenceDocs\(\)/],
    ['a docs generator of none of its own', (provider) => writeFileSync(join(provider, 'src/docs/generate-docs.ts'), "import { writeFileSync } from 'node:fs';\n"), /the one generator is scripts\/generate-docs\.mjs/],
    ['the conformance export', (provider) => rewriteManifest(provider, (manifest) => delete manifest['exports']), /exports no "\.\/conformance" entry/],
    ['the docs script', (provider) => rewriteManifest(provider, (manifest) => delete manifest['scripts']), /no "docs" script `node \.\.\/\.\.\/scripts\/generate-docs\.mjs \.`/],
    ['the image block', (provider) => rewriteManifest(provider, (manifest) => delete manifest['image']), /no "image" block/],
    ['the image name of its cloud', (provider) => rewriteManifest(provider, (manifest) => (manifest['image'] = { name: 'ghcr.io/ccm-ts/other', description: 'x', ports: ['10258/tcp'] })), /"image\.name" must be ghcr\.io\/ccm-ts\/acme-cloud-controller-manager/],
    ['test infrastructure only in devDependencies', (provider) => rewriteManifest(provider, (manifest) => (manifest['dependencies'] = { '@ccm/core': 'workspace:*', '@ccm/testing': 'workspace:*', 'acme-sdk': '^1.0.0' })), /"dependencies" names test infrastructure \(@ccm\/testing\)/],
    ['one helper file name', (provider) => writeFileSync(join(provider, 'test/acme-fixture.ts'), 'export {};\n'), /test\/acme-fixture\.ts: the one helper file directly in test\/ is test\/helpers\.ts/],
    ['a launcher out of test/simulator/', (provider) => writeProviderFile(provider, 'test/simulator/acme-launcher.ts', 'export {};\n'), /test\/simulator\/acme-launcher\.ts: test\/simulator\/ holds only tests/],
    ['tests out of test/support/', (provider) => writeProviderFile(provider, 'test/support/acme-launcher.test.ts', 'export {};\n'), /test\/support\/acme-launcher\.test\.ts: test\/support\/ holds no test/],
    ['a simulator test in test/simulator/', (provider) => writeProviderFile(provider, 'test/moto/adapters.moto.test.ts', 'export {};\n'), /test\/moto\/adapters\.moto\.test\.ts: a test against the cloud for tests goes to test\/simulator\//],
    ['the seal of the SDK', (provider) => writeFileSync(join(provider, 'src/operations/widget-operations.ts'), "import { AcmeClient } from 'acme-sdk/client';\n"), /leaks out of src\/ports\/sdk\/: src\/operations\/widget-operations\.ts imports acme-sdk/],
  ])('fails without %s', (_piece, breakIt, expected) => {
    const provider = writeProvider(COMPLETE_PROVIDER);
    breakIt(provider);
    const problems = checkProviderLayout(provider);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(expected);
  });

  it('fails a folder not named cloud-provider-<cloud>', () => {
    expect(checkProviderLayout('/tmp/aws-provider')).toEqual(['aws-provider: a provider folder is named cloud-provider-<cloud> (lower-case letters and digits)']);
  });
});

function writeProviderFile(provider: string, name: string, text: string): void {
  mkdirSync(dirname(join(provider, name)), { recursive: true });
  writeFileSync(join(provider, name), text);
}

function rewriteManifest(provider: string, change: (manifest: Record<string, unknown>) => void): void {
  const path = join(provider, 'package.json');
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  change(manifest);
  writeFileSync(path, JSON.stringify(manifest));
}

describe('the readers the check uses', () => {
  it('reads Makefile rule targets, not variable assignments', () => {
    expect([...makefileTargets('ROOT := x\nA = b\n.PHONY: test\ntest bundle: build\n\tpnpm test\nbuild:\n')].sort()).toEqual(['.PHONY', 'build', 'bundle', 'test']);
  });

  it('reads imports, re-exports, side-effect and dynamic imports', () => {
    const text = "import a from 'one';\nimport type { B } from \"two\";\nexport * from './three.js';\nimport 'four';\nconst x = await import('five');\n";
    expect(importedModules(text).sort()).toEqual(['./three.js', 'five', 'four', 'one', 'two']);
  });
});
