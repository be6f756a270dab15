/** The azure-simulator binary as a separate process: flags, endpoint file, HTTPS with the CA, IMDS, credentials by flags, signals, exit codes. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { issueCertificate } from '@ccm/self-signed-certificate';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificateAssertion, serviceAccountToken } from '../test-support/signed-assertion.js';

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
    const badFederated = start(['--port', '0', '--endpoint-file', join(directory, 'y.json'), '--federated-credential', 'issuer-only']);
    expect(await badFederated.exit).toBe(2);
    expect(badFederated.stderr()).toContain('--federated-credential must be ISSUER,SUBJECT,ISSUER_KEY.pem');
    const missingCertificate = start(['--port', '0', '--endpoint-file', join(directory, 'z.json'), '--client-certificate-file', join(directory, 'absent.pem')]);
    expect(await missingCertificate.exit).toBe(2);
    expect(missingCertificate.stderr()).toMatch(/--client-certificate-file: cannot read .*absent\.pem: ENOENT/);
  });

  it('registers a client certificate and a federated credential given by flags (their assertions get tokens)', async () => {
    const certificate = issueCertificate({ commonName: 'flag-sp', keyType: 'rsa', notBefore: new Date(Date.now() - 60_000), notAfter: new Date(Date.now() + 86_400_000) });
    const issuerKeys = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
    await writeFile(join(directory, 'client.pem'), certificate.certificatePem);
    await writeFile(join(directory, 'issuer.pem'), issuerKeys.publicKey);
    const endpointFile = join(directory, 'assertions.json');
    const simulator = start(['--port', '0', '--endpoint-file', endpointFile, '--client-id', 'flag-client', '--tenant-id', 'flag-tenant', '--client-certificate-file', join(directory, 'client.pem'), '--federated-credential', `https://issuer.example/,system:serviceaccount:kube-system:ccm,${join(directory, 'issuer.pem')}`]);
    try {
      await expect.poll(() => simulator.stdout().split('\n').filter((line) => line !== '').length, { timeout: 15_000 }).toBe(2);
      const endpoint = JSON.parse(await readFile(endpointFile, 'utf8')) as Record<string, string>;
      const tokenEndpoint = `${endpoint['activeDirectoryEndpoint']}/flag-tenant/oauth2/v2.0/token`;
      const ca = await readFile(endpoint['caCertFile'] as string, 'utf8');
      const post = (assertion: string): Promise<number> =>
        new Promise((resolve, reject) => {
          const body = new URLSearchParams({ grant_type: 'client_credentials', client_id: 'flag-client', client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: assertion, scope: `${endpoint['resourceManagerEndpoint']}/.default` }).toString();
          request(tokenEndpoint, { method: 'POST', ca, headers: { 'content-type': 'application/x-www-form-urlencoded' } }, (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode ?? 0));
          })
            .on('error', reject)
            .end(body);
        });
      expect(await post(certificateAssertion({ ...certificate, clientId: 'flag-client', audience: tokenEndpoint }))).toBe(200);
      expect(await post(serviceAccountToken({ issuer: 'https://issuer.example/', subject: 'system:serviceaccount:kube-system:ccm', privateKeyPem: issuerKeys.privateKey }))).toBe(200);
      expect(await post(serviceAccountToken({ issuer: 'https://issuer.example/', subject: 'system:serviceaccount:default:other', privateKeyPem: issuerKeys.privateKey }))).toBe(400);
    } finally {
      simulator.child.kill('SIGTERM');
      await simulator.exit;
    }
  });
});
