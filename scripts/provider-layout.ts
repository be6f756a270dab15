// The anatomy every provider shares (docs/adding-a-provider.md), checked by
// scripts/provider-layout.test.ts for every folder under providers/: the same files, in the same
// places, under the same names, so that a reader who knows one provider knows them all.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** What a provider may depend on besides its cloud SDK: everything else is the SDK, sealed in `src/ports/sdk/`. */
export const KIT_PACKAGES: readonly string[] = ['@ccm/core', '@ccm/testing', '@ccm/kube-emulator', '@kubernetes/client-node', 'yaml'];

/** The packages of test-infrastructure/: a provider's tests use them (devDependencies), what it ships does not. */
export const TEST_INFRASTRUCTURE_PACKAGES: readonly string[] = ['@ccm/testing', '@ccm/kube-emulator', '@ccm/azure-simulator', '@ccm/gce-simulator', '@ccm/openstack-services'];

/** The targets providers/provider.mk defines for every provider. */
export const SHARED_MAKE_TARGETS: readonly string[] = ['build', 'test', 'bundle', 'docs', 'image'];

/** Every provider's `docs` script: the one generator, on this provider. */
export const DOCS_SCRIPT = 'node ../../scripts/generate-docs.mjs .';

/** `providers/cloud-provider-aws` -> `aws`; undefined for a folder not named `cloud-provider-<cloud>`. */
export function cloudOfProviderFolder(folder: string): string | undefined {
  return /^cloud-provider-([a-z][a-z0-9]*)$/.exec(folder)?.[1];
}

interface PackageManifest {
  name?: string;
  scripts?: Record<string, string>;
  exports?: Record<string, unknown>;
  dependencies?: Record<string, string>;
  image?: { name?: unknown; description?: unknown; ports?: unknown };
}

/** The provider being checked, read once. */
interface ProviderFolder {
  directory: string;
  cloud: string;
  manifest: PackageManifest | undefined;
}

interface Requirement {
  /** What is required, as the problem names it. */
  what: string;
  /** Undefined when met, else why not. */
  check(provider: ProviderFolder): string | undefined;
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

/** The files below `directory` (recursively), relative to it with `/` separators. */
export function filesBelow(directory: string): string[] {
  if (!existsSync(directory) || !statSync(directory).isDirectory()) return [];
  const files: string[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) files.push(relative(directory, join(entry.parentPath, entry.name)).split(sep).join('/'));
  }
  return files.sort();
}

const file = (path: (cloud: string) => string, why = ''): Requirement => ({
  what: path('<cloud>'),
  check: ({ directory, cloud }) => (isFile(join(directory, path(cloud))) ? undefined : `${path(cloud)} is missing${why}`),
});

const folder = (path: string, why: string): Requirement => ({
  what: `${path}/`,
  check: ({ directory }) => (filesBelow(join(directory, path)).some((name) => name.endsWith('.ts')) ? undefined : `${path}/ has no TypeScript file (${why})`),
});

/** `test:` and `bundle:` rules, not `VARIABLE := ...` assignments. */
export function makefileTargets(text: string): Set<string> {
  const targets = new Set<string>();
  for (const line of text.split('\n')) {
    const match = /^([A-Za-z0-9_.-]+(?:\s+[A-Za-z0-9_.-]+)*)\s*:(?!=)/.exec(line);
    if (match !== null) for (const target of (match[1] ?? '').split(/\s+/)) targets.add(target);
  }
  return targets;
}

/** Port files: `src/ports/<thing>-port.ts` declaring `interface <Thing>Port`. */
export function portFiles(directory: string): string[] {
  const ports = join(directory, 'src', 'ports');
  if (!existsSync(ports)) return [];
  return readdirSync(ports)
    .filter((name) => name.endsWith('-port.ts') && /export interface \w+Port\b/.test(readFileSync(join(ports, name), 'utf8')))
    .sort();
}

/** The module specifiers a TypeScript file imports or re-exports. */
export function importedModules(text: string): string[] {
  const modules: string[] = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g)) modules.push(match[1] ?? '');
  for (const match of text.matchAll(/(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g)) modules.push(match[1] ?? '');
  for (const match of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) modules.push(match[1] ?? '');
  return modules;
}

/** `@aws-sdk/client-ec2/dist/x` -> `@aws-sdk/client-ec2`; `yaml` -> `yaml`. */
function packageOfSpecifier(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

/** Tests against the provider's cloud for tests (a simulator, moto, vcsim, real services), by their suffix. */
const SIMULATOR_TEST = /\.(simulator|moto|integration)\.test\.ts$/;

/**
 * The test folder convention (docs/adding-a-provider.md, "Tests"), over the files below `test/`:
 * test/simulator/ holds only tests, test/support/ and test/fakes/ none, a simulator-backed test is
 * in test/simulator/, and the one helper file directly in test/ is helpers.ts.
 */
export function testFolderProblems(testFiles: readonly string[]): string | undefined {
  const problems: string[] = [];
  for (const name of testFiles.filter((candidate) => candidate.endsWith('.ts'))) {
    const isTest = name.endsWith('.test.ts');
    const folder = name.includes('/') ? name.slice(0, name.indexOf('/')) : '';
    if (folder === '' && !isTest && name !== 'helpers.ts') problems.push(`test/${name}: the one helper file directly in test/ is test/helpers.ts (shared test code goes to test/support/)`);
    else if (folder === 'simulator' && !isTest) problems.push(`test/${name}: test/simulator/ holds only tests (launchers and seeders go to test/support/)`);
    else if ((folder === 'support' || folder === 'fakes') && isTest) problems.push(`test/${name}: test/${folder}/ holds no test`);
    else if (SIMULATOR_TEST.test(name) && folder !== 'simulator' && folder !== 'e2e') problems.push(`test/${name}: a test against the cloud for tests goes to test/simulator/`);
  }
  return problems.length === 0 ? undefined : problems.join('; ');
}

export const PROVIDER_REQUIREMENTS: readonly Requirement[] = [
  {
    what: 'package.json',
    check: ({ manifest }) => (manifest === undefined ? 'package.json is missing or not JSON' : undefined),
  },
  file(() => 'src/cloud-controller-manager/main.ts', ' (the bin)'),
  file((cloud) => `src/${cloud}-cloud.ts`, ' (the composition root)'),
  folder('src/config', 'the cloud-config schema and reader'),
  folder('src/operations', 'the cloud-side steps and planners'),
  folder('src/ports', 'the narrow interfaces in front of the cloud API'),
  folder('src/ports/sdk', 'the adapters of the ports over the cloud SDK'),
  {
    what: 'test/fakes/fake-<thing>.ts for every src/ports/<thing>-port.ts',
    check: ({ directory }) => {
      const ports = portFiles(directory);
      if (ports.length === 0) return 'src/ports/ declares no port (a `<thing>-port.ts` exporting `interface <Thing>Port`)';
      const missing = ports.map((port) => `test/fakes/fake-${port.slice(0, -'-port.ts'.length)}.ts`).filter((fake) => !isFile(join(directory, fake)));
      return missing.length === 0 ? undefined : `one fake per port: ${missing.join(', ')} missing`;
    },
  },
  {
    what: 'the test folders: tests against the cloud for tests in test/simulator/, shared test code in test/support/ and test/helpers.ts',
    check: ({ directory }) => testFolderProblems(filesBelow(join(directory, 'test'))),
  },
  file((cloud) => `test/conformance/${cloud}-driver.ts`, ' (the conformance driver)'),
  file(() => 'test/conformance/index.ts', ' (the `./conformance` entry)'),
  file(() => 'tsconfig.conformance.json', ' (builds test/conformance to dist-test/)'),
  {
    what: 'package.json exports "./conformance"',
    check: ({ manifest }) => {
      const entry = manifest?.exports?.['./conformance'] as { default?: unknown } | undefined;
      return entry?.default === './dist-test/conformance/index.js' ? undefined : 'package.json exports no "./conformance" entry at ./dist-test/conformance/index.js';
    },
  },
  {
    // The root Dockerfile and `pnpm image build` read the image's name, description and ports here.
    what: 'package.json "image" block (name, description, ports)',
    check: ({ cloud, manifest }) => {
      const image = manifest?.image;
      if (image === undefined) return 'package.json has no "image" block (name, description, ports) for the image build';
      if (image.name !== `ghcr.io/ccm-ts/${cloud}-cloud-controller-manager`) return `package.json "image.name" must be ghcr.io/ccm-ts/${cloud}-cloud-controller-manager`;
      if (typeof image.description !== 'string' || image.description === '') return 'package.json "image.description" is missing';
      return Array.isArray(image.ports) && image.ports.length > 0 ? undefined : 'package.json "image.ports" is missing (e.g. ["10258/tcp"])';
    },
  },
  {
    // The shared targets (build, test, bundle, docs, image) live once, in providers/provider.mk.
    what: 'Makefile setting CLOUD and including ../provider.mk',
    check: ({ directory, cloud }) => {
      const path = join(directory, 'Makefile');
      if (!isFile(path)) return 'Makefile is missing';
      const text = readFileSync(path, 'utf8');
      if (!new RegExp(`^CLOUD\\s*:?=\\s*${cloud}\\s*$`, 'm').test(text)) return `Makefile does not set CLOUD := ${cloud}`;
      if (!/^include\s.*\.\.\/provider\.mk\s*$/m.test(text)) return 'Makefile does not include ../provider.mk (the shared build, test, bundle, docs and image targets)';
      const repeated = [...makefileTargets(text)].filter((target) => SHARED_MAKE_TARGETS.includes(target));
      return repeated.length === 0 ? undefined : `Makefile redefines the shared target(s) ${repeated.join(', ')} of ../provider.mk`;
    },
  },
  file(() => 'README.md'),
  file(() => 'docs/cloud-controller-manager.md', ' (KEP: flags, config keys and annotations)'),
  file(() => 'docs/getting-started.md', ' (KEP)'),
  file(() => 'docs/testing.md', ' (KEP)'),
  {
    // scripts/generate-docs.mjs finds the renderer by this name and calls its referenceDocs().
    what: 'src/docs/render-<cloud>-reference.ts exporting referenceDocs()',
    check: ({ directory, cloud }) => {
      const path = join(directory, 'src', 'docs', `render-${cloud}-reference.ts`);
      if (!isFile(path)) return `src/docs/render-${cloud}-reference.ts is missing (renders docs/cloud-controller-manager.md from the typed registries)`;
      return /^export function referenceDocs\(/m.test(readFileSync(path, 'utf8')) ? undefined : `src/docs/render-${cloud}-reference.ts exports no referenceDocs() (the generated pages of docs/, by file name)`;
    },
  },
  {
    what: 'package.json script "docs" running the one generator',
    check: ({ manifest }) => (manifest?.scripts?.['docs'] === DOCS_SCRIPT ? undefined : `package.json has no "docs" script \`${DOCS_SCRIPT}\``),
  },
  {
    what: 'no docs generator of its own',
    check: ({ directory }) => (isFile(join(directory, 'src', 'docs', 'generate-docs.ts')) ? 'src/docs/generate-docs.ts: the one generator is scripts/generate-docs.mjs; give it referenceDocs() instead' : undefined),
  },
  {
    what: 'no test infrastructure in package.json "dependencies" (devDependencies only)',
    check: ({ manifest }) => {
      const shipped = Object.keys(manifest?.dependencies ?? {}).filter((name) => TEST_INFRASTRUCTURE_PACKAGES.includes(name));
      return shipped.length === 0 ? undefined : `package.json "dependencies" names test infrastructure (${shipped.join(', ')}): make it a devDependency, the provider ships without it`;
    },
  },
  {
    what: 'the cloud SDK imported only under src/ports/sdk/',
    check: ({ directory, manifest }) => {
      const sdk = Object.keys(manifest?.dependencies ?? {}).filter((name) => !KIT_PACKAGES.includes(name));
      if (sdk.length === 0) return undefined;
      const leaks: string[] = [];
      for (const name of filesBelow(join(directory, 'src'))) {
        if (!name.endsWith('.ts') || name.startsWith('ports/sdk/')) continue;
        const imported = importedModules(readFileSync(join(directory, 'src', name), 'utf8')).map(packageOfSpecifier);
        for (const module of new Set(imported.filter((specifier) => sdk.includes(specifier)))) leaks.push(`src/${name} imports ${module}`);
      }
      return leaks.length === 0 ? undefined : `the cloud SDK leaks out of src/ports/sdk/: ${leaks.join('; ')}`;
    },
  },
];

/** Every problem of one provider folder (empty when it has the whole anatomy). */
export function checkProviderLayout(directory: string, folderName = directory.split(sep).at(-1) ?? directory): string[] {
  const cloud = cloudOfProviderFolder(folderName);
  if (cloud === undefined) return [`${folderName}: a provider folder is named cloud-provider-<cloud> (lower-case letters and digits)`];
  let manifest: PackageManifest | undefined;
  try {
    manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as PackageManifest;
  } catch {
    manifest = undefined;
  }
  const provider: ProviderFolder = { directory, cloud, manifest };
  return PROVIDER_REQUIREMENTS.map((requirement) => requirement.check(provider)).filter((problem): problem is string => problem !== undefined);
}

/** The provider folders under `<root>/providers`. */
export function providerFolders(root: string): string[] {
  const providers = join(root, 'providers');
  return readdirSync(providers, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}
