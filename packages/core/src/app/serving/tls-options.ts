/**
 * `--tls-cipher-suites`, `--tls-min-version` and `--tls-curve-preferences` as Node TLS options.
 *
 * Cipher suites are named as Go (and k8s.io/component-base/cli/flag `TLSCipherSuites`) names them,
 * the IANA names of `tls.CipherSuites()` and `tls.InsecureCipherSuites()`; each maps to its
 * OpenSSL name. An unknown name is refused with upstream's message (`Cipher suite X not supported
 * or doesn't exist`); a known one this Node's OpenSSL lacks (RC4, 3DES) is refused too, naming
 * it. Insecure suites are accepted with upstream's warning (`Use of insecure cipher 'X'
 * detected.`). As in Go, the TLS 1.3 suites cannot be switched off: they are always offered.
 *
 * Curves are Go's `tls.CurveID` names (`CurveP256`, `CurveP384`, `CurveP521`, `X25519`,
 * `X25519MLKEM768`) or their numeric IDs (23, 24, 25, 29, 4588), mapped to OpenSSL group names
 * for Node's `ecdhCurve`, in the given order.
 */
import { createSecureContext, type SecureVersion } from 'node:tls';

const CIPHER_SUITES: Readonly<Record<string, string>> = {
  // TLS 1.0-1.2 (Go tls.CipherSuites / InsecureCipherSuites)
  TLS_RSA_WITH_RC4_128_SHA: 'RC4-SHA',
  TLS_RSA_WITH_3DES_EDE_CBC_SHA: 'DES-CBC3-SHA',
  TLS_RSA_WITH_AES_128_CBC_SHA: 'AES128-SHA',
  TLS_RSA_WITH_AES_256_CBC_SHA: 'AES256-SHA',
  TLS_RSA_WITH_AES_128_CBC_SHA256: 'AES128-SHA256',
  TLS_RSA_WITH_AES_128_GCM_SHA256: 'AES128-GCM-SHA256',
  TLS_RSA_WITH_AES_256_GCM_SHA384: 'AES256-GCM-SHA384',
  TLS_ECDHE_ECDSA_WITH_RC4_128_SHA: 'ECDHE-ECDSA-RC4-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA: 'ECDHE-ECDSA-AES128-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA: 'ECDHE-ECDSA-AES256-SHA',
  TLS_ECDHE_RSA_WITH_RC4_128_SHA: 'ECDHE-RSA-RC4-SHA',
  TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA: 'ECDHE-RSA-DES-CBC3-SHA',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA: 'ECDHE-RSA-AES128-SHA',
  TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA: 'ECDHE-RSA-AES256-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256: 'ECDHE-ECDSA-AES128-SHA256',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256: 'ECDHE-RSA-AES128-SHA256',
  TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256: 'ECDHE-RSA-AES128-GCM-SHA256',
  TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256: 'ECDHE-ECDSA-AES128-GCM-SHA256',
  TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384: 'ECDHE-RSA-AES256-GCM-SHA384',
  TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384: 'ECDHE-ECDSA-AES256-GCM-SHA384',
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-RSA-CHACHA20-POLY1305',
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-ECDSA-CHACHA20-POLY1305',
  // TLS 1.3 (always enabled in Go, whatever the list says)
  TLS_AES_128_GCM_SHA256: 'TLS_AES_128_GCM_SHA256',
  TLS_AES_256_GCM_SHA384: 'TLS_AES_256_GCM_SHA384',
  TLS_CHACHA20_POLY1305_SHA256: 'TLS_CHACHA20_POLY1305_SHA256',
};

/** Go's `tls.InsecureCipherSuites()`. */
const INSECURE_CIPHER_SUITES: ReadonlySet<string> = new Set([
  'TLS_RSA_WITH_RC4_128_SHA',
  'TLS_RSA_WITH_3DES_EDE_CBC_SHA',
  'TLS_RSA_WITH_AES_128_CBC_SHA256',
  'TLS_ECDHE_ECDSA_WITH_RC4_128_SHA',
  'TLS_ECDHE_RSA_WITH_RC4_128_SHA',
  'TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA',
  'TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256',
  'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256',
]);

const TLS13_SUITES = ['TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256', 'TLS_AES_128_GCM_SHA256'];

/** Go's `tls.CurveID` names and numbers -> OpenSSL group names. */
const CURVES: Readonly<Record<string, string>> = {
  CurveP256: 'P-256',
  CurveP384: 'P-384',
  CurveP521: 'P-521',
  X25519: 'X25519',
  X25519MLKEM768: 'X25519MLKEM768',
  '23': 'P-256',
  '24': 'P-384',
  '25': 'P-521',
  '29': 'X25519',
  '4588': 'X25519MLKEM768',
};

const TLS_VERSIONS: Readonly<Record<string, SecureVersion>> = {
  VersionTLS10: 'TLSv1',
  VersionTLS11: 'TLSv1.1',
  VersionTLS12: 'TLSv1.2',
  VersionTLS13: 'TLSv1.3',
};

export class TlsOptionsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TlsOptionsError';
  }
}

export interface TlsSettings {
  /** `--tls-cipher-suites`, Go names. */
  cipherSuites?: readonly string[];
  /** `--tls-min-version` (VersionTLS12 ...). */
  minVersion?: string;
  /** `--tls-curve-preferences`, Go names or IDs. */
  curvePreferences?: readonly string[];
}

export interface NodeTlsOptions {
  ciphers?: string;
  minVersion?: SecureVersion;
  ecdhCurve?: string;
  /** The suites upstream warns about (`Use of insecure cipher 'X' detected.`). */
  insecureCipherSuites: string[];
}

/** The Node TLS options of the flags; throws {@link TlsOptionsError} (one line) on a name it refuses. */
export function nodeTlsOptions(settings: TlsSettings): NodeTlsOptions {
  const result: NodeTlsOptions = { insecureCipherSuites: [] };
  const suites = (settings.cipherSuites ?? []).map((name) => name.trim()).filter((name) => name !== '');
  if (suites.length > 0) {
    const openSslNames: string[] = [];
    for (const name of suites) {
      const openSsl = CIPHER_SUITES[name];
      if (openSsl === undefined) throw new TlsOptionsError(`--tls-cipher-suites: Cipher suite ${name} not supported or doesn't exist`);
      if (!TLS13_SUITES.includes(openSsl) && !cipherAvailable(openSsl)) {
        throw new TlsOptionsError(`--tls-cipher-suites: Cipher suite ${name} (OpenSSL ${openSsl}) is not available in this Node.js's OpenSSL`);
      }
      if (INSECURE_CIPHER_SUITES.has(name)) result.insecureCipherSuites.push(name);
      if (!openSslNames.includes(openSsl)) openSslNames.push(openSsl);
    }
    const tls12 = openSslNames.filter((name) => !TLS13_SUITES.includes(name));
    result.ciphers = [...TLS13_SUITES, ...tls12].join(':');
  }
  if (settings.minVersion !== undefined && settings.minVersion !== '') {
    const version = TLS_VERSIONS[settings.minVersion];
    if (version === undefined) throw new TlsOptionsError(`--tls-min-version: unknown tls version ${JSON.stringify(settings.minVersion)} (use one of ${Object.keys(TLS_VERSIONS).join(', ')})`);
    result.minVersion = version;
  }
  const curves = (settings.curvePreferences ?? []).map((name) => name.trim()).filter((name) => name !== '');
  if (curves.length > 0) {
    const groups: string[] = [];
    for (const name of curves) {
      const group = CURVES[name];
      if (group === undefined) {
        throw new TlsOptionsError(`--tls-curve-preferences: unsupported curve ${JSON.stringify(name)} (use CurveP256, CurveP384, CurveP521, X25519, X25519MLKEM768 or their IDs 23, 24, 25, 29, 4588)`);
      }
      if (!curveAvailable(group)) throw new TlsOptionsError(`--tls-curve-preferences: curve ${name} (${group}) is not available in this Node.js's OpenSSL`);
      if (!groups.includes(group)) groups.push(group);
    }
    result.ecdhCurve = groups.join(':');
  }
  return result;
}

function cipherAvailable(openSslName: string): boolean {
  try {
    createSecureContext({ ciphers: openSslName });
    return true;
  } catch {
    return false;
  }
}

function curveAvailable(group: string): boolean {
  try {
    createSecureContext({ ecdhCurve: group });
    return true;
  } catch {
    return false;
  }
}
