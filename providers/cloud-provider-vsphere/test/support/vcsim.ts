/**
 * Launcher for the vCenter simulator (e2e/vcsim: a Go module around govmomi's simulator package,
 * pinned in e2e/vcsim/go.mod and fetched through the Go module proxy).
 *
 * The binary is built into `e2e/vcsim/.bin/vcsim` with `GOFLAGS='-mod=readonly -buildvcs=false'`
 * (GOPROXY, GOCACHE and GOMODCACHE as the environment has them), then started per suite on
 * 127.0.0.1:0. It prints one JSON line with its URL, credentials and CA file; `stop()` ends it (it
 * also exits when our stdin closes, so a crashed test run does not leave it behind).
 *
 * Go must be at least the `go` line of e2e/vcsim/go.mod. GOTOOLCHAIN is `local` unless the
 * environment sets it, so a test run never downloads a toolchain by itself. When Go is missing or
 * too old, `vcsimSuite` fails the suite under CI=true and skips it loudly otherwise.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import { VcsimAdmin } from './vcsim-admin.js';

export const REPOSITORY_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
export const VCSIM_SOURCE_DIRECTORY = join(REPOSITORY_ROOT, 'e2e', 'vcsim');
/** Gitignored; holds the built simulator. */
export const VCSIM_BINARY_DIRECTORY = join(VCSIM_SOURCE_DIRECTORY, '.bin');
export const VCSIM_BINARY = join(VCSIM_BINARY_DIRECTORY, 'vcsim');
/** The build flags; .ci/install-prerequisites pre-builds with the same ones. */
export const VCSIM_GOFLAGS = '-mod=readonly -buildvcs=false';

/** The `go` line of e2e/vcsim/go.mod, e.g. `1.26.0`. */
export const VCSIM_REQUIRED_GO = requiredGoVersion(readFileSync(join(VCSIM_SOURCE_DIRECTORY, 'go.mod'), 'utf8'));
export const VCSIM_INSTALL_HINT =
  `install Go >= ${VCSIM_REQUIRED_GO} (the go line of e2e/vcsim/go.mod): run \`bash .ci/install-prerequisites\` as root ` +
  '(installs Go\'s own toolchain through the Go module proxy when `go` is missing or older), or put such a Go first on PATH';

export interface VcsimOptions {
  datacenters?: number;
  clustersPerDatacenter?: number;
  hostsPerCluster?: number;
  standaloneHostsPerDatacenter?: number;
  vmsPerPool?: number;
  /** Number of datacenters placed inside a folder. */
  folders?: number;
  username?: string;
  password?: string;
  plainHttp?: boolean;
  seedGuest?: boolean;
}

export * from './vcsim-admin.js';

export interface Vcsim {
  /** `https://127.0.0.1:<port>` (no path). */
  url: string;
  sdkUrl: string;
  username: string;
  password: string;
  /** PEM file of the simulator's self-signed CA certificate ('' with plainHttp). */
  caFile: string;
  /** PEM text of `caFile`. */
  ca: string | undefined;
  /** SHA-1 thumbprint of the certificate, `AB:CD:...`. */
  thumbprint: string;
  admin: VcsimAdmin;
  /** Everything the process wrote to stderr so far. */
  logs(): string;
  stop(): Promise<void>;
}

/** The version in a go.mod's `go` line. */
export function requiredGoVersion(goMod: string): string {
  const match = /^go\s+(\d+\.\d+(?:\.\d+)?)\s*$/m.exec(goMod);
  if (match?.[1] === undefined) throw new Error('e2e/vcsim/go.mod has no `go` line');
  return match[1];
}

/** Compares Go versions such as `1.26`, `1.26.0`, `go1.26.8` or `devel go1.27-abc`; undefined when `actual` has none. */
export function goVersionAtLeast(actual: string, required: string): boolean | undefined {
  const parse = (text: string): number[] | undefined => {
    const match = /(\d+)\.(\d+)(?:\.(\d+))?/.exec(text);
    return match === null ? undefined : [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
  };
  const have = parse(actual);
  const need = parse(required);
  if (have === undefined || need === undefined) return undefined;
  for (let index = 0; index < 3; index++) {
    if (have[index]! !== need[index]!) return have[index]! > need[index]!;
  }
  return true;
}

/** Why the simulator cannot be built here (no Go, or a Go older than go.mod needs), or undefined. */
export function vcsimUnavailableReason(): string | undefined {
  // Asked in the module's folder, so a GOTOOLCHAIN set by the environment is honoured as the build would.
  const go = spawnSync(goBinary(), ['env', 'GOVERSION'], { cwd: VCSIM_SOURCE_DIRECTORY, env: goEnvironment(), encoding: 'utf8' });
  if (go.error !== undefined) {
    const missing = (go.error as NodeJS.ErrnoException).code === 'ENOENT';
    return missing ? `Go is not installed (\`${goBinary()}\` is not on PATH)` : `\`${goBinary()} env GOVERSION\` could not run: ${go.error.message}`;
  }
  const printed = `${go.stdout}${go.stderr}`.trim();
  if (go.status !== 0) return `Go cannot build e2e/vcsim, which needs Go >= ${VCSIM_REQUIRED_GO} (\`${goBinary()} env GOVERSION\` there said: ${printed})`;
  const version = go.stdout.trim();
  const recent = goVersionAtLeast(version, VCSIM_REQUIRED_GO);
  if (recent === undefined) return `cannot tell the Go version (\`${goBinary()} env GOVERSION\` printed "${printed}")`;
  if (!recent) return `Go ${version.replace(/^go/, '')} is older than e2e/vcsim/go.mod needs (Go >= ${VCSIM_REQUIRED_GO})`;
  return undefined;
}

/**
 * `describe` for suites that need the simulator. When it cannot run: under CI=true one failing
 * test states why; elsewhere the suite is skipped with a console warning saying how to install.
 */
export function vcsimSuite(title: string, body: () => void): void {
  const reason = vcsimUnavailableReason();
  if (reason === undefined) {
    describe(title, body);
    return;
  }
  if (process.env['CI'] === 'true') {
    describe(title, () => {
      it('needs the vCenter simulator', () => {
        throw new Error(`the vCenter simulator cannot run: ${reason}; ${VCSIM_INSTALL_HINT}`);
      });
    });
    return;
  }
  console.warn(`\n*** SKIPPING "${title}": the vCenter simulator cannot run: ${reason}.\n*** To run it, ${VCSIM_INSTALL_HINT}\n`);
  describe.skip(title, body);
}

function goBinary(): string {
  return process.env['GO'] ?? 'go';
}

function goEnvironment(): NodeJS.ProcessEnv {
  return { ...process.env, GOFLAGS: VCSIM_GOFLAGS, GOTOOLCHAIN: process.env['GOTOOLCHAIN'] ?? 'local' };
}

let buildPromise: Promise<string> | undefined;

/** Builds (or finds up to date) and returns the simulator binary; once per test worker. */
export function buildVcsim(): Promise<string> {
  buildPromise ??= doBuild().catch((error: unknown) => {
    buildPromise = undefined;
    throw error;
  });
  return buildPromise;
}

const BUILD_TIMEOUT_MS = 300_000;

/**
 * Vitest workers may build at the same time, so each builds into its own temporary file in
 * `.bin/` and renames it over `vcsim`: a running or starting simulator never sees a half-written
 * file. The temporary file starts as a hard link to the current binary, because `go build -o`
 * leaves an up-to-date target alone (a tenth of a second) and replaces a stale one with a new
 * file, which never touches the shared one.
 */
async function doBuild(): Promise<string> {
  mkdirSync(VCSIM_BINARY_DIRECTORY, { recursive: true });
  removeAbandonedTemporaryFiles();
  const temporary = join(VCSIM_BINARY_DIRECTORY, `vcsim.${process.pid}.${randomUUID().slice(0, 8)}.tmp`);
  try {
    linkSync(VCSIM_BINARY, temporary);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  try {
    await runGoBuild(temporary);
    // rename() does nothing when both names are links to one file (the binary was up to date).
    if (sameFile(temporary, VCSIM_BINARY)) rmSync(temporary, { force: true });
    else renameSync(temporary, VCSIM_BINARY);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  return VCSIM_BINARY;
}

function sameFile(first: string, second: string): boolean {
  try {
    const a = statSync(first);
    const b = statSync(second);
    return a.dev === b.dev && a.ino === b.ino;
  } catch {
    return false;
  }
}

/** Temporary files left by a worker that was killed mid-build (older than the build timeout). */
function removeAbandonedTemporaryFiles(): void {
  for (const name of readdirSync(VCSIM_BINARY_DIRECTORY)) {
    if (!name.endsWith('.tmp')) continue;
    const path = join(VCSIM_BINARY_DIRECTORY, name);
    try {
      if (Date.now() - statSync(path).mtimeMs > 2 * BUILD_TIMEOUT_MS) rmSync(path, { force: true });
    } catch {
      // another worker removed or renamed it
    }
  }
}

function runGoBuild(output: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(goBinary(), ['build', '-o', output, '.'], { cwd: VCSIM_SOURCE_DIRECTORY, env: goEnvironment(), stdio: ['ignore', 'pipe', 'pipe'] });
    let printed = '';
    child.stdout?.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), BUILD_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`cannot run go build for the vCenter simulator: ${error.message}`));
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`go build of ${VCSIM_SOURCE_DIRECTORY} failed (${signal ?? `exit ${code}`}):\n${printed}`));
    });
  });
}

interface ReadyLine {
  url: string;
  sdkUrl: string;
  adminUrl: string;
  username: string;
  password: string;
  caFile: string;
  thumbprint: string;
}

/** Builds if needed, starts a simulator and waits until it serves. */
export async function startVcsim(options: VcsimOptions = {}): Promise<Vcsim> {
  const binary = await buildVcsim();
  const args = ['-exit-on-stdin-eof'];
  const numeric: Array<[string, number | undefined]> = [
    ['-dc', options.datacenters],
    ['-cluster', options.clustersPerDatacenter],
    ['-host', options.hostsPerCluster],
    ['-standalone-host', options.standaloneHostsPerDatacenter],
    ['-vm', options.vmsPerPool],
    ['-folder', options.folders],
  ];
  for (const [flag, value] of numeric) if (value !== undefined) args.push(`${flag}=${value}`);
  if (options.username !== undefined) args.push(`-username=${options.username}`);
  if (options.password !== undefined) args.push(`-password=${options.password}`);
  if (options.plainHttp) args.push('-http');
  if (options.seedGuest === false) args.push('-seed-guest=false');

  const child = spawn(binary, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const ready = await readReadyLine(child, () => stderr);
  const ca = ready.caFile === '' ? undefined : readFileSync(ready.caFile, 'utf8');
  let stopped: Promise<void> | undefined;
  return {
    url: ready.url,
    sdkUrl: ready.sdkUrl,
    username: ready.username,
    password: ready.password,
    caFile: ready.caFile,
    ca,
    thumbprint: ready.thumbprint,
    admin: new VcsimAdmin(ready.adminUrl, ca),
    logs: () => stderr,
    stop: () => (stopped ??= stopProcess(child)),
  };
}

function readReadyLine(child: ChildProcess, stderr: () => string): Promise<ReadyLine> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the vCenter simulator did not start within 30 s:\n${stderr()}`));
    }, 30_000);
    const onData = (chunk: Buffer): void => {
      buffer += chunk.toString('utf8');
      const newline = buffer.indexOf('\n');
      if (newline < 0) return;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      try {
        resolve(JSON.parse(buffer.slice(0, newline)) as ReadyLine);
      } catch (error) {
        child.kill('SIGKILL');
        reject(new Error(`the vCenter simulator printed an unexpected first line: ${buffer.slice(0, newline)} (${(error as Error).message})`));
      }
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
      clearTimeout(timer);
      reject(new Error(`the vCenter simulator exited (${signal ?? `exit ${code}`}) before it served:\n${stderr()}`));
    };
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.stdin?.end();
    child.kill('SIGTERM');
  });
}
