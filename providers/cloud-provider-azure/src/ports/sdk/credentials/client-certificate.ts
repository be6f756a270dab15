/**
 * Reads `aadClientCertPath` as upstream's `azidentity.ParseCertificates` does: a PKCS#12 file
 * (.pfx, decrypted with `aadClientCertPassword`) or a PEM file with the certificate (and chain) and
 * its private key (encrypted with `aadClientCertPassword`, or not). The answer is one PEM text with
 * the certificates and the unencrypted PKCS#8 key, held in memory only, as @azure/identity's
 * ClientCertificateCredential takes it. Failures are `AzureCredentialSetupError`s naming the key.
 */
import { X509Certificate, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import forge from 'node-forge';
import { AzureCredentialSetupError } from '../../../errors.js';

export interface ClientCertificate {
  /** The leaf certificate first, then the chain, then the private key (PKCS#8), all PEM. */
  pem: string;
  /** SHA-1 thumbprint of the leaf certificate (upper-case hex), as Entra lists it. */
  thumbprint: string;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;
const PEM_PRIVATE_KEY = /-----BEGIN (?:ENCRYPTED |RSA |EC )?PRIVATE KEY-----[\s\S]+?-----END (?:ENCRYPTED |RSA |EC )?PRIVATE KEY-----/;

export function readClientCertificate(path: string, password: string): ClientCertificate {
  let contents: Buffer;
  try {
    contents = readFileSync(path);
  } catch (error) {
    throw new AzureCredentialSetupError('aadClientCertPath', `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { cause: error });
  }
  const text = contents.toString('latin1');
  const parts = text.includes('-----BEGIN ') ? fromPem(text, password) : fromPkcs12(contents, password, path);
  const leaf = parts.certificates[0];
  if (leaf === undefined) throw new AzureCredentialSetupError('aadClientCertPath', `${path} holds no certificate`);
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(leaf);
  } catch (error) {
    throw new AzureCredentialSetupError('aadClientCertPath', `${path}: the certificate cannot be parsed`, { cause: error });
  }
  const publicKey = createPublicKey(parts.privateKey);
  if (!certificate.publicKey.equals(publicKey)) {
    throw new AzureCredentialSetupError('aadClientCertPath', `${path}: the private key does not belong to the certificate (${certificate.subject.replace(/\n/g, ', ')})`);
  }
  const keyPem = parts.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  return { pem: `${parts.certificates.join('\n')}\n${keyPem}`, thumbprint: certificate.fingerprint.replace(/:/g, '') };
}

function fromPem(text: string, password: string): { certificates: string[]; privateKey: KeyObject } {
  const certificates = text.match(PEM_CERTIFICATE) ?? [];
  const keyText = PEM_PRIVATE_KEY.exec(text)?.[0];
  if (keyText === undefined) throw new AzureCredentialSetupError('aadClientCertPath', 'the PEM file holds no private key (it needs the certificate and its private key)');
  const encrypted = keyText.includes('ENCRYPTED') || /Proc-Type: 4,ENCRYPTED/.test(keyText);
  if (encrypted && password === '') throw new AzureCredentialSetupError('aadClientCertPassword', 'the private key of the PEM file is encrypted and no password is set');
  try {
    return { certificates, privateKey: createPrivateKey(encrypted ? { key: keyText, format: 'pem', passphrase: password } : { key: keyText, format: 'pem' }) };
  } catch (error) {
    throw new AzureCredentialSetupError(encrypted ? 'aadClientCertPassword' : 'aadClientCertPath', encrypted ? 'the private key of the PEM file cannot be decrypted with this password' : 'the private key of the PEM file cannot be parsed', { cause: error });
  }
}

function fromPkcs12(contents: Buffer, password: string, path: string): { certificates: string[]; privateKey: KeyObject } {
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    const asn1 = forge.asn1.fromDer(forge.util.createBuffer(contents.toString('binary')));
    p12 = forge.pkcs12.pkcs12FromAsn1(asn1, false, password);
  } catch (error) {
    // node-forge says "Invalid password?" for a MAC mismatch, and names ASN.1 problems otherwise.
    const message = error instanceof Error ? error.message : String(error);
    if (/password/i.test(message)) throw new AzureCredentialSetupError('aadClientCertPassword', `${path}: the PKCS#12 file cannot be decrypted with this password`, { cause: error });
    throw new AzureCredentialSetupError('aadClientCertPath', `${path} is neither PEM nor a readable PKCS#12 file`, { cause: error });
  }
  const keyBags = [...(p12.getBags({ bagType: forge.pki.oids['pkcs8ShroudedKeyBag'] as string })[forge.pki.oids['pkcs8ShroudedKeyBag'] as string] ?? []), ...(p12.getBags({ bagType: forge.pki.oids['keyBag'] as string })[forge.pki.oids['keyBag'] as string] ?? [])];
  const key = keyBags.find((bag) => bag.key !== undefined)?.key;
  if (key === undefined) throw new AzureCredentialSetupError('aadClientCertPath', `${path}: the PKCS#12 file holds no private key (or one that is not RSA)`);
  const certificateBags = p12.getBags({ bagType: forge.pki.oids['certBag'] as string })[forge.pki.oids['certBag'] as string] ?? [];
  const certificates = certificateBags.flatMap((bag) => (bag.cert === undefined ? [] : [forge.pki.certificateToPem(bag.cert).trim()]));
  const privateKey = createPrivateKey({ key: forge.pki.privateKeyToPem(key), format: 'pem' });
  // The leaf (the certificate of the key) first, as Entra matches its thumbprint.
  const publicKey = createPublicKey(privateKey);
  certificates.sort((a, b) => Number(new X509Certificate(b).publicKey.equals(publicKey)) - Number(new X509Certificate(a).publicKey.equals(publicKey)));
  return { certificates, privateKey };
}
