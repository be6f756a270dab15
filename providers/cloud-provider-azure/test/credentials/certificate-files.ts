/** Test helper: an RSA client certificate written as PKCS#12 (.pfx, AES-256 or 3DES as Windows exports) and as PEM (plain or with an encrypted key). */
import { createPrivateKey } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { issueCertificate, type CertificateAndKey } from '@ccm/self-signed-certificate';
import forge from 'node-forge';

export function rsaClientCertificate(commonName = 'ccm-service-principal'): CertificateAndKey {
  const day = 86_400_000;
  return issueCertificate({ commonName, keyType: 'rsa', notBefore: new Date(Date.now() - day), notAfter: new Date(Date.now() + 30 * day) });
}

export function writePfx(directory: string, name: string, certificate: CertificateAndKey, password: string, algorithm: 'aes256' | '3des' = 'aes256'): string {
  const key = forge.pki.privateKeyFromPem(certificate.privateKeyPem);
  const cert = forge.pki.certificateFromPem(certificate.certificatePem);
  const asn1 = forge.pkcs12.toPkcs12Asn1(key, [cert], password, { algorithm });
  const path = join(directory, name);
  writeFileSync(path, Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary'));
  return path;
}

export function writePem(directory: string, name: string, certificate: CertificateAndKey, password?: string): string {
  const key = password === undefined ? certificate.privateKeyPem : createPrivateKey(certificate.privateKeyPem).export({ format: 'pem', type: 'pkcs8', cipher: 'aes-256-cbc', passphrase: password }).toString();
  const path = join(directory, name);
  writeFileSync(path, `${certificate.certificatePem.trim()}\n${key}`);
  return path;
}
