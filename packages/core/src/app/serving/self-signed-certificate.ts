/**
 * The self-signed serving certificate of the secure port when no certificate is configured
 * (generated in memory with node:crypto only; shared with the kube emulator's HTTPS), and the
 * issuer of CA-signed certificates the same package provides (client certificates in tests).
 */
export {
  generateSelfSignedCertificate,
  issueCertificate,
  type CertificateAndKey,
  type ExtendedKeyUsage,
  type IssueCertificateOptions,
  type SelfSignedCertificateOptions,
} from '@ccm/self-signed-certificate';
