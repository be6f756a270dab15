/**
 * PEM certificate bundles (a client CA, the front-proxy CA) and the verification of a client
 * certificate chain against one, as Go's `x509.Certificate.Verify` with `ExtKeyUsageClientAuth`
 * does it for upstream's x509 and request-header authenticators: the chain must lead from the
 * leaf, through CA certificates the client sent, to a certificate of the bundle; every
 * certificate must be within its validity period; a certificate with extended key usages must
 * allow client authentication.
 */
import { X509Certificate } from 'node:crypto';

export type CertificateBundleErrorKind = 'Unreadable' | 'NoCertificates' | 'InvalidCertificate';

/** A CA bundle that cannot be used; the message names where it came from. */
export class CertificateBundleError extends Error {
  readonly kind: CertificateBundleErrorKind;
  constructor(kind: CertificateBundleErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CertificateBundleError';
    this.kind = kind;
  }
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/** Every certificate of a PEM bundle; `source` names it in errors (`--client-ca-file /etc/ca.crt`). */
export function parseCertificateBundle(pem: string, source: string): X509Certificate[] {
  const blocks = pem.match(PEM_CERTIFICATE) ?? [];
  if (blocks.length === 0) throw new CertificateBundleError('NoCertificates', `${source} holds no PEM certificate`);
  return blocks.map((block, index) => {
    try {
      return new X509Certificate(block);
    } catch (error) {
      throw new CertificateBundleError('InvalidCertificate', `${source}: certificate ${index + 1} is not valid: ${(error as Error).message}`, { cause: error });
    }
  });
}

const CLIENT_AUTH_USAGE = '1.3.6.1.5.5.7.3.2';
const ANY_EXTENDED_KEY_USAGE = '2.5.29.37.0';
const MAX_CHAIN_LENGTH = 10;

export type ChainVerification = { readonly ok: true; readonly leaf: X509Certificate } | { readonly ok: false; readonly reason: string };

/** `chain` is what the client sent, leaf first; `roots` the trusted bundle. */
export function verifyClientCertificateChain(chain: readonly X509Certificate[], roots: readonly X509Certificate[], now: Date = new Date()): ChainVerification {
  const leaf = chain[0];
  if (leaf === undefined) return { ok: false, reason: 'no client certificate' };
  if (roots.length === 0) return { ok: false, reason: 'no certificate authority to verify against' };
  const intermediates = chain.slice(1).filter((certificate) => certificate.ca);
  let current = leaf;
  for (let depth = 0; depth < MAX_CHAIN_LENGTH; depth += 1) {
    const problem = validityProblem(current, now) ?? usageProblem(current);
    if (problem !== undefined) return { ok: false, reason: problem };
    if (roots.some((root) => root.raw.equals(current.raw))) return { ok: true, leaf };
    const root = roots.find((candidate) => issuedBy(current, candidate));
    if (root !== undefined) {
      const rootProblem = validityProblem(root, now);
      return rootProblem === undefined ? { ok: true, leaf } : { ok: false, reason: rootProblem };
    }
    const next = intermediates.find((candidate) => candidate !== current && issuedBy(current, candidate));
    if (next === undefined) return { ok: false, reason: 'x509: certificate signed by unknown authority' };
    current = next;
  }
  return { ok: false, reason: 'x509: certificate chain too long' };
}

function issuedBy(certificate: X509Certificate, issuer: X509Certificate): boolean {
  try {
    return certificate.checkIssued(issuer) && certificate.verify(issuer.publicKey);
  } catch {
    return false;
  }
}

function validityProblem(certificate: X509Certificate, now: Date): string | undefined {
  if (now < new Date(certificate.validFrom)) return `x509: certificate ${describe(certificate)} is not yet valid (valid from ${certificate.validFrom})`;
  if (now > new Date(certificate.validTo)) return `x509: certificate ${describe(certificate)} has expired (valid to ${certificate.validTo})`;
  return undefined;
}

function usageProblem(certificate: X509Certificate): string | undefined {
  // Node names the extended key usages `keyUsage`; undefined when the extension is absent.
  const usages = certificate.keyUsage as readonly string[] | undefined;
  if (usages === undefined || usages.length === 0) return undefined;
  if (usages.includes(CLIENT_AUTH_USAGE) || usages.includes(ANY_EXTENDED_KEY_USAGE)) return undefined;
  return `x509: certificate ${describe(certificate)} specifies an incompatible key usage`;
}

/** The subject's common name, for messages. */
export function commonName(certificate: X509Certificate): string {
  return subjectAttributes(certificate, 'CN')[0] ?? '';
}

/** Every value of one subject attribute (`CN`, `O`), in order. */
export function subjectAttributes(certificate: X509Certificate, attribute: string): string[] {
  const values: string[] = [];
  for (const line of certificate.subject.split('\n')) {
    const separator = line.indexOf('=');
    if (separator > 0 && line.slice(0, separator) === attribute) values.push(unquote(line.slice(separator + 1)));
  }
  return values;
}

/** Node quotes values with special characters JSON-style (`CN="a\nb"`). */
function unquote(value: string): string {
  if (!value.startsWith('"')) return value;
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'string' ? parsed : value;
  } catch {
    return value;
  }
}

function describe(certificate: X509Certificate): string {
  return JSON.stringify(commonName(certificate));
}
