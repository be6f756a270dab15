/**
 * One container run by bare `runc run` on a bundle folder (config.json + a rootfs), in the
 * foreground: runc's exit status is the container's (128 + signal when it was killed). Every
 * container still alive when the test process exits is killed and deleted synchronously.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { OutputBuffer } from './output-buffer.js';

const execFileAsync = promisify(execFile);

/** runc's state folder for the test containers (not the system's /run/runc). */
export const RUNC_STATE_DIRECTORY = join(tmpdir(), 'ccm-pod-runner-runc');

export const RUNC_INSTALL_HINT = 'install runc and run the tests as root: `apt-get install runc` (`.ci/install-prerequisites` installs the pinned version)';

/** Why runc cannot run containers here, or undefined when it can. */
export async function runcUnavailableReason(): Promise<string | undefined> {
  if (process.getuid?.() !== 0) return 'the pod runner needs root (runc creates namespaces, cgroups and mounts)';
  try {
    await execFileAsync('runc', ['--version']);
  } catch (error) {
    return `runc is not installed (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
  return undefined;
}

/** Whether this runc was built with seccomp (`runc features`); false when it cannot say. */
export async function runcSupportsSeccomp(): Promise<boolean> {
  try {
    const { stdout } = await execFileAsync('runc', ['features']);
    return (JSON.parse(stdout) as { linux?: { seccomp?: { enabled?: boolean } } }).linux?.seccomp?.enabled === true;
  } catch {
    return false;
  }
}

export interface ContainerExit {
  /** The container's exit code (128 + signal number when a signal ended it). */
  code: number;
  at: number;
}

const live = new Set<string>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const id of live) {
      try {
        execFileSync('runc', ['--root', RUNC_STATE_DIRECTORY, 'delete', '--force', id], { stdio: 'ignore', timeout: 10_000 });
      } catch {
        // Gone already.
      }
    }
  });
}

export class RuncContainer {
  readonly output = new OutputBuffer(512 * 1024);
  readonly startedAt = Date.now();
  private exitValue: ContainerExit | undefined;
  readonly exited: Promise<ContainerExit>;

  private constructor(
    readonly id: string,
    readonly bundle: string,
    private readonly child: ChildProcess,
  ) {
    child.stdout!.setEncoding('utf8').on('data', (text: string) => this.output.append(text));
    child.stderr!.setEncoding('utf8').on('data', (text: string) => this.output.append(text));
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exitValue = { code: code ?? 128 + (signal === 'SIGKILL' ? 9 : 15), at: Date.now() };
        resolve(this.exitValue);
      });
      child.once('error', (error) => {
        this.output.append(`runc could not start: ${error.message}\n`);
        this.exitValue = { code: 127, at: Date.now() };
        resolve(this.exitValue);
      });
    });
  }

  /** `runc run --bundle <bundle> <id>` in the foreground. */
  static run(id: string, bundle: string): RuncContainer {
    installExitHook();
    const child = spawn('runc', ['--root', RUNC_STATE_DIRECTORY, 'run', '--bundle', bundle, id], { stdio: ['ignore', 'pipe', 'pipe'] });
    live.add(id);
    return new RuncContainer(id, bundle, child);
  }

  get exit(): ContainerExit | undefined {
    return this.exitValue;
  }

  isRunning(): boolean {
    return this.exitValue === undefined;
  }

  /** The container's init PID on the host (undefined once it stopped). */
  async pid(): Promise<number | undefined> {
    try {
      const { stdout } = await execFileAsync('runc', ['--root', RUNC_STATE_DIRECTORY, 'state', this.id]);
      const state = JSON.parse(stdout) as { pid?: number; status?: string };
      return state.status === 'running' ? state.pid : undefined;
    } catch {
      return undefined;
    }
  }

  /** `runc kill <id> <signal>`; a container that already stopped is fine. */
  async kill(signal: 'TERM' | 'KILL' | 'INT'): Promise<void> {
    if (!this.isRunning()) return;
    try {
      await execFileAsync('runc', ['--root', RUNC_STATE_DIRECTORY, 'kill', this.id, signal]);
    } catch (error) {
      if (this.isRunning() && !/not running|does not exist|container not running/i.test((error as { stderr?: string }).stderr ?? '')) throw error;
    }
  }

  /** `runc kill KILL` then `runc delete --force`: nothing of it left, whatever its state. */
  async remove(): Promise<void> {
    await this.kill('KILL').catch(() => undefined);
    await Promise.race([this.exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    await execFileAsync('runc', ['--root', RUNC_STATE_DIRECTORY, 'delete', '--force', this.id]).catch(() => undefined);
    live.delete(this.id);
  }
}
