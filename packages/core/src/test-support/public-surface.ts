/**
 * The public surface of @ccm/core, read from the sources (used by `public-surface.test.ts`): the
 * subpaths of package.json `exports` and, per subpath, the names its `index.ts` exports. An index
 * lists its names (`export { name, type Name } from './file.js'`); `export *` and anything else
 * that is not a named re-export is a problem, so every public name is written once, in the diff.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import type { PackageExports } from './core-layout.js';

export interface SubpathSurface {
  /** `api`, `cloud`, ... (the area). */
  subpath: string;
  /** Exported names, sorted. */
  names: string[];
  /** `file:line: what` for each statement that is not a named re-export. */
  problems: string[];
}

/** The names one index exports, and what in it is not a named re-export. */
export function readIndexSurface(fileName: string, text: string): { names: string[]; problems: string[] } {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const names: string[] = [];
  const problems: string[] = [];
  const where = (node: ts.Node): string => `${fileName}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement) && statement.exportClause !== undefined && ts.isNamedExports(statement.exportClause) && statement.moduleSpecifier !== undefined) {
      for (const element of statement.exportClause.elements) names.push(element.name.text);
    } else if (ts.isExportDeclaration(statement) && statement.exportClause === undefined) {
      problems.push(`${where(statement)}: export * re-exports whatever the module holds: list the names`);
    } else if (ts.isExportDeclaration(statement) && statement.exportClause !== undefined && ts.isNamespaceExport(statement.exportClause)) {
      problems.push(`${where(statement)}: export * as ${statement.exportClause.name.text} re-exports a whole module: list the names`);
    } else {
      problems.push(`${where(statement)}: an index only re-exports names from the area's files (export { name } from './file.js')`);
    }
  }
  return { names: names.sort(compareNames), problems };
}

/** Case-insensitive, then exact: `CloudApiError` next to `cloudProviders`, stable. */
export function compareNames(left: string, right: string): number {
  const folded = left.toLowerCase().localeCompare(right.toLowerCase(), 'en');
  return folded !== 0 ? folded : left < right ? -1 : left > right ? 1 : 0;
}

/** Every subpath of `exports` (not `./package.json`) with its index's names. */
export function readPublicSurface(packageDirectory: string): SubpathSurface[] {
  const manifest = JSON.parse(readFileSync(join(packageDirectory, 'package.json'), 'utf8')) as { exports: PackageExports };
  const surfaces: SubpathSurface[] = [];
  for (const key of Object.keys(manifest.exports).sort()) {
    if (key === './package.json' || !key.startsWith('./')) continue;
    const subpath = key.slice(2);
    const indexPath = join('src', subpath, 'index.ts');
    const { names, problems } = readIndexSurface(indexPath, readFileSync(join(packageDirectory, indexPath), 'utf8'));
    surfaces.push({ subpath, names, problems });
  }
  return surfaces;
}

/** The text the snapshot holds: one heading per subpath with its count, then its names. */
export function renderPublicSurface(surfaces: readonly SubpathSurface[]): string {
  const total = surfaces.reduce((sum, surface) => sum + surface.names.length, 0);
  const lines = [
    '# The public surface of @ccm/core: every name each subpath exports (count in brackets), from',
    '# the subpaths of packages/core/package.json and their index.ts. Held by public-surface.test.ts;',
    '# after a deliberate change to an index: CI=true npx vitest run packages/core/src/test-support/public-surface.test.ts -u',
    `# subpaths: ${surfaces.length}, names: ${total}`,
  ];
  for (const surface of surfaces) {
    lines.push('', `@ccm/core/${surface.subpath} (${surface.names.length})`);
    for (const name of surface.names) lines.push(`  ${name}`);
  }
  return `${lines.join('\n')}\n`;
}
