/** The credential kinds of azure.json: upstream's precedence, the environment overrides, and every problem with file, line and key. */
import { CloudConfigError } from '@ccm/core/config';
import { describe, expect, it } from 'vitest';
import { readAzureCloudConfig } from './read-azure-cloud-config.js';

/** A file-only config with the given credential keys (one per line, from line 7 on). */
function configText(credentialKeys: Record<string, unknown>, cloudConfigType = 'file'): string {
  const base = { subscriptionId: 's', resourceGroup: 'rg', location: 'eastus', cloudConfigType, tenantId: 'file-tenant', aadClientId: 'file-client' };
  const entries = Object.entries({ ...base, ...credentialKeys }).map(([key, value]) => `  ${JSON.stringify(key)}: ${JSON.stringify(value)}`);
  return `{\n${entries.join(',\n')}\n}\n`;
}

function read(credentialKeys: Record<string, unknown>, environment: Record<string, string> = {}, cloudConfigType = 'file') {
  return readAzureCloudConfig(configText(credentialKeys, cloudConfigType), 'azure.json', environment).config;
}

function problemsOf(credentialKeys: Record<string, unknown>, environment: Record<string, string> = {}, cloudConfigType = 'file'): string[] {
  try {
    readAzureCloudConfig(configText(credentialKeys, cloudConfigType), 'azure.json', environment);
  } catch (error) {
    if (error instanceof CloudConfigError) return error.problems.map((problem) => `${problem.fileName}:${problem.line ?? '-'}: ${problem.message}`);
    throw error;
  }
  return [];
}

describe('the credential of azure.json', () => {
  it.each<[string, Record<string, unknown>, Record<string, string>, unknown]>([
    ['a client secret', { aadClientSecret: 'secret-1' }, {}, { kind: 'client-secret', tenantId: 'file-tenant', clientId: 'file-client', clientSecret: 'secret-1' }],
    ['AZURE_CLIENT_SECRET over aadClientSecret', { aadClientSecret: 'secret-1' }, { AZURE_CLIENT_SECRET: 'from-env' }, { kind: 'client-secret', clientSecret: 'from-env' }],
    ['a client certificate with its password', { aadClientCertPath: '/etc/kubernetes/sp.pfx', aadClientCertPassword: 'pw' }, {}, { kind: 'client-certificate', certificatePath: '/etc/kubernetes/sp.pfx', certificatePassword: 'pw', clientId: 'file-client' }],
    ['a client certificate without a password (PEM)', { aadClientCertPath: '/etc/kubernetes/sp.pem' }, {}, { kind: 'client-certificate', certificatePath: '/etc/kubernetes/sp.pem', certificatePassword: '' }],
    ['a system-assigned managed identity', { useManagedIdentityExtension: true }, {}, { kind: 'managed-identity' }],
    ['a user-assigned identity by client ID', { useManagedIdentityExtension: true, userAssignedIdentityID: '00000000-0000-0000-0000-000000000001' }, {}, { kind: 'managed-identity', userAssignedIdentity: { clientId: '00000000-0000-0000-0000-000000000001' } }],
    [
      'a user-assigned identity by resource ID',
      { useManagedIdentityExtension: true, userAssignedIdentityID: '/subscriptions/s/resourceGroups/rg/providers/Microsoft.ManagedIdentity/userAssignedIdentities/ccm' },
      {},
      { kind: 'managed-identity', userAssignedIdentity: { resourceId: '/subscriptions/s/resourceGroups/rg/providers/Microsoft.ManagedIdentity/userAssignedIdentities/ccm' } },
    ],
    ['workload identity from the file keys', { useFederatedWorkloadIdentityExtension: true, aadFederatedTokenFile: '/var/run/token' }, {}, { kind: 'workload-identity', tokenFile: '/var/run/token', tenantId: 'file-tenant', clientId: 'file-client' }],
    [
      'workload identity from the webhook environment (overrides the file)',
      { aadClientSecret: 'secret-1' },
      { AZURE_FEDERATED_TOKEN_FILE: '/var/run/secrets/azure/tokens/azure-identity-token', AZURE_CLIENT_ID: 'env-client', AZURE_TENANT_ID: 'env-tenant' },
      { kind: 'workload-identity', tokenFile: '/var/run/secrets/azure/tokens/azure-identity-token', tenantId: 'env-tenant', clientId: 'env-client' },
    ],
    ['AZURE_CLIENT_ID and AZURE_TENANT_ID over the file for a client secret', { aadClientSecret: 'secret-1' }, { AZURE_CLIENT_ID: 'env-client', AZURE_TENANT_ID: 'env-tenant' }, { kind: 'client-secret', tenantId: 'env-tenant', clientId: 'env-client' }],
  ])('chooses %s', (_case, keys, environment, expected) => {
    expect(read(keys, environment).credential).toMatchObject(expected as object);
  });

  it.each<[string, Record<string, unknown>, string, string[]]>([
    ['workload identity over everything', { useFederatedWorkloadIdentityExtension: true, aadFederatedTokenFile: '/t', useManagedIdentityExtension: true, aadClientSecret: 'x', aadClientCertPath: '/c' }, 'workload-identity', ['useManagedIdentityExtension', 'aadClientSecret', 'aadClientCertPath']],
    // AKS writes "aadClientSecret": "msi" beside useManagedIdentityExtension.
    ['managed identity over a client secret (AKS)', { useManagedIdentityExtension: true, aadClientSecret: 'msi' }, 'managed-identity', ['aadClientSecret']],
    ['a client secret over a client certificate', { aadClientSecret: 'x', aadClientCertPath: '/c', aadClientCertPassword: 'pw' }, 'client-secret', ['aadClientCertPath']],
  ])('follows upstream precedence: %s', (_case, keys, kind, ignored) => {
    const config = read(keys);
    expect(config.credential?.kind).toBe(kind);
    expect(config.ignoredCredentialKeys).toEqual(ignored);
  });

  it.each<[string, Record<string, unknown>, Record<string, string>, string]>([
    [
      'no credential at all',
      {},
      {},
      'azure.json:-: no credential: set "aadClientSecret", "aadClientCertPath", "useManagedIdentityExtension": true, or "useFederatedWorkloadIdentityExtension": true with "aadFederatedTokenFile" (or AZURE_FEDERATED_TOKEN_FILE in the environment)',
    ],
    ['a user-assigned identity without managed identity', { aadClientSecret: 'x', userAssignedIdentityID: 'u' }, {}, 'azure.json:9: key "userAssignedIdentityID": is set but "useManagedIdentityExtension" is not true'],
    ['a certificate password without a certificate', { aadClientSecret: 'x', aadClientCertPassword: 'pw' }, {}, 'azure.json:9: key "aadClientCertPassword": is set without "aadClientCertPath"'],
    ['a federated token file without workload identity', { aadClientSecret: 'x', aadFederatedTokenFile: '/t' }, {}, 'azure.json:9: key "aadFederatedTokenFile": is set but "useFederatedWorkloadIdentityExtension" is not true and AZURE_FEDERATED_TOKEN_FILE is not set'],
    ['workload identity without a token file', { useFederatedWorkloadIdentityExtension: true }, {}, 'azure.json:8: key "useFederatedWorkloadIdentityExtension": is true but neither "aadFederatedTokenFile" nor AZURE_FEDERATED_TOKEN_FILE names the token file'],
    ['a client secret without aadClientId', { aadClientId: '', aadClientSecret: 'x' }, {}, 'azure.json:7: key "aadClientId": is required by the client secret credential (or AZURE_CLIENT_ID in the environment)'],
    ['a client certificate without tenantId', { tenantId: '', aadClientCertPath: '/c' }, {}, 'azure.json:6: key "tenantId": is required by the client certificate credential (or AZURE_TENANT_ID in the environment)'],
    ['workload identity without a client ID', { aadClientId: '', useFederatedWorkloadIdentityExtension: true, aadFederatedTokenFile: '/t' }, {}, 'azure.json:7: key "aadClientId": is required by the workload identity credential'],
  ])('refuses %s naming file, line and key', (_case, keys, environment, expected) => {
    expect(problemsOf(keys, environment).join('\n')).toContain(expected);
  });

  it('needs neither client nor tenant for a managed identity', () => {
    expect(read({ tenantId: '', aadClientId: '', useManagedIdentityExtension: true }).credential).toEqual({ kind: 'managed-identity' });
  });

  it('with cloudConfigType merge leaves a missing credential to the Secret but still refuses contradictions', () => {
    expect(read({ aadClientId: '' }, {}, 'merge').credential).toBeUndefined();
    expect(problemsOf({ userAssignedIdentityID: 'u' }, {}, 'merge').join('\n')).toContain('key "userAssignedIdentityID": is set but "useManagedIdentityExtension" is not true');
  });

  it('never puts a secret or password in a problem', () => {
    const problems = problemsOf({ aadClientId: '', aadClientSecret: 'SECRET-VALUE', aadFederatedTokenFile: '/t', aadClientCertPassword: 'PASSWORD-VALUE' }).join('\n');
    expect(problems).not.toBe('');
    expect(problems).not.toContain('SECRET-VALUE');
    expect(problems).not.toContain('PASSWORD-VALUE');
  });
});
