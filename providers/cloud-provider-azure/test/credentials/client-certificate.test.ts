/** aadClientCertPath / aadClientCertPassword: PKCS#12 and PEM read as upstream's ParseCertificates, and every failure naming its key. */
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AzureCredentialSetupError } from '../../src/errors.js';
import { readClientCertificate } from '../../src/ports/sdk/credentials/client-certificate.js';
import { rsaClientCertificate, writePem, writePfx } from './certificate-files.js';

const directory = mkdtempSync(join(tmpdir(), 'azure-client-certificate-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
const certificate = rsaClientCertificate();
const other = rsaClientCertificate('other');
const thumbprint = new X509Certificate(certificate.certificatePem).fingerprint.replace(/:/g, '');

function failure(path: string, password: string): AzureCredentialSetupError {
  try {
    readClientCertificate(path, password);
  } catch (error) {
    if (error instanceof AzureCredentialSetupError) return error;
    throw error;
  }
  throw new Error('expected readClientCertificate to fail');
}

describe('readClientCertificate', () => {
  it.each<[string, () => string, string]>([
    ['a PKCS#12 file (AES-256)', () => writePfx(directory, 'aes.pfx', certificate, 'pfx-password'), 'pfx-password'],
    ['a PKCS#12 file (3DES, as Windows exports)', () => writePfx(directory, '3des.pfx', certificate, 'pfx-password', '3des'), 'pfx-password'],
    ['a PEM file with an unencrypted key', () => writePem(directory, 'plain.pem', certificate), ''],
    ['a PEM file with an encrypted key', () => writePem(directory, 'encrypted.pem', certificate, 'pem-password'), 'pem-password'],
  ])('reads %s into the certificate and an unencrypted key', (_case, write, password) => {
    const read = readClientCertificate(write(), password);
    expect(read.thumbprint).toBe(thumbprint);
    expect(read.pem).toContain('-----BEGIN CERTIFICATE-----');
    expect(read.pem).toContain('-----BEGIN PRIVATE KEY-----');
    expect(read.pem).not.toContain('ENCRYPTED');
  });

  it.each<[string, () => string, string, string, RegExp]>([
    ['a missing file', () => join(directory, 'missing.pfx'), '', 'aadClientCertPath', /cannot read .*missing\.pfx: ENOENT/],
    ['a wrong PKCS#12 password', () => writePfx(directory, 'wrong-password.pfx', certificate, 'Right-Pfx-Pa55'), 'Wr0ng-Pfx-Pa55', 'aadClientCertPassword', /cannot be decrypted with this password/],
    ['an encrypted PEM key without a password', () => writePem(directory, 'nopass.pem', certificate, 'pem-password'), '', 'aadClientCertPassword', /encrypted and no password is set/],
    ['an encrypted PEM key with a wrong password', () => writePem(directory, 'badpass.pem', certificate, 'pem-password'), 'Wr0ng-Pem-Pa55', 'aadClientCertPassword', /cannot be decrypted with this password/],
    ['a PEM file without a key', () => (writeFileSync(join(directory, 'nokey.pem'), certificate.certificatePem), join(directory, 'nokey.pem')), '', 'aadClientCertPath', /holds no private key/],
    ['a key of another certificate', () => (writeFileSync(join(directory, 'mismatch.pem'), `${certificate.certificatePem}\n${other.privateKeyPem}`), join(directory, 'mismatch.pem')), '', 'aadClientCertPath', /does not belong to the certificate/],
    ['a file that is neither PEM nor PKCS#12', () => (writeFileSync(join(directory, 'garbage.pfx'), Buffer.from([1, 2, 3, 4, 5])), join(directory, 'garbage.pfx')), '', 'aadClientCertPath', /neither PEM nor a readable PKCS#12 file/],
  ])('refuses %s naming the key', (_case, path, password, key, message) => {
    const error = failure(path(), password);
    expect(error.key).toBe(key);
    expect(error.message).toMatch(message);
    if (password !== '') expect(error.message).not.toContain(password);
  });
});
