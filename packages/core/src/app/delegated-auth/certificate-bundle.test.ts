import { describe, expect, it } from 'vitest';
import { testCertificateAuthority, testClientCertificate, x509 } from './test-support/test-certificates.js';
import { CertificateBundleError, commonName, parseCertificateBundle, subjectAttributes, verifyClientCertificateChain } from './certificate-bundle.js';

const clientCa = testCertificateAuthority('client-ca');
const otherCa = testCertificateAuthority('other-ca');
const intermediate = testCertificateAuthority('intermediate', clientCa);
const alice = testClientCertificate(clientCa, 'alice', { organizations: ['dev', 'ops'] });

describe('parseCertificateBundle', () => {
  it('reads every certificate of a bundle', () => {
    const bundle = parseCertificateBundle(`${clientCa.certificatePem}\n${otherCa.certificatePem}`, '--client-ca-file /ca.crt');
    expect(bundle.map(commonName)).toEqual(['client-ca', 'other-ca']);
  });

  it('names the source when there is no certificate or a broken one', () => {
    expect(() => parseCertificateBundle('hello', '--client-ca-file /ca.crt')).toThrow(new CertificateBundleError('NoCertificates', '--client-ca-file /ca.crt holds no PEM certificate'));
    expect(() => parseCertificateBundle('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----', 'client-ca-file of configmap')).toThrow(
      /^client-ca-file of configmap: certificate 1 is not valid/,
    );
  });
});

describe('verifyClientCertificateChain', () => {
  const roots = [x509(clientCa)];

  it('accepts a certificate the CA signed, and reads CN and O', () => {
    const result = verifyClientCertificateChain([x509(alice)], roots);
    expect(result.ok).toBe(true);
    expect(commonName(x509(alice))).toBe('alice');
    expect(subjectAttributes(x509(alice), 'O')).toEqual(['dev', 'ops']);
  });

  it('follows intermediates the client sends', () => {
    const bob = testClientCertificate(intermediate, 'bob');
    expect(verifyClientCertificateChain([x509(bob), x509(intermediate)], roots).ok).toBe(true);
    expect(verifyClientCertificateChain([x509(bob)], roots)).toEqual({ ok: false, reason: 'x509: certificate signed by unknown authority' });
  });

  it.each([
    ['another CA', () => testClientCertificate(otherCa, 'mallory'), 'x509: certificate signed by unknown authority'],
    ['a self-signed certificate', () => testCertificateAuthority('mallory'), 'x509: certificate signed by unknown authority'],
    ['an expired certificate', () => testClientCertificate(clientCa, 'old', { notBefore: new Date(Date.now() - 10 * 86_400_000), notAfter: new Date(Date.now() - 86_400_000) }), /has expired/],
    ['a certificate not valid yet', () => testClientCertificate(clientCa, 'future', { notBefore: new Date(Date.now() + 86_400_000) }), /is not yet valid/],
    ['a server-only certificate', () => testClientCertificate(clientCa, 'server', { extendedKeyUsages: ['serverAuth'] }), 'x509: certificate "server" specifies an incompatible key usage'],
  ])('refuses %s', (_name, make, reason) => {
    const result = verifyClientCertificateChain([x509(make())], roots);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });

  it('accepts a certificate without extended key usages (any usage)', () => {
    expect(verifyClientCertificateChain([x509(testClientCertificate(clientCa, 'plain', { extendedKeyUsages: [] }))], roots).ok).toBe(true);
  });

  it('needs a certificate and a CA', () => {
    expect(verifyClientCertificateChain([], roots)).toEqual({ ok: false, reason: 'no client certificate' });
    expect(verifyClientCertificateChain([x509(alice)], [])).toEqual({ ok: false, reason: 'no certificate authority to verify against' });
  });
});
