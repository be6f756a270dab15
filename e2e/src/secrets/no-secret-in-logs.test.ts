/**
 * No secret in any log: each provider's CCM binary, at `-v=10`, with planted credentials (the
 * kubeconfig bearer token or client key, AWS secret key and session token, the vSphere password,
 * the Azure client secret and certificate password, the GCE `token-body`, the OpenStack password
 * and application credential secret),
 * through runs that fail on purpose: the API server answers 401/403, the cloud endpoint answers
 * 403 or is unreachable. Every line the CCM wrote (stdout and stderr) is searched for each secret
 * as written, base64-encoded and URL-encoded.
 *
 * The "cloud" and "API server" here are one loopback HTTP server that refuses everything; the
 * success paths against moto and vcsim are not covered by this test.
 *
 * The runs are independent (own config and kubeconfig files, own emulator, own secure port; the
 * refuser answers everyone alike), so they run side by side (vitest's `maxConcurrency`, 5): each
 * CCM still runs its full time; the file takes about the longest run instead of their sum.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_CCM_BIN } from '@ccm/cloud-provider-sandbox/conformance';
import { AWS_CCM_BIN } from '@ccm/cloud-provider-aws/conformance';
import { AZURE_CCM_BIN } from '@ccm/cloud-provider-azure/conformance';
import { VSPHERE_CCM_BIN } from '@ccm/cloud-provider-vsphere/conformance';
import { GCP_CCM_BIN } from '@ccm/cloud-provider-gcp/conformance';
import { OPENSTACK_CCM_BIN } from '@ccm/cloud-provider-openstack/conformance';
import { startKubeEmulator } from '@ccm/kube-emulator';
import { findSecretLeaks, secretForms } from '@ccm/testing/bad-input';
import { killWithTestRunner } from '../harness/ccm-process.js';

const RUN_MS = 12_000;
const FAILURE_WAIT_MS = 45_000;

const SECRETS = {
  kubeToken: 'kube-token-Zq8vXw3Lr5Tn1Pk7',
  awsSecretKey: 'aws-secret/Kd93+jf0Wq1Zx8Lm4Nv6Bc2',
  awsSessionToken: 'aws-session-FQoGZXIvYXdzEJr//////////wEaDNm7Yq',
  vspherePassword: 'vsphere-pass:W8q!r#T2z&y@',
  clientKey: 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7client-key-body',
  azureClientSecret: 'azure-secret~Hq7.Wm2_Lx9-Rt4vNp8',
  azureCertificatePassword: 'azure-pfx-pass:Z3k!Qw9#',
  gceTokenBody: 'gce-token-body{refresh:Yt6.Pm3_Vc8}',
  openstackPassword: 'openstack-pass:Jw5!Hs2#Kq',
  openstackApplicationCredentialSecret: 'openstack-appcred~Rz4.Lm9_Xq',
} as const;

function findLeaks(output: string): string[] {
  return findSecretLeaks(output, SECRETS);
}

let refuser: Server;
let refuserUrl = '';
const requests: string[] = [];
const directory = mkdtempSync(join(tmpdir(), 'ccm-secrets-'));

beforeAll(async () => {
  // Refuses everything: 401 to Kubernetes clients with a token, 403 to the rest (AWS AuthFailure style).
  refuser = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    request.resume();
    if (request.headers.authorization?.startsWith('Bearer ')) {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 }));
      return;
    }
    if (request.url?.startsWith('/api')) {
      response.writeHead(403, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'forbidden: User "system:anonymous" cannot list', reason: 'Forbidden', code: 403 }));
      return;
    }
    response.writeHead(403, { 'content-type': 'text/xml' });
    response.end('<?xml version="1.0"?><Response><Errors><Error><Code>AuthFailure</Code><Message>AWS was not able to validate the provided access credentials</Message></Error></Errors></Response>');
  });
  await new Promise<void>((resolve) => refuser.listen(0, '127.0.0.1', resolve));
  refuserUrl = `http://127.0.0.1:${(refuser.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => refuser.close(() => resolve()));
  rmSync(directory, { recursive: true, force: true });
});

function kubeconfig(name: string, user: Record<string, string>, server = refuserUrl): string {
  const path = join(directory, name);
  const userYaml = Object.entries(user)
    .map(([key, value]) => `    ${key}: ${JSON.stringify(value)}`)
    .join('\n');
  writeFileSync(
    path,
    `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: ${server}\ncontexts:\n- name: x\n  context: {cluster: c, user: u}\ncurrent-context: x\nusers:\n- name: u\n  user:\n${userYaml}\n`,
  );
  return path;
}

/**
 * Runs the CCM for at least `runMs`, and on until it has logged `failure` (the error path this run
 * is about; at most `FAILURE_WAIT_MS` more, on a loaded machine the start alone may take seconds),
 * or until it exits; then SIGTERM. Returns everything it wrote.
 */
async function runCcm(bin: string, args: string[], failure: RegExp, env: Record<string, string> = {}, runMs = RUN_MS): Promise<{ output: string; code: number | null }> {
  args.push(`--secure-port=${await freePort()}`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, '-v=10', '--bind-address=127.0.0.1', ...args], { cwd: directory, env: { PATH: process.env['PATH'] ?? '', AWS_EC2_METADATA_DISABLED: 'true', ...env } });
    killWithTestRunner(child);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const started = Date.now();
    let kill: NodeJS.Timeout | undefined;
    const check = setInterval(() => {
      const elapsed = Date.now() - started;
      if (elapsed < runMs || (!failure.test(output) && elapsed < runMs + FAILURE_WAIT_MS)) return;
      clearInterval(check);
      child.kill('SIGTERM');
      kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    }, 250);
    child.on('close', (code) => {
      clearInterval(check);
      clearTimeout(kill);
      resolve({ output, code });
    });
  });
}

/** `failure`: what the run must have logged, so the error path was taken and there is something to search. */
function expectNoLeaks(output: string, failure: RegExp): void {
  if (process.env['SECRETS_TEST_SHOW']) process.stdout.write(`----\n${output.slice(0, 4000)}\n----\n`);
  expect(output).toMatch(failure);
  expect(findLeaks(output)).toEqual([]);
}

/** Runs `run` against a kube API emulator holding one uninitialized Node (10.0.0.1), so the node controller asks the cloud. */
async function withUninitializedNode(name: string, providerID: string | undefined, run: (emulator: Awaited<ReturnType<typeof startKubeEmulator>>) => Promise<void>): Promise<void> {
  const emulator = await startKubeEmulator();
  try {
    emulator.create('nodes', {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name },
      spec: { ...(providerID === undefined ? {} : { providerID }), taints: [{ key: 'node.cloudprovider.kubernetes.io/uninitialized', value: 'true', effect: 'NoSchedule' }] },
      status: { addresses: [{ type: 'InternalIP', address: '10.0.0.1' }] },
    });
    await run(emulator);
  } finally {
    await emulator.close();
  }
}

/** A free loopback port for the secure port (the default 10258 may be taken on a shared machine). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe.concurrent('no secret in any log (-v=10, failing runs)', () => {
  it('the leak finder finds a planted secret in each form', () => {
    for (const secret of Object.values(SECRETS)) for (const form of secretForms(secret)) expect(findLeaks(`x ${form} y`)).not.toEqual([]);
  });

  it('sandbox: bearer token refused with 401, cloud unreachable', async () => {
    const config = join(directory, 'sandbox.conf');
    writeFileSync(config, '[Global]\nurl = http://127.0.0.1:1\ncluster-id = secrets\nretries = 1\n');
    const { output } = await runCcm(SANDBOX_CCM_BIN, ['--cloud-provider=sandbox', `--cloud-config=${config}`, `--kubeconfig=${kubeconfig('token.kubeconfig', { token: SECRETS.kubeToken })}`, '--configure-cloud-routes=false', '--leader-elect=false'], /401 \(Unauthorized\)/);
    expectNoLeaks(output, /401 \(Unauthorized\)/);
  }, 120_000);

  it('sandbox: client key and password in the kubeconfig, refused with 403; delegated auth kubeconfigs with the token', async () => {
    const config = join(directory, 'sandbox2.conf');
    writeFileSync(config, '[Global]\nurl = http://127.0.0.1:1\ncluster-id = secrets\n');
    const withKey = kubeconfig('key.kubeconfig', { username: 'admin', password: SECRETS.vspherePassword, 'client-key-data': Buffer.from(`-----BEGIN PRIVATE KEY-----\n${SECRETS.clientKey}\n-----END PRIVATE KEY-----\n`).toString('base64') });
    const withToken = kubeconfig('auth.kubeconfig', { token: SECRETS.kubeToken });
    const { output } = await runCcm(SANDBOX_CCM_BIN, [
      '--cloud-provider=sandbox',
      `--cloud-config=${config}`,
      `--kubeconfig=${withKey}`,
      `--authentication-kubeconfig=${withToken}`,
      `--authorization-kubeconfig=${withToken}`,
      '--configure-cloud-routes=false',
      '--leader-elect=false',
    ], /401 \(Unauthorized\)|403 \(Forbidden\)/);
    expectNoLeaks(output, /401 \(Unauthorized\)|403 \(Forbidden\)/);
  }, 120_000);

  it('AWS: secret key and session token; a node to initialize, and every AWS endpoint answers AuthFailure', async () => {
    // A working API server (the emulator ignores the planted token), so the node controller asks EC2.
    await withUninitializedNode('ip-10-0-0-1.ec2.internal', 'aws:///us-east-1a/i-0123456789abcdef0', async (emulator) => {
      const config = join(directory, 'aws.conf');
      writeFileSync(
        config,
        [
          '[Global]',
          'Region = us-east-1',
          'Zone = us-east-1a',
          'VPC = vpc-0123456789abcdef0',
          'SubnetID = subnet-0123456789abcdef0',
          'KubernetesClusterID = secrets',
          ...['EC2', 'Elastic Load Balancing', 'Elastic Load Balancing v2', 'STS'].flatMap((service, index) => [`[ServiceOverride "${index}"]`, `Service = ${service}`, 'Region = us-east-1', `URL = ${refuserUrl}`, 'SigningRegion = us-east-1']),
          '',
        ].join('\n'),
      );
      const { output } = await runCcm(
        AWS_CCM_BIN,
        ['--cloud-provider=aws', `--cloud-config=${config}`, `--kubeconfig=${kubeconfig('aws.kubeconfig', { token: SECRETS.kubeToken }, emulator.url)}`, '--configure-cloud-routes=false', '--leader-elect=false'],
        /AuthFailure|403/,
        { AWS_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE', AWS_SECRET_ACCESS_KEY: SECRETS.awsSecretKey, AWS_SESSION_TOKEN: SECRETS.awsSessionToken },
      );
      expectNoLeaks(output, /AuthFailure|403/);
    });
  }, 120_000);

  it('vSphere: password in a Secret (secret-name), a node to initialize, vCenter unreachable (not TLS)', async () => {
    await withUninitializedNode('vm-1', 'vsphere://42000000-0000-0000-0000-000000000001', async (emulator) => {
      const port = refuserUrl.split(':').at(-1);
      emulator.create(
        'secrets',
        {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 'vsphere-creds', namespace: 'kube-system' },
          data: { '127.0.0.1.username': Buffer.from('administrator@vsphere.local').toString('base64'), '127.0.0.1.password': Buffer.from(SECRETS.vspherePassword).toString('base64') },
        },
        { namespace: 'kube-system' },
      );
      const config = join(directory, 'vsphere-secret.conf');
      writeFileSync(config, `[Global]\nsecret-name = vsphere-creds\nsecret-namespace = kube-system\nport = ${port}\ninsecure-flag = true\n[VirtualCenter "127.0.0.1"]\ndatacenters = dc1\n`);
      const { output } = await runCcm(VSPHERE_CCM_BIN, ['--cloud-provider=vsphere', `--cloud-config=${config}`, `--kubeconfig=${kubeconfig('vsphere-secret.kubeconfig', { token: SECRETS.kubeToken }, emulator.url)}`, '--configure-cloud-routes=false', '--leader-elect=false'], /127\.0\.0\.1/);
      expectNoLeaks(output, /127\.0\.0\.1/);
    });
  }, 120_000);

  it('Azure: client secret and (ignored) certificate password in azure.json, a node to initialize, Entra unreachable', async () => {
    await withUninitializedNode('agent-0', undefined, async (emulator) => {
      const config = join(directory, 'azure.json');
      writeFileSync(
        config,
        JSON.stringify({
          cloud: 'AzureStackCloud',
          resourceManagerEndpoint: 'https://127.0.0.1:1/',
          activeDirectoryEndpoint: 'https://127.0.0.1:1/',
          tenantId: 'tenant-1',
          subscriptionId: 'sub-1',
          aadClientId: 'client-1',
          aadClientSecret: SECRETS.azureClientSecret,
          aadClientCertPath: join(directory, 'azure-sp.pfx'),
          aadClientCertPassword: SECRETS.azureCertificatePassword,
          resourceGroup: 'rg',
          location: 'eastus',
          cloudConfigType: 'file',
        }),
      );
      const { output } = await runCcm(AZURE_CCM_BIN, ['--cloud-provider=azure', `--cloud-config=${config}`, `--kubeconfig=${kubeconfig('azure.kubeconfig', { token: SECRETS.kubeToken }, emulator.url)}`, '--configure-cloud-routes=false', '--leader-elect=false'], /Azure credential refused/);
      expectNoLeaks(output, /Azure credential refused/);
    });
  }, 120_000);

  it('GCP: token-body in gce.conf, a node to initialize, the token URL and Compute answer 403', async () => {
    await withUninitializedNode('node-1', 'gce://secrets-project/us-central1-a/node-1', async (emulator) => {
      const config = join(directory, 'gce.conf');
      writeFileSync(
        config,
        ['[global]', 'project-id = secrets-project', 'network-name = default', 'local-zone = us-central1-a', `api-endpoint = ${refuserUrl}/compute/v1/`, `token-url = ${refuserUrl}/token`, `token-body = "${SECRETS.gceTokenBody}"`, ''].join('\n'),
      );
      // Longer than the others: loading the Compute SDK takes 7 s on two loaded cores.
      const { output } = await runCcm(GCP_CCM_BIN, ['--cloud-provider=gce', `--cloud-config=${config}`, `--kubeconfig=${kubeconfig('gce.kubeconfig', { token: SECRETS.kubeToken }, emulator.url)}`, '--configure-cloud-routes=false', '--leader-elect=false'], /403/, {}, 30_000);
      expectNoLeaks(output, /403/);
    });
  }, 180_000);

  it('OpenStack: password, then an application credential secret, in cloud.conf, a node to initialize, Keystone answers 403', async () => {
    await withUninitializedNode('server-1', 'openstack:///6f0c1f4e-2a8b-4c55-9d3e-0b7a1c2d3e4f', async (emulator) => {
      const configs = {
        'openstack-password.conf': ['[Global]', `auth-url = ${refuserUrl}/v3`, 'username = admin', `password = "${SECRETS.openstackPassword}"`, 'user-domain-name = Default', 'tenant-name = admin', 'tenant-domain-name = Default', 'region = RegionOne', ''],
        'openstack-appcred.conf': ['[Global]', `auth-url = ${refuserUrl}/v3`, 'application-credential-id = 0123456789abcdef', `application-credential-secret = "${SECRETS.openstackApplicationCredentialSecret}"`, 'region = RegionOne', ''],
      };
      for (const [name, lines] of Object.entries(configs)) {
        const config = join(directory, name);
        writeFileSync(config, lines.join('\n'));
        const { output } = await runCcm(OPENSTACK_CCM_BIN, ['--cloud-provider=openstack', `--cloud-config=${config}`, `--kubeconfig=${kubeconfig(`${name}.kubeconfig`, { token: SECRETS.kubeToken }, emulator.url)}`, '--configure-cloud-routes=false', '--leader-elect=false'], /403/);
        expectNoLeaks(output, /403/);
      }
    });
  }, 180_000);

  it('vSphere: password in the config, vCenter unreachable (not TLS), the API server 401', async () => {
    const config = join(directory, 'vsphere.conf');
    const port = refuserUrl.split(':').at(-1);
    writeFileSync(config, `[Global]\nuser = administrator@vsphere.local\npassword = "${SECRETS.vspherePassword}"\nport = ${port}\ninsecure-flag = true\n[VirtualCenter "127.0.0.1"]\ndatacenters = dc1\n`);
    const { output } = await runCcm(VSPHERE_CCM_BIN, ['--cloud-provider=vsphere', `--cloud-config=${config}`, `--kubeconfig=${kubeconfig('vsphere.kubeconfig', { token: SECRETS.kubeToken })}`, '--configure-cloud-routes=false', '--leader-elect=false'], /is not available/);
    expectNoLeaks(output, /is not available/);
  }, 120_000);
});
