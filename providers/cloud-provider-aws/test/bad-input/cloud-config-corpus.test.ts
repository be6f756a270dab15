/** The bad-input corpus of the AWS cloud config (gcfg): seeded, `BAD_INPUT_RUNS` cases (default 2000). */
import { describe, expect, it } from 'vitest';
import { CloudConfigError } from '@ccm/core/config';
import { checkBadInputs } from '@ccm/testing/bad-input';
import { readAwsCloudConfig } from '../../src/config/read-aws-cloud-config.js';

const VALID = [
  [
    '[Global]',
    'Zone = us-east-1a',
    'VPC = vpc-0123456789abcdef0',
    'SubnetID = subnet-0123',
    'KubernetesClusterTag = demo',
    'KubernetesClusterID = demo',
    'DisableSecurityGroupIngress = false',
    'ElbSecurityGroup = sg-0123',
    'NodeIPFamilies = ipv4',
    'NodeIPFamilies = ipv6',
    'ClusterServiceLoadBalancerHealthProbeMode = Shared',
    'ClusterServiceSharedLoadBalancerHealthProbePort = 10256',
    'ClusterServiceSharedLoadBalancerHealthProbePath = /healthz',
    'NLBSecurityGroupMode = Managed',
    '[ServiceOverride "1"]',
    'Service = EC2',
    'Region = us-east-1',
    'URL = http://127.0.0.1:5000',
    'SigningRegion = us-east-1',
    '',
  ].join('\n'),
  '[Global]\nRegion = eu-west-1\nRoleARN = arn:aws:iam::123456789012:role/ccm\n',
];

describe('bad-input corpus: AWS cloud config', () => {
  it('returns a config or throws one CloudConfigError naming the file', () => {
    const summary = checkBadInputs(
      { validDocuments: VALID, syntaxCharacters: '[]"=;#\\' },
      { parse: (text, fileName) => readAwsCloudConfig(text, fileName), isExpectedError: (error) => error instanceof CloudConfigError },
      'aws.conf',
      { seed: 1313 },
    );
    process.stdout.write(`bad-input aws gcfg: ${summary.cases} cases (${summary.rejected} rejected, ${summary.accepted} accepted), slowest ${summary.slowestMs.toFixed(1)} ms\n`);
    expect(summary.accepted).toBeGreaterThan(0);
    expect(summary.rejected).toBeGreaterThan(0);
  }, 180_000);
});
