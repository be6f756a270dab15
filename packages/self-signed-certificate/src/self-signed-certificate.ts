/**
 * A self-signed serving certificate generated in memory with node:crypto only (no openssl CLI,
 * so it works in distroless images): an ECDSA P-256 key and an X.509 v3 certificate for the
 * given DNS names and IPs, like upstream's self-signed cert for `localhost` and `127.0.0.1`. It
 * is its own CA (a kubeconfig can carry it as certificate-authority-data).
 */
import { createSign, generateKeyPairSync, randomBytes, X509Certificate } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import {
  derBitString,
  derBoolean,
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

const OID = {
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extendedKeyUsage: '2.5.29.37',
  subjectAltName: '2.5.29.17',
  serverAuth: '1.3.6.1.5.5.7.3.1',
} as const;

export interface SelfSignedCertificateOptions {
  /** Subject common name; default `localhost@<unix seconds>` (upstream's naming). */
  commonName?: string;
  dnsNames?: readonly string[];
  ipAddresses?: readonly string[];
  /** Default: now. The certificate is valid from one hour before until `validityDays` after. */
  now?: Date;
  validityDays?: number;
}

export interface CertificateAndKey {
  certificatePem: string;
  privateKeyPem: string;
}

export function generateSelfSignedCertificate(options: SelfSignedCertificateOptions = {}): CertificateAndKey {
  const now = options.now ?? new Date();
  const dnsNames = options.dnsNames ?? ['localhost'];
  const ipAddresses = options.ipAddresses ?? ['127.0.0.1'];
  const commonName = options.commonName ?? `localhost@${Math.floor(now.getTime() / 1000)}`;
  const notBefore = new Date(now.getTime() - 3_600_000);
  const notAfter = new Date(now.getTime() + (options.validityDays ?? 365) * 86_400_000);

  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const signatureAlgorithm = derSequence(derObjectIdentifier(OID.ecdsaWithSha256));
  const name = derSequence(derSet(derSequence(derObjectIdentifier(OID.commonName), derUtf8String(commonName))));
  const serial = randomBytes(16);
  serial[0] = (serial[0] as number) & 0x7f;

  const alternativeNames = [
    ...dnsNames.map((dnsName) => derElement(0x82, Buffer.from(dnsName, 'ascii'))),
    ...ipAddresses.map((ip) => derElement(0x87, ipBytes(ip))),
  ];
  const extensions = derSequence(
    extension(OID.basicConstraints, true, derSequence(derBoolean(true))),
    // digitalSignature (bit 0) and keyCertSign (bit 5): 0b1000_0100, two unused bits.
    extension(OID.keyUsage, true, derBitString(Buffer.from([0x84]), 2)),
    extension(OID.extendedKeyUsage, false, derSequence(derObjectIdentifier(OID.serverAuth))),
    extension(OID.subjectAltName, false, derSequence(...alternativeNames)),
  );

  const toBeSigned = derSequence(
    derExplicit(0, derSmallInteger(2)),
    derUnsignedInteger(serial),
    signatureAlgorithm,
    name,
    derSequence(derTime(notBefore), derTime(notAfter)),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    derExplicit(3, extensions),
  );
  const signature = createSign('SHA256').update(toBeSigned).sign(privateKey);
  const certificate = derSequence(toBeSigned, signatureAlgorithm, derBitString(signature));

  const certificatePem = toPem('CERTIFICATE', certificate);
  // Parse it back, so that an encoding mistake fails here rather than in a TLS handshake.
  new X509Certificate(certificatePem);
  return { certificatePem, privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
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
  return Buffer.from(all.flatMap((group) => {
    const value = Number.parseInt(group, 16);
    return [value >> 8, value & 0xff];
  }));
}

function toPem(label: string, der: Buffer): string {
  const base64 = der.toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${base64}\n-----END ${label}-----\n`;
}
