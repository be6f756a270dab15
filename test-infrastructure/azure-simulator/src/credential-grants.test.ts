/**
 * The credential kinds besides the client secret: a certificate's client assertion and a
 * federated (workload identity) assertion on the token endpoints, and managed identity tokens
 * from IMDS; each positive (ARM accepts the token, and @azure/identity's own credential works)
 * and negative (wrong signature, unregistered key, expired assertion, unknown client, no match).
 */
import { generateKeyPairSync } from 'node:crypto';
import { ClientAssertionCredential, ClientCertificateCredential, ManagedIdentityCredential } from '@azure/identity';
import { issueCertificate } from '@ccm/self-signed-certificate';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { JWT_BEARER_ASSERTION_TYPE, startAzureSimulator, type AzureSimulator } from './index.js';
import { rawRequest, type RawResponse } from './test-support/azure-clients.js';
import { certificateAssertion, serviceAccountToken, signAssertion } from './test-support/signed-assertion.js';

const ISSUER = 'https://oidc.cluster.example/';
const SUBJECT = 'system:serviceaccount:kube-system:cloud-controller-manager';
const days = (count: number): Date => new Date(Date.now() + count * 86_400_000);
const registered = issueCertificate({ commonName: 'ccm-sp', keyType: 'rsa', notBefore: days(-1), notAfter: days(30) });
const unregistered = issueCertificate({ commonName: 'someone-else', keyType: 'rsa', notBefore: days(-1), notAfter: days(30) });
const issuerKeys = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
const otherKeys = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });

let simulator: AzureSimulator;

beforeAll(async () => {
  simulator = await startAzureSimulator({
    clientCertificates: [registered.certificatePem],
    federatedCredentials: [{ issuer: ISSUER, subject: SUBJECT, issuerKeyPem: issuerKeys.publicKey }],
    managedIdentities: { userAssigned: [{ clientId: 'user-assigned-client', objectId: 'user-assigned-object', resourceId: '/subscriptions/s/resourceGroups/rg/providers/Microsoft.ManagedIdentity/userAssignedIdentities/ccm' }] },
  });
});
afterAll(async () => {
  await simulator.close();
});

const tokenEndpoint = (): string => `${simulator.activeDirectoryEndpoint}/${simulator.tenantId}/oauth2/v2.0/token`;
const armPath = (): string => `/subscriptions/${simulator.subscriptionId}/resourcegroups?api-version=2024-03-01`;

function assertionGrant(assertion: string, clientId = simulator.clientId): Promise<RawResponse> {
  return rawRequest(simulator, 'POST', `/${simulator.tenantId}/oauth2/v2.0/token`, {
    form: { grant_type: 'client_credentials', client_id: clientId, client_assertion_type: JWT_BEARER_ASSERTION_TYPE, client_assertion: assertion, scope: `${simulator.resourceManagerEndpoint}/.default` },
  });
}

async function expectArmAccepts(response: RawResponse): Promise<void> {
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect((await rawRequest(simulator, 'GET', armPath(), { token: String(response.body.access_token) })).status).toBe(200);
}

describe('certificate credentials (client assertion signed with the certificate key)', () => {
  it.each(['RS256', 'PS256'] as const)('accepts an %s assertion of a registered certificate', async (alg) => {
    await expectArmAccepts(await assertionGrant(certificateAssertion({ ...registered, clientId: simulator.clientId, audience: tokenEndpoint(), alg })));
  });

  it('works with @azure/identity ClientCertificateCredential (certificate chain sent)', async () => {
    const credential = new ClientCertificateCredential(simulator.tenantId, simulator.clientId, { certificate: `${registered.certificatePem}\n${registered.privateKeyPem}` }, {
      authorityHost: simulator.activeDirectoryEndpoint,
      disableInstanceDiscovery: true,
      sendCertificateChain: true,
      tlsOptions: { ca: simulator.caCertificatePem },
    });
    const token = await credential.getToken(`${simulator.resourceManagerEndpoint}/.default`);
    expect((await rawRequest(simulator, 'GET', armPath(), { token: token.token })).status).toBe(200);
  });

  it.each<[string, () => string, () => string, number, RegExp]>([
    ['a wrong signature (the registered thumbprint, another key)', () => certificateAssertion({ certificatePem: registered.certificatePem, privateKeyPem: unregistered.privateKeyPem, clientId: simulator.clientId, audience: tokenEndpoint() }), () => simulator.clientId, 700027, /failed signature validation/],
    ['an unregistered certificate', () => certificateAssertion({ ...unregistered, clientId: simulator.clientId, audience: tokenEndpoint() }), () => simulator.clientId, 700027, /not registered on application/],
    ['an expired assertion', () => certificateAssertion({ ...registered, clientId: simulator.clientId, audience: tokenEndpoint(), nowSeconds: Math.floor(Date.now() / 1000) - 7200 }), () => simulator.clientId, 700024, /not within its valid time range/],
    ['another audience', () => certificateAssertion({ ...registered, clientId: simulator.clientId, audience: 'https://login.example/other/oauth2/v2.0/token' }), () => simulator.clientId, 700212, /audience/],
    ['an unknown client', () => certificateAssertion({ ...registered, clientId: 'unknown-client', audience: tokenEndpoint() }), () => 'unknown-client', 700016, /was not found in the directory/],
    ['a malformed assertion', () => 'not.a-jwt', () => simulator.clientId, 50027, /invalid or malformed/],
  ])('refuses %s', async (_case, assertion, clientId, code, message) => {
    const response = await assertionGrant(assertion(), clientId());
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.body.error_codes).toEqual([code]);
    expect(response.body.error_description).toMatch(message);
  });

  it('refuses a wrong assertion type', async () => {
    const response = await rawRequest(simulator, 'POST', `/${simulator.tenantId}/oauth2/v2.0/token`, {
      form: { grant_type: 'client_credentials', client_id: simulator.clientId, client_assertion_type: 'urn:other', client_assertion: 'x.y.z', scope: `${simulator.resourceManagerEndpoint}/.default` },
    });
    expect(response.body).toMatchObject({ error: 'invalid_request', error_codes: [50027] });
  });
});

describe('federated credentials (workload identity)', () => {
  it('accepts a service account token of the registered issuer and subject', async () => {
    await expectArmAccepts(await assertionGrant(serviceAccountToken({ issuer: ISSUER, subject: SUBJECT, privateKeyPem: issuerKeys.privateKey })));
  });

  it('works with @azure/identity ClientAssertionCredential', async () => {
    const credential = new ClientAssertionCredential(simulator.tenantId, simulator.clientId, async () => serviceAccountToken({ issuer: ISSUER, subject: SUBJECT, privateKeyPem: issuerKeys.privateKey }), {
      authorityHost: simulator.activeDirectoryEndpoint,
      disableInstanceDiscovery: true,
      tlsOptions: { ca: simulator.caCertificatePem },
    });
    const token = await credential.getToken(`${simulator.resourceManagerEndpoint}/.default`);
    expect((await rawRequest(simulator, 'GET', armPath(), { token: token.token })).status).toBe(200);
  });

  it.each<[string, () => string, () => string, number]>([
    ['a wrong signature', () => serviceAccountToken({ issuer: ISSUER, subject: SUBJECT, privateKeyPem: otherKeys.privateKey }), () => simulator.clientId, 700027],
    ['an expired token', () => serviceAccountToken({ issuer: ISSUER, subject: SUBJECT, privateKeyPem: issuerKeys.privateKey, nowSeconds: Math.floor(Date.now() / 1000) - 7200, lifetimeSeconds: 600 }), () => simulator.clientId, 700024],
    ['an unknown issuer', () => serviceAccountToken({ issuer: 'https://other-issuer.example/', subject: SUBJECT, privateKeyPem: issuerKeys.privateKey }), () => simulator.clientId, 700211],
    ['another subject', () => serviceAccountToken({ issuer: ISSUER, subject: 'system:serviceaccount:default:intruder', privateKeyPem: issuerKeys.privateKey }), () => simulator.clientId, 700213],
    ['another audience', () => serviceAccountToken({ issuer: ISSUER, subject: SUBJECT, audience: 'api://other', privateKeyPem: issuerKeys.privateKey }), () => simulator.clientId, 700212],
    ['an unknown client', () => serviceAccountToken({ issuer: ISSUER, subject: SUBJECT, privateKeyPem: issuerKeys.privateKey }), () => 'unknown-client', 700016],
    ['an HS256 token (no key of the issuer can verify it)', () => signAssertion({ alg: 'HS256' }, { iss: ISSUER, sub: SUBJECT, aud: 'api://AzureADTokenExchange', exp: Math.floor(Date.now() / 1000) + 600 }, issuerKeys.privateKey), () => simulator.clientId, 700027],
  ])('refuses %s', async (_case, assertion, clientId, code) => {
    const response = await assertionGrant(assertion(), clientId());
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.body.error_codes).toEqual([code]);
  });
});

describe('managed identity (IMDS, plain HTTP)', () => {
  const imds = (query: string, headers: Record<string, string> = { Metadata: 'true' }) => fetch(`${simulator.imdsEndpoint}/metadata/identity/oauth2/token?${query}`, { headers });
  const resource = (): string => encodeURIComponent(simulator.resourceManagerEndpoint);
  const previousHost = process.env['AZURE_POD_IDENTITY_AUTHORITY_HOST'];
  afterEach(() => {
    if (previousHost === undefined) delete process.env['AZURE_POD_IDENTITY_AUTHORITY_HOST'];
    else process.env['AZURE_POD_IDENTITY_AUTHORITY_HOST'] = previousHost;
  });

  it.each<[string, () => string, () => string]>([
    ['the system-assigned identity', () => '', () => simulator.managedIdentityClientId ?? ''],
    ['a user-assigned identity by client_id', () => '&client_id=user-assigned-client', () => 'user-assigned-client'],
    ['a user-assigned identity by msi_res_id', () => `&msi_res_id=${encodeURIComponent('/subscriptions/s/resourceGroups/rg/providers/Microsoft.ManagedIdentity/userAssignedIdentities/ccm')}`, () => 'user-assigned-client'],
    ['a user-assigned identity by object_id', () => '&object_id=user-assigned-object', () => 'user-assigned-client'],
  ])('issues a token ARM accepts for %s', async (_case, selector, clientId) => {
    const response = await imds(`api-version=2018-02-01&resource=${resource()}${selector()}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, string>;
    expect(body).toMatchObject({ client_id: clientId(), resource: simulator.resourceManagerEndpoint, token_type: 'Bearer', expires_in: '3599', expires_on: expect.stringMatching(/^\d+$/) });
    expect((await rawRequest(simulator, 'GET', armPath(), { token: String(body['access_token']) })).status).toBe(200);
  });

  it.each<[string, string, Record<string, string>, string]>([
    ['no Metadata header', 'api-version=2018-02-01&resource=https%3A%2F%2Fmanagement.azure.com%2F', {}, 'Required metadata header not specified'],
    ['no api-version', 'resource=https%3A%2F%2Fmanagement.azure.com%2F', { Metadata: 'true' }, "Required query variable 'api-version' is missing"],
    ['no resource', 'api-version=2018-02-01', { Metadata: 'true' }, "Required query variable 'resource' is missing"],
    ['an unknown identity', 'api-version=2018-02-01&resource=https%3A%2F%2Fmanagement.azure.com%2F&client_id=nobody', { Metadata: 'true' }, 'Identity not found'],
  ])('refuses %s with IMDS\'s error body', async (_case, query, headers, description) => {
    const response = await imds(query, headers);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'invalid_request', error_description: description });
  });

  it('works with @azure/identity ManagedIdentityCredential pointed at it by AZURE_POD_IDENTITY_AUTHORITY_HOST', async () => {
    process.env['AZURE_POD_IDENTITY_AUTHORITY_HOST'] = simulator.imdsEndpoint;
    const credential = new ManagedIdentityCredential({ clientId: 'user-assigned-client', retryOptions: { maxRetries: 0 } });
    const token = await credential.getToken(`${simulator.resourceManagerEndpoint}/.default`);
    expect((await rawRequest(simulator, 'GET', armPath(), { token: token.token })).status).toBe(200);
    await expect(new ManagedIdentityCredential({ clientId: 'nobody', retryOptions: { maxRetries: 0 } }).getToken(`${simulator.resourceManagerEndpoint}/.default`)).rejects.toThrow(/Identity not found|not found/i);
  });
});
