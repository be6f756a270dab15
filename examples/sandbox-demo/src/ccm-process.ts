import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { once } from 'node:events';

export interface CcmProcess {
  readonly pid: number | undefined;
  readonly logPath: string;
  /** Resolves with the exit code (or the signal name) when the process ends, for whatever reason. */
  readonly exited: Promise<number | string>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with how it ended. */
  stop(graceMs?: number): Promise<number | string>;
  /** The last lines of its log. */
  logTail(lines?: number): Promise<string>;
}

/** Starts the CCM as a child process (`node <main> ...args`); its output goes to `logPath`. */
export function startCcmProcess(options: { mainPath: string; args: string[]; logPath: string; echo?: (line: string) => void }): CcmProcess {
  const log = createWriteStream(options.logPath, { flags: 'a' });
  const child: ChildProcess = spawn(process.execPath, [options.mainPath, ...options.args], { stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on('data', (chunk: Buffer) => {
      log.write(chunk);
      if (options.echo !== undefined) for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') options.echo(line);
    });
  }
  const exited = new Promise<number | string>((resolve) => {
    child.once('error', (error) => {
      log.write(`failed to start: ${error.message}\n`);
      resolve('spawn-error');
    });
    child.once('close', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  }).then(async (result) => {
    log.end();
    await once(log, 'close').catch(() => undefined);
    return result;
  });

  return {
    pid: child.pid,
    logPath: options.logPath,
    exited,
    async stop(graceMs = 10_000) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        try {
          return await exited;
        } finally {
          clearTimeout(timer);
        }
      }
      return exited;
    },
    async logTail(lines = 40) {
      const text = await readFile(options.logPath, 'utf8').catch(() => '');
      return text.trimEnd().split('\n').slice(-lines).join('\n');
    },
  };
}
