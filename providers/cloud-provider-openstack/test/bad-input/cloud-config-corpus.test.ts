/**
 * The bad-input corpus of the OpenStack cloud config: `cloud.conf` (gcfg) and `clouds.yaml`
 * (YAML), seeded, `BAD_INPUT_RUNS` cases (default 2000) each. The files a valid document points
 * at (ca-file, clouds-file) live in a temporary directory; no environment is read. A distinctive
 * password sits in the valid documents: no error message may ever echo it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CloudConfigError } from '@ccm/core/config';
import { checkBadInputs, YAML_ALIAS_BOMB } from '@ccm/testing/bad-input';
import { parseCloudsYaml } from '../../src/config/read-clouds-yaml.js';
import { readOpenStackCloudConfig } from '../../src/config/read-openstack-cloud-config.js';

/** Never a value of any non-secret key of the valid documents; no gcfg or YAML syntax in it. */
const PASSWORD = 'Zq7-hunter2-OpenStack-s3cret-1316';

const directory = mkdtempSync(join(tmpdir(), 'openstack-bad-input-'));
const CA_FILE = join(directory, 'ca.pem');
const CLOUDS_FILE = join(directory, 'clouds.yaml');
writeFileSync(CA_FILE, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
writeFileSync(
  CLOUDS_FILE,
  [
    'clouds:',
    '  mycloud:',
    '    auth:',
    '      auth_url: https://keystone.example.com:5000/v3',
    '      application_credential_id: 0123456789abcdef',
    `      application_credential_secret: ${PASSWORD}`,
    '    region_name: RegionOne',
    '    interface: internal',
    '',
  ].join('\n'),
);
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const GCFG = [
  [
    '[Global]',
    'auth-url = https://keystone.example.com:5000/v3',
    'username = ccm',
    `password = ${PASSWORD}`,
    'tenant-name = demo',
    'tenant-domain-name = Default',
    'domain-name = Default',
    'region = RegionOne',
    `ca-file = ${CA_FILE}`,
    'os-endpoint-type = internalURL',
    'tls-insecure = false',
    'use-clouds = false',
    `clouds-file = ${CLOUDS_FILE}`,
    'cloud = mycloud',
    '[Networking]',
    'ipv6-support-disabled = true',
    'public-network-name = public',
    'public-network-name = ext-net',
    'internal-network-name = private',
    'address-sort-order = 10.0.0.0/8, fd00::/8',
    '[LoadBalancer]',
    'enabled = true',
    'lb-version = v2',
    'use-octavia = true',
    'floating-network-id = 2bd0ec89-0ad0-4f1b-9f5d-1a4e1f0f1a61',
    'floating-subnet-id = a02eb6c3-fc69-46ae-a3fe-fb43c1563cbc',
    'subnet-id = 6b3e3b8c-0c0e-4e8d-9b8e-4c8c1a0a7b2f',
    'member-subnet-id = 7c4f4c9d-1d1f-4f9e-8c9f-5d9d2b1b8c3a',
    'network-id = 8d505dae-2e2a-4aaf-9dab-6eae3c2c9d4b',
    'lb-method = LEAST_CONNECTIONS',
    'lb-provider = amphora',
    'create-monitor = true',
    'monitor-delay = 10s',
    'monitor-timeout = 5s',
    'monitor-max-retries = 3',
    'monitor-max-retries-down = 3',
    'internal-lb = false',
    'node-selector = "role=worker, zone"',
    'cascade-delete = true',
    'flavor-id = small',
    'availability-zone = nova',
    'enable-ingress-hostname = true',
    'ingress-hostname-suffix = nip.io',
    'container-store = barbican',
    'max-shared-lb = 2',
    'provider-requires-serial-api-calls = false',
    '[LoadBalancerClass "internetFacing"]',
    'floating-network-id = c57af0a0-da92-49be-a98a-345ceca004b3',
    'floating-subnet-id = a02eb6c3-fc69-46ae-a3fe-fb43c1563cbc',
    'subnet-id = 6b3e3b8c-0c0e-4e8d-9b8e-4c8c1a0a7b2f',
    '[Route]',
    'router-id = 9f5a7e1c-1c1e-4b3e-9a46-b1a2c4d6e8f0',
    '[Metadata]',
    'search-order = configDrive,metadataService',
    'request-timeout = 30s',
    '',
  ].join('\n'),
  // Application credential from clouds.yaml.
  ['[Global]', 'use-clouds = true', `clouds-file = ${CLOUDS_FILE}`, 'cloud = mycloud', '[Metadata]', 'search-order = metadataService', ''].join('\n'),
  // Trust, project by ID, quoted values.
  [
    '[Global]',
    'auth-url = "http://keystone:5000"',
    'region = "RegionTwo"',
    'trust-id = 4c5d6e7f',
    'trustee-id = 0a1b2c3d',
    `trustee-password = "${PASSWORD}"`,
    'tenant-id = f0b3b4e2d64946f5ad0f9e4f1e3cd1a9',
    '[LoadBalancer]',
    'enabled = false',
    '',
  ].join('\n'),
];

const YAML = [
  [
    'clouds:',
    '  openstack:',
    '    auth:',
    '      auth_url: https://keystone.example.com:5000/v3',
    '      username: ccm',
    `      password: ${PASSWORD}`,
    '      project_name: demo',
    '      project_domain_name: Default',
    '      user_domain_name: Default',
    '    region_name: RegionOne',
    '    interface: internal',
    '    cacert: /etc/ssl/certs/openstack-ca.pem',
    '    verify: true',
    '  other:',
    '    auth:',
    '      auth_url: "http://keystone:5000/v3"',
    '      application_credential_id: 0123456789abcdef',
    `      application_credential_secret: '${PASSWORD}'`,
    '    region_name: RegionTwo',
    '    endpoint_type: publicURL',
    '',
  ].join('\n'),
  [
    'clouds:',
    '  openstack:',
    '    auth: {auth_url: "http://10.0.0.1:5000", user_id: 42, password: "' + PASSWORD + '", project_id: f0b3b4e2, domain_id: default}',
    '    region_name: RegionOne',
    '    cert: /etc/ssl/client.pem',
    '    key: /etc/ssl/client.key',
    '    verify: false',
    '',
  ].join('\n'),
];

/** 256 KiB of distinct keys: quadratic with the `yaml` package's own `uniqueKeys` check (seconds of CPU). */
function manyDistinctKeys(): string {
  const lines = ['clouds:', '  openstack:', '    region_name: RegionOne'];
  for (let index = 0, size = 0; size < 256 * 1024; index++) {
    const line = `    key${index}: value`;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

/** Secret values of the valid documents, whole lines: a case whose password sits only there must not see it echoed. */
const SECRET_LINE = new RegExp(`^\\s*(password|trustee-password|application-credential-secret|application_credential_secret)\\s*[=:]\\s*["']?${PASSWORD}["']?\\s*$`, 'gm');

/** Whether the password in `text` appears only as the value of a secret key (then no message may contain it). */
function passwordOnlyInSecrets(text: string): boolean {
  return text.includes(PASSWORD) && !text.replace(SECRET_LINE, '').replace(/password: "[^"\n]*"/g, '').includes(PASSWORD);
}

interface Leak {
  text: string;
  message: string;
}

function contract(parse: (text: string, fileName: string) => unknown, leaks: Leak[]) {
  let current = '';
  return {
    parse: (text: string, fileName: string): unknown => {
      current = text;
      return parse(text, fileName);
    },
    isExpectedError: (error: unknown): boolean => error instanceof CloudConfigError,
    messageOf: (error: unknown): string => {
      const message = (error as Error).message;
      if (message.includes(PASSWORD) && passwordOnlyInSecrets(current)) leaks.push({ text: current.slice(0, 2000), message: message.slice(0, 2000) });
      return message;
    },
  };
}

/** cloud.conf as the CCM reads it: no environment, `./clouds.yaml` looked for in the temporary directory only. */
const readCloudConf = (text: string, fileName: string): unknown => readOpenStackCloudConfig(text, fileName, { environment: {}, workingDirectory: directory });

/** clouds.yaml as `readCloudsYaml` hands it to the cloud.conf reader, which throws its problems as one CloudConfigError. */
function readCloudsYamlText(text: string, fileName: string): unknown {
  const { entry, problems } = parseCloudsYaml(text, fileName, 'openstack');
  if (problems.length > 0) throw new CloudConfigError(problems);
  return entry;
}

describe('bad-input corpus: OpenStack cloud config', () => {
  it('the valid documents are valid', () => {
    for (const document of GCFG) expect(() => readCloudConf(document, 'cloud.conf')).not.toThrow();
    for (const document of YAML) expect(readCloudsYamlText(document, 'clouds.yaml')).toMatchObject({ authUrl: expect.stringMatching(/^http/), password: PASSWORD });
  });

  it('clouds.yaml: a duplicated key is refused with its line, whatever the size of the mapping', () => {
    expect(() => readCloudsYamlText('clouds:\n  openstack:\n    region_name: a\n    region_name: b\n', 'clouds.yaml')).toThrow(/clouds\.yaml:4: Map keys must be unique/);
    const started = process.cpuUsage();
    expect(() => readCloudsYamlText(`${manyDistinctKeys()}    key7: again\n`, 'clouds.yaml')).toThrow(/Map keys must be unique/);
    const used = process.cpuUsage(started);
    expect((used.user + used.system) / 1000).toBeLessThan(2000);
  });

  it('cloud.conf (gcfg): returns a config or throws one CloudConfigError naming the file, never echoing the password', () => {
    const leaks: Leak[] = [];
    const summary = checkBadInputs({ validDocuments: GCFG, syntaxCharacters: '[]"=;#\\' }, contract(readCloudConf, leaks), 'cloud.conf', { seed: 1316 });
    process.stdout.write(`bad-input openstack gcfg: ${summary.cases} cases (${summary.rejected} rejected, ${summary.accepted} accepted), slowest ${summary.slowestMs.toFixed(1)} ms\n`);
    expect(leaks).toEqual([]);
    expect(summary.accepted).toBeGreaterThan(0);
    expect(summary.rejected).toBeGreaterThan(0);
  }, 180_000);

  it('clouds.yaml (YAML): returns an entry or throws one CloudConfigError naming the file, never echoing the password', () => {
    const leaks: Leak[] = [];
    const summary = checkBadInputs(
      {
        validDocuments: YAML,
        syntaxCharacters: ':-{}[]#&*!|>\'"%@`',
        extraDocuments: [YAML_ALIAS_BOMB, `${YAML_ALIAS_BOMB}clouds: *g\n`, `${YAML_ALIAS_BOMB}clouds:\n  openstack: *g\n`, `${YAML_ALIAS_BOMB}clouds:\n  openstack:\n    auth: *g\n`, manyDistinctKeys()],
      },
      contract(readCloudsYamlText, leaks),
      'clouds.yaml',
      { seed: 1317 },
    );
    process.stdout.write(`bad-input openstack clouds.yaml: ${summary.cases} cases (${summary.rejected} rejected, ${summary.accepted} accepted), slowest ${summary.slowestMs.toFixed(1)} ms\n`);
    expect(leaks).toEqual([]);
    expect(summary.accepted).toBeGreaterThan(0);
    expect(summary.rejected).toBeGreaterThan(0);
  }, 180_000);
});
