/** The bad-input corpus of the GCE cloud config (gcfg, `gce.conf`): seeded, `BAD_INPUT_RUNS` cases (default 2000). */
import { describe, expect, it } from 'vitest';
import { CloudConfigError } from '@ccm/core/config';
import { checkBadInputs } from '@ccm/testing/bad-input';
import { readGceCloudConfig } from '../../src/config/read-gce-cloud-config.js';

const VALID = [
  [
    '[Global]',
    'token-url = nil',
    'project-id = test-project',
    'network-project-id = host-project',
    'network-name = projects/host-project/global/networks/shared',
    'subnetwork-name = projects/host-project/regions/us-central1/subnetworks/nodes',
    'secondary-range-name = pods',
    'node-tags = gke-demo-node',
    'node-tags = gke-demo-extra',
    'node-instance-prefix = gke-demo',
    'regional = true',
    'multizone = false',
    'api-endpoint = http://127.0.0.1:8080/compute/v1/',
    'container-api-endpoint = https://container.googleapis.com/',
    'local-zone = us-central1-b',
    'alpha-features = ILBSubsets',
    'alpha-features = NetLBRbs',
    'stack-type = IPV4_IPV6',
    '',
  ].join('\n'),
  [
    '; alternate token source',
    '[global]',
    'token-url = https://example.test/token',
    '# the body is a secret',
    'token-body = "{\\"scope\\": \\"compute\\"}"',
    'project-id = demo',
    'network-name = default',
    'local-zone = europe-west1-d',
    'multizone = true',
    'stack-type = IPV6',
    '',
  ].join('\n'),
];

describe('bad-input corpus: GCE cloud config', () => {
  it('the valid documents are valid', () => {
    for (const document of VALID) expect(readGceCloudConfig(document, 'gce.conf').config.projectId).not.toBe('');
  });

  it('returns a config or throws one CloudConfigError naming the file', () => {
    const summary = checkBadInputs(
      { validDocuments: VALID, syntaxCharacters: '[]"=;#\\' },
      { parse: (text, fileName) => readGceCloudConfig(text, fileName), isExpectedError: (error) => error instanceof CloudConfigError },
      'gce.conf',
      { seed: 1314 },
    );
    process.stdout.write(`bad-input gcp gcfg: ${summary.cases} cases (${summary.rejected} rejected, ${summary.accepted} accepted), slowest ${summary.slowestMs.toFixed(1)} ms\n`);
    expect(summary.accepted).toBeGreaterThan(0);
    expect(summary.rejected).toBeGreaterThan(0);
  }, 180_000);
});
