/** Certificates for the delegated-auth tests: CAs, intermediates and client certificates. */
import { X509Certificate } from 'node:crypto';
import { issueCertificate, type CertificateAndKey, type ExtendedKeyUsage } from '@ccm/self-signed-certificate';

const DAY = 86_400_000;

export function testCertificateAuthority(commonName: string, issuer?: CertificateAndKey): CertificateAndKey {
  return issueCertificate({ commonName, certificateAuthority: true, notBefore: new Date(Date.now() - DAY), notAfter: new Date(Date.now() + 30 * DAY), ...(issuer ? { issuer } : {}) });
}

export function testClientCertificate(
  issuer: CertificateAndKey,
  commonName: string,
  options: { organizations?: string[]; extendedKeyUsages?: ExtendedKeyUsage[]; notBefore?: Date; notAfter?: Date } = {},
): CertificateAndKey {
  return issueCertificate({
    commonName,
    issuer,
    organizations: options.organizations ?? [],
    extendedKeyUsages: options.extendedKeyUsages ?? ['clientAuth'],
    notBefore: options.notBefore ?? new Date(Date.now() - DAY),
    notAfter: options.notAfter ?? new Date(Date.now() + 30 * DAY),
  });
}

export const x509 = (pair: CertificateAndKey): X509Certificate => new X509Certificate(pair.certificatePem);
