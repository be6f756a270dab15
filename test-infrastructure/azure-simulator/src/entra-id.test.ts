/** Entra ID: discovery documents, the client-credentials grant and its AADSTS errors; ARM's bearer check. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAzureSimulator, type AzureSimulator } from './index.js';
import { azureClients, clientCredentialsToken, rawRequest } from './test-support/azure-clients.js';

let simulator: AzureSimulator;

beforeAll(async () => {
  simulator = await startAzureSimulator({ staticToken: 'a-static-token' });
});
afterAll(async () => {
  await simulator.close();
});

describe('Entra ID endpoints', () => {
  it('serves the v2.0 OpenID configuration and MSAL instance discovery for the tenant', async () => {
    const configuration = await rawRequest(simulator, 'GET', `/${simulator.tenantId}/v2.0/.well-known/openid-configuration`);
    expect(configuration.status).toBe(200);
    expect(configuration.body).toMatchObject({
      token_endpoint: `${simulator.activeDirectoryEndpoint}/${simulator.tenantId}/oauth2/v2.0/token`,
      authorization_endpoint: `${simulator.activeDirectoryEndpoint}/${simulator.tenantId}/oauth2/v2.0/authorize`,
      issuer: `${simulator.activeDirectoryEndpoint}/${simulator.tenantId}/v2.0`,
      jwks_uri: `${simulator.activeDirectoryEndpoint}/${simulator.tenantId}/discovery/v2.0/keys`,
    });
    const authorize = encodeURIComponent(`${simulator.activeDirectoryEndpoint}/${simulator.tenantId}/oauth2/v2.0/authorize`);
    const discovery = await rawRequest(simulator, 'GET', `/common/discovery/instance?api-version=1.1&authorization_endpoint=${authorize}`);
    const host = new URL(simulator.activeDirectoryEndpoint).host;
    expect(discovery.body).toEqual({
      tenant_discovery_endpoint: `${simulator.activeDirectoryEndpoint}/${simulator.tenantId}/v2.0/.well-known/openid-configuration`,
      'api-version': '1.1',
      metadata: [{ preferred_network: host, preferred_cache: host, aliases: [host] }],
    });
  });

  it('issues a bearer token for the client secret (v2.0 and v1 shapes)', async () => {
    const v2 = await clientCredentialsToken(simulator);
    expect(v2.status).toBe(200);
    expect(v2.body).toEqual({ token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/) });
    const v1 = await rawRequest(simulator, 'POST', `/${simulator.tenantId}/oauth2/token`, {
      form: { grant_type: 'client_credentials', client_id: simulator.clientId, client_secret: simulator.clientSecret, resource: 'https://management.azure.com/' },
    });
    expect(v1.body).toMatchObject({ token_type: 'Bearer', expires_in: '3599', resource: 'https://management.azure.com/', access_token: expect.any(String), expires_on: expect.stringMatching(/^\d+$/) });
  });

  it('refuses a wrong secret, an unknown client and an unknown tenant with the AADSTS bodies', async () => {
    const wrongSecret = await clientCredentialsToken(simulator, 'not-the-secret');
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.body).toMatchObject({ error: 'invalid_client', error_codes: [7000215], error_description: expect.stringMatching(/^AADSTS7000215: Invalid client secret provided\./), trace_id: expect.any(String), correlation_id: expect.any(String) });
    expect(JSON.stringify(wrongSecret.body)).not.toContain('not-the-secret');
    const unknownClient = await rawRequest(simulator, 'POST', `/${simulator.tenantId}/oauth2/v2.0/token`, {
      form: { grant_type: 'client_credentials', client_id: 'someone-else', client_secret: 'x', scope: 'https://management.azure.com/.default' },
    });
    expect(unknownClient.status).toBe(400);
    expect(unknownClient.body).toMatchObject({ error: 'unauthorized_client', error_codes: [700016] });
    const unknownTenant = await rawRequest(simulator, 'POST', '/other-tenant/oauth2/v2.0/token', { form: { grant_type: 'client_credentials' } });
    expect(unknownTenant.body).toMatchObject({ error: 'invalid_request', error_codes: [90002] });
    const badScope = await rawRequest(simulator, 'POST', `/${simulator.tenantId}/oauth2/v2.0/token`, {
      form: { grant_type: 'client_credentials', client_id: simulator.clientId, client_secret: simulator.clientSecret, scope: 'https://management.azure.com/user_impersonation' },
    });
    expect(badScope.body).toMatchObject({ error: 'invalid_scope', error_codes: [1002012] });
  });

  it('lets @azure/identity fail cleanly with a wrong secret', async () => {
    const { ClientSecretCredential } = await import('@azure/identity');
    const credential = new ClientSecretCredential(simulator.tenantId, simulator.clientId, 'wrong', { authorityHost: simulator.activeDirectoryEndpoint, disableInstanceDiscovery: true, tlsOptions: { ca: simulator.caCertificatePem } });
    await expect(credential.getToken('https://management.azure.com/.default')).rejects.toThrow(/AADSTS7000215/);
    const { credential: good } = azureClients(simulator);
    expect((await good.getToken('https://management.azure.com/.default')).token).toMatch(/\./);
  });
});

describe('token expiry', () => {
  it('answers 401 ExpiredAuthenticationToken once an issued token has expired', async () => {
    const shortLived = await startAzureSimulator({ tokenLifetimeSeconds: 1 });
    try {
      const response = await clientCredentialsToken(shortLived);
      expect(response.body.expires_in).toBe(1);
      const path = `/subscriptions/${shortLived.subscriptionId}/resourcegroups?api-version=2024-03-01`;
      expect((await rawRequest(shortLived, 'GET', path, { token: String(response.body.access_token) })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const expired = await rawRequest(shortLived, 'GET', path, { token: String(response.body.access_token) });
      expect(expired.status).toBe(401);
      expect(expired.body.error.code).toBe('ExpiredAuthenticationToken');
    } finally {
      await shortLived.close();
    }
  });
});

describe("ARM's bearer check", () => {
  const path = () => `/subscriptions/${simulator.subscriptionId}/resourcegroups?api-version=2024-03-01`;

  it('answers 401 AuthenticationFailed without a token and InvalidAuthenticationToken with one it did not issue', async () => {
    const missing = await rawRequest(simulator, 'GET', path());
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ error: { code: 'AuthenticationFailed', message: "Authentication failed. The 'Authorization' header is missing." } });
    expect(missing.headers['www-authenticate']).toMatch(/^Bearer authorization_uri=".+", error="invalid_token"/);
    const forged = await rawRequest(simulator, 'GET', path(), { token: 'eyJhbGciOiJub25lIn0.e30.' });
    expect(forged.status).toBe(401);
    expect(forged.body.error.code).toBe('InvalidAuthenticationToken');
  });

  it('accepts issued tokens and the configured static token', async () => {
    const issued = String((await clientCredentialsToken(simulator)).body.access_token);
    expect((await rawRequest(simulator, 'GET', path(), { token: issued })).status).toBe(200);
    expect((await rawRequest(simulator, 'GET', path(), { token: 'a-static-token' })).status).toBe(200);
  });
});
