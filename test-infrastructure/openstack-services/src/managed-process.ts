/**
 * A child process we own: started in its own process group (so the workers that Neutron, Octavia
 * and RabbitMQ fork die with it), stdout and stderr appended to a log file, stopped with SIGTERM
 * to the whole group and SIGKILL after a grace period. Every group still alive when Node exits is
 * killed synchronously, so a crashed test run leaves no service behind.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';

const liveGroups = new Set<number>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const group of liveGroups) killGroup(group, 'SIGKILL');
  });
}

function killGroup(group: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-group, signal);
  } catch {
    // already gone
  }
}

export interface ManagedProcessOptions {
  /** For messages: `keystone`, `neutron-server`. */
  name: string;
  command: string;
  args: readonly string[];
  logFile: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

export class ManagedProcess {
  readonly name: string;
  readonly logFile: string;
  readonly #child: ChildProcess;
  readonly #exited: Promise<number | null>;
  #exitCode: number | null | undefined;

  constructor(options: ManagedProcessOptions) {
    installExitHook();
    this.name = options.name;
    this.logFile = options.logFile;
    const log = openSync(options.logFile, 'a');
    try {
      this.#child = spawn(options.command, [...options.args], {
        cwd: options.cwd,
        env: options.env ?? process.env,
        stdio: ['ignore', log, log],
        detached: true,
      });
    } finally {
      closeSync(log);
    }
    const pid = this.#child.pid;
    if (pid !== undefined) liveGroups.add(pid);
    this.#exited = new Promise((resolve) => {
      this.#child.once('error', () => {
        this.#exitCode = null;
        if (pid !== undefined) liveGroups.delete(pid);
        resolve(null);
      });
      this.#child.once('exit', (code) => {
        this.#exitCode = code;
        resolve(code);
      });
    });
  }

  /** The process group (the main process's PID) the command and its workers run in; undefined if it did not start. */
  get processGroup(): number | undefined {
    return this.#child.pid;
  }

  /** Whether the main process has exited (its group may still hold children until stop()). */
  get exited(): boolean {
    return this.#exitCode !== undefined;
  }

  /** Resolves with the exit code (null when killed by a signal or not started). */
  waitForExit(): Promise<number | null> {
    return this.#exited;
  }

  /** The last lines of the log, for error messages. */
  logTail(lines = 20): string {
    try {
      return readFileSync(this.logFile, 'utf8').split('\n').slice(-lines).join('\n');
    } catch {
      return '';
    }
  }

  /** SIGTERM to the group, SIGKILL after `graceMs`; resolves once the main process is gone. */
  async stop(graceMs = 5_000): Promise<void> {
    const pid = this.#child.pid;
    if (pid === undefined) return;
    killGroup(pid, 'SIGTERM');
    // A stopped group (a test holding the Octavia worker) acts on SIGTERM only once continued.
    killGroup(pid, 'SIGCONT');
    const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), graceMs).unref());
    const outcome = await Promise.race([this.#exited.then(() => 'exited' as const), timer]);
    // The main process may exit before its workers: always finish the group off.
    killGroup(pid, 'SIGKILL');
    if (outcome === 'timeout') await this.#exited;
    liveGroups.delete(pid);
  }
}

/** Runs a command to completion (output to `logFile`); rejects with the log's tail on failure. */
export async function runToCompletion(options: ManagedProcessOptions & { timeoutMs?: number }): Promise<void> {
  const managed = new ManagedProcess(options);
  const timeoutMs = options.timeoutMs ?? 180_000;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const outcome = await Promise.race([managed.waitForExit(), timedOut]);
  clearTimeout(timer);
  await managed.stop(0);
  if (outcome === 'timeout') throw new Error(`${options.name} did not finish within ${timeoutMs / 1000} s; log ${options.logFile}:\n${managed.logTail()}`);
  if (outcome !== 0) throw new Error(`${options.name} failed (exit ${String(outcome)}); log ${options.logFile}:\n${managed.logTail()}`);
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
