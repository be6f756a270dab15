/**
 * Every credential kind of azure.json against the simulator, through the provider's real SDK
 * ports: a client certificate (PKCS#12 and PEM), managed identity from IMDS (system- and
 * user-assigned, IMDS found through AZURE_POD_IDENTITY_AUTHORITY_HOST), workload identity (the
 * federated token file, re-read after a rotation); a refused credential is logged once and
 * never with its secret; a certificate file that cannot be used stops the start naming its key.
 */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMetricsRegistry } from '@ccm/core/app';
import { CloudConfigError } from '@ccm/core/config';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAzureCloud } from '../../src/azure-cloud.js';
import { AzureApiError } from '../../src/errors.js';
import { rsaClientCertificate, writePem, writePfx } from '../credentials/certificate-files.js';
import { issuerKeyPair, serviceAccountToken } from '../credentials/service-account-token.js';
import { RecordingLogger, node } from '../helpers.js';
import { AzureCloudSeeder } from '../support/azure-cloud-seeder.js';
import { launchAzureSimulator, simulatorCloudConfig, simulatorUnavailableReason, SIMULATOR_INSTALL_HINT, type AzureSimulator } from '../support/azure-simulator-launcher.js';

const unavailable = await simulatorUnavailableReason();
if (unavailable !== undefined && process.env['CI'] === 'true') throw new Error(`the Azure simulator is required under CI=true: ${unavailable}; ${SIMULATOR_INSTALL_HINT}`);
if (unavailable !== undefined) console.warn(`SKIPPING the Azure credential kind tests: ${unavailable}; ${SIMULATOR_INSTALL_HINT}`);

const RESOURCE_GROUP = 'RG-Credentials';
const ISSUER = 'https://oidc.cluster.example/';
const SUBJECT = 'system:serviceaccount:kube-system:cloud-controller-manager';
const PFX_PASSWORD = 'Pfx-Pa55word-for-tests';
const USER_ASSIGNED = { clientId: 'ccm-user-assigned', objectId: 'ccm-user-assigned-object', resourceId: '/subscriptions/s/resourceGroups/rg/providers/Microsoft.ManagedIdentity/userAssignedIdentities/ccm' };

describe.skipIf(unavailable !== undefined)('credential kinds against the simulator', () => {
  let simulator: AzureSimulator;
  const directory = mkdtempSync(join(tmpdir(), 'azure-credential-kinds-'));
  const certificate = rsaClientCertificate();
  const issuer = issuerKeyPair();
  const previousImdsHost = process.env['AZURE_POD_IDENTITY_AUTHORITY_HOST'];

  beforeAll(async () => {
    simulator = await launchAzureSimulator({
      clientCertificates: [certificate.certificatePem],
      federatedCredentials: [{ issuer: ISSUER, subject: SUBJECT, issuerKeyPem: issuer.publicKey }],
      managedIdentities: { userAssigned: [USER_ASSIGNED] },
    });
    const seeder = new AzureCloudSeeder(simulator, RESOURCE_GROUP);
    await seeder.prepare();
    await seeder.createVirtualMachine('agent-0');
  }, 60_000);

  afterEach(() => {
    if (previousImdsHost === undefined) delete process.env['AZURE_POD_IDENTITY_AUTHORITY_HOST'];
    else process.env['AZURE_POD_IDENTITY_AUTHORITY_HOST'] = previousImdsHost;
  });

  afterAll(async () => {
    await simulator?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  /** The provider with `credentialKeys` instead of the client secret. */
  async function create(credentialKeys: Record<string, unknown>) {
    const log = new RecordingLogger();
    const config = { ...simulatorCloudConfig(simulator, { resourceGroup: RESOURCE_GROUP }), aadClientSecret: undefined, ...credentialKeys };
    const cloud = await createAzureCloud(JSON.stringify(config, null, 2), { logger: log, metrics: createMetricsRegistry() }, { caPem: simulator.caCertificatePem, retry: { initialDelayMs: 1, maxDelayMs: 5 } });
    return { cloud, log };
  }

  const providerIdOfAgent = (): string => `azure:///subscriptions/${simulator.subscriptionId}/resourceGroups/rg-credentials/providers/Microsoft.Compute/virtualMachines/agent-0`;

  it.each<[string, () => Record<string, unknown>, string]>([
    ['a PKCS#12 client certificate with its password', () => ({ aadClientCertPath: writePfx(directory, 'sp.pfx', certificate, PFX_PASSWORD), aadClientCertPassword: PFX_PASSWORD }), 'client certificate'],
    ['a PEM client certificate', () => ({ aadClientCertPath: writePem(directory, 'sp.pem', certificate) }), 'client certificate'],
    ['the system-assigned managed identity', () => ((process.env['AZURE_POD_IDENTITY_AUTHORITY_HOST'] = simulator.imdsEndpoint), { useManagedIdentityExtension: true }), 'managed identity (system-assigned)'],
    ['a user-assigned managed identity by client ID', () => ((process.env['AZURE_POD_IDENTITY_AUTHORITY_HOST'] = simulator.imdsEndpoint), { useManagedIdentityExtension: true, userAssignedIdentityID: USER_ASSIGNED.clientId }), 'managed identity (user-assigned)'],
    ['a user-assigned managed identity by resource ID', () => ((process.env['AZURE_POD_IDENTITY_AUTHORITY_HOST'] = simulator.imdsEndpoint), { useManagedIdentityExtension: true, userAssignedIdentityID: USER_ASSIGNED.resourceId }), 'managed identity (user-assigned)'],
    [
      'workload identity (federated token file)',
      () => {
        const path = join(directory, 'azure-identity-token');
        writeFileSync(path, serviceAccountToken({ issuer: ISSUER, subject: SUBJECT, privateKeyPem: issuer.privateKey }));
        return { useFederatedWorkloadIdentityExtension: true, aadFederatedTokenFile: path };
      },
      'workload identity',
    ],
  ])('initializes a node with %s', async (_case, keys, kind) => {
    const { cloud, log } = await create(keys());
    expect((await cloud.instancesV2().instanceMetadata(node('agent-0')))?.providerId).toBe(providerIdOfAgent());
    expect(log.lines.find((line) => line.message === 'Azure cloud provider configured')?.fields?.['authentication']).toBe(kind);
    expect(log.lines.filter((line) => line.message.startsWith('Azure credential refused'))).toEqual([]);
  });

  it('reads the federated token file again after a rotation', async () => {
    const path = join(directory, 'rotated-token');
    // First a token the simulator refuses (signed by another key), then the kubelet's rotation.
    writeFileSync(path, serviceAccountToken({ issuer: ISSUER, subject: SUBJECT, privateKeyPem: issuerKeyPair().privateKey }));
    const { cloud, log } = await create({ useFederatedWorkloadIdentityExtension: true, aadFederatedTokenFile: path });
    const error = await cloud.instancesV2().instanceMetadata(node('agent-0')).catch((caught: unknown) => caught);
    expect((error as AzureApiError).kind).toBe('Unauthorized');
    expect(log.lines.filter((line) => line.message.startsWith('Azure credential refused'))).toHaveLength(1);
    writeFileSync(`${path}.new`, serviceAccountToken({ issuer: ISSUER, subject: SUBJECT, privateKeyPem: issuer.privateKey }));
    renameSync(`${path}.new`, path);
    // After the refusal's cooldown (1 s) the next call asks Entra again, with the new token.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await cloud.instancesV2().instanceMetadata(node('agent-0')))?.providerId).toBe(providerIdOfAgent());
    expect(log.lines.filter((line) => line.message === 'Azure credential accepted again')).toHaveLength(1);
  });

  it('a refused credential (unknown user-assigned identity, wrong certificate) is one Unauthorized error and one log line, with no password', async () => {
    process.env['AZURE_POD_IDENTITY_AUTHORITY_HOST'] = simulator.imdsEndpoint;
    const { cloud: unknownIdentity, log: identityLog } = await create({ useManagedIdentityExtension: true, userAssignedIdentityID: 'nobody' });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const error = await unknownIdentity.instancesV2().instanceMetadata(node('agent-0')).catch((caught: unknown) => caught);
      expect((error as AzureApiError).kind).toBe('Unauthorized');
    }
    expect(identityLog.lines.filter((line) => line.message.startsWith('Azure credential refused'))).toHaveLength(1);

    const stranger = rsaClientCertificate('not-registered');
    const { cloud: wrongCertificate, log } = await create({ aadClientCertPath: writePfx(directory, 'stranger.pfx', stranger, PFX_PASSWORD), aadClientCertPassword: PFX_PASSWORD });
    const error = await wrongCertificate.instancesV2().instanceMetadata(node('agent-0')).catch((caught: unknown) => caught);
    expect((error as AzureApiError).kind).toBe('Unauthorized');
    expect((error as Error).message).toMatch(/AADSTS700027/);
    const refused = log.lines.filter((line) => line.message.startsWith('Azure credential refused'));
    expect(refused).toHaveLength(1);
    expect(String(refused[0]?.fields?.['problem'])).toMatch(/AADSTS700027: The certificate with identifier used to sign the client assertion is not registered/);
    expect(JSON.stringify(log.lines)).not.toContain(PFX_PASSWORD);
  });

  it('stops the start naming file, line and key when the certificate cannot be used', async () => {
    const path = writePfx(directory, 'locked.pfx', certificate, PFX_PASSWORD);
    const failure = await create({ aadClientCertPath: path, aadClientCertPassword: 'Wr0ng-Pa55word' }).catch((caught: unknown) => caught);
    expect(failure).toBeInstanceOf(CloudConfigError);
    const problem = (failure as CloudConfigError).problems[0];
    expect(problem?.line).toBeGreaterThan(1);
    expect(problem?.message).toBe(`key "aadClientCertPassword": ${path}: the PKCS#12 file cannot be decrypted with this password`);
    expect((failure as Error).message).not.toContain('Wr0ng-Pa55word');
    const missing = await create({ aadClientCertPath: join(directory, 'absent.pfx') }).catch((caught: unknown) => caught);
    expect((missing as CloudConfigError).problems[0]?.message).toMatch(/^key "aadClientCertPath": cannot read .*absent\.pfx: ENOENT$/);
  });
});
