#!/usr/bin/env node
// Bundles a provider's cloud-controller-manager bin into one self-contained ESM file for the
// container image: `<provider>/bundle/<bin-name>.mjs` (+ .map, + .meta.json: esbuild's metafile,
// input paths relative to the repository root, from which the image's SBOM lists every inlined
// package). Everything is inlined, so the file
// runs from a folder with no node_modules (the distroless image holds only node and the bundle).
//
//   node scripts/bundle-provider.mjs providers/cloud-provider-aws [more provider folders]
//   node scripts/bundle-provider.mjs --all        # every providers/* with a built bin
//
// Input: the bin's compiled `dist/cloud-controller-manager/main.js` (run `pnpm build` first); its
// source map is chained, so stack traces under `node --enable-source-maps` point at the .ts files.
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isRepositorySource, pruneSourceMap } from './source-map-pruning.mjs';

export const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const providersDirectory = join(repositoryRoot, 'providers');

/** The bin every provider ships, relative to its folder (the package.json `bin` entry points at it). */
export const BIN_ENTRY = 'dist/cloud-controller-manager/main.js';

// CommonJS dependencies inside an ESM bundle call require() for Node built-ins; without a real
// `require` the bundle fails at start with `Dynamic require of "node:..." is not supported`.
// CommonJS dependencies bundled into ESM may also read __dirname/__filename at load time (google-gax
// computes its proto directory from __dirname, unused by the REST transport): define them too.
export const REQUIRE_BANNER =
  "import { createRequire as __ccmCreateRequire } from 'node:module'; const require = __ccmCreateRequire(import.meta.url); " +
  "const __filename = new URL(import.meta.url).pathname; const __dirname = __filename.slice(0, __filename.lastIndexOf('/'));";

/** A problem with the input (missing folder, no bin, not built): reported as one line, exit 2. */
export class BundleInputError extends Error {
  name = 'BundleInputError';
}

/**
 * Reads what is needed to bundle one provider folder: its bin name (the single `bin` entry of its
 * package.json) and the compiled entry point.
 */
export function describeProvider(providerDirectory) {
  const directory = resolve(providerDirectory);
  const packageJsonPath = join(directory, 'package.json');
  if (!existsSync(packageJsonPath)) throw new BundleInputError(`${providerDirectory}: no package.json (expected a provider folder such as providers/cloud-provider-aws)`);
  const packageJson = JSON.parse(readFileSync(packageJsonPath, 'utf8'));
  const bins = Object.entries(packageJson.bin ?? {});
  if (bins.length !== 1) throw new BundleInputError(`${packageJsonPath}: expected exactly one "bin" entry (the cloud-controller-manager), found ${bins.length}`);
  const [binName, binPath] = bins[0];
  if (join(directory, binPath) !== join(directory, BIN_ENTRY)) {
    throw new BundleInputError(`${packageJsonPath}: bin "${binName}" points at ${binPath}, expected ./${BIN_ENTRY}`);
  }
  return {
    directory,
    packageName: packageJson.name,
    version: packageJson.version,
    binName,
    entryPoint: join(directory, BIN_ENTRY),
    outputFile: join(directory, 'bundle', `${binName}.mjs`),
    metafileFile: join(directory, 'bundle', `${binName}.meta.json`),
  };
}

/** Bundles one provider; returns where the bundle went and its size. */
export async function bundleProvider(providerDirectory, { logLevel = 'warning' } = {}) {
  const provider = describeProvider(providerDirectory);
  if (!existsSync(provider.entryPoint)) {
    throw new BundleInputError(`${relative(repositoryRoot, provider.entryPoint)} does not exist: build first (pnpm build, or pnpm exec tsc -b ${relative(repositoryRoot, provider.directory)})`);
  }
  const { build } = await import('esbuild');
  mkdirSync(dirname(provider.outputFile), { recursive: true });
  const result = await build({
    entryPoints: [provider.entryPoint],
    outfile: provider.outputFile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    minify: true,
    sourcemap: true,
    // Stack traces map to file:line without the sources themselves (with them the GCP bundle's
    // map was 36 MB); the dependencies' mappings are pruned below (source-map-pruning.mjs).
    sourcesContent: false,
    // Libraries tell errors apart by constructor.name (google-gax's GoogleError, read by the GCP
    // error mapper): minified names would make every Compute API 404 an unknown error.
    keepNames: true,
    legalComments: 'none',
    // The compiled entry keeps its `#!/usr/bin/env node` line; esbuild moves it above the banner.
    banner: { js: REQUIRE_BANNER },
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel,
    metafile: true,
    // Paths in the metafile (and so the output) do not depend on where the script runs from.
    absWorkingDir: repositoryRoot,
    // Written below, each file replaced in one rename: a test or image build reading the bundle
    // while another bundles the same provider never sees a missing or half-written file.
    write: false,
  });
  for (const output of result.outputFiles) replaceFile(output.path, output.contents);
  replaceFile(provider.metafileFile, `${JSON.stringify(result.metafile)}\n`);
  const mapFile = `${provider.outputFile}.map`;
  writeFileSync(mapFile, JSON.stringify(pruneSourceMap(JSON.parse(readFileSync(mapFile, 'utf8')), isRepositorySource)));
  const bytes = statSync(provider.outputFile).size;
  return { ...provider, bytes, inputs: Object.keys(result.metafile.inputs).length, warnings: result.warnings };
}

function replaceFile(path, contents) {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
}

/** Every providers/* folder whose bin is built. */
export function builtProviderDirectories() {
  return readdirSync(providersDirectory, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(providersDirectory, entry.name, 'package.json')))
    .map((entry) => join(providersDirectory, entry.name))
    .filter((directory) => existsSync(join(directory, BIN_ENTRY)))
    .sort();
}

const USAGE = `Usage: node scripts/bundle-provider.mjs <provider folder>... | --all

Bundles each provider's cloud-controller-manager bin (${BIN_ENTRY}, built first) into
<provider>/bundle/<bin-name>.mjs: ESM, platform node, target node20, minified, with a source map,
every dependency inlined. --all bundles every providers/* folder whose bin is built.
`;

async function main(argv) {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
  const unknown = argv.filter((argument) => argument.startsWith('-') && argument !== '--all');
  if (unknown.length > 0 || argv.length === 0) {
    process.stderr.write(`${unknown.length > 0 ? `unknown option: ${unknown.join(' ')}` : 'no provider folder given'}\n\n${USAGE}`);
    return 2;
  }
  const directories = argv.includes('--all') ? builtProviderDirectories() : argv;
  if (directories.length === 0) {
    process.stderr.write(`no provider under ${relative(process.cwd(), providersDirectory) || '.'} has a built ${BIN_ENTRY}: run pnpm build first\n`);
    return 2;
  }
  for (const directory of directories) {
    const started = Date.now();
    const bundled = await bundleProvider(directory);
    const megabytes = (bundled.bytes / 1024 / 1024).toFixed(2);
    process.stdout.write(`${relative(process.cwd(), bundled.outputFile)}  ${megabytes} MB from ${bundled.inputs} files in ${Date.now() - started} ms\n`);
  }
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2)).catch((error) => {
    if (error instanceof BundleInputError) {
      process.stderr.write(`bundle-provider: ${error.message}\n`);
      return 2;
    }
    // esbuild has already printed its errors with file and line.
    process.stderr.write(`bundle-provider: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  });
}
