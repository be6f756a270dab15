import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudConfigError } from '@ccm/core/config';
import { afterEach, describe, expect, it } from 'vitest';
import { parseDurationSetting as parseGoDuration, readOpenStackCloudConfig } from './read-openstack-cloud-config.js';

/** The cloud.conf of upstream's documentation (using-openstack-cloud-controller-manager.md), unchanged. */
const UPSTREAM_SAMPLE = `[Global]
auth-url=https://openstack.example.com:5000/v3
username=admin
password=s3cret-Passw0rd
region=RegionOne
tenant-id=f0b3b4e2d64946f5ad0f9e4f1e3cd1a9
domain-id=default

[LoadBalancer]
use-octavia=true
subnet-id=6b3e3b8c-0c0e-4e8d-9b8e-4c8c1a0a7b2f
floating-network-id=2bd0ec89-0ad0-4f1b-9f5d-1a4e1f0f1a61
create-monitor=true
monitor-delay=10s
monitor-timeout=5s
monitor-max-retries=3

[LoadBalancerClass "internetFacing"]
floating-network-id=c57af0a0-da92-49be-a98a-345ceca004b3
floating-subnet-id=a02eb6c3-fc69-46ae-a3fe-fb43c1563cbc

[Networking]
public-network-name=public
internal-network-name=private
internal-network-name=private2
address-sort-order=10.0.0.0/8, fd00::/8

[Route]
router-id=9f5a7e1c-1c1e-4b3e-9a46-b1a2c4d6e8f0

[Metadata]
search-order=configDrive,metadataService
`;

describe('readOpenStackCloudConfig', () => {
  let directory = '';
  afterEach(() => {
    if (directory !== '') rmSync(directory, { recursive: true, force: true });
    directory = '';
  });

  it('reads upstream\'s sample unchanged', () => {
    const { config, warnings } = readOpenStackCloudConfig(UPSTREAM_SAMPLE, 'cloud.conf', { environment: {} });
    expect(warnings).toEqual([]);
    expect(config.global).toMatchObject({ authUrl: 'https://openstack.example.com:5000/v3', region: 'RegionOne', endpointType: 'public', tlsInsecure: false });
    expect(config.global.auth).toEqual({ kind: 'password', password: 's3cret-Passw0rd', userId: '', username: 'admin', userDomainId: 'default', userDomainName: '' });
    expect(config.global.scope).toEqual({ kind: 'project-id', projectId: 'f0b3b4e2d64946f5ad0f9e4f1e3cd1a9' });
    expect(config.networking).toEqual({ ipv6SupportDisabled: false, publicNetworkNames: ['public'], internalNetworkNames: ['private', 'private2'], addressSortOrder: ['10.0.0.0/8', 'fd00::/8'] });
    expect(config.loadBalancer).toMatchObject({ enabled: true, lbProvider: 'amphora', lbMethod: 'ROUND_ROBIN', createMonitor: true, monitorDelayMs: 10_000, monitorTimeoutMs: 5_000, monitorMaxRetries: 3, monitorMaxRetriesDown: 3, cascadeDelete: true, maxSharedLb: 2, ingressHostnameSuffix: 'nip.io', containerStore: 'barbican' });
    expect(config.loadBalancer.classes.get('internetFacing')).toMatchObject({ floatingNetworkId: 'c57af0a0-da92-49be-a98a-345ceca004b3', floatingSubnetId: 'a02eb6c3-fc69-46ae-a3fe-fb43c1563cbc' });
    expect(config.route.routerId).toBe('9f5a7e1c-1c1e-4b3e-9a46-b1a2c4d6e8f0');
    expect(config.metadata).toEqual({ searchOrder: ['configDrive', 'metadataService'], requestTimeoutMs: 60_000 });
  });

  it('reads application credentials (no project scope) and a project by name in its domain', () => {
    const byId = readOpenStackCloudConfig('[Global]\nauth-url=https://k:5000\nregion=R\napplication-credential-id=ac1\napplication-credential-secret=sec\n', 'cloud.conf', { environment: {} }).config.global;
    expect(byId.auth).toMatchObject({ kind: 'application-credential', id: 'ac1', secret: 'sec' });
    expect(byId.scope).toEqual({ kind: 'none' });
    const byName = readOpenStackCloudConfig('[Global]\nauth-url=https://k:5000\nregion=R\nuser-id=u1\npassword=p\ntenant-name=k8s\ndomain-name=Default\n', 'cloud.conf', { environment: {} }).config.global;
    expect(byName.scope).toEqual({ kind: 'project-name', projectName: 'k8s', domainId: '', domainName: 'Default' });
    const trust = readOpenStackCloudConfig('[Global]\nauth-url=https://k:5000\nregion=R\ntrust-id=t1\ntrustee-id=u2\ntrustee-password=tp\n', 'cloud.conf', { environment: {} }).config.global;
    expect(trust.auth).toMatchObject({ kind: 'trust', trustId: 't1', userId: 'u2', password: 'tp' });
  });

  it('fills unset [Global] keys from clouds.yaml; the file\'s own values win', () => {
    directory = mkdtempSync(join(tmpdir(), 'clouds-yaml-'));
    const cloudsFile = join(directory, 'clouds.yaml');
    writeFileSync(cloudsFile, 'clouds:\n  mycloud:\n    region_name: RegionTwo\n    interface: internal\n    auth:\n      auth_url: https://from-clouds:5000/v3\n      username: yaml-user\n      password: yaml-password\n      project_name: yaml-project\n      user_domain_name: Default\n      project_domain_name: Default\n');
    const { config } = readOpenStackCloudConfig(`[Global]\nuse-clouds=true\nclouds-file=${cloudsFile}\ncloud=mycloud\nusername=ini-user\n`, 'cloud.conf', { environment: {} });
    expect(config.global).toMatchObject({ authUrl: 'https://from-clouds:5000/v3', region: 'RegionTwo', endpointType: 'internal', cloudsYaml: cloudsFile });
    expect(config.global.auth).toMatchObject({ kind: 'password', username: 'ini-user', password: 'yaml-password', userDomainName: 'Default' });
    expect(config.global.scope).toEqual({ kind: 'project-name', projectName: 'yaml-project', domainId: '', domainName: 'Default' });
  });

  it('names file and line of clouds.yaml problems, without echoing values', () => {
    directory = mkdtempSync(join(tmpdir(), 'clouds-yaml-'));
    const cloudsFile = join(directory, 'clouds.yaml');
    writeFileSync(cloudsFile, 'clouds:\n  openstack:\n    auth:\n      password: [not, a, string]\n');
    const error = captureConfigError(() => readOpenStackCloudConfig(`[Global]\nuse-clouds=true\nclouds-file=${cloudsFile}\n`, 'cloud.conf', { environment: {} }));
    expect(error.problems).toContainEqual({ fileName: cloudsFile, line: 4, message: '`password` must be a string' });
  });

  it('reports every problem at once with file and line, and never echoes a secret', () => {
    const text = '[Global]\nauth-url=not a url\npassword=hunter2-secret\ntls-insecure=maybe\nregion=R\n\n[LoadBalancer]\nmonitor-delay=5 seconds\nmonitor-max-retries=-1\n\n[Metadata]\nsearch-order=configDrive,cloudInit\n';
    const error = captureConfigError(() => readOpenStackCloudConfig(text, '/etc/kubernetes/cloud.conf', { environment: {} }));
    const lines = error.problems.map((problem) => `${problem.line ?? '-'}: ${problem.message}`);
    expect(lines).toEqual([
      '2: section [Global], key "auth-url": "not a url" is not an http(s) URL',
      '2: section [Global]: password: set "user-id" or "username"',
      expect.stringMatching(/^4: section \[Global\], key "tls-insecure": invalid value "maybe"/),
      '8: section [LoadBalancer], key "monitor-delay": invalid duration "5 seconds" (use a Go duration such as 5s)',
      '9: section [LoadBalancer], key "monitor-max-retries": must not be negative (got -1)',
      '12: section [Metadata], key "search-order": invalid element "cloudInit" (use configDrive or metadataService)',
    ]);
    expect(error.message).toContain('/etc/kubernetes/cloud.conf:2: ');
    expect(error.message).not.toContain('hunter2');
  });

  it('refuses a missing file, missing auth-url and region, and absent credentials', () => {
    expect(() => readOpenStackCloudConfig(undefined, 'cloud.conf')).toThrow(/no OpenStack cloud provider config file given/);
    const error = captureConfigError(() => readOpenStackCloudConfig('[Global]\nusername=u\n', 'cloud.conf', { environment: {} }));
    expect(error.problems.map((problem) => problem.message)).toEqual([
      'section [Global]: required key "auth-url" is not set (here or in clouds.yaml)',
      'section [Global]: required key "region" is not set (here or in clouds.yaml)',
      'section [Global]: no credentials: set "password", "application-credential-secret" or "trust-id" (here or in clouds.yaml)',
    ]);
  });

  it('warns about unknown keys, unsupported providers and invalid sort CIDRs (upstream ignores them)', () => {
    const { config, warnings } = readOpenStackCloudConfig(`[Global]\nauth-url=https://k:5000\nregion=R\napplication-credential-id=a\napplication-credential-secret=s\nbogus=1\n[LoadBalancer]\nlb-provider=f5\nlb-version=v1\n[Networking]\naddress-sort-order=10.0.0.0/8,nonsense\n`, 'cloud.conf', { environment: {} });
    expect(warnings.map((warning) => `${warning.line}: ${warning.message}`)).toEqual([
      '6: unknown key "bogus" in section [Global]',
      '8: section [LoadBalancer], key "lb-provider": unsupported LoadBalancer provider "f5"',
      '9: section [LoadBalancer], key "lb-version": only "v2" is supported: the load balancer is off (got "v1")',
      '11: section [Networking], key "address-sort-order": ignoring invalid sort order item "nonsense": not a CIDR',
    ]);
    expect(config.loadBalancer.enabled).toBe(false);
    expect(config.networking.addressSortOrder).toEqual(['10.0.0.0/8']);
  });
});

describe('parseGoDuration', () => {
  it.each([
    ['5s', 5000],
    ['1m30s', 90_000],
    ['1.5h', 5_400_000],
    ['300ms', 300],
    ['0', 0],
  ])('%s', (text, expected) => expect(parseGoDuration(text)).toBe(expected));

  it.each(['5', '5 s', 's', '', '1d'])('refuses %j', (text) => expect(parseGoDuration(text)).toBeUndefined());
});

function captureConfigError(run: () => unknown): CloudConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof CloudConfigError) return error;
    throw error;
  }
  throw new Error('expected a CloudConfigError');
}
