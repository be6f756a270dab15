import { execFile } from 'node:child_process';
import { constants, existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** The result of building a Go program: its path, or why it cannot be had on this machine. */
export type GoBinary = { kind: 'built'; path: string; seconds: number } | { kind: 'unavailable'; reason: string };

export interface GoBinaryOptions {
  /** A folder with go.mod and a main package. */
  moduleDirectory: string;
  /** Name of the executable, written to `<moduleDirectory>/.bin/<name>`. */
  name: string;
  /** The main package to build: `.` (default), or the import path of a `tool` of go.mod. */
  packagePath?: string;
  /** `-ldflags` of the build (e.g. `-X` version variables), when the program needs them. */
  ldflags?: string;
  /** What to tell a person who lacks Go. */
  installHint: string;
}

/** `go 1.26.0` in go.mod -> [1, 26]. */
export function requiredGoVersion(goMod: string): [number, number] | undefined {
  const match = /^go\s+(\d+)\.(\d+)/m.exec(goMod);
  return match ? [Number(match[1]), Number(match[2])] : undefined;
}

/** `go version go1.26.8 linux/amd64` -> [1, 26]. */
export function parseGoVersion(output: string): [number, number] | undefined {
  const match = /go(\d+)\.(\d+)/.exec(output);
  return match ? [Number(match[1]), Number(match[2])] : undefined;
}

/**
 * Builds a Go program with the module proxy and Go's build cache. Safe when several test workers
 * build at once: each writes its own temporary file and renames it into place. The temporary file
 * starts as a copy of the last build, so Go finds its build ID up to date and skips the link when
 * nothing changed (a link of the kube-apiserver costs about 8 CPU-seconds, and every test process
 * on the real server asks for it once).
 */
export async function buildGoBinary(options: GoBinaryOptions): Promise<GoBinary> {
  const goMod = readFileSync(join(options.moduleDirectory, 'go.mod'), 'utf8');
  const required = requiredGoVersion(goMod);
  let versionOutput: string;
  try {
    versionOutput = (await execFileAsync('go', ['version'], { cwd: options.moduleDirectory })).stdout;
  } catch {
    return { kind: 'unavailable', reason: `Go is not installed (needed to build ${options.name}). ${options.installHint}` };
  }
  const installed = parseGoVersion(versionOutput);
  if (required && installed && (installed[0] < required[0] || (installed[0] === required[0] && installed[1] < required[1]))) {
    return {
      kind: 'unavailable',
      reason: `Go ${installed.join('.')} is too old to build ${options.name} (go.mod needs ${required.join('.')}). ${options.installHint}`,
    };
  }
  const binDirectory = join(options.moduleDirectory, '.bin');
  await mkdir(binDirectory, { recursive: true });
  const finalPath = join(binDirectory, options.name);
  const temporaryPath = join(binDirectory, `${options.name}.${process.pid}.${Date.now()}.tmp`);
  const started = Date.now();
  try {
    const ldflags = options.ldflags === undefined ? [] : ['-ldflags', options.ldflags];
    if (existsSync(finalPath)) await copyFile(finalPath, temporaryPath, constants.COPYFILE_FICLONE);
    await execFileAsync('go', ['build', ...ldflags, '-o', temporaryPath, options.packagePath ?? '.'], {
      cwd: options.moduleDirectory,
      env: { ...process.env, GOFLAGS: '-mod=readonly' },
      maxBuffer: 16 * 1024 * 1024,
      timeout: 30 * 60_000,
    });
    await rename(temporaryPath, finalPath);
  } catch (error) {
    await rm(temporaryPath, { force: true });
    const output = error instanceof Error && 'stderr' in error ? String((error as { stderr: unknown }).stderr).trim().split('\n').slice(-5).join(' | ') : String(error);
    if (existsSync(finalPath) && /EBUSY|ETXTBSY/.test(output)) return { kind: 'built', path: finalPath, seconds: (Date.now() - started) / 1000 };
    return { kind: 'unavailable', reason: `building ${options.name} with Go failed: ${output}. ${options.installHint}` };
  }
  return { kind: 'built', path: finalPath, seconds: (Date.now() - started) / 1000 };
}
