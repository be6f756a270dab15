/**
 * The emulator's HTTPS certificate: self-signed, its own CA (a kubeconfig carries it as
 * certificate-authority-data), for the given host names and IP addresses.
 */
import { isIP } from 'node:net';
import { generateSelfSignedCertificate as generateCertificate } from '@ccm/self-signed-certificate';

export interface SelfSignedCertificate {
  certificatePem: string;
  privateKeyPem: string;
}

/** Generates a certificate valid for `hosts` (DNS names and IP addresses) for `validDays` days. */
export function generateSelfSignedCertificate(hosts: readonly string[] = ['localhost', '127.0.0.1', '::1'], validDays = 365): SelfSignedCertificate {
  const unique = [...new Set(hosts)];
  return generateCertificate({
    commonName: 'kube-emulator',
    dnsNames: unique.filter((host) => isIP(host) === 0),
    ipAddresses: unique.filter((host) => isIP(host) !== 0),
    validityDays: validDays,
  });
}
