/**
 * Starts `moto_server` on 127.0.0.1 and a free port as a child process, and stops it. Used by the
 * adapter test and the e2e driver. When moto is not installed: `unavailableReason()` says why.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export const MOTO_INSTALL_HINT = 'install it with `pip install "moto[server]==5.2.1"` so that `moto_server` is on PATH';

export function motoUnavailableReason(): string | undefined {
  const probe = spawnSync('moto_server', ['--help'], { stdio: 'ignore', timeout: 20_000 });
  if (probe.error || probe.status !== 0) return `moto_server is not available (${probe.error?.message ?? `exit ${probe.status}`}); ${MOTO_INSTALL_HINT}`;
  return undefined;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface RunningMoto {
  endpoint: string;
  /** The last Python traceback moto_server wrote (an internal error of the simulator), if any. */
  lastTraceback(): string | undefined;
  stop(): Promise<void>;
}

/** moto logs every request: keep only the start-up output and the last tracebacks, not all of it. */
const START_OUTPUT_LIMIT = 64 * 1024;

/** The last `Traceback (most recent call last):` block of `text`, up to its exception line. */
export function lastTracebackIn(text: string): string | undefined {
  const start = text.lastIndexOf('Traceback (most recent call last):');
  if (start < 0) return undefined;
  const lines = text.slice(start).split('\n');
  const end = lines.findIndex((line, index) => index > 0 && line.length > 0 && !line.startsWith(' '));
  return lines.slice(0, end < 0 ? lines.length : end + 1).join('\n');
}

export async function startMoto(timeoutMs = 30_000): Promise<RunningMoto> {
  const port = await freePort();
  const child: ChildProcess = spawn('moto_server', ['-H', '127.0.0.1', '-p', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let tail = '';
  let traceback: string | undefined;
  const collect = (chunk: Buffer): void => {
    const text = chunk.toString();
    if (output.length < START_OUTPUT_LIMIT) output += text;
    tail = (tail + text).slice(-START_OUTPUT_LIMIT);
    if (text.includes('Traceback') || tail.includes('Traceback')) traceback = lastTracebackIn(tail) ?? traceback;
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const endpoint = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`moto_server exited with ${child.exitCode}: ${output}`);
    try {
      const response = await fetch(`${endpoint}/moto-api/`, { signal: AbortSignal.timeout(1000) });
      if (response.status < 500) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`moto_server did not start within ${timeoutMs} ms: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    endpoint,
    lastTraceback: () => traceback,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) {
          resolve();
          return;
        }
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}

/** `[ServiceOverride]` sections pointing EC2, ELB and ELBv2 of `region` at `endpoint`. */
export function serviceOverrides(endpoint: string, region: string): string {
  return ['EC2', 'Elastic Load Balancing', 'Elastic Load Balancing v2']
    .map((service, index) => `[ServiceOverride "${index + 1}"]\nService = ${service}\nRegion = ${region}\nURL = ${endpoint}\nSigningRegion = ${region}\n`)
    .join('');
}
