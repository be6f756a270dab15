import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const demoPath = join(packageRoot, 'dist', 'demo.js');

function runDemo(args: string[], timeoutMs: number): Promise<{ code: number | null; signal: string | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [demoPath, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output });
    });
  });
}

// End to end: emulator + sandbox cloud + the sandbox CCM as a separate process (needs `pnpm build`).
describe('sandbox demo', () => {
  it('is built', () => {
    expect(existsSync(demoPath), `${demoPath} is missing: run \`pnpm build\` first`).toBe(true);
  });

  it('initializes every node, provisions the load balancer and programs routes, then exits 0', { timeout: 120_000 }, async () => {
    const result = await runDemo(['--exit-when-ready', '--timeout=90'], 110_000);
    expect(result.code, result.output).toBe(0);
    for (const node of ['demo-node-1', 'demo-node-2', 'demo-node-3']) {
      expect(result.output).toMatch(new RegExp(`node ${node}: initialized providerID=sandbox://i-[0-9a-f]{17} zone=sandbox-1[abc] type=m1\\.small`));
    }
    expect(result.output).toMatch(/service default\/demo-web: ingress=203\.0\.113\.\d+ backends=3/);
    expect(result.output).toMatch(/routes: 3\/3 10\.244\.1\.0\/24->demo-node-1 10\.244\.2\.0\/24->demo-node-2 10\.244\.3\.0\/24->demo-node-3/);
    expect(result.output).toContain('ready: every node is initialized');
    expect(result.output).toMatch(/cloud-controller-manager stopped \(/);
  });

  it('rejects unknown flags with usage and exit code 2', async () => {
    const result = await runDemo(['--bogus'], 20_000);
    expect(result.code).toBe(2);
    expect(result.output).toContain('unknown flag "--bogus"');
    expect(result.output).toContain('--exit-when-ready');
  });
});

describe('sandbox demo shutdown', () => {
  it('stops everything and exits 0 on SIGINT once running', { timeout: 120_000 }, async () => {
    const child = spawn(process.execPath, [demoPath, '--timeout=90'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const running = new Promise<void>((resolve) => {
      const onData = (chunk: Buffer): void => {
        output += chunk.toString('utf8');
        if (output.includes('press Ctrl-C to stop')) resolve();
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    });
    const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    const timer = setTimeout(() => child.kill('SIGKILL'), 110_000);
    try {
      await Promise.race([running, closed]);
      expect(output).toContain('press Ctrl-C to stop');
      child.kill('SIGINT');
      expect(await closed, output).toBe(0);
      expect(output).toContain('SIGINT: stopping');
      expect(output).toMatch(/cloud-controller-manager stopped \(/);
    } finally {
      clearTimeout(timer);
    }
  });
});
