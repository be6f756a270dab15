/**
 * The bad-input corpus of the Azure cloud config (`azure.json`: JSON, or YAML with the same keys,
 * as upstream reads it): seeded, `BAD_INPUT_RUNS` cases (default 2000) per format. Besides the
 * contract of `checkBadInputs` (a config or one CloudConfigError naming the file), no rejection
 * may echo the client secret of the documents it was damaged from.
 */
import { describe, expect, it } from 'vitest';
import { CloudConfigError } from '@ccm/core/config';
import { YAML_ALIAS_BOMB, checkBadInputs, type BadInputFormat } from '@ccm/testing/bad-input';
import { readAzureCloudConfig } from '../../src/config/read-azure-cloud-config.js';

/** Distinctive, so a message carrying it (or most of it) is found. */
const SECRET = 'Zq7~bad-input-AAD-client-secret~9xK';

const JSON_VALID = [
  [
    '{',
    '  "cloud": "AzurePublicCloud",',
    '  "tenantId": "72f988bf-86f1-41af-91ab-2d7cd011db47",',
    '  "subscriptionId": "00000000-0000-0000-0000-000000000001",',
    '  "aadClientId": "11111111-2222-3333-4444-555555555555",',
    `  "aadClientSecret": "${SECRET}",`,
    '  "cloudConfigType": "file",',
    '  "resourceGroup": "cluster-rg",',
    '  "location": "westeurope",',
    '  "vnetName": "cluster-vnet",',
    '  "vnetResourceGroup": "network-rg",',
    '  "subnetName": "nodes",',
    '  "securityGroupName": "cluster-nsg",',
    '  "securityGroupResourceGroup": "network-rg",',
    '  "routeTableName": "cluster-routes",',
    '  "routeTableResourceGroup": "network-rg",',
    '  "vmType": "vmss",',
    '  "loadBalancerSku": "standard",',
    '  "loadBalancerName": "cluster",',
    '  "excludeMasterFromStandardLB": true,',
    '  "disableOutboundSNAT": false,',
    '  "maximumLoadBalancerRuleCount": 250,',
    '  "useInstanceMetadata": true,',
    '  "cloudProviderBackoff": true,',
    '  "cloudProviderBackoffRetries": 6,',
    '  "cloudProviderBackoffExponent": 1.5,',
    '  "cloudProviderBackoffDuration": 5,',
    '  "cloudProviderBackoffJitter": 1.0,',
    '  "cloudProviderRateLimit": true,',
    '  "cloudProviderRateLimitQPS": 10,',
    '  "cloudProviderRateLimitBucket": 100,',
    '  "loadBalancerRateLimit": { "cloudProviderRateLimitQPS": 5, "cloudProviderRateLimitBucket": 10 },',
    '  "tags": "team=platform,env=test",',
    '  "tagsMap": { "cost-center": "42", "owner": "sre" },',
    '  "vmCacheTTLInSeconds": 60,',
    '  "vmssCacheTTLInSeconds": 600,',
    '  "vmssVirtualMachinesCacheTTLInSeconds": 600,',
    '  "userAgent": "ccm-bad-input"',
    '}',
    '',
  ].join('\n'),
  [
    '{',
    '  "cloud": "AzureChinaCloud",',
    '  "tenantId": "tenant-2",',
    '  "subscriptionId": "sub-2",',
    '  "aadClientId": "client-2",',
    `  "aadClientSecret": "${SECRET}",`,
    '  "useManagedIdentityExtension": true,',
    '  "userAssignedIdentityID": "33333333-4444-5555-6666-777777777777",',
    '  "cloudConfigType": "merge",',
    '  "resourceGroup": "rg-2",',
    '  "location": "chinaeast2",',
    '  "vmType": "standard",',
    '  "primaryAvailabilitySetName": "as-1",',
    '  "multipleStandardLoadBalancerConfigurations": [],',
    '  "disableAPICallCache": false',
    '}',
  ].join('\n'),
  `{"resourceManagerEndpoint": "https://management.example.test/", "activeDirectoryEndpoint": "https://login.example.test/", "cloud": "MyCloud", "subscriptionId": "s", "tenantId": "t", "aadClientId": "c", "aadClientSecret": "${SECRET}", "resourceGroup": "rg", "location": "here", "cloudConfigType": "file"}`,
];

const YAML_VALID = [
  [
    'cloud: AzurePublicCloud',
    'tenantId: 72f988bf-86f1-41af-91ab-2d7cd011db47',
    "subscriptionId: '00000000-0000-0000-0000-000000000001'",
    'aadClientId: 11111111-2222-3333-4444-555555555555',
    `aadClientSecret: "${SECRET}"`,
    'cloudConfigType: file',
    'resourceGroup: cluster-rg',
    'location: westeurope',
    'vnetName: cluster-vnet',
    'subnetName: nodes',
    'securityGroupName: cluster-nsg',
    'routeTableName: cluster-routes',
    'vmType: vmssflex',
    'loadBalancerSku: standard',
    'excludeMasterFromStandardLB: false',
    'maximumLoadBalancerRuleCount: 100',
    'cloudProviderBackoff: true',
    'cloudProviderBackoffRetries: 6',
    'cloudProviderBackoffExponent: 1.5',
    'tags: team=platform',
    'tagsMap:',
    '  owner: sre',
    '  cost-center: "42"',
    'multipleStandardLoadBalancerConfigurations:',
    '  - name: cluster',
    'vmCacheTTLInSeconds: 30',
    '',
  ].join('\n'),
  [
    '# azure.json as YAML',
    'tenantId: t',
    'subscriptionId: s',
    'aadClientId: c',
    `aadClientSecret: ${SECRET}`,
    'resourceGroup: rg',
    'location: eastus',
    'useFederatedWorkloadIdentityExtension: true',
    'aadFederatedTokenFile: /var/run/secrets/azure/tokens/azure-identity-token',
    'disableOutboundSNAT: true',
    '',
  ].join('\n'),
];

interface Case {
  name: string;
  fileName: string;
  format: BadInputFormat;
}

const CASES: Case[] = [
  { name: 'json', fileName: 'azure.json', format: { validDocuments: JSON_VALID, syntaxCharacters: '{}[]":,\\' } },
  { name: 'yaml', fileName: 'azure.yaml', format: { validDocuments: YAML_VALID, syntaxCharacters: ':-[]{}"\'#&*!|>,?%@`\\', extraDocuments: [YAML_ALIAS_BOMB, `aadClientSecret: ${SECRET}\n${YAML_ALIAS_BOMB}`, `tagsMap: &m {a: b}\nloadBalancerRateLimit: *m\naadClientSecret: ${SECRET}\n`] } },
];

describe('bad-input corpus: Azure cloud config', () => {
  it('the valid documents are read as they are', () => {
    for (const { fileName, format } of CASES) {
      for (const document of format.validDocuments) expect(() => readAzureCloudConfig(document, fileName, {})).not.toThrow();
    }
  });

  it('JSON that YAML reads but JSON does not is rejected without V8\'s excerpt of the secret', () => {
    const documents = [
      `{"subscriptionId": "s", "aadClientSecret": '${SECRET}'}`,
      `{"aadClientSecret": "${SECRET}", "a": .5}`,
      `{\n  "aadClientSecret": "${SECRET}",\n  "maximumLoadBalancerRuleCount": 0x10\n}`,
    ];
    for (const document of documents) {
      let thrown: unknown;
      try {
        readAzureCloudConfig(document, 'azure.json', {});
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(CloudConfigError);
      const message = (thrown as CloudConfigError).message;
      expect(message).toMatch(/^azure\.json(:\d+)?: malformed JSON: /);
      for (let start = 0; start + 6 <= SECRET.length; start++) expect(message).not.toContain(SECRET.slice(start, start + 6));
    }
  });

  it('a JSON file of thousands of stray braces is rejected once, quickly', () => {
    const started = process.cpuUsage();
    expect(() => readAzureCloudConfig(`${JSON_VALID[1]}\n${'}\n'.repeat(131_072)}`, 'azure.json', {})).toThrow(/^azure\.json:\d+: malformed JSON: [^\n]*$/);
    const used = process.cpuUsage(started);
    expect((used.user + used.system) / 1000).toBeLessThan(1000);
  });

  it.each(CASES)('$name: returns a config or throws one CloudConfigError naming the file, never the client secret', ({ name, fileName, format }) => {
    const messages: string[] = [];
    const summary = checkBadInputs(
      format,
      {
        parse: (text, file) => {
          try {
            return readAzureCloudConfig(text, file, {});
          } catch (error) {
            if (error instanceof Error) messages.push(error.message);
            throw error;
          }
        },
        isExpectedError: (error) => error instanceof CloudConfigError,
      },
      fileName,
      { seed: 1315 },
    );
    process.stdout.write(`bad-input azure ${name}: ${summary.cases} cases (${summary.rejected} rejected, ${summary.accepted} accepted), slowest ${summary.slowestMs.toFixed(1)} ms\n`);
    expect(summary.accepted).toBeGreaterThan(0);
    expect(summary.rejected).toBeGreaterThan(0);
    expect(messages.length).toBe(summary.rejected);
    expect(messages.filter((message) => message.includes(SECRET) || message.includes(SECRET.slice(0, 20)) || message.includes(SECRET.slice(-20)))).toEqual([]);
  }, 180_000);
});
