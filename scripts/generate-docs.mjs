#!/usr/bin/env node
// Writes each provider's generated pages (docs/cloud-controller-manager.md, AWS's
// docs/iam-policy.json, ...) from its typed registries. One generator for every provider: the
// renderer is found by convention, `src/docs/render-<cloud>-reference.ts` of
// providers/cloud-provider-<cloud> (built to dist/docs/render-<cloud>-reference.js), whose
// `referenceDocs()` returns the pages of the provider's docs/ folder by file name.
//
//   node scripts/generate-docs.mjs --all                          # every provider (pnpm docs)
//   node scripts/generate-docs.mjs providers/cloud-provider-aws   # one (its `docs` script: `.`)
//
// Run after the build. A provider without a built renderer, or a renderer without
// `referenceDocs`, is one line on stderr and exit 2.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** A provider folder the generator cannot render: reported as one line, exit 2. */
export class DocsInputError extends Error {
  name = 'DocsInputError';
}

/** `providers/cloud-provider-aws` -> the renderer's module, built (`dist/...js`) or source (`src/...ts`). */
export function rendererModule(providerDirectory, { source = false } = {}) {
  const folder = basename(resolve(providerDirectory));
  const cloud = /^cloud-provider-([a-z][a-z0-9]*)$/.exec(folder)?.[1];
  if (cloud === undefined) throw new DocsInputError(`${providerDirectory}: not a provider folder (providers/cloud-provider-<cloud>)`);
  return source ? join(resolve(providerDirectory), 'src', 'docs', `render-${cloud}-reference.ts`) : join(resolve(providerDirectory), 'dist', 'docs', `render-${cloud}-reference.js`);
}

/** The pages one provider's renderer gives: file name under docs/ -> content. */
export async function renderReferenceDocs(providerDirectory, options = {}) {
  const path = rendererModule(providerDirectory, options);
  if (!existsSync(path)) throw new DocsInputError(`${path}: no such renderer (${options.source ? 'every provider has src/docs/render-<cloud>-reference.ts' : 'run `pnpm build` first'})`);
  const renderer = await import(pathToFileURL(path).href);
  if (typeof renderer.referenceDocs !== 'function') throw new DocsInputError(`${path}: exports no referenceDocs() (the pages of docs/ by file name)`);
  const pages = renderer.referenceDocs();
  const names = Object.keys(pages ?? {});
  if (names.length === 0) throw new DocsInputError(`${path}: referenceDocs() returned no page`);
  for (const name of names) {
    if (typeof pages[name] !== 'string' || name !== basename(name)) throw new DocsInputError(`${path}: referenceDocs() page "${name}" must be a file name under docs/ with text content`);
  }
  return pages;
}

/** Renders and writes one provider's pages into its docs/; returns the paths written. */
export async function generateReferenceDocs(providerDirectory) {
  const pages = await renderReferenceDocs(providerDirectory);
  return Object.entries(pages).map(([name, content]) => {
    const path = join(resolve(providerDirectory), 'docs', name);
    writeFileSync(path, content);
    return path;
  });
}

/** Every providers/cloud-provider-* folder. */
export function providerDirectories(root = repositoryRoot) {
  const providers = join(root, 'providers');
  return readdirSync(providers, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name.startsWith('cloud-provider-'))
    .map((entry) => join(providers, entry.name))
    .sort();
}

async function main(args) {
  const directories = args.includes('--all') ? providerDirectories() : args;
  if (directories.length === 0) throw new DocsInputError('usage: node scripts/generate-docs.mjs --all | <provider folder>...');
  for (const directory of directories) console.log(`wrote ${(await generateReferenceDocs(directory)).join(', ')}`);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error) => {
    if (!(error instanceof DocsInputError)) throw error;
    console.error(`generate-docs: ${error.message}`);
    process.exitCode = 2;
  });
}
