#!/usr/bin/env node
// Rewrites `from '@ccm/core'` imports and re-exports to the subpath of each name's area
// (`@ccm/core/provider`, `@ccm/core/cloud`, ...), reading which name lives where from the
// subpath indexes of packages/core/src (names go to the area that declares them).
//
//   node scripts/codemods/core-subpath-imports.mjs [--check] <folder or file>...
//
// Safe to run again: only imports of exactly '@ccm/core' are touched. --check writes nothing and
// exits 1 when a file would change. Namespace, default and dynamic imports of '@ccm/core', and
// names no subpath exports, are reported and left as they are (exit 1).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT_SPECIFIER = '@ccm/core';
const LINE_WIDTH = 180;
const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs'];
const SKIPPED_DIRECTORIES = new Set(['node_modules', 'dist', 'bundle', '.turbo', '.git', '.test-results']);

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const corePackage = join(repositoryRoot, 'packages', 'core');

/** Subpath (`provider`) -> its index source, from the package's `exports`. */
function coreSubpaths() {
  const manifest = JSON.parse(readFileSync(join(corePackage, 'package.json'), 'utf8'));
  const subpaths = new Map();
  for (const [key, target] of Object.entries(manifest.exports)) {
    if (key === '.' || key === './package.json') continue;
    const built = typeof target === 'string' ? target : target.default;
    subpaths.set(key.slice(2), join(corePackage, built.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')));
  }
  return subpaths;
}

/** Name -> subpath. A name several subpaths export goes to the one whose area declares it. */
export function exportedNames(subpaths = coreSubpaths()) {
  const configPath = join(corePackage, 'tsconfig.json');
  const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => { throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')); } });
  const program = ts.createProgram([...subpaths.values()], { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();
  const sourceRoot = join(corePackage, 'src') + sep;
  const candidates = new Map();
  for (const [subpath, indexPath] of subpaths) {
    const source = program.getSourceFile(indexPath);
    if (source === undefined) throw new Error(`cannot read ${indexPath}`);
    const moduleSymbol = checker.getSymbolAtLocation(source);
    if (moduleSymbol === undefined) continue;
    for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
      const original = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const declaredIn = original.declarations?.[0]?.getSourceFile().fileName ?? '';
      const declaringArea = declaredIn.startsWith(sourceRoot) ? declaredIn.slice(sourceRoot.length).split('/')[0] : undefined;
      const list = candidates.get(symbol.name) ?? [];
      list.push({ subpath, declares: declaringArea === subpath });
      candidates.set(symbol.name, list);
    }
  }
  const owners = new Map();
  for (const [name, list] of candidates) {
    const declaring = list.find((candidate) => candidate.declares);
    owners.set(name, (declaring ?? [...list].sort((left, right) => left.subpath.localeCompare(right.subpath))[0]).subpath);
  }
  return owners;
}

function* sourceFiles(path) {
  const stats = statSync(path);
  if (stats.isFile()) {
    if (SOURCE_EXTENSIONS.some((extension) => path.endsWith(extension)) && !path.endsWith('.d.ts')) yield path;
    return;
  }
  for (const name of readdirSync(path).sort()) {
    if (SKIPPED_DIRECTORIES.has(name)) continue;
    yield* sourceFiles(join(path, name));
  }
}

function formatDeclaration(keyword, typeOnly, specifiers, subpath) {
  const head = `${keyword} ${typeOnly ? 'type ' : ''}`;
  const tail = ` from '${ROOT_SPECIFIER}/${subpath}';`;
  const single = `${head}{ ${specifiers.join(', ')} }${tail}`;
  if (single.length <= LINE_WIDTH) return single;
  return `${head}{\n${specifiers.map((specifier) => `  ${specifier},`).join('\n')}\n}${tail}`;
}

/** The new text of `text`, or undefined when nothing changes; problems are pushed. */
export function rewrite(text, fileName, owners, problems) {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const edits = [];
  const report = (node, message) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    problems.push(`${fileName}:${line + 1}: ${message}`);
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
      const specifier = node.moduleSpecifier;
      if (specifier !== undefined && ts.isStringLiteral(specifier) && specifier.text === ROOT_SPECIFIER) {
        const edit = ts.isImportDeclaration(node) ? importEdit(node) : exportEdit(node);
        if (typeof edit === 'string') report(node, edit);
        else if (edit !== undefined) edits.push(edit);
      }
      return;
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] !== undefined && ts.isStringLiteral(node.arguments[0]) && node.arguments[0].text === ROOT_SPECIFIER) {
      report(node, `dynamic import('${ROOT_SPECIFIER}') left as it is: name a subpath`);
    }
    ts.forEachChild(node, visit);
  };
  const groups = (elements, declarationTypeOnly, keyword, node) => {
    const bySubpath = new Map();
    const unknown = [];
    for (const element of elements) {
      const importedName = (element.propertyName ?? element.name).text;
      const subpath = owners.get(importedName);
      if (subpath === undefined) {
        unknown.push(importedName);
        continue;
      }
      const list = bySubpath.get(subpath) ?? [];
      list.push({ text: element.getText(source), typeOnly: declarationTypeOnly || element.isTypeOnly });
      bySubpath.set(subpath, list);
    }
    if (unknown.length > 0) return `no subpath of ${ROOT_SPECIFIER} exports ${unknown.join(', ')}; left as it is`;
    const declarations = [...bySubpath.keys()].sort().map((subpath) => {
      const list = bySubpath.get(subpath);
      const typeOnly = declarationTypeOnly || list.every((entry) => entry.typeOnly);
      const specifiers = list.map((entry) => (typeOnly && !declarationTypeOnly ? entry.text.replace(/^type\s+/, '') : entry.text));
      return formatDeclaration(keyword, typeOnly, specifiers, subpath);
    });
    return { start: node.getStart(source), end: node.getEnd(), text: declarations.join('\n') };
  };
  const importEdit = (node) => {
    const clause = node.importClause;
    if (clause === undefined) return `side-effect import of '${ROOT_SPECIFIER}' left as it is`;
    if (clause.name !== undefined) return `default import of '${ROOT_SPECIFIER}' left as it is`;
    const bindings = clause.namedBindings;
    if (bindings === undefined || ts.isNamespaceImport(bindings)) return `namespace import of '${ROOT_SPECIFIER}' left as it is: import names from the subpaths`;
    if (bindings.elements.length === 0) return undefined;
    return groups(bindings.elements, clause.isTypeOnly, 'import', node);
  };
  const exportEdit = (node) => {
    if (node.exportClause === undefined) return `export * from '${ROOT_SPECIFIER}' left as it is: re-export the subpaths you mean`;
    if (!ts.isNamedExports(node.exportClause)) return `export * as ... from '${ROOT_SPECIFIER}' left as it is`;
    return groups(node.exportClause.elements, node.isTypeOnly, 'export', node);
  };
  ts.forEachChild(source, visit);
  if (edits.length === 0) return undefined;
  let result = text;
  for (const edit of edits.sort((left, right) => right.start - left.start)) result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  return result;
}

function main(argumentsList) {
  const check = argumentsList.includes('--check');
  const targets = argumentsList.filter((argument) => argument !== '--check');
  if (targets.length === 0) {
    console.error('usage: node scripts/codemods/core-subpath-imports.mjs [--check] <folder or file>...');
    return 2;
  }
  const owners = exportedNames();
  const problems = [];
  const changed = [];
  for (const target of targets) {
    for (const file of sourceFiles(resolve(target))) {
      const text = readFileSync(file, 'utf8');
      if (!text.includes(`'${ROOT_SPECIFIER}'`)) continue;
      const display = relative(process.cwd(), file);
      const result = rewrite(text, display, owners, problems);
      if (result === undefined || result === text) continue;
      changed.push(display);
      if (!check) writeFileSync(file, result);
    }
  }
  for (const file of changed) console.log(`${check ? 'would rewrite' : 'rewrote'} ${file}`);
  for (const problem of problems) console.error(problem);
  console.log(`${changed.length} file(s) ${check ? 'to rewrite' : 'rewritten'}, ${problems.length} problem(s)`);
  return problems.length > 0 || (check && changed.length > 0) ? 1 : 0;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
