/** The schema check catches violations: unknown keys, wrong types, missing required keys, read-only keys in requests. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArmSchemaValidator, bodyShapeOf, validateBody, type ArmSchema } from './arm-schema-validator.js';
import { describeWithPythonAzureSdk, runPythonScript } from './test-support/python-azure-sdk.js';

const tiny: ArmSchema = {
  packages: {},
  apiVersions: {},
  models: {
    'network.Thing': {
      fields: {
        id: { type: 'str', readonly: false, required: false },
        name: { type: 'str', readonly: true, required: false },
        'properties.count': { type: 'int', readonly: false, required: true },
        'properties.parts': { type: '[network.Part]', readonly: false, required: false },
        'properties.labels': { type: '{str}', readonly: false, required: false },
      },
    },
    'network.Part': { fields: { enabled: { type: 'bool', readonly: false, required: false } } },
  },
};

describe('ArmSchemaValidator on a small schema', () => {
  const validator = new ArmSchemaValidator(tiny);

  it('accepts a conforming body', () => {
    expect(validator.validate('network.Thing', { id: 'x', name: 'n', properties: { count: 1, parts: [{ enabled: true }], labels: { a: 'b' } } }, 'response')).toEqual([]);
  });

  it('reports unknown keys at every depth, wrong types, missing required keys and read-only keys in requests', () => {
    expect(validator.validate('network.Thing', { properties: { count: 1.5, parts: [{ enabled: 'yes', extra: 1 }], labels: { a: 2 } }, other: true }, 'response')).toEqual([
      '$.properties.count: expected an integer, got number 1.5',
      '$.properties.parts[0].enabled: expected a boolean, got string "yes"',
      '$.properties.parts[0].extra: unknown key (not in network.Part)',
      '$.properties.labels.a: expected a string, got number 2',
      '$.other: unknown key (not in network.Thing)',
    ]);
    expect(validator.validate('network.Thing', { name: 'n', properties: {} }, 'request')).toEqual([
      '$.name: read-only key sent in a request (network.Thing)',
      '$.properties.count: required by network.Thing but missing',
    ]);
    expect(validator.validate('network.Thing', { properties: { count: null } }, 'response')).toEqual(['$.properties.count: null where int is expected']);
  });

  it('maps ARM paths to their models', () => {
    const sub = '/subscriptions/s/resourceGroups/rg/providers';
    expect(bodyShapeOf(`${sub}/Microsoft.Network/loadBalancers/lb/backendAddressPools/p?api-version=1`)).toEqual({ model: 'network.BackendAddressPool', list: false });
    expect(bodyShapeOf(`${sub}/Microsoft.Compute/virtualMachineScaleSets/s/virtualMachines?api-version=1`)).toEqual({ model: 'compute.VirtualMachineScaleSetVM', list: true });
    expect(bodyShapeOf(`${sub}/microsoft.Compute/virtualMachineScaleSets/s/virtualMachines/0/networkInterfaces/n?api-version=1`)).toEqual({ model: 'network.NetworkInterface', list: false });
    expect(bodyShapeOf('/subscriptions/s/resourcegroups/rg?api-version=1')).toBeUndefined();
  });
});

describeWithPythonAzureSdk('the schema from azure-mgmt-network / azure-mgmt-compute catches a simulator body that strays', () => {
  let validator: ArmSchemaValidator;
  let directory: string;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'azure-schema-'));
    await runPythonScript('dump_schema.py', [join(directory, 'schema.json')]);
    validator = new ArmSchemaValidator(JSON.parse(await readFile(join(directory, 'schema.json'), 'utf8')) as ArmSchema);
  }, 120_000);
  afterAll(async () => {
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  const loadBalancer = {
    name: 'kubernetes',
    id: '/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/loadBalancers/kubernetes',
    etag: 'W/"1"',
    type: 'Microsoft.Network/loadBalancers',
    location: 'eastus',
    sku: { name: 'Standard', tier: 'Regional' },
    properties: {
      provisioningState: 'Succeeded',
      frontendIPConfigurations: [{ name: 'a1', id: '/x/frontendIPConfigurations/a1', properties: { publicIPAddress: { id: '/x/pip' } } }],
      loadBalancingRules: [{ name: 'a1-TCP-80', properties: { protocol: 'Tcp', frontendPort: 80, backendPort: 80 } }],
    },
  };

  it('accepts a correct load balancer and rejects a misspelt key, a string port, and a frontend outside properties', () => {
    expect(validator.validate('network.LoadBalancer', loadBalancer, 'response')).toEqual([]);
    const strayed = structuredClone(loadBalancer) as any;
    strayed.properties.frontendIpConfigurations = strayed.properties.frontendIPConfigurations;
    strayed.properties.loadBalancingRules[0].properties.frontendPort = '80';
    strayed.frontendIPConfigurations = [];
    expect(validator.validate('network.LoadBalancer', strayed, 'response')).toEqual([
      '$.properties.loadBalancingRules[0].properties.frontendPort: expected an integer, got string "80"',
      '$.properties.frontendIpConfigurations: unknown key (not in network.LoadBalancer)',
      '$.frontendIPConfigurations: unknown key (not in network.LoadBalancer)',
    ]);
  });

  it('rejects a VM whose properties are flattened (the JS SDK shape, not the wire shape), missing required names and a list without value', () => {
    expect(validator.validate('compute.VirtualMachine', { location: 'eastus', hardwareProfile: { vmSize: 'Standard_D2s_v3' } }, 'request')).toEqual(['$.hardwareProfile: unknown key (not in compute.VirtualMachine)']);
    expect(validator.validate('compute.VirtualMachine', { properties: {} }, 'request')).toEqual(['$.location: required by compute.VirtualMachine but missing']);
    const configuration = { properties: { ipConfigurations: [{ properties: { primary: true } }] } };
    expect(validator.validate('compute.VirtualMachineScaleSetNetworkConfiguration', configuration, 'request')).toEqual([
      '$.properties.ipConfigurations[0].name: required by compute.VirtualMachineScaleSetIPConfiguration but missing',
      '$.name: required by compute.VirtualMachineScaleSetNetworkConfiguration but missing',
    ]);
    expect(validateBody(validator, { model: 'compute.VirtualMachine', list: true }, { items: [] }, 'response')).toEqual(['$.items: unknown key in a list result', '$.value: missing in a list result']);
  });
});
