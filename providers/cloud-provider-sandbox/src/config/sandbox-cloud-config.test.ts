import { CloudConfigError, renderGcfgSchemaDoc } from '@ccm/core/config';
import { describe, expect, it } from 'vitest';
import { readSandboxCloudConfig, SANDBOX_CLOUD_CONFIG_SCHEMA } from './sandbox-cloud-config.js';

function problemsOf(text: string): string[] {
  try {
    readSandboxCloudConfig(text, 'cloud.conf');
  } catch (error) {
    expect(error).toBeInstanceOf(CloudConfigError);
    return (error as CloudConfigError).problems.map((problem) => `${problem.line ?? '-'}: ${problem.message}`);
  }
  throw new Error('expected a CloudConfigError');
}

describe('readSandboxCloudConfig', () => {
  it('reads the manifest example with defaults', () => {
    const { config, warnings } = readSandboxCloudConfig('[Global]\nurl = http://sandbox-cloud.kube-system.svc:8080/\ncluster-id = kubernetes\n', 'cloud.conf');
    expect(warnings).toEqual([]);
    expect(config).toEqual({
      url: 'http://sandbox-cloud.kube-system.svc:8080',
      clusterId: 'kubernetes',
      region: '',
      requestTimeoutMs: 10_000,
      retries: 3,
      lookupPolicy: 'batched',
      cloudApi: { qps: 20, burst: 40 },
      loadBalancer: { enabled: true, ingress: 'ip' },
      routes: { enabled: true },
    });
  });

  it('reads every key', () => {
    const text = [
      '[Global]',
      'URL = "https://cloud.example:9443"',
      'region = sandbox-2',
      'request-timeout = 3',
      'retries = 0',
      '[LoadBalancer]',
      'enabled = yes',
      'ingress = both',
      '[Routes]',
      'enabled = false',
    ].join('\n');
    const { config } = readSandboxCloudConfig(text, 'cloud.conf');
    expect(config).toMatchObject({ url: 'https://cloud.example:9443', clusterId: '', region: 'sandbox-2', requestTimeoutMs: 3000, retries: 0 });
    expect(config.loadBalancer).toEqual({ enabled: true, ingress: 'both' });
    expect(config.routes).toEqual({ enabled: false });
  });

  it('reports every syntax and schema problem at once, with lines', () => {
    expect(problemsOf('[Global]\nzone = a\n[LoadBalancer]\ningress = dns\n[Nope]\n')).toEqual([
      '1: required key "url" in section [Global] is not set',
      '2: unknown key "zone" in section [Global]',
      '4: section [LoadBalancer], key "ingress": invalid value "dns": must be one of "ip", "hostname", "both"',
      '5: unknown section "Nope"',
    ]);
  });

  it('validates values after parsing', () => {
    expect(problemsOf('[Global]\nurl = ftp://x\nrequest-timeout = 0\nretries = -1\ncluster-id = "a b"\n')).toEqual([
      '2: section [Global], key "url": "ftp://x" must be an http or https URL',
      '3: section [Global], key "request-timeout": must be a positive number of seconds',
      '4: section [Global], key "retries": must not be negative',
      '5: section [Global], key "cluster-id": must not contain spaces',
    ]);
    expect(problemsOf('[Global]\nurl = not a url\n')).toEqual(['2: section [Global], key "url": "not a url" is not a URL']);
  });

  it('documents itself from the schema', () => {
    const doc = renderGcfgSchemaDoc(SANDBOX_CLOUD_CONFIG_SCHEMA);
    expect(doc).toContain('`url`');
    expect(doc).toContain('`cluster-id`');
    expect(doc).toContain('[LoadBalancer]');
  });
});

describe('docs/cloud-controller-manager.md', () => {
  it('holds the rendered schema (`pnpm --filter @ccm/cloud-provider-sandbox run docs` rewrites it)', async () => {
    const { readFile } = await import('node:fs/promises');
    const path = new URL('../../docs/cloud-controller-manager.md', import.meta.url);
    expect(await readFile(path, 'utf8')).toContain(renderGcfgSchemaDoc(SANDBOX_CLOUD_CONFIG_SCHEMA, { headingLevel: 3 }).trim());
  });
});
