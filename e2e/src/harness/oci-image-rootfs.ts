/**
 * An OCI image layout on disk (index.json -> manifest -> config + layers) read and unpacked into
 * a root filesystem for runc, once per manifest digest (the rootfs is cached under the system's
 * temporary folder and shared read-only by every container of that image).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ImageRuntimeSettings } from './pod-runtime-config.js';

const execFileAsync = promisify(execFile);

interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  annotations?: Record<string, string>;
}

export interface OciImage {
  layoutDirectory: string;
  manifestDigest: string;
  layers: Descriptor[];
  settings: ImageRuntimeSettings;
}

/** An image layout that cannot be read: names the file and what is wrong. */
export class OciImageError extends Error {
  override readonly name = 'OciImageError';
}

export const ROOTFS_CACHE_DIRECTORY = join(tmpdir(), 'ccm-pod-runner-rootfs');

function blobPath(layoutDirectory: string, digest: string): string {
  const [algorithm, hex] = digest.split(':');
  if (algorithm !== 'sha256' || hex === undefined || !/^[0-9a-f]{64}$/.test(hex)) throw new OciImageError(`${layoutDirectory}: unsupported digest ${digest}`);
  return join(layoutDirectory, 'blobs', 'sha256', hex);
}

async function readJsonBlob<T>(layoutDirectory: string, descriptor: Descriptor): Promise<T> {
  const path = blobPath(layoutDirectory, descriptor.digest);
  const bytes = await readFile(path).catch((error: NodeJS.ErrnoException) => {
    throw new OciImageError(`${path}: ${error.code ?? error.message} (blob ${descriptor.digest} of the image layout)`);
  });
  const actual = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
  if (actual !== descriptor.digest) throw new OciImageError(`${path}: content digest ${actual} does not match ${descriptor.digest}`);
  return JSON.parse(bytes.toString('utf8')) as T;
}

/** Reads the layout's single image (the first manifest of index.json). */
export async function readOciImage(layoutDirectory: string): Promise<OciImage> {
  const indexPath = join(layoutDirectory, 'index.json');
  const index = JSON.parse(
    await readFile(indexPath, 'utf8').catch((error: NodeJS.ErrnoException) => {
      throw new OciImageError(`${indexPath}: ${error.code ?? error.message} (not an OCI image layout)`);
    }),
  ) as { manifests?: Descriptor[] };
  const manifestDescriptor = index.manifests?.[0];
  if (manifestDescriptor === undefined) throw new OciImageError(`${indexPath}: no manifest`);
  const manifest = await readJsonBlob<{ config: Descriptor; layers: Descriptor[] }>(layoutDirectory, manifestDescriptor);
  const config = await readJsonBlob<{ config?: { Entrypoint?: string[]; Cmd?: string[]; Env?: string[]; User?: string; WorkingDir?: string } }>(layoutDirectory, manifest.config);
  const settings: ImageRuntimeSettings = {
    entrypoint: config.config?.Entrypoint ?? [],
    cmd: config.config?.Cmd ?? [],
    env: config.config?.Env ?? [],
  };
  if (config.config?.User !== undefined && config.config.User !== '') settings.user = config.config.User;
  if (config.config?.WorkingDir !== undefined && config.config.WorkingDir !== '') settings.workingDir = config.config.WorkingDir;
  return { layoutDirectory, manifestDigest: manifestDescriptor.digest, layers: manifest.layers, settings };
}

async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return `sha256:${hash.digest('hex')}`;
}

/** Applies one layer's whiteouts (`.wh.<name>` deletes, `.wh..wh..opq` empties the folder) to the rootfs below it. */
async function applyWhiteouts(rootfs: string, entries: string[]): Promise<void> {
  for (const entry of entries) {
    const path = entry.replace(/^\.\//, '');
    const slash = path.lastIndexOf('/');
    const directory = slash < 0 ? '' : path.slice(0, slash);
    const base = path.slice(slash + 1);
    if (base === '.wh..wh..opq') {
      const target = join(rootfs, directory);
      if (existsSync(target)) for (const child of await readdir(target)) await rm(join(target, child), { recursive: true, force: true });
    } else if (base.startsWith('.wh.')) {
      await rm(join(rootfs, directory, base.slice('.wh.'.length)), { recursive: true, force: true });
    }
  }
}

/**
 * The image's root filesystem, unpacked once per manifest digest (layers checked against their
 * digests, whiteouts applied, owners and modes kept: run as root). Concurrent callers of the same
 * image each unpack into a private folder and the first rename wins.
 */
export async function unpackRootfs(image: OciImage, cacheDirectory = ROOTFS_CACHE_DIRECTORY): Promise<string> {
  const hex = image.manifestDigest.slice('sha256:'.length);
  const target = join(cacheDirectory, hex);
  if (existsSync(join(target, '.complete'))) return join(target, 'rootfs');
  await mkdir(cacheDirectory, { recursive: true });
  const staging = join(cacheDirectory, `.staging-${hex.slice(0, 12)}-${process.pid}-${Date.now()}`);
  const rootfs = join(staging, 'rootfs');
  await mkdir(rootfs, { recursive: true });
  try {
    for (const layer of image.layers) {
      const path = blobPath(image.layoutDirectory, layer.digest);
      const actual = await sha256OfFile(path);
      if (actual !== layer.digest) throw new OciImageError(`${path}: layer digest ${actual} does not match ${layer.digest}`);
      const gzip = layer.mediaType.endsWith('+gzip') || layer.mediaType.endsWith('.gzip');
      const { stdout } = await execFileAsync('tar', [gzip ? '-tzf' : '-tf', path], { maxBuffer: 256 * 1024 * 1024 });
      const whiteouts = stdout.split('\n').filter((entry) => /(^|\/)\.wh\./.test(entry));
      await applyWhiteouts(rootfs, whiteouts);
      await execFileAsync('tar', [gzip ? '-xzf' : '-xf', path, '-C', rootfs, '--same-owner', '--numeric-owner', '--same-permissions', '--exclude=.wh.*', '--exclude=*/.wh.*']);
    }
    await writeFile(join(staging, '.complete'), image.manifestDigest);
    try {
      await rename(staging, target);
    } catch {
      // Another process finished first: use its copy.
      await rm(staging, { recursive: true, force: true });
    }
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  return join(target, 'rootfs');
}
