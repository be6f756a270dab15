import { CloudConfigError } from '@ccm/core/config';
import { describe, expect, it } from 'vitest';
import { parseComputeEndpoint, readGceCloudConfig, regionOfZone } from './read-gce-cloud-config.js';

const BASE = '[global]\nproject-id = p1\nnetwork-name = net\nlocal-zone = us-central1-b\n';

function problemsOf(text: string): string[] {
  try {
    readGceCloudConfig(text, 'gce.conf');
  } catch (error) {
    if (error instanceof CloudConfigError) return error.problems.map((problem) => `${problem.fileName}:${problem.line ?? '-'}: ${problem.message}`);
    throw error;
  }
  return [];
}

describe('readGceCloudConfig', () => {
  it('reads an upstream gce.conf unchanged (repeated list keys, URL network names, unknown keys as warnings)', () => {
    const { config, warnings } = readGceCloudConfig(
      `${BASE.replace('network-name = net', 'network-name = https://www.googleapis.com/compute/v1/projects/p1/global/networks/net')}` +
        'node-tags = k8s-node\nnode-tags = pool-b\nmultizone = true\nnetwork-project-id = host-project\nalpha-features = ILBSubsets\ntoken-url = nil\nsome-future-key = x\n',
    );
    expect(config).toMatchObject({
      projectId: 'p1',
      networkProjectId: 'host-project',
      networkName: 'net',
      nodeTags: ['k8s-node', 'pool-b'],
      multizone: true,
      localZone: 'us-central1-b',
      region: 'us-central1',
      alphaFeatures: ['ILBSubsets'],
      credentials: { kind: 'application-default' },
      endpoint: { protocol: 'https', host: 'compute.googleapis.com', port: 443 },
    });
    expect(warnings.map((warning) => warning.message).join('\n')).toContain('some-future-key');
  });

  it('takes the endpoint from api-endpoint and the alternate token source from token-url/token-body (gcfg-quoted JSON)', () => {
    const { config } = readGceCloudConfig(`${BASE}api-endpoint = http://127.0.0.1:8089/compute/v1/\ntoken-url = http://127.0.0.1:8089/token\ntoken-body = "{\\"a\\":1}"\n`);
    expect(config.endpoint).toEqual({ protocol: 'http', host: '127.0.0.1', port: 8089, baseUrl: 'http://127.0.0.1:8089/compute/v1/' });
    expect(config.credentials).toEqual({ kind: 'token-url', url: 'http://127.0.0.1:8089/token', body: '{"a":1}' });
  });

  it('reports every problem with file and line at once', () => {
    expect(problemsOf('[global]\nproject-id = p1\nlocal-zone = nozone\nstack-type = IPV5\napi-endpoint = ftp://x/compute/v1/\nregional = maybe\n')).toEqual([
      expect.stringMatching(/^gce\.conf:3: .*local-zone.*nozone/),
      expect.stringMatching(/^gce\.conf:4: .*stack-type/),
      expect.stringMatching(/^gce\.conf:5: .*api-endpoint.*unsupported scheme/),
      expect.stringMatching(/^gce\.conf:6: .*regional/),
    ]);
  });

  it('accepts a file that leaves project-id, local-zone and network-name to the metadata server', () => {
    expect(readGceCloudConfig('[global]\n').config).toMatchObject({ projectId: '', localZone: '', region: '', networkName: '' });
    expect(readGceCloudConfig(undefined).config.projectId).toBe('');
  });

  it('reports a syntax error with its line', () => {
    expect(problemsOf(`${BASE}this line is broken\n`).join('\n')).toMatch(/gce\.conf:5:/);
  });

  it('derives regions and endpoints', () => {
    expect(regionOfZone('europe-west1-d')).toBe('europe-west1');
    expect(parseComputeEndpoint('http://127.0.0.1:1/compute/v1/projects/')).toMatchObject({ port: 1, baseUrl: 'http://127.0.0.1:1/compute/v1/' });
    expect(parseComputeEndpoint('http://127.0.0.1:1/other/')).toMatch(/path must be/);
  });
});
