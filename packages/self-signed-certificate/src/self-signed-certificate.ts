/**
 * A self-signed serving certificate generated in memory with node:crypto only (no openssl CLI,
 * so it works in distroless images): an ECDSA P-256 key and an X.509 v3 certificate for the
 * given DNS names and IPs, like upstream's self-signed cert for `localhost` and `127.0.0.1`. It
 * is its own CA (a kubeconfig can carry it as certificate-authority-data).
 */
import { issueCertificate, type CertificateAndKey } from './issue-certificate.js';

export interface SelfSignedCertificateOptions {
  /** Subject common name; default `localhost@<unix seconds>` (upstream's naming). */
  commonName?: string;
  dnsNames?: readonly string[];
  ipAddresses?: readonly string[];
  /** Default: now. The certificate is valid from one hour before until `validityDays` after. */
  now?: Date;
  validityDays?: number;
}

export function generateSelfSignedCertificate(options: SelfSignedCertificateOptions = {}): CertificateAndKey {
  const now = options.now ?? new Date();
  return issueCertificate({
    commonName: options.commonName ?? `localhost@${Math.floor(now.getTime() / 1000)}`,
    certificateAuthority: true,
    extendedKeyUsages: ['serverAuth'],
    dnsNames: options.dnsNames ?? ['localhost'],
    ipAddresses: options.ipAddresses ?? ['127.0.0.1'],
    notBefore: new Date(now.getTime() - 3_600_000),
    notAfter: new Date(now.getTime() + (options.validityDays ?? 365) * 86_400_000),
  });
}
