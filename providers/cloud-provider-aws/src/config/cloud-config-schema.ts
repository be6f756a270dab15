/**
 * The AWS cloud-config file (upstream `pkg/providers/v1/config/config.go`), declared once: the
 * gcfg schema (names, types, defaults, descriptions) plus the support status of every key. The
 * docs table is generated from both.
 */
import type { KeyStatus } from '@ccm/core/service-input';
import { defineGcfgSchema } from '@ccm/core/config';

export const HEALTH_PROBE_MODE_SERVICE_NODE_PORT = 'ServiceNodePort';
export const HEALTH_PROBE_MODE_SHARED = 'Shared';
export const NLB_SECURITY_GROUP_MODE_MANAGED = 'Managed';
export const DEFAULT_TOPOLOGY_INSTANCE_TYPE_PATTERN = '^(hpc|trn|p)[0-9]+[a-z]*(-[a-z0-9]+)?(\\.[0-9a-z]*)$';

export const AWS_CLOUD_CONFIG_SCHEMA = defineGcfgSchema({
  global: {
    name: 'Global',
    description: 'Provider-wide settings.',
    keys: {
      zone: {
        type: 'string',
        name: 'Zone',
        description: 'Legacy. When set, the region is derived from this availability zone and neither `Region` nor the metadata service is used for it.',
      },
      region: { type: 'string', name: 'Region', description: 'The AWS region. Default: read from the instance metadata service.' },
      vpc: {
        type: 'string',
        name: 'VPC',
        description: 'The VPC ID. With `SubnetID` or `RoleARN` and a cluster ID it turns on off-AWS mode: no instance metadata lookups of the CCM\'s own instance.',
      },
      subnetId: { type: 'string', name: 'SubnetID', description: 'Fallback load balancer subnet when no subnet is tagged; also the subnet of off-AWS mode.' },
      routeTableId: { type: 'string', name: 'RouteTableID', description: 'Use this route table for pod routes instead of the one carrying the cluster tag.' },
      roleArn: { type: 'string', name: 'RoleARN', description: 'IAM role assumed (STS AssumeRole) for every EC2 and ELB call.' },
      sourceArn: { type: 'string', name: 'SourceARN', description: 'Sent as `x-amz-source-arn` on AssumeRole; `x-amz-source-account` is always sent, taken from `RoleARN`.' },
      kubernetesClusterTag: {
        type: 'string',
        name: 'KubernetesClusterTag',
        description: 'Legacy cluster ID: resources also get the `KubernetesCluster=<id>` tag.',
      },
      kubernetesClusterId: {
        type: 'string',
        name: 'KubernetesClusterID',
        description: 'Cluster ID; resources are tagged `kubernetes.io/cluster/<id>`. Default: read from the tags of the CCM\'s own instance.',
      },
      disableSecurityGroupIngress: {
        type: 'bool',
        name: 'DisableSecurityGroupIngress',
        description: 'Never add load balancer rules to node security groups.',
      },
      elbSecurityGroup: {
        type: 'string',
        name: 'ElbSecurityGroup',
        description: 'One security group for every Classic ELB instead of one per load balancer; it is never modified or deleted.',
      },
      disableStrictZoneCheck: {
        type: 'bool',
        name: 'DisableStrictZoneCheck',
        description: 'Accepted for compatibility; it has no effect.',
        deprecated: 'it has no effect (deprecated upstream)',
      },
      nodeIpFamilies: {
        type: 'list',
        name: 'NodeIPFamilies',
        description: '`ipv4` and/or `ipv6`, repeated; the order decides the order of node addresses.',
        default: ['ipv4'],
      },
      healthProbeMode: {
        type: 'string',
        name: 'ClusterServiceLoadBalancerHealthProbeMode',
        description: '`ServiceNodePort`: health check per service port. `Shared`: externalTrafficPolicy Cluster services probe kube-proxy on every node.',
        allowed: ['', HEALTH_PROBE_MODE_SERVICE_NODE_PORT, HEALTH_PROBE_MODE_SHARED],
      },
      sharedHealthProbePort: {
        type: 'int',
        name: 'ClusterServiceSharedLoadBalancerHealthProbePort',
        description: 'Port of the shared health probe.',
        default: 10256,
      },
      sharedHealthProbePath: {
        type: 'string',
        name: 'ClusterServiceSharedLoadBalancerHealthProbePath',
        description: 'Path of the shared health probe.',
        default: '/healthz',
      },
      supportedTopologyInstanceTypePattern: {
        type: 'string',
        name: 'SupportedTopologyInstanceTypePattern',
        description: 'Instance types that must report network topology (validated as a regular expression).',
        default: DEFAULT_TOPOLOGY_INSTANCE_TYPE_PATTERN,
      },
      nlbSecurityGroupMode: {
        type: 'string',
        name: 'NLBSecurityGroupMode',
        description: '`Managed`: new NLBs get a managed security group, and the security-groups annotation applies to NLBs. Empty: NLBs get no security group.',
        allowed: ['', NLB_SECURITY_GROUP_MODE_MANAGED],
      },
    },
  },
  serviceOverride: {
    name: 'ServiceOverride',
    description: 'Endpoint overrides, one section per service and region.',
    subsections: true,
    keys: {
      service: {
        type: 'string',
        name: 'Service',
        description: 'SDK service ID: `EC2`, `Elastic Load Balancing`, `Elastic Load Balancing v2`, `KMS` or `ec2imds`.',
      },
      region: { type: 'string', name: 'Region', description: 'Region the override applies to (must be set; ignored for `ec2imds`).' },
      url: { type: 'string', name: 'URL', description: 'Endpoint URL.' },
      signingRegion: { type: 'string', name: 'SigningRegion', description: 'SigV4 signing region.' },
      signingMethod: { type: 'string', name: 'SigningMethod', description: 'Accepted; unused (as upstream).' },
      signingName: { type: 'string', name: 'SigningName', description: 'SigV4 signing name (optional).' },
    },
  },
});

export type AwsCloudConfigSchema = typeof AWS_CLOUD_CONFIG_SCHEMA;
type GlobalKeys = keyof AwsCloudConfigSchema['sections']['global']['keys'];
type OverrideKeys = keyof AwsCloudConfigSchema['sections']['serviceOverride']['keys'];

/** Status of a key (core's one vocabulary), with a note. */
export type { KeyStatus } from '@ccm/core/service-input';

/** Support status of every key; the compiler insists every declared key has one. */
export const GLOBAL_KEY_STATUS: Readonly<Record<GlobalKeys, KeyStatus>> = {
  zone: { status: 'supported' },
  region: { status: 'supported' },
  vpc: { status: 'supported' },
  subnetId: { status: 'supported' },
  routeTableId: { status: 'supported' },
  roleArn: { status: 'supported' },
  sourceArn: { status: 'supported' },
  kubernetesClusterTag: { status: 'supported' },
  kubernetesClusterId: { status: 'supported' },
  disableSecurityGroupIngress: { status: 'supported' },
  elbSecurityGroup: { status: 'supported' },
  disableStrictZoneCheck: { status: 'accepted-and-ignored', note: 'Deprecated upstream and without effect there too.' },
  nodeIpFamilies: { status: 'supported' },
  healthProbeMode: { status: 'supported' },
  sharedHealthProbePort: { status: 'supported' },
  sharedHealthProbePath: { status: 'supported' },
  supportedTopologyInstanceTypePattern: {
    status: 'supported',
    note: 'Instance types that must return a topology from DescribeInstanceTopology (`topology.k8s.aws/network-node-layer-N` labels); other types returning none are not asked again for 24 h.',
  },
  nlbSecurityGroupMode: { status: 'supported' },
};

export const SERVICE_OVERRIDE_KEY_STATUS: Readonly<Record<OverrideKeys, KeyStatus>> = {
  service: { status: 'supported', note: 'EC2, ELB, ELBv2 and ec2imds are used; KMS is accepted but this provider makes no KMS calls.' },
  region: { status: 'supported' },
  url: { status: 'supported' },
  signingRegion: { status: 'supported' },
  signingMethod: { status: 'accepted-and-ignored', note: 'As upstream.' },
  signingName: { status: 'supported' },
};
