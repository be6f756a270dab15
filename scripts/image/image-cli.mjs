#!/usr/bin/env node
// `pnpm image build --provider <cloud> [--provider <cloud>...] | --all [--output <dir>]`
//
// Bundles each provider (scripts/bundle-provider.mjs; the root script builds the workspace first)
// and builds its OCI image without a container engine (build-image.mjs). Prints one line per
// image: provider, reference, manifest digest, compressed size, tarball, time. Bad input (unknown
// provider, missing bundle, an input whose checksum does not match) stops it with one line naming
// the input and exit code 2.
import { relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BundleInputError } from '../bundle-provider.mjs';
import { mkdirSync } from 'node:fs';
import { ImageBuildError, buildProviderImage, defaultCacheDirectory, defaultOutputRoot, describeProviderImage, knownProviders, repositoryRoot, sourceStamp } from './build-image.mjs';
import { fetchDebianPackage, fetchNodeRuntime } from './fetch-image-inputs.mjs';
import { DEBIAN_PACKAGES, NODE_RUNTIME } from './image-inputs.mjs';

export const USAGE = `Usage: pnpm image build --provider <cloud> [--provider <cloud>...] | --all [--output <dir>] [--no-bundle] [--no-layer-cache]
       pnpm image fetch      (only fetch and check the pinned inputs into .images/.cache)

Builds each provider's OCI image from pinned inputs (scripts/image/image-inputs.mjs) and its
bundle, without a container engine: <output>/<cloud>/oci (an OCI image layout),
<output>/<cloud>/image.tar (for docker load / podman load / skopeo) and
<output>/<cloud>/sbom.spdx.json. <output> defaults to .images. Providers: ${knownProviders().join(', ')}.
--no-bundle uses the bundle already in providers/cloud-provider-<cloud>/bundle/.
--no-layer-cache compresses every layer again (.images/.cache/layers holds them by content).
`;

/** Parses the arguments: the providers to build and where, or a usage problem. */
export function parseImageArguments(argv) {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') return { help: true };
  if (command === 'fetch') return rest.length === 0 ? { fetch: true } : { problem: `fetch takes no arguments, got ${rest.join(' ')}` };
  if (command !== 'build') return { problem: command === undefined ? 'no command given (expected "build" or "fetch")' : `unknown command "${command}" (expected "build" or "fetch")` };
  const providers = [];
  let all = false;
  let outputRoot = defaultOutputRoot;
  let bundle = true;
  let layerCache = true;
  for (let index = 0; index < rest.length; index += 1) {
    const argument = rest[index];
    const [flag, inline] = argument.startsWith('--') && argument.includes('=') ? [argument.slice(0, argument.indexOf('=')), argument.slice(argument.indexOf('=') + 1)] : [argument, undefined];
    const value = () => {
      const given = inline ?? rest[++index];
      if (given === undefined || given === '') throw new Error(`${flag} needs a value`);
      return given;
    };
    try {
      if (flag === '--provider') providers.push(value());
      else if (flag === '--all') all = true;
      else if (flag === '--output') outputRoot = resolve(value());
      else if (flag === '--no-bundle') bundle = false;
      else if (flag === '--no-layer-cache') layerCache = false;
      else if (flag === '--help' || flag === '-h') return { help: true };
      else return { problem: `unknown option ${argument}` };
    } catch (error) {
      return { problem: error.message };
    }
  }
  if (all && providers.length > 0) return { problem: '--all and --provider exclude each other' };
  if (!all && providers.length === 0) return { problem: 'no provider given: --provider <cloud> or --all' };
  return { providers: all ? knownProviders() : providers, outputRoot, bundle, layerCache };
}

const megabytes = (bytes) => `${(bytes / 1000 / 1000).toFixed(1)} MB`;

/**
 * Runs the CLI; returns the exit code.
 * @param {string[]} argv
 * @param {{ stdout?: { write(text: string): unknown }, stderr?: { write(text: string): unknown }, build?: Partial<Parameters<typeof buildProviderImage>[0]> }} [io]
 */
export async function runImageCli(argv, { stdout = process.stdout, stderr = process.stderr, build = {} } = {}) {
  const parsed = parseImageArguments(argv);
  if (parsed.help) {
    stdout.write(USAGE);
    return 0;
  }
  if (parsed.problem !== undefined) {
    stderr.write(`image: ${parsed.problem}\n\n${USAGE}`);
    return 2;
  }
  try {
    if (parsed.fetch) {
      const cacheDirectory = build.cacheDirectory ?? defaultCacheDirectory;
      mkdirSync(cacheDirectory, { recursive: true });
      const runtime = build.runtime ?? NODE_RUNTIME;
      const debianPackages = build.debianPackages ?? DEBIAN_PACKAGES;
      await fetchNodeRuntime(runtime, cacheDirectory);
      for (const pin of debianPackages) await fetchDebianPackage(pin, cacheDirectory);
      stdout.write(`${runtime.packageName}@${runtime.version} and ${debianPackages.length} Debian packages checked in ${relative(process.cwd(), cacheDirectory) || '.'}\n`);
      return 0;
    }
    // Every name is checked before anything is built.
    const root = build.root ?? repositoryRoot;
    for (const provider of parsed.providers) describeProviderImage(provider, root);
    // One commit time and revision for the whole run, even if the branch moves meanwhile.
    // (When there is none, each build reports it, after the checks of its own inputs.)
    let stamp = build.stamp;
    try {
      stamp ??= sourceStamp(root, build.environment ?? process.env);
    } catch (error) {
      if (!(error instanceof ImageBuildError)) throw error;
    }
    for (const provider of parsed.providers) {
      const started = Date.now();
      const image = await buildProviderImage({ outputRoot: parsed.outputRoot, layerCache: parsed.layerCache, ...build, stamp, bundle: parsed.bundle ? 'always' : 'never', provider });
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      stdout.write(`${provider}  ${image.imageReference}  ${image.manifestDigest}  ${megabytes(image.compressedSize)}  ${relative(process.cwd(), image.tarball)}  ${seconds} s\n`);
    }
    return 0;
  } catch (error) {
    if (error instanceof ImageBuildError || error instanceof BundleInputError) {
      stderr.write(`image: ${error.message}\n`);
      return 2;
    }
    stderr.write(`image: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = await runImageCli(process.argv.slice(2));
}
