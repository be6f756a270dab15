/**
 * The layout rules of @ccm/core, as data and checks (used by `core-layout.test.ts`):
 *
 * - Areas (the folders under `src/`) stand in layers. A file may import (relatively) files of its
 *   own area and of areas in lower layers only; areas of one layer do not import each other.
 * - `src/` holds areas only: there is no root entry (`@ccm/core` alone names nothing). An area
 *   that providers or tools use is one subpath export (`@ccm/core/<area>`) with an `index.ts`, its
 *   face; an area nothing outside core uses has neither (its files are core's own).
 * - Test-only code (`*.test.ts` next to its code, shared test code in `test-support/`) is reachable from no subpath, is
 *   imported by no shipped file, and shipped files import no test package nor a private path of
 *   another package (`pkg/dist/...`).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';

/** Lowest first. */
export const CORE_LAYERS: ReadonlyArray<readonly string[]> = [
  ['util', 'net', 'api', 'names'],
  ['logging', 'metrics'],
  ['config', 'kube', 'cloud'],
  ['provider'],
  ['node-helpers', 'service-input'],
  ['controllers'],
  ['app'],
];

/** Files directly in `src/`: none are allowed (core has no root entry). */
export const ROOT_AREA = '(root)';

/** Packages only tests may import. */
export const TEST_PACKAGES: readonly string[] = ['vitest', '@ccm/testing', '@ccm/kube-emulator'];

export interface SourceFile {
  /** Relative to `src/`, with `/` separators: `cloud/coalescer.ts`. */
  path: string;
  /** Import specifiers as written. */
  specifiers: string[];
}

export interface LayoutProblem {
  file: string;
  problem: string;
}

export function areaOf(path: string): string {
  const slash = path.indexOf('/');
  return slash === -1 ? ROOT_AREA : path.slice(0, slash);
}

export function layerOf(area: string, layers: ReadonlyArray<readonly string[]> = CORE_LAYERS): number | undefined {
  const index = layers.findIndex((layer) => layer.includes(area));
  return index === -1 ? undefined : index;
}

export function isTestOnly(path: string): boolean {
  return /\.test\.ts$/.test(path) || /(^|\/)test-support\//.test(path);
}

const IMPORT_PATTERNS = [/\bfrom\s+'([^']+)'/g, /\bimport\s+'([^']+)'/g, /\bimport\(\s*'([^']+)'\s*\)/g];

/** Block comments and whole-line comments (which may quote import lines) are not imports. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

export function importSpecifiers(text: string): string[] {
  const code = withoutComments(text);
  const specifiers: string[] = [];
  for (const pattern of IMPORT_PATTERNS) for (const match of code.matchAll(pattern)) specifiers.push(match[1] as string);
  return specifiers;
}

/** The `src/`-relative file a relative specifier of `from` names (`./x.js` -> `x.ts`). */
export function resolveRelative(from: string, specifier: string): string {
  return posix.normalize(posix.join(posix.dirname(from), specifier)).replace(/\.js$/, '.ts');
}

export function readSources(sourceDirectory: string): SourceFile[] {
  const files: SourceFile[] = [];
  const walk = (directory: string): void => {
    for (const name of readdirSync(directory).sort()) {
      const full = join(directory, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) {
        files.push({ path: relative(sourceDirectory, full).split(sep).join('/'), specifiers: importSpecifiers(readFileSync(full, 'utf8')) });
      }
    }
  };
  walk(sourceDirectory);
  return files;
}

/** Shipped files that import an area of the same or a higher layer (or an area with no layer). */
export function findUpwardImports(files: readonly SourceFile[], layers: ReadonlyArray<readonly string[]> = CORE_LAYERS): LayoutProblem[] {
  const problems: LayoutProblem[] = [];
  for (const file of files) {
    if (isTestOnly(file.path)) continue;
    const area = areaOf(file.path);
    const layer = layerOf(area, layers);
    if (layer === undefined) {
      problems.push({ file: file.path, problem: area === ROOT_AREA ? 'a file directly in src/: core has no root entry, put it in an area' : `area "${area}" has no layer` });
      continue;
    }
    for (const specifier of file.specifiers) {
      if (!specifier.startsWith('.')) continue;
      const target = resolveRelative(file.path, specifier);
      const targetArea = areaOf(target);
      if (targetArea === area) continue;
      const targetLayer = layerOf(targetArea, layers);
      if (targetLayer === undefined || targetLayer >= layer) {
        problems.push({ file: file.path, problem: `imports ${target}: "${area}" (layer ${layer}) may not import "${targetArea}" (layer ${targetLayer ?? 'none'})` });
      }
    }
  }
  return problems;
}

/** Shipped files that import test-only files, test packages or a private path of a package. */
export function findShippedTestImports(files: readonly SourceFile[], testPackages: readonly string[] = TEST_PACKAGES): LayoutProblem[] {
  const problems: LayoutProblem[] = [];
  for (const file of files) {
    if (isTestOnly(file.path)) continue;
    for (const specifier of file.specifiers) {
      if (specifier.startsWith('.')) {
        const target = resolveRelative(file.path, specifier);
        if (isTestOnly(target)) problems.push({ file: file.path, problem: `imports test-only ${target}` });
      } else if (testPackages.some((name) => specifier === name || specifier.startsWith(`${name}/`))) {
        problems.push({ file: file.path, problem: `imports the test package ${specifier}` });
      } else if (/(^|\/)(dist|src|lib)\//.test(specifier)) {
        problems.push({ file: file.path, problem: `imports the private path ${specifier}` });
      }
    }
  }
  return problems;
}

/** Every file reachable from `entry` through relative imports. */
export function reachableFrom(entry: string, files: readonly SourceFile[]): Set<string> {
  const byPath = new Map(files.map((file) => [file.path, file]));
  const reached = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const path = pending.pop() as string;
    if (reached.has(path)) continue;
    reached.add(path);
    for (const specifier of byPath.get(path)?.specifiers ?? []) if (specifier.startsWith('.')) pending.push(resolveRelative(path, specifier));
  }
  return reached;
}

export interface PackageExports {
  [subpath: string]: string | { types?: string; default?: string };
}

/**
 * Subpath problems: no root export; every subpath `./<area>` is an area of the layers pointing at
 * its built `index`, and the area has its `index.ts`; an area without a subpath has no
 * `index.ts` (a face nobody can import); nothing test-only is reachable from a subpath.
 */
export function findSubpathProblems(exportsField: PackageExports, files: readonly SourceFile[], layers: ReadonlyArray<readonly string[]> = CORE_LAYERS): LayoutProblem[] {
  const problems: LayoutProblem[] = [];
  const areas = layers.flat();
  if (exportsField['.'] !== undefined) problems.push({ file: 'package.json', problem: 'the root export "." is gone for good: import from @ccm/core/<area>' });
  const subpaths = Object.keys(exportsField).filter((subpath) => subpath !== '.' && subpath !== './package.json');
  for (const subpath of subpaths) {
    const area = subpath.slice(2);
    if (!areas.includes(area)) {
      problems.push({ file: 'package.json', problem: `subpath ${subpath} is not an area of the layers` });
      continue;
    }
    const entry = exportsField[subpath] as PackageExports[string];
    const target = typeof entry === 'string' ? { default: entry } : entry;
    if (target.default !== `./dist/${area}/index.js` || (target.types !== undefined && target.types !== `./dist/${area}/index.d.ts`)) {
      problems.push({ file: 'package.json', problem: `${subpath} must point at ./dist/${area}/index.js (and index.d.ts)` });
    }
    if (!files.some((file) => file.path === `${area}/index.ts`)) problems.push({ file: `${area}/index.ts`, problem: `subpath ${subpath} has no ${area}/index.ts` });
  }
  for (const area of areas) {
    if (!subpaths.includes(`./${area}`) && files.some((file) => file.path === `${area}/index.ts`)) {
      problems.push({ file: `${area}/index.ts`, problem: `area "${area}" has an index.ts but no subpath export ./${area}: add the subpath or remove the index` });
    }
  }
  for (const subpath of subpaths) {
    const area = subpath.slice(2);
    if (!areas.includes(area)) continue;
    for (const path of reachableFrom(`${area}/index.ts`, files)) {
      if (isTestOnly(path)) problems.push({ file: path, problem: `test-only code is reachable from @ccm/core/${area}` });
    }
  }
  return problems;
}

/** `src/` of @ccm/core, from this file. */
export function coreSourceDirectory(): string {
  return dirname(dirname(new URL(import.meta.url).pathname));
}
