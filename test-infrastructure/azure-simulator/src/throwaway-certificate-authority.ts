/**
 * A CA made at start and a serving certificate it signs for 127.0.0.1, ::1 and localhost: the
 * Azure SDKs only send bearer tokens over https, so clients trust the CA file the simulator writes.
 */
import { issueCertificate, type CertificateAndKey } from '@ccm/self-signed-certificate';

export interface ThrowawayCertificates {
  certificateAuthority: CertificateAndKey;
  server: CertificateAndKey;
}

export function createThrowawayCertificates(now = new Date()): ThrowawayCertificates {
  const notBefore = new Date(now.getTime() - 60 * 60 * 1000);
  const notAfter = new Date(now.getTime() + 7 * 24 * 60 * 60 * 1000);
  const certificateAuthority = issueCertificate({ commonName: 'azure-simulator CA', certificateAuthority: true, notBefore, notAfter });
  const server = issueCertificate({
    commonName: 'azure-simulator',
    issuer: certificateAuthority,
    extendedKeyUsages: ['serverAuth'],
    dnsNames: ['localhost'],
    ipAddresses: ['127.0.0.1', '::1'],
    notBefore,
    notAfter,
  });
  return { certificateAuthority, server };
}
