/** The kube-emulator binary as a separate process: flags, output, kubeconfig, signals, exit codes. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';

let directory: string;
let script: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'kube-emulator-bin-'));
  script = join(directory, 'kube-emulator.mjs');
  // Bundle the entry point from source so the test does not depend on a prior `tsc -b`.
  await build({
    entryPoints: [join(dirname(fileURLToPath(import.meta.url)), 'kube-emulator.ts')],
    outfile: script,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'silent',
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

function start(args: string[]): { child: ChildProcessWithoutNullStreams; lines: () => string[]; exit: Promise<number | null>; stderr: () => string } {
  const child = spawn(process.execPath, [script, ...args]);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, lines: () => stdout.split('\n').filter((line) => line !== ''), exit, stderr: () => stderr };
}

describe('kube-emulator binary', () => {
  it('prints the URL and kubeconfig path, serves the API and stops on SIGTERM', async () => {
    const kubeconfig = join(directory, 'kubeconfig');
    const emulatorProcess = start(['--port', '0', '--kubeconfig', kubeconfig]);
    await expect.poll(() => emulatorProcess.lines().length, { timeout: 10_000 }).toBe(2);
    const [listening, written] = emulatorProcess.lines();
    expect(listening).toMatch(/^kube-emulator listening on http:\/\/127\.0\.0\.1:\d+$/);
    expect(written).toBe(`kube-emulator kubeconfig written to ${kubeconfig}`);
    const url = listening?.slice('kube-emulator listening on '.length) ?? '';
    const config = parseYaml(await readFile(kubeconfig, 'utf8')) as { clusters: Array<{ cluster: Record<string, unknown> }> };
    expect(config.clusters[0]?.cluster).toEqual({ server: url, 'insecure-skip-tls-verify': true });
    expect(await (await fetch(`${url}/readyz`)).text()).toBe('ok');
    emulatorProcess.child.kill('SIGTERM');
    expect(await emulatorProcess.exit).toBe(0);
  });

  it('serves HTTPS with a certificate the kubeconfig trusts', async () => {
    const emulatorProcess = start(['--https']);
    await expect.poll(() => emulatorProcess.lines().length, { timeout: 10_000 }).toBe(2);
    expect(emulatorProcess.lines()[0]).toMatch(/^kube-emulator listening on https:\/\/127\.0\.0\.1:\d+$/);
    const path = emulatorProcess.lines()[1]?.slice('kube-emulator kubeconfig written to '.length) ?? '';
    const config = parseYaml(await readFile(path, 'utf8')) as { clusters: Array<{ cluster: Record<string, unknown> }> };
    expect(config.clusters[0]?.cluster['certificate-authority-data']).toEqual(expect.any(String));
    emulatorProcess.child.kill('SIGINT');
    expect(await emulatorProcess.exit).toBe(0);
  });

  it('exits 2 naming a bad flag', async () => {
    const emulatorProcess = start(['--port', 'abc']);
    expect(await emulatorProcess.exit).toBe(2);
    expect(emulatorProcess.stderr()).toContain('kube-emulator: --port must be an integer between 0 and 65535, got "abc"');
    const unknown = start(['--frobnicate']);
    expect(await unknown.exit).toBe(2);
    expect(unknown.stderr()).toContain('unknown flag --frobnicate');
  });
});
