// docs/adding-a-provider.md matches the code: every repository path it names exists (a path with
// `<cloud>` is one `pnpm create-provider` writes, checked on the rendered templates), so does every
// entry of its anatomy tree, every `@ccm/...` import path is an export of its package, and every
// helper of its "Shared helpers" table is exported (value or type) by the import path it is listed under.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { chartLinks, renderTemplates } from '../scripts/create-provider/create-provider.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const guide = readFileSync(join(root, 'docs', 'adding-a-provider.md'), 'utf8');
const CLOUD = 'example';

/** What `pnpm create-provider example` writes: the rendered templates, the chart's links, the generated reference, the edited shared files. */
const scaffolded = new Set<string>([
  ...(renderTemplates(CLOUD) as Map<string, string>).keys(),
  ...(chartLinks(CLOUD) as Map<string, string>).keys(),
  `providers/cloud-provider-${CLOUD}/docs/cloud-controller-manager.md`,
  'Dockerfile',
  'e2e/package.json',
  'e2e/tsconfig.json',
]);

const substitute = (path: string): string => path.replaceAll('<thing>', `${CLOUD}-cloud`).replaceAll('<cloud>', CLOUD).replaceAll('<Cloud>', 'Example');

/** A file the scaffold writes, or a folder holding one. */
function scaffoldHas(path: string): boolean {
  const wanted = substitute(path);
  return scaffolded.has(wanted) || [...scaffolded].some((file) => file.startsWith(wanted.endsWith('/') ? wanted : `${wanted}/`));
}

/** The guide without its fenced blocks. */
const prose = guide.replace(/^```[\s\S]*?^```$/gm, '');
const codeSpans = [...prose.matchAll(/`([^`\n]+)`/g)].map((match) => match[1] ?? '');

const REPOSITORY_PATH = /^(providers|packages|test-infrastructure|scripts|docs|manifests|charts|e2e|\.ci)\/[\w.<>/-]*$|^Dockerfile$/;
/** Paths inside the provider's folder (`src/<cloud>-cloud.ts`, `test/fakes/`, `ports/<thing>-port.ts`, its `docs/...`). */
const PROVIDER_PATH = /^(src|test|ports|operations|config|docs)\/[\w.<>/-]*$/;
const PROVIDER_FOLDER = 'providers/cloud-provider-<cloud>/';

describe('docs/adding-a-provider.md', () => {
  const providerPaths = [...new Set(codeSpans.filter((span) => PROVIDER_PATH.test(span) && !existsSync(join(root, span))))];
  const paths = [...new Set(codeSpans.filter((span) => REPOSITORY_PATH.test(span) && !providerPaths.includes(span)))];

  it('names repository paths', () => {
    expect(paths.length).toBeGreaterThan(30);
  });

  it.each(paths)('%s exists (or is written by pnpm create-provider)', (path) => {
    if (path.includes('<')) expect(scaffoldHas(path), `pnpm create-provider ${CLOUD} writes no ${substitute(path)}`).toBe(true);
    else expect(existsSync(join(root, path)), `${path} does not exist`).toBe(true);
  });

  it.each(providerPaths)('%s is in the provider pnpm create-provider writes', (path) => {
    const inProvider = path.startsWith('src/') || path.startsWith('test/') || path.startsWith('docs/') ? `${PROVIDER_FOLDER}${path}` : `${PROVIDER_FOLDER}src/${path}`;
    expect(scaffoldHas(inProvider), `pnpm create-provider ${CLOUD} writes no ${substitute(inProvider)}`).toBe(true);
  });

  it('lists in its anatomy tree exactly what pnpm create-provider writes into the workspace', () => {
    const tree = /^```text\n(providers\/cloud-provider-<cloud>\/\n[\s\S]*?)^```$/m.exec(guide)?.[1];
    expect(tree, 'the anatomy tree (a ```text block starting with providers/cloud-provider-<cloud>/)').toBeDefined();
    const stack: string[] = [];
    const listed: string[] = [];
    for (const line of tree!.split('\n').filter((candidate) => candidate.trim() !== '')) {
      const indent = line.length - line.trimStart().length;
      const name = line.trim().split(/\s+/)[0]!;
      stack.length = indent / 2;
      const path = `${stack.join('')}${name}`;
      if (name.endsWith('/')) stack.push(name);
      else listed.push(substitute(path));
    }
    const written = [...scaffolded].filter((path) => path.startsWith(`providers/cloud-provider-${CLOUD}/`)).sort();
    expect(listed.sort()).toEqual(written);
  });

  const importPaths = [...new Set([...guide.matchAll(/@ccm\/[a-z0-9<>-]+(?:\/[a-z0-9-]+)?/g)].map((match) => match[0]))];

  it.each(importPaths)('%s is an export of its package', (specifier) => {
    const [scope, name, subpath] = specifier.split('/');
    const packageName = `${scope}/${substitute(name!)}`;
    const manifest = workspaceManifest(packageName);
    expect(manifest, `no workspace is named ${packageName}`).toBeDefined();
    expect(Object.keys(manifest!.exports ?? {}), `${packageName} exports no ${subpath === undefined ? '"."' : `"./${subpath}"`}`).toContain(subpath === undefined ? '.' : `./${subpath}`);
  });

  const helperRows = helperRowsOf(guide);

  it('has a table of the shared helpers by import path', () => {
    expect(helperRows.map((row) => row.specifier)).toEqual(expect.arrayContaining(['@ccm/core/cloud', '@ccm/core/provider', '@ccm/core/service-input', '@ccm/core/kube', '@ccm/core/config', '@ccm/core/app']));
  });

  it.each(helperRows)('$specifier exports every helper listed under it', { timeout: 60_000 }, ({ specifier, names }) => {
    const exported = exportsOf(specifier);
    expect(names.filter((name) => !exported.has(name)), `not exported by ${specifier}`).toEqual([]);
  });
});

/** The rows of the "Shared helpers" table: an import path and the names listed under it. */
function helperRowsOf(markdown: string): Array<{ specifier: string; names: string[] }> {
  return [...markdown.matchAll(/^\| `(@ccm\/[\w/-]+)` \| (.+) \|$/gm)].map((match) => ({ specifier: match[1]!, names: [...match[2]!.matchAll(/`(\w+)`/g)].map((name) => name[1]!) }));
}

interface WorkspaceManifest {
  name: string;
  exports?: Record<string, string | { types?: string; default: string }>;
}

function workspaceManifest(packageName: string): (WorkspaceManifest & { directory: string }) | undefined {
  if (packageName === `@ccm/cloud-provider-${CLOUD}`) {
    const manifest = JSON.parse((renderTemplates(CLOUD) as Map<string, string>).get(`providers/cloud-provider-${CLOUD}/package.json`)!) as WorkspaceManifest;
    return { ...manifest, directory: join(root, 'providers', `cloud-provider-${CLOUD}`) };
  }
  for (const parent of ['packages', 'test-infrastructure', 'examples', 'providers']) {
    for (const entry of readdirSync(join(root, parent))) {
      const path = join(root, parent, entry, 'package.json');
      if (!existsSync(path)) continue;
      const manifest = JSON.parse(readFileSync(path, 'utf8')) as WorkspaceManifest;
      if (manifest.name === packageName) return { ...manifest, directory: join(root, parent, entry) };
    }
  }
  return undefined;
}

/** The source file of a workspace subpath (`./dist/x/index.js` -> `src/x/index.ts`). */
function sourceOf(specifier: string): string {
  const [scope, name, subpath] = specifier.split('/');
  const manifest = workspaceManifest(`${scope}/${name}`);
  const target = manifest?.exports?.[subpath === undefined ? '.' : `./${subpath}`];
  const built = typeof target === 'string' ? target : target?.default;
  if (manifest === undefined || built === undefined) throw new Error(`${specifier} is not an export`);
  return join(manifest.directory, built.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'));
}

let checked: { program: ts.Program; checker: ts.TypeChecker } | undefined;

/** The names (values and types) a workspace subpath exports, read by the TypeScript checker from its sources (one program for every row). */
function exportsOf(specifier: string): Set<string> {
  if (checked === undefined) {
    const program = ts.createProgram(
      [...new Set(helperRowsOf(guide).map((row) => sourceOf(row.specifier)))],
      { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2023, noEmit: true, skipLibCheck: true, noResolve: false, types: [] },
    );
    checked = { program, checker: program.getTypeChecker() };
  }
  const file = checked.program.getSourceFile(sourceOf(specifier));
  const symbol = file === undefined ? undefined : checked.checker.getSymbolAtLocation(file);
  if (symbol === undefined) throw new Error(`${sourceOf(specifier)} is not a module`);
  return new Set(checked.checker.getExportsOfModule(symbol).map((exported) => exported.getName()));
}
