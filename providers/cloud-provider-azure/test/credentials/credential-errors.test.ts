/** How Entra failures leave the SDK adapter: a refusal is Unauthorized and not retried; a throttled (429) or failing (5xx) token endpoint is retried by the pipeline. */
import { describe, expect, it } from 'vitest';
import { AzureCredentialSetupError } from '../../src/errors.js';
import { azureThrottlingClassifier } from '../../src/ports/azure-port-pipeline.js';
import { toAzureApiError } from '../../src/ports/sdk/sdk-errors.js';
import { addVirtualMachine, createHarness, node } from '../helpers.js';

/** The shape of @azure/identity's AuthenticationError (name, statusCode, message with the AADSTS text). */
function authenticationError(statusCode: number, message: string): Error {
  const error = new Error(message) as Error & { statusCode: number };
  error.name = 'AuthenticationError';
  error.statusCode = statusCode;
  return error;
}

describe('Entra failures in the SDK adapter', () => {
  it.each<[string, Error, string, boolean]>([
    ['a refused secret (401)', authenticationError(401, 'AADSTS7000215: Invalid client secret provided.'), 'Unauthorized', false],
    ['an unknown client (400)', authenticationError(400, 'AADSTS700016: Application not found.'), 'Unauthorized', false],
    ['a throttled token endpoint (429)', authenticationError(429, 'AADSTS50196: The server terminated an operation because it encountered a client request loop.'), 'Throttled', true],
    ['a failing token endpoint (503)', authenticationError(503, 'Service unavailable'), 'Unavailable', true],
    ['a token file that cannot be read', new AzureCredentialSetupError('aadFederatedTokenFile', 'cannot read the federated token file /t: ENOENT'), 'Unauthorized', false],
  ])('%s', (_case, error, kind, retryable) => {
    const converted = toAzureApiError(error, 'compute.listVirtualMachines');
    expect(converted.kind).toBe(kind);
    expect(converted.retryable).toBe(retryable);
    expect(converted.message).toMatch(/^compute\.listVirtualMachines: could not get an Entra token: /);
    expect(azureThrottlingClassifier(converted) !== undefined).toBe(kind === 'Throttled');
  });

  it('a throttled token request is retried by the budget and the node is then found', async () => {
    const harness = await createHarness();
    addVirtualMachine(harness, 'node-a', '10.0.0.4');
    harness.compute.log.failNext('compute.listVirtualMachines', toAzureApiError(authenticationError(429, 'AADSTS50196: throttled'), 'compute.listVirtualMachines'), 2);
    expect(await harness.cloud.instancesV2().instanceExists(node('node-a'))).toBe(true);
    expect(harness.compute.log.count('compute.listVirtualMachines')).toBe(3);
    expect(harness.logger.lines.filter((line) => /compute\.listVirtualMachines throttled; retrying in \d+ms/.test(line.message))).toHaveLength(2);
  });
});
