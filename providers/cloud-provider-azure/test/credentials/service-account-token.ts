/** Test helper: a Kubernetes service account token (RS256 JWT) as a cluster's issuer signs it, for workload identity. */
import { createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';

export const TOKEN_EXCHANGE_AUDIENCE = 'api://AzureADTokenExchange';

export function issuerKeyPair(): { publicKey: string; privateKey: string } {
  return generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
}

export function serviceAccountToken(options: { issuer: string; subject: string; privateKeyPem: string; lifetimeSeconds?: number }): string {
  const now = Math.floor(Date.now() / 1000);
  const encode = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${encode({ alg: 'RS256', typ: 'JWT', kid: 'issuer' })}.${encode({ aud: [TOKEN_EXCHANGE_AUDIENCE], iss: options.issuer, sub: options.subject, iat: now, nbf: now, exp: now + (options.lifetimeSeconds ?? 3600) })}`;
  return `${input}.${sign('sha256', Buffer.from(input), createPrivateKey(options.privateKeyPem)).toString('base64url')}`;
}
