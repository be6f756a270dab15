/** The gce-simulator binary as a separate process: flags, endpoint file, serving, SIGTERM. */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let directory: string;
let script: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'gce-simulator-bin-'));
  script = join(directory, 'gce-simulator.mjs');
  // Bundled from source so the test does not depend on a prior `tsc -b`.
  await build({
    entryPoints: [join(dirname(fileURLToPath(import.meta.url)), 'gce-simulator.ts')],
    outfile: script,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'silent',
  });
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

function start(args: string[]): { exit: Promise<number | null>; stderr: () => string; kill: () => void } {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { exit, stderr: () => stderr, kill: () => child.kill('SIGTERM') };
}

describe('gce-simulator binary', () => {
  it('writes its endpoint, serves the Compute API and exits 0 on SIGTERM', { timeout: 20_000 }, async () => {
    const endpointFile = join(directory, 'endpoint.json');
    const simulator = start(['--port', '0', '--endpoint-file', endpointFile, '--project', 'p1', '--region', 'europe-west1', '--zones', 'europe-west1-b,europe-west1-c', '--network', 'vpc', '--log-requests']);
    await expect.poll(() => existsSync(endpointFile), { timeout: 10_000 }).toBe(true);
    const endpoint = JSON.parse(await readFile(endpointFile, 'utf8')) as Record<string, unknown>;
    const url = String(endpoint['url']);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(endpoint).toEqual({ url, project: 'p1', region: 'europe-west1', zones: ['europe-west1-b', 'europe-west1-c'], network: 'vpc', tokenUrl: `${url}/token`, metadataHost: url.replace('http://', '') });
    const token = (await (await fetch(String(endpoint['tokenUrl']), { method: 'POST' })).json()) as { accessToken: string };
    const zones = await fetch(`${url}/compute/v1/projects/p1/zones`, { headers: { authorization: `Bearer ${token.accessToken}` } });
    expect(((await zones.json()) as { items: { name: string }[] }).items.map((zone) => zone.name)).toEqual(['europe-west1-b', 'europe-west1-c']);
    await fetch(`${url}/compute/v1/projects/p1/zones/nope`, { headers: { authorization: `Bearer ${token.accessToken}` } });
    simulator.kill();
    expect(await simulator.exit).toBe(0);
    expect(simulator.stderr()).toContain('gce-simulator: GET /compute/v1/projects/p1/zones -> 200\n');
    expect(simulator.stderr()).toContain("gce-simulator: GET /compute/v1/projects/p1/zones/nope -> 404 notFound: The resource 'projects/p1/zones/nope' was not found\n");
  });

  it('exits 2 naming a missing or bad flag', async () => {
    const noFile = start(['--port', '0']);
    expect(await noFile.exit).toBe(2);
    expect(noFile.stderr()).toContain('--endpoint-file is required');
    const badPort = start(['--port', 'x', '--endpoint-file', join(directory, 'e.json')]);
    expect(await badPort.exit).toBe(2);
    expect(badPort.stderr()).toContain('--port must be a port number');
  });

  it('exits 1 naming an unreadable discovery document', async () => {
    const missing = join(directory, 'missing.json');
    const simulator = start(['--endpoint-file', join(directory, 'e2.json'), '--discovery-document', missing]);
    expect(await simulator.exit).toBe(1);
    expect(simulator.stderr()).toContain(`cannot read the discovery document ${missing}`);
  });
});
