/** Test helper: compact JWS assertions signed with a PEM private key (RS256 or PS256), as MSAL and Kubernetes sign them. */
import { X509Certificate, constants, createPrivateKey, randomUUID, sign } from 'node:crypto';

export function signAssertion(header: Record<string, unknown>, claims: Record<string, unknown>, privateKeyPem: string): string {
  const encode = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  const signingInput = `${encode(header)}.${encode(claims)}`;
  const key = createPrivateKey(privateKeyPem);
  const signature =
    header['alg'] === 'PS256'
      ? sign('sha256', Buffer.from(signingInput), { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 })
      : sign('sha256', Buffer.from(signingInput), key);
  return `${signingInput}.${signature.toString('base64url')}`;
}

/** A certificate credential's assertion: `iss` = `sub` = the client, `aud` = the token endpoint, `x5t` (RS256) or `x5t#S256` (PS256). */
export function certificateAssertion(options: { certificatePem: string; privateKeyPem: string; clientId: string; audience: string; alg?: 'RS256' | 'PS256'; nowSeconds?: number; lifetimeSeconds?: number }): string {
  const certificate = new X509Certificate(options.certificatePem);
  const alg = options.alg ?? 'RS256';
  const thumbprint = (fingerprint: string): string => Buffer.from(fingerprint.replace(/:/g, ''), 'hex').toString('base64url');
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  const header = alg === 'RS256' ? { alg, typ: 'JWT', x5t: thumbprint(certificate.fingerprint) } : { alg, typ: 'JWT', 'x5t#S256': thumbprint(certificate.fingerprint256) };
  return signAssertion(header, { aud: options.audience, iss: options.clientId, sub: options.clientId, jti: randomUUID(), nbf: now, exp: now + (options.lifetimeSeconds ?? 600) }, options.privateKeyPem);
}

/** A service account token as the cluster's issuer signs it (RS256), for workload identity. */
export function serviceAccountToken(options: { issuer: string; subject: string; audience?: string; privateKeyPem: string; nowSeconds?: number; lifetimeSeconds?: number }): string {
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  return signAssertion(
    { alg: 'RS256', typ: 'JWT', kid: 'cluster-issuer' },
    { aud: [options.audience ?? 'api://AzureADTokenExchange'], iss: options.issuer, sub: options.subject, iat: now, nbf: now, exp: now + (options.lifetimeSeconds ?? 3600) },
    options.privateKeyPem,
  );
}
