/**
 * Client certificates signed by the client CA (`--client-ca-file`, or `client-ca-file` of the
 * `extension-apiserver-authentication` ConfigMap): the user is the subject's common name, the
 * groups its organizations (upstream `x509.CommonNameUserConversion`). Without a client
 * certificate, or while no client CA is known, it has no opinion; a certificate that does not
 * verify is a failure.
 */
import type { X509Certificate } from 'node:crypto';
import { NO_OPINION, type AuthenticationRequest, type Authenticator, type AuthenticatorResult } from './authenticator.js';
import { commonName, subjectAttributes, verifyClientCertificateChain } from './certificate-bundle.js';
import { userInfo } from './user-info.js';

export function clientCertificateAuthenticator(certificateAuthorities: () => readonly X509Certificate[], now: () => Date = () => new Date()): Authenticator {
  return {
    name: 'x509',
    authenticate(request: AuthenticationRequest): Promise<AuthenticatorResult> {
      const leaf = request.peerCertificates[0];
      const roots = certificateAuthorities();
      if (leaf === undefined || roots.length === 0) return Promise.resolve(NO_OPINION);
      const verification = verifyClientCertificateChain(request.peerCertificates, roots, now());
      if (!verification.ok) return Promise.resolve({ kind: 'failed', reason: `client certificate: ${verification.reason}` });
      const name = commonName(leaf);
      if (name === '') return Promise.resolve(NO_OPINION);
      return Promise.resolve({ kind: 'authenticated', user: userInfo(name, { groups: subjectAttributes(leaf, 'O') }), by: 'x509' });
    },
  };
}
