/**
 * The certificate the secure port serves, as upstream chooses it: `--tls-cert-file` and
 * `--tls-private-key-file` when given; else `<cert-dir>/cloud-controller-manager.{crt,key}`
 * (generated and written there when missing); else a self-signed certificate kept in memory.
 */
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateSelfSignedCertificate, type CertificateAndKey } from './self-signed-certificate.js';

export const SERVING_CERTIFICATE_PAIR_NAME = 'cloud-controller-manager';

export class ServingCertificateError extends Error {
  readonly path: string | undefined;
  constructor(message: string, path?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ServingCertificateError';
    this.path = path;
  }
}

export interface ServingCertificateSource {
  tlsCertFile: string;
  tlsPrivateKeyFile: string;
  certDir: string;
}

export interface ServingCertificate extends CertificateAndKey {
  /** Where it came from, for the startup log. */
  origin: 'files' | 'cert-dir' | 'generated-in-cert-dir' | 'generated-in-memory';
}

export async function loadServingCertificate(source: ServingCertificateSource): Promise<ServingCertificate> {
  if (source.tlsCertFile !== '' && source.tlsPrivateKeyFile !== '') {
    return { ...(await readPair(source.tlsCertFile, source.tlsPrivateKeyFile)), origin: 'files' };
  }
  if (source.certDir !== '') {
    const certificateFile = join(source.certDir, `${SERVING_CERTIFICATE_PAIR_NAME}.crt`);
    const keyFile = join(source.certDir, `${SERVING_CERTIFICATE_PAIR_NAME}.key`);
    if ((await exists(certificateFile)) && (await exists(keyFile))) return { ...(await readPair(certificateFile, keyFile)), origin: 'cert-dir' };
    const generated = generateSelfSignedCertificate();
    try {
      await mkdir(source.certDir, { recursive: true, mode: 0o755 });
      await writeFile(certificateFile, generated.certificatePem, { mode: 0o644 });
      await writeFile(keyFile, generated.privateKeyPem, { mode: 0o600 });
    } catch (error) {
      throw new ServingCertificateError(`cannot write the self-signed serving certificate to --cert-dir ${source.certDir}: ${(error as Error).message}`, source.certDir, { cause: error });
    }
    return { ...generated, origin: 'generated-in-cert-dir' };
  }
  return { ...generateSelfSignedCertificate(), origin: 'generated-in-memory' };
}

async function readPair(certificateFile: string, keyFile: string): Promise<CertificateAndKey> {
  const certificatePem = await readText(certificateFile, 'certificate');
  const privateKeyPem = await readText(keyFile, 'private key');
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(certificatePem);
  } catch (error) {
    throw new ServingCertificateError(`${certificateFile} does not hold a PEM certificate: ${(error as Error).message}`, certificateFile, { cause: error });
  }
  try {
    if (!certificate.checkPrivateKey(createPrivateKey(privateKeyPem))) {
      throw new ServingCertificateError(`the private key ${keyFile} does not match the certificate ${certificateFile}`, keyFile);
    }
  } catch (error) {
    if (error instanceof ServingCertificateError) throw error;
    throw new ServingCertificateError(`${keyFile} does not hold a PEM private key: ${(error as Error).message}`, keyFile, { cause: error });
  }
  return { certificatePem, privateKeyPem };
}

async function readText(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new ServingCertificateError(`cannot read the serving ${what} ${path}: ${reason}`, path, { cause: error });
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
