/** Throttling: 429 TooManyRequests with Retry-After over the configured rate; the SDK retries through it. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestThrottle } from './request-throttle.js';
import { startAzureSimulator, type AzureSimulator } from './index.js';
import { ArmFixture } from './test-support/arm-fixture.js';
import { azureClients } from './test-support/azure-clients.js';

describe('RequestThrottle', () => {
  it('lets a burst through, then refuses with the seconds until a token is back, per reads and writes', () => {
    let now = 0;
    const throttle = new RequestThrottle(() => now);
    expect(throttle.admit(false)).toEqual({ headers: {} });
    throttle.configure({ requestsPerSecond: 0.5, burst: 2 });
    expect(throttle.admit(false)).toEqual({ headers: { 'x-ms-ratelimit-remaining-subscription-reads': '1' } });
    expect(throttle.admit(false)).toEqual({ headers: { 'x-ms-ratelimit-remaining-subscription-reads': '0' } });
    expect(throttle.admit(false)).toEqual({ retryAfterSeconds: 2 });
    expect(throttle.admit(true)).toEqual({ headers: { 'x-ms-ratelimit-remaining-subscription-writes': '1' } });
    now = 2000;
    expect(throttle.admit(false)).toEqual({ headers: { 'x-ms-ratelimit-remaining-subscription-reads': '0' } });
    expect(() => throttle.configure({ requestsPerSecond: 0 })).toThrow('throttle requestsPerSecond must be positive, got 0');
  });
});

describe('throttling on the wire', () => {
  let simulator: AzureSimulator;
  let arm: ArmFixture;

  beforeAll(async () => {
    simulator = await startAzureSimulator({ pollsBeforeDone: 0 });
    arm = await ArmFixture.create(simulator);
    await arm.resourceGroup('rg');
  });
  afterAll(async () => {
    await simulator.close();
  });

  it('answers 429 TooManyRequests with Retry-After once the rate is exceeded', async () => {
    simulator.setThrottle({ requestsPerSecond: 1, burst: 2 });
    const path = arm.path('rg', 'Microsoft.Network', 'loadBalancers');
    const statuses = [];
    let refused;
    for (let index = 0; index < 3; index += 1) {
      const response = await arm.request('GET', path);
      statuses.push(response.status);
      if (response.status === 429) refused = response;
    }
    expect(statuses).toEqual([200, 200, 429]);
    expect(refused?.headers['retry-after']).toBe('1');
    expect(refused?.body.error.code).toBe('TooManyRequests');
    simulator.setThrottle(undefined);
  });

  it('is retried by the Azure SDK after Retry-After', async () => {
    const { network } = azureClients(simulator);
    simulator.setThrottle({ requestsPerSecond: 2, burst: 1 });
    const started = Date.now();
    const results = [];
    for (let index = 0; index < 3; index += 1) {
      results.push(await network.networkSecurityGroups.beginCreateOrUpdateAndWait('rg', `nsg-${index}`, { location: simulator.location }, { updateIntervalInMs: 5 }));
    }
    expect(results.map((result) => result.provisioningState)).toEqual(['Succeeded', 'Succeeded', 'Succeeded']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    simulator.setThrottle(undefined);
  }, 60_000);
});
