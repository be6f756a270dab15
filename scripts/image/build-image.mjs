// The daemonless, reproducible image build of one provider (issue 22): an OCI image layout plus a
// `docker load`/`podman load`-able tarball under .images/<provider>/, from pinned inputs only
// (scripts/image/image-inputs.mjs) and the provider's bundle (scripts/bundle-provider.mjs).
//
//   import { buildProviderImage } from '../scripts/image/build-image.mjs';
//   const image = await buildProviderImage({ provider: 'aws' });
//
// The CLI is scripts/image/image-cli.mjs (`pnpm image build --provider <cloud>` / `--all`).
//
// Reproducible: every timestamp is the commit time (SOURCE_DATE_EPOCH, else `git log -1
// --format=%ct`), tar entries are sorted with numeric owners, gzip headers carry no time and the
// compression level is fixed, so two builds of one commit give one manifest digest.
import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { BundleInputError, bundleProvider } from '../bundle-provider.mjs';
import { planBaseFilesystem } from './base-filesystem.mjs';
import { fetchDebianPackage, fetchNodeRuntime, readDebianPackage } from './fetch-image-inputs.mjs';
import { ImageBuildError } from './image-build-error.mjs';
import { DEBIAN_PACKAGES, DEBIAN_RELEASE, IMAGE_DEFINITION, NODE_RUNTIME, entrypointOf } from './image-inputs.mjs';
import { bundledPackages, spdxDocument } from './image-sbom.mjs';
import { writeTar } from './tar-archive.mjs';

export { ImageBuildError } from './image-build-error.mjs';

const gzipAsync = promisify(gzip);

export const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Where images go unless told otherwise (ignored by git). */
export const defaultOutputRoot = join(repositoryRoot, '.images');
/** Where the checked inputs and compressed layers are cached (ignored by git). */
export const defaultCacheDirectory = join(repositoryRoot, '.images', '.cache');

const MEDIA_TYPES = Object.freeze({
  index: 'application/vnd.oci.image.index.v1+json',
  manifest: 'application/vnd.oci.image.manifest.v1+json',
  config: 'application/vnd.oci.image.config.v1+json',
  layer: 'application/vnd.oci.image.layer.v1.tar+gzip',
});

/**
 * @typedef {object} BuiltImage
 * @property {string} provider         the short provider name, e.g. 'aws'
 * @property {string} layoutDirectory  the OCI image layout directory (.images/<provider>/oci)
 * @property {string} tarball          the tarball for `docker load` / `podman load` (.images/<provider>/image.tar)
 * @property {string} manifestDigest   'sha256:<hex>' of the image manifest
 * @property {number} compressedSize   bytes: config + compressed layers + manifest
 * @property {string} imageReference   the reference in index.json and manifest.json, e.g. 'ghcr.io/ccm-ts/aws-cloud-controller-manager:v0.1.0'
 */

/** The providers, by short name: every providers/cloud-provider-<name> with a package.json. */
export function knownProviders(root = repositoryRoot) {
  return readdirSync(join(root, 'providers'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name.startsWith('cloud-provider-') && existsSync(join(root, 'providers', entry.name, 'package.json')))
    .map((entry) => entry.name.slice('cloud-provider-'.length))
    .sort();
}

/**
 * What one provider's image is made of, read from its package.json: the bin (bundle name and
 * title), the version, and the "image" block (registry name, description, ports).
 */
export function describeProviderImage(provider, root = repositoryRoot) {
  const known = knownProviders(root);
  if (typeof provider !== 'string' || !known.includes(provider)) {
    throw new ImageBuildError('unknown-provider', `unknown provider "${provider}": expected one of ${known.join(', ')}`);
  }
  const folder = `providers/cloud-provider-${provider}`;
  const packageJsonPath = join(root, folder, 'package.json');
  const manifest = JSON.parse(readFileSync(packageJsonPath, 'utf8'));
  const bins = Object.keys(manifest.bin ?? {});
  const image = manifest.image ?? {};
  const problem =
    bins.length !== 1 ? `expected exactly one "bin" entry, found ${bins.length}`
    : typeof manifest.version !== 'string' ? 'no "version"'
    : typeof image.name !== 'string' || !/^[a-z0-9.-]+(\/[a-z0-9._-]+)+$/.test(image.name) ? '"image.name" must be a registry repository such as ghcr.io/ccm-ts/aws-cloud-controller-manager'
    : typeof image.description !== 'string' || image.description === '' ? 'no "image.description"'
    : !Array.isArray(image.ports) || !image.ports.every((port) => /^\d+\/(tcp|udp)$/.test(port)) ? '"image.ports" must list ports such as "10258/tcp"'
    : undefined;
  if (problem !== undefined) throw new ImageBuildError('bad-provider-package', `${folder}/package.json: ${problem}`);
  const binName = bins[0];
  const tag = `v${manifest.version}`;
  return {
    provider,
    folder,
    packageName: manifest.name,
    version: manifest.version,
    binName,
    repository: image.name,
    tag,
    imageReference: `${image.name}:${tag}`,
    description: image.description,
    ports: [...image.ports],
    entrypoint: entrypointOf(binName),
    bundleFile: join(root, folder, 'bundle', `${binName}.mjs`),
  };
}

/** The labels of a provider's image (the root Dockerfile sets the same keys). */
export function imageLabels(description, { revision, created }) {
  const source = IMAGE_DEFINITION.sourceUrl;
  return {
    'org.opencontainers.image.title': description.binName,
    'org.opencontainers.image.description': description.description,
    'org.opencontainers.image.version': description.version,
    'org.opencontainers.image.revision': revision,
    'org.opencontainers.image.created': created,
    'org.opencontainers.image.source': source,
    'org.opencontainers.image.documentation': `${source}/tree/main/${description.folder}`,
    'org.opencontainers.image.vendor': IMAGE_DEFINITION.vendor,
  };
}

/** The commit time (seconds) and revision the image is stamped with. */
export function sourceStamp(root = repositoryRoot, environment = process.env) {
  const git = (args) => {
    try {
      return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return '';
    }
  };
  const fromEnvironment = environment.SOURCE_DATE_EPOCH;
  const epochText = fromEnvironment !== undefined && fromEnvironment !== '' ? fromEnvironment : git(['log', '-1', '--format=%ct']);
  const epoch = Number(epochText);
  if (epochText === '' || !Number.isSafeInteger(epoch) || epoch < 0) {
    throw new ImageBuildError('no-commit-time', `no commit time: ${fromEnvironment ? `SOURCE_DATE_EPOCH="${fromEnvironment}" is not a number of seconds` : `${root} is not a git checkout with a commit; set SOURCE_DATE_EPOCH`}`);
  }
  return { epoch, created: new Date(epoch * 1000).toISOString().replace('.000Z', 'Z'), revision: git(['rev-parse', 'HEAD']) };
}

const sha256 = (content) => createHash('sha256').update(content).digest('hex');

/**
 * A gzip layer of `tar`: its diff id (sha256 of the tar), its digest and the compressed blob.
 * Compressed layers are cached under `cacheDirectory` by diff id, level and zlib version.
 */
async function compressLayer(tar, { level, cacheDirectory }) {
  const diffId = sha256(tar);
  const cached = cacheDirectory === undefined ? undefined : join(cacheDirectory, 'layers', `${diffId}.gzip-${level}.zlib-${process.versions.zlib}.tar.gz`);
  let blob;
  if (cached !== undefined && existsSync(cached)) blob = readFileSync(cached);
  else {
    blob = await gzipAsync(tar, { level });
    if (cached !== undefined) {
      mkdirSync(dirname(cached), { recursive: true });
      writeFileSync(`${cached}.${process.pid}`, blob);
      renameSync(`${cached}.${process.pid}`, cached);
    }
  }
  return { diffId: `sha256:${diffId}`, digest: `sha256:${sha256(blob)}`, size: blob.length, blob };
}

/**
 * The checked base inputs, read and planned once per process and pin set.
 * @type {Map<string, Promise<ReturnType<typeof planBaseFilesystem>>>}
 */
const plannedBases = new Map();

function planBase({ runtime, debianPackages, cacheDirectory }) {
  const key = JSON.stringify({ runtime, debianPackages: debianPackages.map(({ keep, ...pin }) => ({ ...pin, keep: keep.map(String) })), cacheDirectory });
  if (!plannedBases.has(key)) {
    const planned = (async () => {
      mkdirSync(cacheDirectory, { recursive: true });
      const nodeTarball = await fetchNodeRuntime(runtime, cacheDirectory);
      const debs = [];
      for (const pin of debianPackages) {
        const file = await fetchDebianPackage(pin, cacheDirectory);
        debs.push({ pin, ...(await readDebianPackage(file)) });
      }
      return planBaseFilesystem({ runtime, nodeTarball, debianPackages: debs, definition: IMAGE_DEFINITION, debian: DEBIAN_RELEASE });
    })();
    plannedBases.set(key, planned);
    planned.catch(() => plannedBases.delete(key));
  }
  return plannedBases.get(key);
}

const json = (value) => Buffer.from(JSON.stringify(value), 'utf8');

/**
 * Builds one provider's image.
 * @param {{ provider: string, outputRoot?: string, bundle?: 'if-missing' | 'always' | 'never', cacheDirectory?: string, layerCache?: boolean, runtime?: typeof NODE_RUNTIME, debianPackages?: typeof DEBIAN_PACKAGES, root?: string, environment?: Record<string, string | undefined>, stamp?: ReturnType<typeof sourceStamp> }} options
 *   `stamp`: the commit time and revision, default sourceStamp() (read once by a caller that
 *   builds twice while the branch may move);
 *   `bundle`: when to run scripts/bundle-provider.mjs on the provider's built dist/ first (default
 *   'if-missing'; the CLI says 'always', or 'never' with --no-bundle);
 *   `runtime` and `debianPackages` replace the pins (tests inject a wrong checksum this way);
 *   `layerCache: false` compresses every layer again.
 * @returns {Promise<BuiltImage>}
 */
export async function buildProviderImage({
  provider,
  outputRoot = defaultOutputRoot,
  bundle: bundleWhen = 'if-missing',
  cacheDirectory = defaultCacheDirectory,
  layerCache = true,
  runtime = NODE_RUNTIME,
  debianPackages = DEBIAN_PACKAGES,
  root = repositoryRoot,
  environment = process.env,
  stamp: givenStamp,
}) {
  const description = describeProviderImage(provider, root);
  const bundleFiles = [description.bundleFile, `${description.bundleFile}.map`, description.bundleFile.replace(/\.mjs$/, '.meta.json')];
  if (bundleWhen === 'always' || (bundleWhen === 'if-missing' && bundleFiles.some((file) => !existsSync(file)))) {
    try {
      await bundleProvider(join(root, description.folder));
    } catch (error) {
      if (!(error instanceof BundleInputError)) throw error;
      throw new ImageBuildError('missing-bundle', `missing bundle ${relative(root, description.bundleFile)}, and it cannot be made: ${error.message}`, { cause: error });
    }
  }
  const missing = bundleFiles.find((file) => !existsSync(file));
  if (missing !== undefined) {
    throw new ImageBuildError('missing-bundle', `missing bundle ${relative(root, missing)}: run node scripts/bundle-provider.mjs ${description.folder} (after pnpm build)`);
  }
  const stamp = givenStamp ?? sourceStamp(root, environment);
  const base = await planBase({ runtime, debianPackages, cacheDirectory });
  const compression = { level: IMAGE_DEFINITION.compressionLevel, cacheDirectory: layerCache ? cacheDirectory : undefined };

  const baseLayer = await compressLayer(writeTar(base.entries, { mtime: stamp.epoch }), compression);
  const [bundle, map] = bundleFiles.map((file) => readFileSync(file));
  const appDirectory = IMAGE_DEFINITION.workingDirectory.replace(/^\//, '');
  const appLayer = await compressLayer(
    writeTar(
      [
        { path: appDirectory, type: 'directory', mode: 0o755 },
        { path: `${appDirectory}/${description.binName}.mjs`, type: 'file', mode: 0o644, content: bundle },
        { path: `${appDirectory}/${description.binName}.mjs.map`, type: 'file', mode: 0o644, content: map },
      ],
      { mtime: stamp.epoch },
    ),
    compression,
  );
  const layers = [baseLayer, appLayer];

  const { uid, gid } = IMAGE_DEFINITION.user;
  const config = json({
    created: stamp.created,
    architecture: 'amd64',
    os: 'linux',
    config: {
      User: `${uid}:${gid}`,
      ExposedPorts: Object.fromEntries(description.ports.map((port) => [port, {}])),
      Env: [...IMAGE_DEFINITION.environment],
      Entrypoint: description.entrypoint,
      WorkingDir: IMAGE_DEFINITION.workingDirectory,
      Labels: imageLabels(description, stamp),
    },
    rootfs: { type: 'layers', diff_ids: layers.map((layer) => layer.diffId) },
    history: [
      { created: stamp.created, created_by: `${runtime.packageName}@${runtime.version}; Debian ${DEBIAN_RELEASE.name}: ${debianPackages.map((pin) => `${pin.name}=${pin.version}`).join(' ')}`, comment: 'base: node and the libraries it needs' },
      { created: stamp.created, created_by: `${description.folder}/bundle/${description.binName}.mjs (+ .map)`, comment: 'app: the provider bundle' },
    ],
  });
  const configDescriptor = { mediaType: MEDIA_TYPES.config, digest: `sha256:${sha256(config)}`, size: config.length };
  const manifest = json({
    schemaVersion: 2,
    mediaType: MEDIA_TYPES.manifest,
    config: configDescriptor,
    layers: layers.map((layer) => ({ mediaType: MEDIA_TYPES.layer, digest: layer.digest, size: layer.size })),
  });
  const manifestDigest = `sha256:${sha256(manifest)}`;
  const index = json({
    schemaVersion: 2,
    mediaType: MEDIA_TYPES.index,
    manifests: [
      {
        mediaType: MEDIA_TYPES.manifest,
        digest: manifestDigest,
        size: manifest.length,
        platform: { architecture: 'amd64', os: 'linux' },
        annotations: { 'io.containerd.image.name': description.imageReference, 'org.opencontainers.image.ref.name': description.tag },
      },
    ],
  });
  const compressedSize = config.length + manifest.length + layers.reduce((total, layer) => total + layer.size, 0);
  if (compressedSize > IMAGE_DEFINITION.maximumCompressedSize) {
    throw new ImageBuildError('too-large', `${description.imageReference}: ${compressedSize} bytes compressed, more than the ${IMAGE_DEFINITION.maximumCompressedSize} allowed (scripts/image/image-inputs.mjs)`);
  }

  const blobs = [
    [configDescriptor.digest, config],
    [manifestDigest, manifest],
    ...layers.map((layer) => [layer.digest, layer.blob]),
  ];
  const layoutFiles = [
    { path: 'oci-layout', content: json({ imageLayoutVersion: '1.0.0' }) },
    { path: 'index.json', content: index },
    ...blobs.map(([digest, content]) => ({ path: `blobs/sha256/${digest.slice('sha256:'.length)}`, content })),
  ];
  // Docker's manifest.json beside the OCI files, as `docker save` of Docker 25+ writes it.
  const dockerManifest = json([{ Config: `blobs/sha256/${configDescriptor.digest.slice(7)}`, RepoTags: [description.imageReference], Layers: layers.map((layer) => `blobs/sha256/${layer.digest.slice(7)}`) }]);
  const tarball = writeTar(
    [...layoutFiles, { path: 'manifest.json', content: dockerManifest }].map((file) => ({ ...file, type: 'file', mode: 0o644 })),
    { mtime: stamp.epoch },
  );
  const metafile = JSON.parse(readFileSync(bundleFiles[2], 'utf8'));
  const sbom = spdxDocument({
    imageReference: description.imageReference,
    manifestDigest,
    created: stamp.created,
    sourceUrl: IMAGE_DEFINITION.sourceUrl,
    runtime,
    debianPackages: base.packages,
    debianRelease: DEBIAN_RELEASE,
    bundled: bundledPackages(metafile, root),
  });

  // Written beside the final folder, then moved into place: a reader never sees half an image.
  const finalDirectory = join(outputRoot, provider);
  const scratch = join(outputRoot, `.${provider}.${process.pid}.${randomUUID()}`);
  const layoutDirectory = join(finalDirectory, 'oci');
  mkdirSync(join(scratch, 'oci', 'blobs', 'sha256'), { recursive: true });
  for (const file of layoutFiles) writeFileSync(join(scratch, 'oci', file.path), file.content);
  writeFileSync(join(scratch, 'image.tar'), tarball);
  writeFileSync(join(scratch, 'sbom.spdx.json'), `${JSON.stringify(sbom, null, 2)}\n`);
  const result = { provider, layoutDirectory, tarball: join(finalDirectory, 'image.tar'), manifestDigest, compressedSize, imageReference: description.imageReference };
  writeFileSync(
    join(scratch, 'image.json'),
    `${JSON.stringify({ ...result, layoutDirectory: 'oci', tarball: 'image.tar', created: stamp.created, revision: stamp.revision, layers: layers.map(({ diffId, digest, size }) => ({ diffId, digest, size })) }, null, 2)}\n`,
  );
  // Another build of the same provider may move its folder in between: retry a few times.
  for (let attempt = 1; ; attempt += 1) {
    rmSync(finalDirectory, { recursive: true, force: true });
    try {
      renameSync(scratch, finalDirectory);
      break;
    } catch (error) {
      if (attempt >= 5 || !['ENOTEMPTY', 'EEXIST'].includes(error?.code)) throw error;
    }
  }
  return result;
}
