/**
 * The azure-cloud-controller-manager binary (dist/cloud-controller-manager/main.js) as a child
 * process at -v=10, against @ccm/kube-emulator and the Azure simulator (in this process), with
 * each credential kind of azure.json: it initializes a node with a client certificate (PKCS#12),
 * with managed identity (the simulator's IMDS through AZURE_POD_IDENTITY_AUTHORITY_HOST) and with
 * workload identity (the webhook's AZURE_FEDERATED_TOKEN_FILE / AZURE_CLIENT_ID /
 * AZURE_TENANT_ID). A wrong client secret keeps the CCM running and the node tainted, with one
 * "Azure credential refused" line; ARM throttling (429 + Retry-After) is ridden out. No secret,
 * certificate password or assertion appears in any output line.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findSecretLeaks } from '@ccm/testing/bad-input';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CcmProcessSpec } from '../../../../e2e/src/conformance/provider-driver.js';
import { findTaint, isInitialized, registerNode } from '../../../../e2e/src/harness/node-registration.js';
import { TestCluster, type CcmInstance } from '../../../../e2e/src/harness/test-cluster.js';
import { expectToHold } from '../../../../e2e/src/harness/wait-for.js';
import { AZURE_CCM_BIN } from '../conformance/azure-driver.js';
import { rsaClientCertificate, writePfx } from '../credentials/certificate-files.js';
import { issuerKeyPair, serviceAccountToken } from '../credentials/service-account-token.js';
import { AzureCloudSeeder } from '../support/azure-cloud-seeder.js';
import { launchAzureSimulator, simulatorCloudConfig, simulatorUnavailableReason, SIMULATOR_INSTALL_HINT, type AzureSimulator } from '../support/azure-simulator-launcher.js';

const UNINITIALIZED = 'node.cloudprovider.kubernetes.io/uninitialized';
const RESOURCE_GROUP = 'RG-E2E-Credentials';
const ISSUER = 'https://oidc.e2e-cluster.example/';
const SUBJECT = 'system:serviceaccount:kube-system:cloud-controller-manager';
const PFX_PASSWORD = 'E2e-Pfx-Pa55word!';
const WRONG_SECRET = 'wrong-secret-Zq8vXw3Lr5Tn1Pk7';
const WAIT_MS = 45_000;

const unavailable = (await simulatorUnavailableReason()) ?? (existsSync(AZURE_CCM_BIN) ? undefined : `the Azure CCM is not built (${AZURE_CCM_BIN} is missing)`);
if (unavailable !== undefined && process.env['CI'] === 'true') throw new Error(`the credential end-to-end tests need the simulator and the built CCM under CI=true: ${unavailable}; ${SIMULATOR_INSTALL_HINT}`);
if (unavailable !== undefined) console.warn(`SKIPPING the azure-cloud-controller-manager credential tests: ${unavailable}; ${SIMULATOR_INSTALL_HINT}`);

describe.skipIf(unavailable !== undefined)('azure-cloud-controller-manager with each credential kind (kube-emulator, Azure simulator)', { timeout: 120_000 }, () => {
  let simulator: AzureSimulator;
  let seeder: AzureCloudSeeder;
  let cluster: TestCluster;
  const certificate = rsaClientCertificate();
  const issuer = issuerKeyPair();
  const assertions: string[] = [];

  beforeAll(async () => {
    simulator = await launchAzureSimulator({ clientCertificates: [certificate.certificatePem], federatedCredentials: [{ issuer: ISSUER, subject: SUBJECT, issuerKeyPem: issuer.publicKey }] });
    seeder = new AzureCloudSeeder(simulator, RESOURCE_GROUP);
    await seeder.prepare();
    cluster = await TestCluster.start({ kubeApi: 'emulator' });
  }, 120_000);

  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') console.error(`CCM output for "${context.task.name}":\n${cluster.report(300)}`);
    await Promise.all(cluster.ccmInstances().map((instance) => instance.stop()));
  });

  afterAll(async () => {
    await cluster?.close();
    await simulator?.close();
  });

  /** Writes azure.json for the simulator with `credentialKeys` in place of the client secret. */
  function writeConfig(name: string, credentialKeys: Record<string, unknown>): string {
    const path = join(cluster.directory, `${name}.json`);
    writeFileSync(path, JSON.stringify({ ...simulatorCloudConfig(simulator, { resourceGroup: RESOURCE_GROUP }), aadClientSecret: undefined, ...credentialKeys }, null, 2), { mode: 0o600 });
    return path;
  }

  function spec(configPath: string, env: Record<string, string> = {}): CcmProcessSpec {
    return { command: process.execPath, args: [AZURE_CCM_BIN, '-v=10', '--cloud-provider=azure', `--cloud-config=${configPath}`, '--configure-cloud-routes=false'], env: { NODE_EXTRA_CA_CERTS: simulator.caCertFile, ...env } };
  }

  async function startWithNode(nodeName: string, ccmSpec: CcmProcessSpec): Promise<CcmInstance> {
    await seeder.createVirtualMachine(nodeName);
    await registerNode(cluster.client, { name: nodeName });
    return cluster.startCcm(ccmSpec, { label: nodeName });
  }

  async function expectInitialized(nodeName: string): Promise<void> {
    await cluster.waitFor(
      `node ${nodeName} initialized with its Azure provider ID`,
      async (observe) => {
        const node = await cluster.client.getNode(nodeName);
        observe(node.spec);
        return isInitialized(node) && node.spec?.providerID === `azure:///subscriptions/${simulator.subscriptionId}/resourceGroups/rg-e2e-credentials/providers/Microsoft.Compute/virtualMachines/${nodeName}`;
      },
      WAIT_MS,
    );
  }

  /** Milliseconds from the first to the last of some klog lines (`E1128 00:28:35.007708 ...`). */
  function spanMs(lines: readonly string[]): number {
    const timeOf = (line: string): number => {
      const match = /^[IWEF]\d{4} (\d{2}):(\d{2}):(\d{2})\.(\d{6}) /.exec(line);
      if (match === null) throw new Error(`not a klog line: ${line}`);
      const [hours, minutes, seconds, micros] = match.slice(1).map(Number) as [number, number, number, number];
      return ((hours * 60 + minutes) * 60 + seconds) * 1000 + micros / 1000;
    };
    const span = timeOf(lines[lines.length - 1] ?? '') - timeOf(lines[0] ?? '');
    return span < 0 ? span + 86_400_000 : span;
  }

  /**
   * The refusal is logged once however often the node is retried: every "Azure credential refused"
   * line names a different problem (on a loaded machine a first attempt may time out before Entra
   * answers, which is a problem of its own), and exactly one names `expected`.
   */
  function expectEachProblemOnce(ccm: CcmInstance, expected: RegExp): void {
    const refused = ccm.process.output().split('\n').filter((line) => line.includes('Azure credential refused'));
    const problems = refused.map((line) => /problem="(.*)"/.exec(line)?.[1] ?? line);
    expect(new Set(problems).size, refused.join('\n')).toBe(problems.length);
    expect(problems.filter((problem) => expected.test(problem)), refused.join('\n')).toHaveLength(1);
  }

  function expectNoSecretIn(ccm: CcmInstance): void {
    const secrets: Record<string, string> = { clientSecret: simulator.clientSecret, wrongSecret: WRONG_SECRET, pfxPassword: PFX_PASSWORD, privateKey: certificate.privateKeyPem.split('\n')[1] ?? '' };
    assertions.forEach((assertion, index) => (secrets[`assertion${index}`] = assertion));
    expect(findSecretLeaks(ccm.process.output(), secrets)).toEqual([]);
  }

  it('initializes a node with a PKCS#12 client certificate (aadClientCertPath, aadClientCertPassword)', async () => {
    const pfx = writePfx(cluster.directory, 'sp.pfx', certificate, PFX_PASSWORD);
    const ccm = await startWithNode('cert-node', spec(writeConfig('certificate', { aadClientCertPath: pfx, aadClientCertPassword: PFX_PASSWORD })));
    await expectInitialized('cert-node');
    expect(ccm.process.output()).toMatch(/Azure cloud provider configured.*authentication="client certificate"/);
    expectNoSecretIn(ccm);
  });

  it('initializes a node with managed identity from the simulator IMDS (AZURE_POD_IDENTITY_AUTHORITY_HOST)', async () => {
    const ccm = await startWithNode('msi-node', spec(writeConfig('managed-identity', { useManagedIdentityExtension: true, aadClientId: 'msi', aadClientSecret: 'msi' }), { AZURE_POD_IDENTITY_AUTHORITY_HOST: simulator.imdsEndpoint }));
    await expectInitialized('msi-node');
    expect(simulator.imdsRequests()).toBeGreaterThan(0);
    // AKS's "aadClientSecret": "msi" loses to managed identity, as upstream.
    expect(ccm.process.output()).toMatch(/credential keys ignored.*ignored="aadClientSecret"/);
    expectNoSecretIn(ccm);
  });

  it('initializes a node with workload identity from the webhook environment (AZURE_FEDERATED_TOKEN_FILE, AZURE_CLIENT_ID, AZURE_TENANT_ID)', async () => {
    const tokenFile = join(cluster.directory, 'azure-identity-token');
    const assertion = serviceAccountToken({ issuer: ISSUER, subject: SUBJECT, privateKeyPem: issuer.privateKey });
    assertions.push(assertion);
    writeFileSync(tokenFile, assertion);
    const ccm = await startWithNode(
      'wi-node',
      spec(writeConfig('workload-identity', { tenantId: undefined, aadClientId: undefined }), { AZURE_FEDERATED_TOKEN_FILE: tokenFile, AZURE_CLIENT_ID: simulator.clientId, AZURE_TENANT_ID: simulator.tenantId }),
    );
    await expectInitialized('wi-node');
    expect(ccm.process.output()).toMatch(/authentication="workload identity"/);
    expectNoSecretIn(ccm);
  });

  it('keeps running with a wrong client secret: the node stays tainted, one refusal line, no secret in the output', async () => {
    // The certificate keys lose to the secret (upstream's order): their password must not show either.
    const ccm = await startWithNode('wrong-secret-node', spec(writeConfig('wrong-secret', { aadClientSecret: WRONG_SECRET, aadClientCertPath: writePfx(cluster.directory, 'ignored.pfx', certificate, PFX_PASSWORD), aadClientCertPassword: PFX_PASSWORD })));
    await cluster.waitFor('the CCM to log the refused credential', () => ccm.process.output().includes('Azure credential refused'), WAIT_MS);
    await expectToHold(
      'node wrong-secret-node keeps its uninitialized taint while the CCM runs',
      async (observe) => {
        const node = await cluster.client.getNode('wrong-secret-node');
        observe(node.spec?.taints);
        return findTaint(node, UNINITIALIZED) !== undefined;
      },
      4_000,
      { abortIf: () => cluster.unexpectedExit(), describeContext: () => cluster.report(), intervalMs: 500 },
    );
    expect(ccm.process.isRunning()).toBe(true);
    const lines = ccm.process.output().split('\n');
    expectEachProblemOnce(ccm, /AADSTS7000215: Invalid client secret provided\./);
    expect(lines.filter((line) => /^\s+at\s/.test(line)), 'no stack trace').toEqual([]);
    // No crash loop, no hot loop: core requeues the node with exponential backoff (5 ms doubling),
    // so the failed syncs over the run are logarithmic in its length (plus the kubelet's events).
    const syncErrors = lines.filter((line) => line.includes("error syncing 'wrong-secret-node'"));
    expect(syncErrors.length).toBeGreaterThan(1);
    expect(syncErrors.length).toBeLessThanOrEqual(Math.ceil(Math.log2((spanMs(syncErrors) + 1) / 5 + 1)) + 4);
    expectNoSecretIn(ccm);
  });

  it('keeps running with a refused federated token (another issuer key): one refusal line, the assertion in no output line', async () => {
    const tokenFile = join(cluster.directory, 'refused-identity-token');
    const assertion = serviceAccountToken({ issuer: ISSUER, subject: SUBJECT, privateKeyPem: issuerKeyPair().privateKey });
    assertions.push(assertion);
    writeFileSync(tokenFile, assertion);
    const ccm = await startWithNode('wi-refused-node', spec(writeConfig('workload-identity-refused', { useFederatedWorkloadIdentityExtension: true, aadFederatedTokenFile: tokenFile })));
    await cluster.waitFor('the CCM to log the refused assertion', () => ccm.process.output().includes('Azure credential refused'), WAIT_MS);
    // A few node retries later the refusal is still logged once.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(ccm.process.isRunning()).toBe(true);
    expectEachProblemOnce(ccm, /AADSTS700027/);
    expect(isInitialized(await cluster.client.getNode('wi-refused-node'))).toBe(false);
    expectNoSecretIn(ccm);
  });

  it('rides out ARM throttling (429 with Retry-After) within the budget and initializes the node', async () => {
    await seeder.createVirtualMachine('throttled-node');
    simulator.setThrottle({ requestsPerSecond: 2, burst: 1 });
    try {
      await registerNode(cluster.client, { name: 'throttled-node' });
      const ccm = await cluster.startCcm(spec(writeConfig('throttled', { aadClientSecret: simulator.clientSecret })), { label: 'throttled-node' });
      await expectInitialized('throttled-node');
      expect(ccm.process.output()).toMatch(/throttled; retrying in \d+ms/);
      expectNoSecretIn(ccm);
    } finally {
      simulator.setThrottle(undefined);
    }
  });
});
