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
  stop(): Promise<void>;
}

export async function startMoto(timeoutMs = 30_000): Promise<RunningMoto> {
  const port = await freePort();
  const child: ChildProcess = spawn('moto_server', ['-H', '127.0.0.1', '-p', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
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
