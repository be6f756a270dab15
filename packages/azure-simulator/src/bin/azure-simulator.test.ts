/** The azure-simulator binary as a separate process: flags, endpoint file, HTTPS with the CA, signals, exit codes. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let directory: string;
let script: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'azure-simulator-bin-'));
  script = join(directory, 'azure-simulator.mjs');
  await build({
    entryPoints: [join(dirname(fileURLToPath(import.meta.url)), 'azure-simulator.ts')],
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

function start(args: string[]): { child: ChildProcessWithoutNullStreams; stdout: () => string; stderr: () => string; exit: Promise<number | null> } {
  const child = spawn(process.execPath, [script, ...args]);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exit };
}

function get(url: string, ca: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { ca }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

describe('azure-simulator binary', () => {
  it('writes the endpoint file, serves HTTPS its CA file verifies, and exits 0 on SIGTERM', async () => {
    const endpointFile = join(directory, 'endpoint.json');
    const simulator = start(['--port', '0', '--endpoint-file', endpointFile, '--location', 'westus2', '--subscription-id', 'sub-1', '--tenant-id', 'tenant-1', '--static-token', 'tok']);
    await expect.poll(() => simulator.stdout().split('\n').filter((line) => line !== '').length, { timeout: 15_000 }).toBe(2);
    const endpoint = JSON.parse(await readFile(endpointFile, 'utf8')) as Record<string, string>;
    expect(endpoint).toEqual({
      resourceManagerEndpoint: expect.stringMatching(/^https:\/\/127\.0\.0\.1:\d+$/),
      activeDirectoryEndpoint: endpoint['resourceManagerEndpoint'],
      caCertFile: expect.stringMatching(/ca\.crt$/),
      tenantId: 'tenant-1',
      subscriptionId: 'sub-1',
      clientId: expect.any(String),
      clientSecret: expect.any(String),
      location: 'westus2',
      staticToken: 'tok',
      imdsEndpoint: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      managedIdentityClientId: expect.any(String),
    });
    // IMDS on its own plain-HTTP listener: the system-assigned identity's token.
    const imds = await fetch(`${endpoint['imdsEndpoint']}/metadata/identity/oauth2/token?api-version=2018-02-01&resource=${encodeURIComponent(endpoint['resourceManagerEndpoint'] as string)}`, { headers: { Metadata: 'true' } });
    expect(imds.status).toBe(200);
    expect(await imds.json()).toMatchObject({ client_id: endpoint['managedIdentityClientId'], token_type: 'Bearer' });
    expect(simulator.stdout()).toContain(`azure-simulator listening on ${endpoint['resourceManagerEndpoint']}`);
    const ca = await readFile(endpoint['caCertFile'] as string, 'utf8');
    const configuration = await get(`${endpoint['activeDirectoryEndpoint']}/tenant-1/v2.0/.well-known/openid-configuration`, ca);
    expect(configuration.status).toBe(200);
    simulator.child.kill('SIGTERM');
    expect(await simulator.exit).toBe(0);
  });

  it('exits 2 naming a bad or unknown flag, or a missing endpoint file', async () => {
    const badPort = start(['--port', 'abc', '--endpoint-file', join(directory, 'x.json')]);
    expect(await badPort.exit).toBe(2);
    expect(badPort.stderr()).toContain('azure-simulator: --port must be an integer between 0 and 65535, got "abc"');
    const unknown = start(['--frobnicate']);
    expect(await unknown.exit).toBe(2);
    expect(unknown.stderr()).toContain('unknown flag --frobnicate');
    const noFile = start(['--port', '0']);
    expect(await noFile.exit).toBe(2);
    expect(noFile.stderr()).toContain('--endpoint-file is required');
  });
});
