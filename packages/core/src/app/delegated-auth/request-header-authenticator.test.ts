import { describe, expect, it } from 'vitest';
import { testCertificateAuthority, testClientCertificate, x509 } from './test-support/test-certificates.js';
import { clientCertificatesRequest } from './test-support/requests.js';
import { clientCertificateAuthoritiesFrom, requestHeaderSettingsFrom } from './authentication-config-map.js';
import { clientCertificateAuthenticator } from './client-certificate-authenticator.js';
import { requestHeaderAuthenticator, type RequestHeaderSettings } from './request-header-authenticator.js';
import { userInfo } from './user-info.js';

const frontProxyCa = testCertificateAuthority('front-proxy-ca');
const clientCa = testCertificateAuthority('client-ca');
const proxy = testClientCertificate(frontProxyCa, 'front-proxy-client');
const settings: RequestHeaderSettings = {
  certificateAuthorities: [x509(frontProxyCa)],
  allowedNames: [],
  usernameHeaders: ['x-remote-user'],
  uidHeaders: ['x-remote-uid'],
  groupHeaders: ['x-remote-group'],
  extraHeaderPrefixes: ['x-remote-extra-'],
};

describe('requestHeaderAuthenticator', () => {
  it('takes the user, groups and extra from the headers of a trusted proxy', async () => {
    const result = await requestHeaderAuthenticator(() => settings).authenticate(
      clientCertificatesRequest([proxy], {
        'x-remote-user': ['alice'],
        'x-remote-uid': ['u-1'],
        'x-remote-group': ['dev', 'ops'],
        'x-remote-extra-scopes': ['a', 'b'],
        'x-remote-extra-acme.com%2Fproject': ['p1'],
      }),
    );
    expect(result).toEqual({
      kind: 'authenticated',
      user: userInfo('alice', { uid: 'u-1', groups: ['dev', 'ops'], extra: { scopes: ['a', 'b'], 'acme.com/project': ['p1'] } }),
      by: 'request-header',
    });
  });

  it('has no opinion without a certificate, a CA or a username header', async () => {
    const authenticator = requestHeaderAuthenticator(() => settings);
    expect(await authenticator.authenticate(clientCertificatesRequest([], { 'x-remote-user': ['alice'] }))).toEqual({ kind: 'no-opinion' });
    expect(await authenticator.authenticate(clientCertificatesRequest([proxy], {}))).toEqual({ kind: 'no-opinion' });
    expect(await requestHeaderAuthenticator(() => undefined).authenticate(clientCertificatesRequest([proxy], { 'x-remote-user': ['alice'] }))).toEqual({ kind: 'no-opinion' });
    expect(await requestHeaderAuthenticator(() => ({ ...settings, certificateAuthorities: [] })).authenticate(clientCertificatesRequest([proxy], { 'x-remote-user': ['alice'] }))).toEqual({
      kind: 'no-opinion',
    });
  });

  it('refuses headers from a certificate of another CA or a name not allowed', async () => {
    const stranger = testClientCertificate(clientCa, 'front-proxy-client');
    expect(await requestHeaderAuthenticator(() => settings).authenticate(clientCertificatesRequest([stranger], { 'x-remote-user': ['admin'] }))).toEqual({
      kind: 'failed',
      reason: 'request-header client certificate: x509: certificate signed by unknown authority',
    });
    expect(await requestHeaderAuthenticator(() => ({ ...settings, allowedNames: ['aggregator'] })).authenticate(clientCertificatesRequest([proxy], { 'x-remote-user': ['admin'] }))).toEqual({
      kind: 'failed',
      reason: 'request-header client certificate: x509: subject with cn=front-proxy-client is not in the allowed list',
    });
  });
});

describe('clientCertificateAuthenticator', () => {
  it('maps CN to the user and O to groups; refuses unknown CAs; ignores requests without a certificate', async () => {
    const authenticator = clientCertificateAuthenticator(() => [x509(clientCa)]);
    const alice = testClientCertificate(clientCa, 'alice', { organizations: ['system:masters'] });
    expect(await authenticator.authenticate(clientCertificatesRequest([alice]))).toEqual({ kind: 'authenticated', user: userInfo('alice', { groups: ['system:masters'] }), by: 'x509' });
    expect(await authenticator.authenticate(clientCertificatesRequest([proxy]))).toEqual({ kind: 'failed', reason: 'client certificate: x509: certificate signed by unknown authority' });
    expect(await authenticator.authenticate(clientCertificatesRequest([]))).toEqual({ kind: 'no-opinion' });
    expect(await clientCertificateAuthenticator(() => []).authenticate(clientCertificatesRequest([alice]))).toEqual({ kind: 'no-opinion' });
  });
});

describe('the extension-apiserver-authentication ConfigMap', () => {
  it('reads the client CA and the front proxy settings', () => {
    const data = {
      'client-ca-file': clientCa.certificatePem,
      'requestheader-client-ca-file': frontProxyCa.certificatePem,
      'requestheader-allowed-names': '["front-proxy-client"]',
      'requestheader-username-headers': '["X-Remote-User"]',
      'requestheader-uid-headers': '[]',
      'requestheader-group-headers': '["X-Remote-Group"]',
      'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
    };
    expect(clientCertificateAuthoritiesFrom(data).map((certificate) => certificate.subject)).toEqual(['CN=client-ca']);
    const parsed = requestHeaderSettingsFrom(data);
    expect(parsed.certificateAuthorities.map((certificate) => certificate.subject)).toEqual(['CN=front-proxy-ca']);
    expect(parsed).toMatchObject({ allowedNames: ['front-proxy-client'], usernameHeaders: ['X-Remote-User'], uidHeaders: [], groupHeaders: ['X-Remote-Group'], extraHeaderPrefixes: ['X-Remote-Extra-'] });
  });

  it('treats a missing ConfigMap or key as "nothing configured" and names bad keys', () => {
    expect(clientCertificateAuthoritiesFrom(undefined)).toEqual([]);
    expect(requestHeaderSettingsFrom({})).toEqual({ certificateAuthorities: [], allowedNames: [], usernameHeaders: [], uidHeaders: [], groupHeaders: [], extraHeaderPrefixes: [] });
    expect(() => requestHeaderSettingsFrom({ 'requestheader-username-headers': 'X-Remote-User' })).toThrow(
      'requestheader-username-headers of configmap/extension-apiserver-authentication in kube-system is not a JSON list of strings',
    );
    expect(() => clientCertificateAuthoritiesFrom({ 'client-ca-file': 'not pem' })).toThrow('client-ca-file of configmap/extension-apiserver-authentication in kube-system holds no PEM certificate');
  });
});
