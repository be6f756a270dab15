/**
 * A self-signed ECDSA P-256 serving certificate built with node:crypto and a small DER encoder
 * (no openssl needed). It is its own CA, so a kubeconfig can carry it as certificate-authority-data.
 */
import { X509Certificate, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import { bitString, booleanTrue, explicit, implicitPrimitive, objectIdentifier, octetString, sequence, set, smallInteger, unsignedInteger, utf8String, utcTime } from './der.js';

export interface SelfSignedCertificate {
  certificatePem: string;
  privateKeyPem: string;
}

const oids = {
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extendedKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
};

const extension = (oid: string, critical: boolean, value: Buffer): Buffer =>
  critical ? sequence(objectIdentifier(oid), booleanTrue(), octetString(value)) : sequence(objectIdentifier(oid), octetString(value));

function ipBytes(address: string): Buffer {
  if (isIPv4(address)) return Buffer.from(address.split('.').map(Number));
  const [head = '', tail = ''] = address.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === '' ? [] : tail.split(':');
  const groups = address.includes('::') ? [...headGroups, ...new Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups] : headGroups;
  const bytes = Buffer.alloc(16);
  groups.forEach((group, index) => bytes.writeUInt16BE(parseInt(group, 16), index * 2));
  return bytes;
}

function subjectAltNames(hosts: readonly string[]): Buffer {
  const names = hosts.map((host) => (isIPv4(host) || isIPv6(host) ? implicitPrimitive(7, ipBytes(host)) : implicitPrimitive(2, Buffer.from(host, 'ascii'))));
  return sequence(...names);
}

const pem = (label: string, der: Buffer): string => {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
};

/** Generates a certificate valid for `hosts` (DNS names and IP addresses) for `validDays` days. */
export function generateSelfSignedCertificate(hosts: readonly string[] = ['localhost', '127.0.0.1', '::1'], validDays = 365): SelfSignedCertificate {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const algorithm = sequence(objectIdentifier(oids.ecdsaWithSha256));
  const name = sequence(set(sequence(objectIdentifier(oids.commonName), utf8String('kube-emulator'))));
  const now = Date.now();
  const serial = randomBytes(16);
  serial[0] = (serial[0] ?? 0) & 0x7f;
  const keyUsageDigitalSignatureAndCertSign = bitString(Buffer.from([0x84]), 2);
  const extensions = sequence(
    extension(oids.basicConstraints, true, sequence(booleanTrue())),
    extension(oids.keyUsage, true, keyUsageDigitalSignatureAndCertSign),
    extension(oids.extendedKeyUsage, false, sequence(objectIdentifier(oids.serverAuth))),
    extension(oids.subjectAltName, false, subjectAltNames([...new Set(hosts)])),
  );
  const toBeSigned = sequence(
    explicit(0, smallInteger(2)),
    unsignedInteger(serial),
    algorithm,
    name,
    sequence(utcTime(new Date(now - 60 * 60 * 1000)), utcTime(new Date(now + validDays * 24 * 60 * 60 * 1000))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, extensions),
  );
  const signature = sign('sha256', toBeSigned, privateKey);
  const certificate = sequence(toBeSigned, algorithm, bitString(signature));
  const certificatePem = pem('CERTIFICATE', certificate);
  // Parse it back so that an encoding mistake fails here rather than in a TLS handshake.
  new X509Certificate(certificatePem);
  return { certificatePem, privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
}
