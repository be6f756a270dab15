/**
 * The simulator checked against Microsoft's description of ARM: every response body it sends and
 * every request body it accepts during a CCM-like session through the pinned JS SDKs is validated
 * against the models of azure-mgmt-network / azure-mgmt-compute (schema/dump_schema.py) for the
 * api-versions the JS SDKs call.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { COMPUTE_API_VERSION, NETWORK_API_VERSION, NETWORK_SCALE_SET_API_VERSION, startAzureSimulator, type AzureSimulator } from './index.js';
import { ArmSchemaValidator, bodyShapeOf, validateBody, type ArmSchema } from './arm-schema-validator.js';
import { accessToken, rawRequest } from './test-support/azure-clients.js';
import { describeWithPythonAzureSdk, pinnedPackages, runPythonScript } from './test-support/python-azure-sdk.js';
import { SESSION, runRealisticSession } from './test-support/realistic-session.js';

describeWithPythonAzureSdk('the simulator against the ARM models of azure-mgmt-network and azure-mgmt-compute', () => {
  let simulator: AzureSimulator;
  let schema: ArmSchema;
  let validator: ArmSchemaValidator;
  let directory: string;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'azure-schema-'));
    await runPythonScript('dump_schema.py', [join(directory, 'schema.json')]);
    schema = JSON.parse(await readFile(join(directory, 'schema.json'), 'utf8')) as ArmSchema;
    validator = new ArmSchemaValidator(schema);
    // Strict mode on: the simulator itself refuses requests outside the schema and turns a stray response into a 500.
    simulator = await startAzureSimulator({ recordExchanges: true, schemaFile: join(directory, 'schema.json') });
    await runRealisticSession(simulator);
    // A few refusals, so error bodies are checked too.
    const token = await accessToken(simulator);
    const base = `/subscriptions/${simulator.subscriptionId}/resourceGroups/${SESSION.resourceGroup}/providers`;
    await rawRequest(simulator, 'GET', `${base}/Microsoft.Network/loadBalancers/missing?api-version=${NETWORK_API_VERSION}`, { token });
    await rawRequest(simulator, 'DELETE', `${base}/Microsoft.Network/virtualNetworks/${SESSION.vnet}/subnets/${SESSION.subnet}?api-version=${NETWORK_API_VERSION}`, { token });
    await rawRequest(simulator, 'GET', `${base}/Microsoft.Compute/virtualMachines/missing?api-version=${COMPUTE_API_VERSION}`, { token });
  }, 120_000);
  afterAll(async () => {
    await simulator?.close();
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  it('uses the pinned Python packages, which call the api-versions the simulator serves for the pinned JS SDKs', () => {
    expect(schema.packages).toMatchObject(Object.fromEntries([...pinnedPackages()].filter(([name]) => name in schema.packages)));
    expect(new Set(Object.values(schema.apiVersions['Microsoft.Network'] ?? {}))).toEqual(new Set([NETWORK_API_VERSION]));
    expect(new Set(Object.values(schema.apiVersions['Microsoft.Compute'] ?? {}))).toEqual(new Set([COMPUTE_API_VERSION]));
    expect(new Set(Object.values(schema.apiVersions['Microsoft.Network/scaleSetViews'] ?? {}))).toEqual(new Set([NETWORK_SCALE_SET_API_VERSION]));
  });

  it('sends response bodies that conform to the models (unknown keys, types, required keys)', () => {
    const problems: string[] = [];
    const models = new Set<string>();
    for (const exchange of simulator.exchanges) {
      if (exchange.responseBody === undefined) continue;
      const shape = exchange.status >= 400 ? { model: 'compute.CloudError', list: false } : bodyShapeOf(exchange.path);
      if (!shape) continue;
      models.add(shape.list ? `[${shape.model}]` : shape.model);
      for (const problem of validateBody(validator, shape, exchange.responseBody, 'response')) problems.push(`${exchange.method} ${exchange.path} -> ${exchange.status}: ${problem}`);
    }
    expect(problems).toEqual([]);
    // Every resource kind the session touches was checked, as a body and as a list.
    for (const model of [
      'network.LoadBalancer', '[network.LoadBalancer]', 'network.BackendAddressPool', 'network.PublicIPAddress', '[network.PublicIPAddress]',
      'network.NetworkInterface', '[network.NetworkInterface]', 'network.NetworkSecurityGroup', 'network.SecurityRule', 'network.RouteTable', 'network.Route',
      'network.VirtualNetwork', 'network.Subnet', 'network.AzureAsyncOperationResult', 'compute.VirtualMachine', '[compute.VirtualMachine]',
      'compute.VirtualMachineInstanceView', 'compute.AvailabilitySet', '[compute.AvailabilitySet]', 'compute.VirtualMachineScaleSet', '[compute.VirtualMachineScaleSet]',
      'compute.VirtualMachineScaleSetVM', '[compute.VirtualMachineScaleSetVM]', 'compute.VirtualMachineScaleSetVMInstanceView', 'compute.CloudError',
    ]) {
      expect(models, model).toContain(model);
    }
  });

  it('accepted only request bodies that conform to the models', () => {
    const problems: string[] = [];
    let checked = 0;
    for (const exchange of simulator.exchanges) {
      if (exchange.requestBody === undefined || exchange.status >= 400) continue;
      const shape = bodyShapeOf(exchange.path);
      if (!shape || shape.list) continue;
      checked += 1;
      for (const problem of validateBody(validator, shape, exchange.requestBody, 'request')) problems.push(`${exchange.method} ${exchange.path}: ${problem}`);
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  });

  it('with schemaFile, refuses a PUT body outside the schema before storing anything', async () => {
    const token = await accessToken(simulator);
    const path = `/subscriptions/${simulator.subscriptionId}/resourceGroups/${SESSION.resourceGroup}/providers/Microsoft.Network/routeTables/strict?api-version=${NETWORK_API_VERSION}`;
    const refused = await rawRequest(simulator, 'PUT', path, { token, body: { location: simulator.location, properties: { routes: [{ name: 'r', properties: { addressPrefix: '10.0.0.0/24', nextHopType: 'VnetLocal', nextHopIP: '10.0.0.4' } }] } } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('InvalidRequestContent');
    expect(refused.body.error.message).toContain('$.properties.routes[0].properties.nextHopIP: unknown key (not in network.Route)');
    expect((await rawRequest(simulator, 'GET', path, { token })).status).toBe(404);
    // Read-only keys are ignored, as ARM does.
    const accepted = await rawRequest(simulator, 'PUT', path, { token, body: { location: simulator.location, etag: 'W/"x"', properties: { provisioningState: 'Succeeded' } } });
    expect(accepted.status).toBe(201);
  });

  it('lists the exchanges the Python models do not describe (resource groups, Compute operation status)', () => {
    const uncovered = new Set(
      simulator.exchanges
        .filter((exchange) => exchange.responseBody !== undefined && exchange.status < 400 && !bodyShapeOf(exchange.path))
        .map((exchange) => {
          const parts = new URL(exchange.path, 'https://x').pathname.split('/');
          if (parts[3]?.toLowerCase() === 'resourcegroups' && parts.length === 5) return 'resource group';
          if (parts[3] === 'providers' && parts[7] === 'operations') return `${parts[4]} operation status`;
          return exchange.path;
        }),
    );
    expect([...uncovered].sort()).toEqual(['Microsoft.Compute operation status', 'resource group']);
    const validated = simulator.exchanges.filter((exchange) => exchange.responseBody !== undefined && (exchange.status >= 400 || bodyShapeOf(exchange.path)));
    expect(validated.length).toBeGreaterThan(80);
  });
});
