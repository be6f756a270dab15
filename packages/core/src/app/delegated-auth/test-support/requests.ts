import type { CertificateAndKey } from '@ccm/self-signed-certificate';
import type { AuthenticationRequest } from '../authenticator.js';
import { x509 } from './test-certificates.js';

/** A request presenting these certificates (leaf first) and headers (lower-case names). */
export function clientCertificatesRequest(chain: CertificateAndKey[], headers: Record<string, string[]> = {}): AuthenticationRequest {
  return { headers, peerCertificates: chain.map(x509) };
}
