/**
 * Reads the AWS cloud-config: parse everything, report every problem with file and line, then
 * validate (upstream `readAWSCloudConfig`, `ValidateOverrides` and start-up checks). Unknown
 * sections and keys are warnings, as with upstream's `gcfg.FatalOnly`. No file means defaults.
 */
import { CloudConfigError, parseGcfg, type CloudConfigProblem, type GcfgDocument } from '@ccm/core/config';
import type { IpFamily } from '../operations/node-addresses.js';
import { AWS_CLOUD_CONFIG_SCHEMA, HEALTH_PROBE_MODE_SHARED, NLB_SECURITY_GROUP_MODE_MANAGED } from './cloud-config-schema.js';

/** SDK service IDs an override can name (upstream compares them exactly). */
export const SERVICE_ID_EC2 = 'EC2';
export const SERVICE_ID_ELB = 'Elastic Load Balancing';
export const SERVICE_ID_ELBV2 = 'Elastic Load Balancing v2';
export const SERVICE_ID_KMS = 'KMS';
export const SERVICE_ID_IMDS = 'ec2imds';

export interface ServiceOverride {
  /** The `[ServiceOverride "<name>"]` subsection. */
  name: string;
  service: string;
  region: string;
  url: string;
  signingRegion: string;
  signingName: string;
  signingMethod: string;
}

export interface AwsCloudConfig {
  zone: string;
  region: string;
  vpc: string;
  subnetId: string;
  routeTableId: string;
  roleArn: string;
  sourceArn: string;
  kubernetesClusterTag: string;
  kubernetesClusterId: string;
  disableSecurityGroupIngress: boolean;
  elbSecurityGroup: string;
  nodeIpFamilies: IpFamily[];
  healthProbeMode: 'ServiceNodePort' | 'Shared';
  sharedHealthProbePort: number;
  sharedHealthProbePath: string;
  supportedTopologyInstanceTypePattern: string;
  nlbSecurityGroupMode: '' | 'Managed';
  serviceOverrides: ServiceOverride[];
}

/** Upstream `azToRegion` pattern: `us-east-1a` -> `us-east-1`. */
const REGION_OF_ZONE = /^([a-zA-Z]+-)+\d+/;

export function regionOfZone(zone: string): string | undefined {
  return REGION_OF_ZONE.exec(zone)?.[0];
}

export const DEFAULT_CLOUD_CONFIG_FILE_NAME = 'cloud-config';

export function readAwsCloudConfig(text: string | undefined, fileName = DEFAULT_CLOUD_CONFIG_FILE_NAME): { config: AwsCloudConfig; warnings: CloudConfigProblem[] } {
  const document = parseGcfg(text ?? '', fileName);
  const { config: raw, problems, warnings } = AWS_CLOUD_CONFIG_SCHEMA.read(document, { unknown: 'warning' });
  const global = raw.global;
  const at = (variable: string): number | undefined => document.variable('Global', variable)?.line;

  const nodeIpFamilies: IpFamily[] = [];
  for (const family of global.nodeIpFamilies) {
    if (family === 'ipv4' || family === 'ipv6') nodeIpFamilies.push(family);
    else problems.push(problem(fileName, at('NodeIPFamilies'), `section [Global], key "NodeIPFamilies": invalid ip family ${JSON.stringify(family)} (use ipv4 or ipv6)`));
  }
  if (global.nodeIpFamilies.length === 0) nodeIpFamilies.push('ipv4');

  if (global.zone !== '' && regionOfZone(global.zone) === undefined) {
    problems.push(problem(fileName, at('Zone'), `section [Global], key "Zone": cannot derive a region from zone ${JSON.stringify(global.zone)}`));
  }
  if (global.sharedHealthProbePort < 1 || global.sharedHealthProbePort > 65535) {
    problems.push(
      problem(fileName, at('ClusterServiceSharedLoadBalancerHealthProbePort'), `section [Global], key "ClusterServiceSharedLoadBalancerHealthProbePort": ${global.sharedHealthProbePort} is not a port number`),
    );
  }
  try {
    new RegExp(global.supportedTopologyInstanceTypePattern);
  } catch (error) {
    problems.push(
      problem(fileName, at('SupportedTopologyInstanceTypePattern'), `section [Global], key "SupportedTopologyInstanceTypePattern": invalid regular expression: ${(error as Error).message}`),
    );
  }

  const serviceOverrides = readServiceOverrides(document, raw.serviceOverride, problems);
  if (problems.length > 0) throw new CloudConfigError(problems.sort((left, right) => (left.line ?? Infinity) - (right.line ?? Infinity)));

  return {
    config: {
      zone: global.zone,
      region: global.region,
      vpc: global.vpc,
      subnetId: global.subnetId,
      routeTableId: global.routeTableId,
      roleArn: global.roleArn,
      sourceArn: global.sourceArn,
      kubernetesClusterTag: global.kubernetesClusterTag,
      kubernetesClusterId: global.kubernetesClusterId,
      disableSecurityGroupIngress: global.disableSecurityGroupIngress,
      elbSecurityGroup: global.elbSecurityGroup,
      nodeIpFamilies,
      healthProbeMode: global.healthProbeMode === HEALTH_PROBE_MODE_SHARED ? 'Shared' : 'ServiceNodePort',
      sharedHealthProbePort: global.sharedHealthProbePort,
      sharedHealthProbePath: global.sharedHealthProbePath,
      supportedTopologyInstanceTypePattern: global.supportedTopologyInstanceTypePattern,
      nlbSecurityGroupMode: global.nlbSecurityGroupMode === NLB_SECURITY_GROUP_MODE_MANAGED ? 'Managed' : '',
      serviceOverrides,
    },
    warnings,
  };
}

function problem(fileName: string, line: number | undefined, message: string): CloudConfigProblem {
  return line === undefined ? { fileName, message } : { fileName, line, message };
}

/** Upstream `ValidateOverrides`: Service, Region, URL and SigningRegion set; one section per (Service, Region). */
function readServiceOverrides(
  document: GcfgDocument,
  sections: ReadonlyMap<string, { service: string; region: string; url: string; signingRegion: string; signingName: string; signingMethod: string }>,
  problems: CloudConfigProblem[],
): ServiceOverride[] {
  const overrides: ServiceOverride[] = [];
  const seen = new Map<string, string>();
  for (const [name, values] of sections) {
    const section = document.section('ServiceOverride', name === '' ? undefined : name);
    const line = section?.line;
    const where = name === '' ? '[ServiceOverride]' : `[ServiceOverride ${JSON.stringify(name)}]`;
    const override: ServiceOverride = {
      name,
      service: values.service.trim(),
      region: values.region.trim(),
      url: values.url.trim(),
      signingRegion: values.signingRegion.trim(),
      signingName: values.signingName.trim(),
      signingMethod: values.signingMethod.trim(),
    };
    const missing = (
      [
        ['Service', override.service],
        ['Region', override.region],
        ['URL', override.url],
        ['SigningRegion', override.signingRegion],
      ] as const
    ).filter(([, value]) => value === '');
    for (const [key] of missing) problems.push(problem(document.fileName, line, `section ${where}: ${key} is missing`));
    if (override.url !== '' && !URL.canParse(override.url)) {
      problems.push(problem(document.fileName, document.variable('ServiceOverride', 'URL', name)?.line ?? line, `section ${where}: URL ${JSON.stringify(override.url)} is not a valid URL`));
    }
    if (override.service !== '' && override.region !== '') {
      const key = `${override.service}\u0000${override.region}`;
      const previous = seen.get(key);
      if (previous !== undefined) {
        problems.push(problem(document.fileName, line, `section ${where}: duplicate override for service ${JSON.stringify(override.service)} in region ${JSON.stringify(override.region)} (also in [ServiceOverride ${JSON.stringify(previous)}])`));
      }
      seen.set(key, name);
    }
    overrides.push(override);
  }
  return overrides;
}

/** The override for a service in a region (IMDS overrides match any region). */
export function findServiceOverride(overrides: readonly ServiceOverride[], service: string, region: string): ServiceOverride | undefined {
  return overrides.find((override) => override.service === service && (service === SERVICE_ID_IMDS || override.region === region));
}
