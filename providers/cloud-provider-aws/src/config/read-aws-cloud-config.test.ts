import { CloudConfigError } from '@ccm/core/config';
import { describe, expect, it } from 'vitest';
import { findServiceOverride, readAwsCloudConfig, regionOfZone } from './read-aws-cloud-config.js';

function problemsOf(text: string): string[] {
  try {
    readAwsCloudConfig(text, 'cloud.conf');
  } catch (error) {
    if (error instanceof CloudConfigError) return error.message.split('\n');
    throw error;
  }
  throw new Error('expected a CloudConfigError');
}

describe('readAwsCloudConfig', () => {
  it('gives upstream defaults without a file', () => {
    const { config, warnings } = readAwsCloudConfig(undefined);
    expect(warnings).toEqual([]);
    expect(config).toMatchObject({
      zone: '',
      region: '',
      vpc: '',
      kubernetesClusterId: '',
      disableSecurityGroupIngress: false,
      nodeIpFamilies: ['ipv4'],
      healthProbeMode: 'ServiceNodePort',
      sharedHealthProbePort: 10256,
      sharedHealthProbePath: '/healthz',
      nlbSecurityGroupMode: '',
      serviceOverrides: [],
    });
  });

  it('reads every [Global] key, case-insensitively', () => {
    const { config } = readAwsCloudConfig(
      `[global]
zone = us-east-1a
region = us-east-1
vpc = vpc-1
subnetid = subnet-1
RouteTableID = rtb-1
RoleARN = arn:aws:iam::123456789012:role/ccm
SourceARN = arn:aws:eks:us-east-1:123456789012:cluster/x
KubernetesClusterTag = legacy
KubernetesClusterID = legacy
DisableSecurityGroupIngress = yes
ElbSecurityGroup = sg-shared
NodeIPFamilies = ipv6
NodeIPFamilies = ipv4
ClusterServiceLoadBalancerHealthProbeMode = Shared
ClusterServiceSharedLoadBalancerHealthProbePort = 8080
ClusterServiceSharedLoadBalancerHealthProbePath = /ready
SupportedTopologyInstanceTypePattern = ^p5.*
NLBSecurityGroupMode = Managed
`,
      'cloud.conf',
    );
    expect(config).toMatchObject({
      zone: 'us-east-1a',
      region: 'us-east-1',
      vpc: 'vpc-1',
      subnetId: 'subnet-1',
      routeTableId: 'rtb-1',
      roleArn: 'arn:aws:iam::123456789012:role/ccm',
      sourceArn: 'arn:aws:eks:us-east-1:123456789012:cluster/x',
      kubernetesClusterTag: 'legacy',
      kubernetesClusterId: 'legacy',
      disableSecurityGroupIngress: true,
      elbSecurityGroup: 'sg-shared',
      nodeIpFamilies: ['ipv6', 'ipv4'],
      healthProbeMode: 'Shared',
      sharedHealthProbePort: 8080,
      sharedHealthProbePath: '/ready',
      supportedTopologyInstanceTypePattern: '^p5.*',
      nlbSecurityGroupMode: 'Managed',
    });
  });

  it('reads service overrides', () => {
    const { config } = readAwsCloudConfig(
      `[ServiceOverride "1"]
Service = EC2
Region = us-west-2
URL = http://127.0.0.1:5000
SigningRegion = us-west-2
SigningName = ec2
SigningMethod = v4
[ServiceOverride "imds"]
Service = ec2imds
Region = any
URL = http://127.0.0.1:1338
SigningRegion = any
`,
    );
    expect(config.serviceOverrides).toEqual([
      { name: '1', service: 'EC2', region: 'us-west-2', url: 'http://127.0.0.1:5000', signingRegion: 'us-west-2', signingName: 'ec2', signingMethod: 'v4' },
      { name: 'imds', service: 'ec2imds', region: 'any', url: 'http://127.0.0.1:1338', signingRegion: 'any', signingName: '', signingMethod: '' },
    ]);
    expect(findServiceOverride(config.serviceOverrides, 'EC2', 'us-west-2')?.name).toBe('1');
    expect(findServiceOverride(config.serviceOverrides, 'EC2', 'eu-west-1')).toBeUndefined();
    expect(findServiceOverride(config.serviceOverrides, 'ec2imds', 'eu-west-1')?.name).toBe('imds');
  });

  it('warns about unknown keys and deprecated ones instead of failing (gcfg.FatalOnly)', () => {
    const { warnings } = readAwsCloudConfig('[Global]\nRegion = us-west-2\nTagNodeSubnet = true\nDisableStrictZoneCheck = true\n[Other]\nx = 1\n', 'cloud.conf');
    expect(warnings.map((warning) => `${warning.line}: ${warning.message}`)).toEqual([
      '3: unknown key "TagNodeSubnet" in section [Global]',
      '4: key "DisableStrictZoneCheck" in section [Global] is deprecated: it has no effect (deprecated upstream)',
      '5: unknown section "Other"',
    ]);
  });

  it('reports every problem with file and line', () => {
    expect(
      problemsOf(`[Global]
Zone = nowhere
NodeIPFamilies = ipv5
DisableSecurityGroupIngress = maybe
ClusterServiceLoadBalancerHealthProbeMode = Sometimes
ClusterServiceSharedLoadBalancerHealthProbePort = 70000
SupportedTopologyInstanceTypePattern = ([
NLBSecurityGroupMode = managed
[ServiceOverride "a"]
Service = EC2
Region = us-west-2
URL = not a url
[ServiceOverride "b"]
Service = EC2
Region = us-west-2
URL = http://x
SigningRegion = us-west-2
`),
    ).toEqual([
      'cloud.conf:2: section [Global], key "Zone": cannot derive a region from zone "nowhere"',
      'cloud.conf:3: section [Global], key "NodeIPFamilies": invalid ip family "ipv5" (use ipv4 or ipv6)',
      'cloud.conf:4: section [Global], key "DisableSecurityGroupIngress": invalid boolean "maybe" (use true/false, yes/no, on/off or 1/0)',
      'cloud.conf:5: section [Global], key "ClusterServiceLoadBalancerHealthProbeMode": invalid value "Sometimes": must be one of "", "ServiceNodePort", "Shared"',
      'cloud.conf:6: section [Global], key "ClusterServiceSharedLoadBalancerHealthProbePort": 70000 is not a port number',
      expect.stringMatching(/^cloud\.conf:7: section \[Global\], key "SupportedTopologyInstanceTypePattern": invalid regular expression/),
      'cloud.conf:8: section [Global], key "NLBSecurityGroupMode": invalid value "managed": must be one of "", "Managed"',
      'cloud.conf:9: section [ServiceOverride "a"]: SigningRegion is missing',
      'cloud.conf:12: section [ServiceOverride "a"]: URL "not a url" is not a valid URL',
      'cloud.conf:13: section [ServiceOverride "b"]: duplicate override for service "EC2" in region "us-west-2" (also in [ServiceOverride "a"])',
    ]);
  });

  it('reports syntax errors with their line', () => {
    expect(problemsOf('[Global]\nRegion = "unterminated\n')[0]).toMatch(/^cloud\.conf:2: /);
  });

  it('requires Service, Region, URL and SigningRegion in overrides', () => {
    expect(problemsOf('[ServiceOverride "x"]\nSigningName = ec2\n')).toEqual([
      'cloud.conf:1: section [ServiceOverride "x"]: Service is missing',
      'cloud.conf:1: section [ServiceOverride "x"]: Region is missing',
      'cloud.conf:1: section [ServiceOverride "x"]: URL is missing',
      'cloud.conf:1: section [ServiceOverride "x"]: SigningRegion is missing',
    ]);
  });
});

describe('regionOfZone', () => {
  it.each([
    ['us-east-1a', 'us-east-1'],
    ['eu-central-1b', 'eu-central-1'],
    ['us-gov-west-1a', 'us-gov-west-1'],
    ['us-west-2-lax-1a', 'us-west-2'],
    ['nowhere', undefined],
  ])('%s -> %s', (zone, region) => {
    expect(regionOfZone(zone)).toBe(region);
  });
});
