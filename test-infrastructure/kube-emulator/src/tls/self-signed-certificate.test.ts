import { X509Certificate, createPrivateKey, createPublicKey } from 'node:crypto';
import { get } from 'node:https';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { startKubeEmulator } from '../kube-emulator.js';
import { generateSelfSignedCertificate } from './self-signed-certificate.js';

describe('generateSelfSignedCertificate', () => {
  it('builds a valid self-signed CA certificate for the given names and addresses', () => {
    const { certificatePem, privateKeyPem } = generateSelfSignedCertificate(['localhost', '127.0.0.1', '::1', 'emulator.test']);
    const certificate = new X509Certificate(certificatePem);
    expect(certificate.subject).toBe('CN=kube-emulator');
    expect(certificate.issuer).toBe('CN=kube-emulator');
    expect(certificate.ca).toBe(true);
    expect(certificate.verify(certificate.publicKey)).toBe(true);
    expect(certificate.checkIssued(certificate)).toBe(true);
    expect(certificate.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(certificate.checkIP('::1')).toBe('::1');
    expect(certificate.checkHost('emulator.test')).toBe('emulator.test');
    expect(certificate.checkHost('other.test')).toBeUndefined();
    expect(certificate.subjectAltName).toContain('DNS:localhost');
    expect(new Date(certificate.validTo).getTime()).toBeGreaterThan(Date.now() + 300 * 24 * 3600 * 1000);
    expect(createPublicKey(createPrivateKey(privateKeyPem)).export({ type: 'spki', format: 'pem' })).toBe(certificate.publicKey.export({ type: 'spki', format: 'pem' }));
  });
});

describe('HTTPS emulator', () => {
  it('is reachable with the CA from its kubeconfig, by node:https and client-node', async () => {
    const emulator = await startKubeEmulator({ https: true });
    try {
      expect(emulator.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const body = await new Promise<string>((resolve, reject) => {
        get(`${emulator.url}/version`, { ca: emulator.certificateAuthorityPem }, (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => {
            text += chunk.toString();
          });
          response.on('end', () => resolve(text));
        }).on('error', reject);
      });
      expect(JSON.parse(body)).toMatchObject({ major: '1' });
      const config = new KubeConfig();
      config.loadFromString(emulator.kubeconfigYaml());
      expect(config.getCurrentCluster()?.skipTLSVerify).toBeFalsy();
      emulator.create('nodes', { metadata: { name: 'secure' } });
      const nodes = await config.makeApiClient(CoreV1Api).listNode();
      expect(nodes.items.map((node) => node.metadata?.name)).toEqual(['secure']);
    } finally {
      await emulator.close();
    }
  });
});
