/**
 * Launcher for the vCenter simulator (e2e/vcsim/main.go, govmomi's simulator in GOPATH mode).
 *
 * The binary is built once into `<repo>/.vcsim/vcsim-<hash>` (hash of main.go and `go version`)
 * with `GO111MODULE=off GOPATH=/usr/share/gocode GOPROXY=off GOCACHE=<repo>/.vcsim/gocache`,
 * then started per suite on 127.0.0.1:0. It prints one JSON line with its URL, credentials and
 * CA file; `stop()` ends it (it also exits when our stdin closes, so a crashed test run does not
 * leave it behind).
 *
 * Missing Go or govmomi: `vcsimSuite` fails the suite under CI=true and skips it loudly otherwise.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import { VcsimAdmin } from './vcsim-admin.js';

export const REPOSITORY_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
export const VCSIM_SOURCE_DIRECTORY = join(REPOSITORY_ROOT, 'e2e', 'vcsim');
export const VCSIM_CACHE_DIRECTORY = join(REPOSITORY_ROOT, '.vcsim');
export const VCSIM_GOPATH = process.env['VCSIM_GOPATH'] ?? '/usr/share/gocode';
export const VCSIM_INSTALL_HINT = 'install Go and govmomi: sudo apt-get install golang-go golang-github-vmware-govmomi-dev';

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

/** Why the simulator cannot run here (no Go, no govmomi sources), or undefined. */
export function vcsimUnavailableReason(): string | undefined {
  const go = spawnSync(goBinary(), ['version'], { encoding: 'utf8' });
  if (go.error !== undefined || go.status !== 0) return `Go is not installed (\`${goBinary()} version\` failed: ${go.error?.message ?? go.stderr.trim()})`;
  const simulator = join(VCSIM_GOPATH, 'src', 'github.com', 'vmware', 'govmomi', 'simulator');
  if (!existsSync(simulator)) return `govmomi sources are missing (${simulator} does not exist)`;
  if (!existsSync(join(VCSIM_GOPATH, 'src', 'github.com', 'google', 'uuid'))) return `github.com/google/uuid is missing from ${VCSIM_GOPATH}`;
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

let buildPromise: Promise<string> | undefined;

/** Builds (once per main.go version) and returns the simulator binary path. */
export function buildVcsim(): Promise<string> {
  buildPromise ??= doBuild().catch((error: unknown) => {
    buildPromise = undefined;
    throw error;
  });
  return buildPromise;
}

async function doBuild(): Promise<string> {
  const source = readFileSync(join(VCSIM_SOURCE_DIRECTORY, 'main.go'));
  const goVersion = spawnSync(goBinary(), ['version'], { encoding: 'utf8' }).stdout.trim();
  const hash = createHash('sha256').update(source).update(goVersion).update(VCSIM_GOPATH).digest('hex').slice(0, 16);
  const binary = join(VCSIM_CACHE_DIRECTORY, `vcsim-${hash}`);
  if (existsSync(binary)) return binary;
  mkdirSync(VCSIM_CACHE_DIRECTORY, { recursive: true });
  const temporary = `${binary}.${process.pid}.tmp`;
  const environment: NodeJS.ProcessEnv = {
    ...process.env,
    GO111MODULE: 'off',
    GOPATH: VCSIM_GOPATH,
    GOPROXY: 'off',
    GOFLAGS: '',
    GOCACHE: join(VCSIM_CACHE_DIRECTORY, 'gocache'),
  };
  await new Promise<void>((resolve, reject) => {
    const child = spawn(goBinary(), ['build', '-o', temporary, '.'], { cwd: VCSIM_SOURCE_DIRECTORY, env: environment, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`cannot run go build for the vCenter simulator: ${error.message}`));
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`go build of ${VCSIM_SOURCE_DIRECTORY} failed (${signal ?? `exit ${code}`}):\n${output}`));
    });
  });
  renameSync(temporary, binary);
  return binary;
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
