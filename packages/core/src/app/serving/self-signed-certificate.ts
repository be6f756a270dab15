/**
 * The self-signed serving certificate of the secure port when no certificate is configured
 * (generated in memory with node:crypto only; shared with the kube emulator's HTTPS).
 */
export { generateSelfSignedCertificate, type CertificateAndKey, type SelfSignedCertificateOptions } from '@ccm/self-signed-certificate';
