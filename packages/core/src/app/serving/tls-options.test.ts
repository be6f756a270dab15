import { connect } from 'node:tls';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger.js';
import { HealthChecks } from './health-checks.js';
import { startSecureServer } from './secure-server.js';
import { generateSelfSignedCertificate } from './self-signed-certificate.js';
import { createServingHandler } from './serving-handler.js';
import { nodeTlsOptions, TlsOptionsError } from './tls-options.js';

const TLS13 = 'TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256';

describe('nodeTlsOptions', () => {
  it.each([
    [{}, { insecureCipherSuites: [] }],
    [{ cipherSuites: ['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256'] }, { ciphers: `${TLS13}:ECDHE-RSA-AES128-GCM-SHA256`, insecureCipherSuites: [] }],
    [
      { cipherSuites: ['TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256', ' TLS_RSA_WITH_AES_256_GCM_SHA384', 'TLS_AES_128_GCM_SHA256'] },
      { ciphers: `${TLS13}:ECDHE-ECDSA-CHACHA20-POLY1305:AES256-GCM-SHA384`, insecureCipherSuites: [] },
    ],
    [{ cipherSuites: ['TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256'] }, { ciphers: `${TLS13}:ECDHE-RSA-AES128-SHA256`, insecureCipherSuites: ['TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256'] }],
    [{ minVersion: 'VersionTLS13' }, { minVersion: 'TLSv1.3', insecureCipherSuites: [] }],
    [{ curvePreferences: ['X25519', 'CurveP256', '24', '23'] }, { ecdhCurve: 'X25519:P-256:P-384', insecureCipherSuites: [] }],
  ])('%j', (settings, expected) => {
    expect(nodeTlsOptions(settings)).toEqual(expected);
  });

  it.each([
    [{ cipherSuites: ['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', 'ECDHE-RSA-AES128-GCM-SHA256'] }, "--tls-cipher-suites: Cipher suite ECDHE-RSA-AES128-GCM-SHA256 not supported or doesn't exist"],
    [{ cipherSuites: ['TLS_RSA_WITH_RC4_128_SHA'] }, "--tls-cipher-suites: Cipher suite TLS_RSA_WITH_RC4_128_SHA (OpenSSL RC4-SHA) is not available in this Node.js's OpenSSL"],
    [{ minVersion: 'TLS1.2' }, '--tls-min-version: unknown tls version "TLS1.2" (use one of VersionTLS10, VersionTLS11, VersionTLS12, VersionTLS13)'],
    [{ curvePreferences: ['P-256'] }, '--tls-curve-preferences: unsupported curve "P-256" (use CurveP256, CurveP384, CurveP521, X25519, X25519MLKEM768 or their IDs 23, 24, 25, 29, 4588)'],
  ])('refuses %j', (settings, message) => {
    expect(() => nodeTlsOptions(settings)).toThrow(new TlsOptionsError(message));
  });
});

describe('the secure port with --tls-cipher-suites and --tls-curve-preferences', () => {
  it('negotiates only the configured TLS 1.2 suite and curve; TLS 1.3 stays on, as in Go', async () => {
    const server = await startSecureServer({
      bindAddress: '127.0.0.1',
      port: 0,
      certificate: generateSelfSignedCertificate(),
      cipherSuites: ['TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384', 'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384'],
      curvePreferences: ['CurveP384'],
      handler: createServingHandler({ healthChecks: new HealthChecks(), metrics: new Registry(), configz: () => ({}), logger: silentLogger }),
    });
    const handshake = (options: { ciphers?: string; maxVersion?: 'TLSv1.2' | 'TLSv1.3'; ecdhCurve?: string }) =>
      new Promise<{ cipher: string; version: string; curve: string | undefined } | { error: string }>((resolve) => {
        const socket = connect({ host: '127.0.0.1', port: server.address.port, rejectUnauthorized: false, ...options }, () => {
          const ephemeral = socket.getEphemeralKeyInfo() as { name?: string } | null;
          resolve({ cipher: socket.getCipher().name, version: socket.getProtocol() ?? '', curve: ephemeral?.name });
          socket.destroy();
        });
        socket.on('error', (error) => resolve({ error: error.message }));
      });
    try {
      expect(await handshake({ maxVersion: 'TLSv1.2' })).toMatchObject({ cipher: expect.stringMatching(/^ECDHE-(ECDSA|RSA)-AES256-GCM-SHA384$/), version: 'TLSv1.2', curve: 'secp384r1' });
      expect(await handshake({ maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256' })).toHaveProperty('error');
      expect(await handshake({ maxVersion: 'TLSv1.2', ecdhCurve: 'P-256' })).toHaveProperty('error');
      expect(await handshake({ maxVersion: 'TLSv1.3' })).toMatchObject({ version: 'TLSv1.3' });
    } finally {
      await server.close();
    }
  });
});
