/**
 * X.509 v3 certificates made with node:crypto only: self-signed, or signed by a CA whose
 * certificate and key are given (an ECDSA or RSA key). The new key is ECDSA P-256, or RSA 2048
 * when asked (Entra client certificates, whose JWT assertions are RS256/PS256). Used for the
 * self-signed serving certificate, and by tests that need client certificates signed by a
 * cluster's client CA (the secure port's delegated authentication).
 */
import { X509Certificate, createPrivateKey, createSign, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import {
  derBitString,
  derBoolean,
  derChildren,
  derElement,
  derExplicit,
  derObjectIdentifier,
  derOctetString,
  derSequence,
  derSet,
  derSmallInteger,
  derTime,
  derUnsignedInteger,
  derUtf8String,
} from './der-encoding.js';

export interface CertificateAndKey {
  certificatePem: string;
  privateKeyPem: string;
}

export type ExtendedKeyUsage = 'serverAuth' | 'clientAuth';

export interface IssueCertificateOptions {
  commonName: string;
  /** Subject organizations (a Kubernetes client certificate's groups). */
  organizations?: readonly string[];
  /** The signing CA; default: self-signed. */
  issuer?: CertificateAndKey;
  /** A CA certificate (basic constraints CA:TRUE, key usage certSign). Default false. */
  certificateAuthority?: boolean;
  extendedKeyUsages?: readonly ExtendedKeyUsage[];
  dnsNames?: readonly string[];
  ipAddresses?: readonly string[];
  notBefore: Date;
  notAfter: Date;
  /** The new key's type: ECDSA P-256 (default) or RSA 2048. */
  keyType?: 'ec' | 'rsa';
}

const OID = {
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  sha256WithRsaEncryption: '1.2.840.113549.1.1.11',
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extendedKeyUsage: '2.5.29.37',
  subjectAltName: '2.5.29.17',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
} as const;

export function issueCertificate(options: IssueCertificateOptions): CertificateAndKey {
  const { privateKey, publicKey } = options.keyType === 'rsa' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const signingKey = options.issuer ? createPrivateKey(options.issuer.privateKeyPem) : privateKey;
  const signatureAlgorithm = signatureAlgorithmFor(signingKey);
  const subject = derSequence(
    ...(options.organizations ?? []).map((organization) => derSet(derSequence(derObjectIdentifier(OID.organization), derUtf8String(organization)))),
    derSet(derSequence(derObjectIdentifier(OID.commonName), derUtf8String(options.commonName))),
  );
  const issuerName = options.issuer ? subjectOf(options.issuer.certificatePem) : subject;
  const serial = randomBytes(16);
  serial[0] = (serial[0] as number) & 0x7f;

  const alternativeNames = [
    ...(options.dnsNames ?? []).map((dnsName) => derElement(0x82, Buffer.from(dnsName, 'ascii'))),
    ...(options.ipAddresses ?? []).map((ip) => derElement(0x87, ipBytes(ip))),
  ];
  const usages = options.extendedKeyUsages ?? [];
  const extensions = derSequence(
    extension(OID.basicConstraints, true, options.certificateAuthority ? derSequence(derBoolean(true)) : derSequence()),
    // CA: digitalSignature (bit 0) and keyCertSign (bit 5), two unused bits; else digitalSignature.
    extension(OID.keyUsage, true, options.certificateAuthority ? derBitString(Buffer.from([0x84]), 2) : derBitString(Buffer.from([0x80]), 7)),
    ...(usages.length > 0 ? [extension(OID.extendedKeyUsage, false, derSequence(...usages.map((usage) => derObjectIdentifier(OID[usage]))))] : []),
    ...(alternativeNames.length > 0 ? [extension(OID.subjectAltName, false, derSequence(...alternativeNames))] : []),
  );

  const toBeSigned = derSequence(
    derExplicit(0, derSmallInteger(2)),
    derUnsignedInteger(serial),
    signatureAlgorithm,
    issuerName,
    derSequence(derTime(options.notBefore), derTime(options.notAfter)),
    subject,
    publicKey.export({ type: 'spki', format: 'der' }),
    derExplicit(3, extensions),
  );
  const signature = createSign('SHA256').update(toBeSigned).sign(signingKey);
  const certificate = derSequence(toBeSigned, signatureAlgorithm, derBitString(signature));
  const certificatePem = toPem('CERTIFICATE', certificate);
  // Parse it back, so that an encoding mistake fails here rather than in a TLS handshake.
  new X509Certificate(certificatePem);
  return { certificatePem, privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
}

function signatureAlgorithmFor(key: KeyObject): Buffer {
  if (key.asymmetricKeyType === 'ec') return derSequence(derObjectIdentifier(OID.ecdsaWithSha256));
  if (key.asymmetricKeyType === 'rsa') return derSequence(derObjectIdentifier(OID.sha256WithRsaEncryption), Buffer.from([0x05, 0x00]));
  throw new Error(`cannot sign with a ${key.asymmetricKeyType ?? 'unknown'} key (ECDSA or RSA only)`);
}

/** The DER subject name of a certificate (the 6th field of its TBSCertificate). */
function subjectOf(certificatePem: string): Buffer {
  const der = new X509Certificate(certificatePem).raw;
  const [toBeSigned] = derChildren(der);
  const subject = toBeSigned === undefined ? undefined : derChildren(toBeSigned)[5];
  if (subject === undefined) throw new Error('the issuer certificate has no subject');
  return subject;
}

function extension(oid: string, critical: boolean, value: Uint8Array): Buffer {
  return critical ? derSequence(derObjectIdentifier(oid), derBoolean(true), derOctetString(value)) : derSequence(derObjectIdentifier(oid), derOctetString(value));
}

function ipBytes(ip: string): Buffer {
  if (isIPv4(ip)) return Buffer.from(ip.split('.').map(Number));
  if (!isIPv6(ip)) throw new Error(`not an IP address: ${ip}`);
  const [head = '', tail] = ip.split('::');
  const groups = (text: string | undefined) => (text ? text.split(':') : []);
  const headGroups = groups(head);
  const tailGroups = groups(tail);
  const middle = tail === undefined ? [] : Array<string>(8 - headGroups.length - tailGroups.length).fill('0');
  const all = [...headGroups, ...middle, ...tailGroups];
  return Buffer.from(
    all.flatMap((group) => {
      const value = Number.parseInt(group, 16);
      return [value >> 8, value & 0xff];
    }),
  );
}

function toPem(label: string, der: Buffer): string {
  const base64 = der.toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${base64}\n-----END ${label}-----\n`;
}
