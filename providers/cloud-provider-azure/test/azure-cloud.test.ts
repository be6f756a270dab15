import type { V1Secret } from '@kubernetes/client-node';
import { InMemoryInformer } from '@ccm/testing/kube';
import { describe, expect, it } from 'vitest';
import { parseAzureConfigValues, readAzureCloudConfig } from '../src/config/read-azure-cloud-config.js';
import { CLOUD_CONFIG_SECRET, ConnectionConfigSource } from '../src/config/secret-config-source.js';
import { armError } from './fakes/fake-errors.js';
import { addVirtualMachine, createHarness, node, RecordingLogger, SECRET } from './helpers.js';

const FILE = '{"resourceGroup": "rg", "location": "eastus", "routeTableName": "rt", "tenantId": "file-tenant"}';

function secret(resourceVersion: string, cloudConfig: string): V1Secret {
  return { metadata: { name: CLOUD_CONFIG_SECRET.name, namespace: CLOUD_CONFIG_SECRET.namespace, resourceVersion }, data: { [CLOUD_CONFIG_SECRET.key]: Buffer.from(cloudConfig).toString('base64') } };
}

function source(fileText = FILE): { source: ConnectionConfigSource; informer: InMemoryInformer<V1Secret>; asked: string[]; logger: RecordingLogger } {
  const { config, file } = readAzureCloudConfig(fileText, 'azure.json');
  const logger = new RecordingLogger();
  const informer = new InMemoryInformer<V1Secret>();
  const asked: string[] = [];
  const connection = new ConnectionConfigSource(file, config, logger);
  connection.attach({ secrets: (namespace, name) => (asked.push(`${namespace}/${name ?? ''}`), informer) });
  return { source: connection, informer, asked, logger };
}

describe('the azure-cloud-provider Secret (cloudConfigType merge)', () => {
  it('overlays the file with the Secret\'s cloud-config, read through the shared informer, and follows changes', async () => {
    const { source: connection, informer, asked } = source();
    expect(asked).toEqual(['kube-system/azure-cloud-provider']);
    informer.deliverAdd('kube-system/azure-cloud-provider', secret('1', '{"subscriptionId": "sub", "aadClientId": "c", "aadClientSecret": "s1"}'));
    const first = await connection.current();
    expect(first.config).toMatchObject({ tenantId: 'file-tenant', subscriptionId: 'sub', aadClientSecret: 's1', resourceGroup: 'rg' });
    informer.deliverUpdate('kube-system/azure-cloud-provider', secret('2', '{"tenantId": "t2", "subscriptionId": "sub", "aadClientId": "c", "aadClientSecret": "s2"}'));
    const second = await connection.current();
    expect(second.version).not.toBe(first.version);
    expect(second.config).toMatchObject({ tenantId: 't2', aadClientSecret: 's2' });
  });

  it('takes any credential kind from the Secret (managed identity, certificate), and names a contradiction in it', async () => {
    const { source: connection, informer } = source();
    informer.deliverAdd('kube-system/azure-cloud-provider', secret('1', '{"subscriptionId": "sub", "useManagedIdentityExtension": true, "userAssignedIdentityID": "uami-client"}'));
    expect((await connection.current()).config.credential).toEqual({ kind: 'managed-identity', userAssignedIdentity: { clientId: 'uami-client' } });
    informer.deliverUpdate('kube-system/azure-cloud-provider', secret('2', '{"subscriptionId": "sub", "aadClientId": "c", "aadClientCertPath": "/etc/kubernetes/sp.pfx", "aadClientCertPassword": "pw"}'));
    expect((await connection.current()).config.credential).toEqual({ kind: 'client-certificate', tenantId: 'file-tenant', clientId: 'c', certificatePath: '/etc/kubernetes/sp.pfx', certificatePassword: 'pw' });
    informer.deliverUpdate('kube-system/azure-cloud-provider', secret('3', '{"subscriptionId": "sub",\n"aadClientSecret": "s",\n"aadClientCertPassword": "pw"}'));
    await expect(connection.current()).rejects.toThrow('Secret kube-system/azure-cloud-provider key cloud-config:3: key "aadClientCertPassword": is set without "aadClientCertPath"');
  });

  it('names the Secret and the key when the merged config is incomplete or malformed', async () => {
    const { source: connection, informer } = source();
    await expect(connection.current()).rejects.toThrow('Secret kube-system/azure-cloud-provider key cloud-config was not found, and azure.json is not complete: no credential: set "aadClientSecret", "aadClientCertPath", "useManagedIdentityExtension": true, or "useFederatedWorkloadIdentityExtension": true with "aadFederatedTokenFile" (or AZURE_FEDERATED_TOKEN_FILE in the environment); key "subscriptionId" is required');
    informer.deliverAdd('kube-system/azure-cloud-provider', secret('1', '{"subscriptionId": 5}'));
    await expect(connection.current()).rejects.toThrow('Secret kube-system/azure-cloud-provider key cloud-config:1: key "subscriptionId": must be a string, got 5');
  });

  it('with cloudConfigType file never watches the Secret', async () => {
    const { config, file } = readAzureCloudConfig('{"resourceGroup": "rg", "location": "l", "tenantId": "t", "subscriptionId": "s", "aadClientId": "c", "aadClientSecret": "x", "cloudConfigType": "file"}', 'azure.json');
    const asked: string[] = [];
    const connection = new ConnectionConfigSource(file, config, new RecordingLogger());
    connection.attach({ secrets: (namespace, name) => (asked.push(`${namespace}/${name ?? ''}`), new InMemoryInformer<V1Secret>()) });
    expect(asked).toEqual([]);
    expect((await connection.current()).config.aadClientSecret).toBe('x');
  });

  it('parses the Secret with the same reader (lines name the Secret)', () => {
    const parsed = parseAzureConfigValues('{\n"vmType": 1\n}', 'Secret x');
    expect(parsed.problems).toEqual([{ fileName: 'Secret x', line: 2, message: 'key "vmType": must be a string, got 1' }]);
  });
});

describe('bad cloud answers', () => {
  it('a 429 with Retry-After is retried by the budget after the wait ARM asked for; the node is then found', async () => {
    const harness = await createHarness();
    addVirtualMachine(harness, 'node-a', '10.0.0.4');
    harness.compute.log.failNext('compute.listVirtualMachines', armError('compute.listVirtualMachines', 'Throttled', 'TooManyRequests', { retryAfterMs: 150, httpStatus: 429 }), 2);
    const started = Date.now();
    expect(await harness.cloud.instancesV2().instanceExists(node('node-a'))).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(harness.compute.log.count('compute.listVirtualMachines')).toBe(3);
    expect(harness.logger.lines.filter((line) => /compute\.listVirtualMachines throttled; retrying in \d+ms/.test(line.message))).toHaveLength(2);
  });

  it('5xx answers are retried by kind; a 401 is not retried and surfaces with the operation', async () => {
    const harness = await createHarness();
    addVirtualMachine(harness, 'node-a', '10.0.0.4');
    harness.compute.log.failNext('compute.listVirtualMachines', armError('compute.listVirtualMachines', 'Unavailable', 'InternalServerError'), 2);
    expect(await harness.cloud.instancesV2().instanceExists(node('node-a'))).toBe(true);
    expect(harness.compute.log.count('compute.listVirtualMachines')).toBe(3);

    const other = await createHarness();
    other.compute.log.failNext('compute.listVirtualMachines', armError('compute.listVirtualMachines', 'Unauthorized', 'AuthenticationError'), 5);
    await expect(other.cloud.instancesV2().instanceExists(node('node-a'))).rejects.toThrow(/compute\.listVirtualMachines: AuthenticationError/);
    expect(other.compute.log.count('compute.listVirtualMachines')).toBe(1);
  });

  it('never logs the client secret', async () => {
    const harness = await createHarness();
    addVirtualMachine(harness, 'node-a', '10.0.0.4');
    harness.compute.log.failNext('compute.listVirtualMachines', armError('compute.listVirtualMachines', 'Unavailable', 'InternalServerError'), 1);
    await harness.cloud.instancesV2().instanceMetadata(node('node-a'));
    expect(harness.logger.lines.length).toBeGreaterThan(0);
    expect(harness.logger.text()).not.toContain(SECRET);
  });
});
