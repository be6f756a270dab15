import { X509Certificate, createPrivateKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { derObjectIdentifier, derTime, derUnsignedInteger } from './der-encoding.js';
import { generateSelfSignedCertificate } from './self-signed-certificate.js';

describe('generateSelfSignedCertificate', () => {
  it('produces a certificate node:crypto parses, for localhost and 127.0.0.1', () => {
    const now = new Date('2026-11-21T12:00:00Z');
    const { certificatePem, privateKeyPem } = generateSelfSignedCertificate({ now });
    const certificate = new X509Certificate(certificatePem);
    expect(certificate.subject).toBe(`CN=localhost@${Math.floor(now.getTime() / 1000)}`);
    expect(certificate.issuer).toBe(certificate.subject);
    expect(certificate.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1');
    expect(certificate.checkHost('localhost')).toBe('localhost');
    expect(certificate.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(certificate.checkHost('example.com')).toBeUndefined();
    expect(new Date(certificate.validFrom).toISOString()).toBe('2026-11-21T11:00:00.000Z');
    expect(new Date(certificate.validTo).toISOString()).toBe('2027-11-21T12:00:00.000Z');
    expect(certificate.ca).toBe(true);
    expect(certificate.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(certificate.verify(certificate.publicKey)).toBe(true);
    expect(certificate.checkPrivateKey(createPrivateKey(privateKeyPem))).toBe(true);
  });

  it('supports IPv6 addresses and more names', () => {
    const { certificatePem } = generateSelfSignedCertificate({ dnsNames: ['localhost', 'ccm.kube-system.svc'], ipAddresses: ['127.0.0.1', '::1', 'fd00::10:1'] });
    const certificate = new X509Certificate(certificatePem);
    expect(certificate.subjectAltName).toBe('DNS:localhost, DNS:ccm.kube-system.svc, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, IP Address:FD00:0:0:0:0:0:10:1');
  });

  it('uses a fresh key and serial every time', () => {
    const first = new X509Certificate(generateSelfSignedCertificate().certificatePem);
    const second = new X509Certificate(generateSelfSignedCertificate().certificatePem);
    expect(first.serialNumber).not.toBe(second.serialNumber);
    expect(first.publicKey.export({ format: 'der', type: 'spki' }).equals(second.publicKey.export({ format: 'der', type: 'spki' }))).toBe(false);
  });
});

describe('DER encoding', () => {
  it.each([
    ['2.5.4.3', '0603550403'],
    ['1.2.840.10045.4.3.2', '06082a8648ce3d040302'],
    ['1.3.6.1.5.5.7.3.1', '06082b06010505070301'],
  ])('OID %s', (oid, hex) => {
    expect(derObjectIdentifier(oid).toString('hex')).toBe(hex);
  });

  it('encodes integers and times', () => {
    expect(derUnsignedInteger(Buffer.from([0x00, 0x00, 0x7f])).toString('hex')).toBe('02017f');
    expect(derUnsignedInteger(Buffer.from([0x80])).toString('hex')).toBe('02020080');
    expect(derTime(new Date('2026-01-02T03:04:05Z')).toString('ascii').slice(2)).toBe('260102030405Z');
    expect(derTime(new Date('2051-01-02T03:04:05Z')).toString('ascii').slice(2)).toBe('20510102030405Z');
  });
});
