/**
 * Client assertions as Entra ID checks them (RFC 7523 JWT bearer client authentication): the
 * application's certificate credential (a JWT the client signed with its certificate's key,
 * `iss` = `sub` = the client ID, `aud` = the token endpoint, the certificate named by `x5t` or
 * `x5t#S256`) and federated identity credentials (a JWT of an external issuer, e.g. a Kubernetes
 * service account token: `iss` and `sub` must match a federated credential of the application,
 * `aud` must hold its audience, signed with the issuer's key). RS256 and PS256 signatures.
 */
import { X509Certificate, constants, createPublicKey, verify, type KeyObject } from 'node:crypto';

export const JWT_BEARER_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** Clock skew Entra tolerates on `nbf` and `exp`. */
export const ASSERTION_CLOCK_SKEW_SECONDS = 300;

export interface FederatedIdentityCredential {
  issuer: string;
  subject: string;
  /** Default `api://AzureADTokenExchange`. */
  audience?: string;
  /** The issuer's signing key (public key or certificate, PEM). */
  issuerKeyPem: string;
}

export interface ParsedAssertion {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
  signingInput: string;
  signature: Buffer;
}

/** The parts of a compact JWS, or undefined when it is not one. */
export function parseAssertion(assertion: string): ParsedAssertion | undefined {
  const parts = assertion.split('.');
  if (parts.length !== 3) return undefined;
  const [headerPart, claimsPart, signaturePart] = parts as [string, string, string];
  try {
    const header = JSON.parse(Buffer.from(headerPart, 'base64url').toString('utf8')) as unknown;
    const claims = JSON.parse(Buffer.from(claimsPart, 'base64url').toString('utf8')) as unknown;
    if (typeof header !== 'object' || header === null || typeof claims !== 'object' || claims === null) return undefined;
    return { header: header as Record<string, unknown>, claims: claims as Record<string, unknown>, signingInput: `${headerPart}.${claimsPart}`, signature: Buffer.from(signaturePart, 'base64url') };
  } catch {
    return undefined;
  }
}

/** Whether `assertion` is signed by `key` with its header's algorithm (RS256 or PS256 only). */
export function hasValidSignature(assertion: ParsedAssertion, key: KeyObject): boolean {
  const data = Buffer.from(assertion.signingInput);
  try {
    if (assertion.header['alg'] === 'RS256') return verify('sha256', data, key, assertion.signature);
    if (assertion.header['alg'] === 'PS256') return verify('sha256', data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }, assertion.signature);
  } catch {
    return false;
  }
  return false;
}

/** 'valid', or which side of its time range `now` (ms) is on. */
export function timeRangeOf(assertion: ParsedAssertion, now: number): 'valid' | 'expired' | 'not-yet-valid' | 'no-expiry' {
  const seconds = now / 1000;
  const exp = assertion.claims['exp'];
  const nbf = assertion.claims['nbf'];
  if (typeof exp !== 'number') return 'no-expiry';
  if (exp + ASSERTION_CLOCK_SKEW_SECONDS <= seconds) return 'expired';
  if (typeof nbf === 'number' && nbf - ASSERTION_CLOCK_SKEW_SECONDS > seconds) return 'not-yet-valid';
  return 'valid';
}

/** A registered certificate credential: its key and both thumbprints (base64url, as in `x5t` / `x5t#S256`). */
export interface CertificateCredential {
  publicKey: KeyObject;
  x5t: string;
  x5tS256: string;
  /** SHA-1 thumbprint in upper-case hex, as the portal lists it. */
  thumbprint: string;
}

export function certificateCredentialOf(certificatePem: string): CertificateCredential {
  const certificate = new X509Certificate(certificatePem);
  const sha1 = Buffer.from(certificate.fingerprint.replace(/:/g, ''), 'hex');
  const sha256 = Buffer.from(certificate.fingerprint256.replace(/:/g, ''), 'hex');
  return { publicKey: certificate.publicKey, x5t: sha1.toString('base64url'), x5tS256: sha256.toString('base64url'), thumbprint: sha1.toString('hex').toUpperCase() };
}

export function issuerKeyOf(pem: string): KeyObject {
  return pem.includes('BEGIN CERTIFICATE') ? new X509Certificate(pem).publicKey : createPublicKey(pem);
}

/** The `aud` claim as a list. */
export function audiencesOf(assertion: ParsedAssertion): string[] {
  const aud = assertion.claims['aud'];
  if (typeof aud === 'string') return [aud];
  return Array.isArray(aud) ? aud.filter((entry): entry is string => typeof entry === 'string') : [];
}
