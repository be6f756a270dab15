import { spawn, type ChildProcess } from 'node:child_process';
import type { CcmProcessSpec } from '../conformance/provider-driver.js';
import { OutputBuffer } from './output-buffer.js';

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface SpawnedProcessOptions {
  /** A short name for messages, e.g. `ccm-1`. */
  label: string;
  spec: CcmProcessSpec;
  /** Appended after `spec.args`. */
  extraArgs?: string[];
}

/** Every process the harness started and has not seen exit; killed if the test runner exits. */
const liveProcesses = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of liveProcesses) child.kill('SIGKILL');
  });
}

/** Kills `child` with SIGKILL if the test runner exits while it still runs (any harness process). */
export function killWithTestRunner(child: ChildProcess): void {
  installExitHook();
  liveProcesses.add(child);
  child.once('exit', () => liveProcesses.delete(child));
}

/**
 * A child process (normally a CCM) whose stdout and stderr are kept in a bounded buffer, with
 * a stop that sends SIGTERM and then SIGKILL after a timeout.
 */
export class SpawnedProcess {
  readonly label: string;
  readonly commandLine: string;
  private readonly child: ChildProcess;
  private readonly buffer = new OutputBuffer();
  private exit: ProcessExit | undefined;
  private readonly exited: Promise<ProcessExit>;

  private constructor(options: SpawnedProcessOptions) {
    this.label = options.label;
    const args = [...options.spec.args, ...(options.extraArgs ?? [])];
    this.commandLine = [options.spec.command, ...args].join(' ');
    installExitHook();
    this.child = spawn(options.spec.command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...options.spec.env },
    });
    liveProcesses.add(this.child);
    this.child.stdout?.setEncoding('utf8').on('data', (text: string) => this.buffer.append(text));
    this.child.stderr?.setEncoding('utf8').on('data', (text: string) => this.buffer.append(text));
    this.exited = new Promise((resolve) => {
      this.child.once('error', (error) => {
        this.buffer.append(`[harness] could not start ${this.label}: ${error.message}\n`);
        this.exit ??= { code: null, signal: null };
        liveProcesses.delete(this.child);
        resolve(this.exit);
      });
      this.child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        liveProcesses.delete(this.child);
        resolve(this.exit);
      });
    });
  }

  static start(options: SpawnedProcessOptions): SpawnedProcess {
    return new SpawnedProcess(options);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** How the process ended, or undefined while it runs. */
  exitStatus(): ProcessExit | undefined {
    return this.exit;
  }

  isRunning(): boolean {
    return this.exit === undefined;
  }

  waitForExit(): Promise<ProcessExit> {
    return this.exited;
  }

  output(): string {
    return this.buffer.text();
  }

  outputTail(lines = 60): string {
    return this.buffer.tail(lines);
  }

  outputIncludes(fragment: string): boolean {
    return this.buffer.includes(fragment);
  }

  /** One line: label, pid and state. */
  describeState(): string {
    const state = this.exit === undefined ? 'running' : `exited (code ${this.exit.code}, signal ${this.exit.signal})`;
    return `${this.label} (pid ${this.pid ?? '?'}) ${state}`;
  }

  /** A block for failure messages: the state line and the output tail. */
  report(lines = 60): string {
    return `--- ${this.describeState()}; last ${lines} lines of output ---\n${this.outputTail(lines)}\n--- end of ${this.label} output ---`;
  }

  /** Sends a signal without waiting (SIGKILL for an abrupt death, SIGSTOP to freeze it). */
  signal(signal: NodeJS.Signals): void {
    if (this.exit === undefined) this.child.kill(signal);
  }

  /** SIGTERM, then SIGKILL when it has not exited within `timeoutMs`. Safe to call twice. */
  async stop(timeoutMs = 5_000): Promise<ProcessExit> {
    if (this.exit !== undefined) return this.exit;
    this.child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const first = await Promise.race([this.exited, timedOut]);
    clearTimeout(timer);
    if (first === 'timeout') {
      this.buffer.append(`[harness] ${this.label} ignored SIGTERM for ${timeoutMs} ms; sending SIGKILL\n`);
      this.child.kill('SIGKILL');
      return this.exited;
    }
    return first;
  }
}
