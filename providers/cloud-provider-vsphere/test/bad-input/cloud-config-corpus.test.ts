/**
 * The bad-input corpus of the vSphere cloud config, INI (gcfg) and YAML forms: seeded,
 * `BAD_INPUT_RUNS` cases (default 2000) each. No environment, no secrets directory.
 */
import { describe, expect, it } from 'vitest';
import { CloudConfigError } from '@ccm/core/config';
import { checkBadInputs, YAML_ALIAS_BOMB } from '@ccm/testing/bad-input';
import { readVsphereConfig } from '../../src/config/read-vsphere-config.js';

const INI = [
  [
    '[Global]',
    'user = "administrator@vsphere.local"',
    'password = "s3cret"',
    'port = 443',
    'insecure-flag = true',
    'datacenters = dc1,dc2',
    'soap-roundtrip-count = 3',
    '[VirtualCenter "10.0.0.1"]',
    'datacenters = dc1',
    '[VirtualCenter "vc2.example.com"]',
    'user = other',
    'password = other',
    'datacenters = dc2',
    '[Labels]',
    'region = k8s-region',
    'zone = k8s-zone',
    '[Nodes]',
    'internal-network-subnet-cidr = 10.0.0.0/8',
    '',
  ].join('\n'),
  '[Global]\nsecret-name = vsphere-creds\nsecret-namespace = kube-system\n[VirtualCenter "vc"]\ndatacenters = dc\n',
];

const YAML = [
  [
    'global:',
    '  user: administrator@vsphere.local',
    '  password: s3cret',
    '  port: 443',
    '  insecureFlag: true',
    'vcenter:',
    '  vc1:',
    '    server: 10.0.0.1',
    '    datacenters:',
    '      - dc1',
    '      - dc2',
    '  vc2:',
    '    server: vc2.example.com',
    '    user: other',
    '    password: "0123"',
    '    datacenters: [dc3]',
    'labels:',
    '  region: k8s-region',
    '  zone: k8s-zone',
    'nodes:',
    '  internalNetworkSubnetCidr: 10.0.0.0/8',
    '',
  ].join('\n'),
  'global:\n  secretName: vsphere-creds\n  secretNamespace: kube-system\nvcenter:\n  vc:\n    server: vc\n    datacenters: dc\n',
];

const read = (text: string, fileName: string): unknown => readVsphereConfig(text, fileName, {}, { pathExists: () => false });
const isExpectedError = (error: unknown): boolean => error instanceof CloudConfigError;

describe('bad-input corpus: vSphere cloud config', () => {
  it('INI: returns a config or throws one CloudConfigError naming the file', () => {
    const summary = checkBadInputs({ validDocuments: INI, syntaxCharacters: '[]"=;#\\' }, { parse: read, isExpectedError }, 'vsphere.conf', { seed: 1313 });
    process.stdout.write(`bad-input vsphere INI: ${summary.cases} cases (${summary.rejected} rejected, ${summary.accepted} accepted), slowest ${summary.slowestMs.toFixed(1)} ms\n`);
    expect(summary.accepted).toBeGreaterThan(0);
  }, 180_000);

  it('YAML: returns a config or throws one CloudConfigError naming the file', () => {
    const summary = checkBadInputs(
      { validDocuments: YAML, syntaxCharacters: ':-[]{},"\'&*!#|>', extraDocuments: [YAML_ALIAS_BOMB, `global: *g\n${YAML_ALIAS_BOMB}`, `vcenter:\n  vc: *g\n${YAML_ALIAS_BOMB}`] },
      { parse: read, isExpectedError },
      'vsphere.yaml',
      { seed: 1314 },
    );
    process.stdout.write(`bad-input vsphere YAML: ${summary.cases} cases (${summary.rejected} rejected, ${summary.accepted} accepted), slowest ${summary.slowestMs.toFixed(1)} ms\n`);
    expect(summary.accepted).toBeGreaterThan(0);
  }, 180_000);
});
