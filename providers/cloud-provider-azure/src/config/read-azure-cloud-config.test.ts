import { CloudConfigError } from '@ccm/core/config';
import { describe, expect, it } from 'vitest';
import { AZURE_CONFIG_KEYS } from './azure-config-keys.js';
import { readAzureCloudConfig } from './read-azure-cloud-config.js';

const COMPLETE = `{
  "cloud": "AzurePublicCloud",
  "tenantId": "t",
  "subscriptionId": "s",
  "aadClientId": "c",
  "aadClientSecret": "secret-value",
  "resourceGroup": "rg",
  "location": "eastus",
  "vmType": "standard",
  "routeTableName": "rt",
  "tags": "a=b, c=d",
  "tagsMap": { "e": "f" },
  "vmCacheTTLInSeconds": 30,
  "cloudConfigType": "file"
}`;

function problemsOf(text: string): string[] {
  try {
    readAzureCloudConfig(text, 'azure.json');
  } catch (error) {
    if (error instanceof CloudConfigError) return error.problems.map((problem) => `${problem.fileName}:${problem.line ?? '-'}: ${problem.message}`);
    throw error;
  }
  return [];
}

describe('readAzureCloudConfig', () => {
  it('reads a complete file with upstream defaults', () => {
    const { config, warnings } = readAzureCloudConfig(COMPLETE, 'azure.json');
    expect(warnings).toEqual([]);
    expect(config).toMatchObject({
      resourceManagerEndpoint: 'https://management.azure.com/',
      activeDirectoryEndpoint: 'https://login.microsoftonline.com/',
      tokenScope: 'https://management.azure.com/.default',
      customCloud: false,
      vmType: 'standard',
      routeTableResourceGroup: 'rg',
      tags: { a: 'b', c: 'd', e: 'f' },
      vmCacheTtlSeconds: 30,
      vmssVirtualMachinesCacheTtlSeconds: 600,
    });
  });

  it('takes a custom cloud\'s endpoints (audience = the ARM endpoint, instance discovery off)', () => {
    const text = COMPLETE.replace('"cloud": "AzurePublicCloud"', '"cloud": "AzureStackCloud", "resourceManagerEndpoint": "https://127.0.0.1:8443/", "activeDirectoryEndpoint": "https://127.0.0.1:8443/"');
    const { config } = readAzureCloudConfig(text, 'azure.json');
    expect(config).toMatchObject({ resourceManagerEndpoint: 'https://127.0.0.1:8443/', tokenScope: 'https://127.0.0.1:8443/.default', customCloud: true });
  });

  it.each<[string, string, string]>([
    ['malformed JSON', '{\n  "tenantId": "t",\n  "subscriptionId": \n}', 'azure.json:3: malformed JSON'],
    ['a trailing comma', '{\n  "tenantId": "t",\n}', 'azure.json:3: malformed JSON: Expected double-quoted property name'],
    ['a key of the wrong type', COMPLETE.replace('"vmCacheTTLInSeconds": 30', '"vmCacheTTLInSeconds": "30"'), 'azure.json:13: key "vmCacheTTLInSeconds": must be an integer, got "30"'],
    ['a boolean as a string', COMPLETE.replace('"cloudConfigType": "file"', '"cloudConfigType": "file", "disableAPICallCache": "yes"'), 'azure.json:14: key "disableAPICallCache": must be true or false, got "yes"'],
    ['an unknown vmType', COMPLETE.replace('"vmType": "standard"', '"vmType": "vmas"'), 'azure.json:9: key "vmType": must be one of vmss, standard, vmssflex; got "vmas"'],
    ['an unknown cloud', COMPLETE.replace('"AzurePublicCloud"', '"AzureMoonCloud"'), 'azure.json:2: key "cloud": unknown cloud "AzureMoonCloud"'],
    ['a missing required key', COMPLETE.replace('"resourceGroup": "rg",', ''), 'azure.json:-: key "resourceGroup" is required'],
    ['a user-assigned identity without managed identity', COMPLETE.replace('"cloudConfigType": "file"', '"cloudConfigType": "file",\n  "userAssignedIdentityID": "u"'), 'azure.json:15: key "userAssignedIdentityID": is set but "useManagedIdentityExtension" is not true'],
    ['bad tags', COMPLETE.replace('"a=b, c=d"', '"a=b, oops"'), 'azure.json:11: key "tags": "oops" is not key=value'],
  ])('reports %s with file, line and key', (_case, text, expected) => {
    expect(problemsOf(text).join('\n')).toContain(expected);
  });

  it('reports every problem at once', () => {
    const text = COMPLETE.replace('"vmType": "standard"', '"vmType": 3').replace('"location": "eastus",', '');
    expect(problemsOf(text)).toHaveLength(2);
  });

  it('warns about unknown keys and unsupported keys set away from their default, never failing on upstream files', () => {
    const text = COMPLETE.replace('"cloudConfigType": "file"', '"cloudConfigType": "file", "loadBalancerSku": "basic", "cloudProviderBackoff": false, "frobnicate": 1');
    const { warnings } = readAzureCloudConfig(text, 'azure.json');
    expect(warnings.map((warning) => `${warning.line}: ${warning.message}`)).toEqual([
      '14: key "loadBalancerSku" is not supported by this provider (Only the Standard SKU is offered: load balancers and public IPs are Standard whatever this says.); ignored',
      '14: unknown key "frobnicate"; ignored',
    ]);
  });

  it('accepts the same keys as YAML', () => {
    const { config } = readAzureCloudConfig('tenantId: t\nsubscriptionId: s\naadClientId: c\naadClientSecret: x\nresourceGroup: rg\nlocation: westus\ncloudConfigType: file\n', 'azure.yaml');
    expect(config.location).toBe('westus');
  });

  it('with cloudConfigType merge (the default) leaves the credentials to the Secret', () => {
    const { config } = readAzureCloudConfig('{"resourceGroup": "rg", "location": "eastus", "routeTableName": "rt"}', 'azure.json');
    expect(config).toMatchObject({ cloudConfigType: 'merge', aadClientSecret: '', resourceGroup: 'rg' });
  });

  it('never puts the secret in a problem', () => {
    const text = COMPLETE.replace('"vmType": "standard"', '"vmType": "secret-value"').replace('"aadClientSecret": "secret-value"', '"aadClientSecret": 12');
    const problems = problemsOf(text).join('\n');
    expect(problems).toContain('key "aadClientSecret": must be a string, got 12');
  });

  it('declares every key once', () => {
    const names = AZURE_CONFIG_KEYS.map((key) => key.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
