/**
 * The `[LoadBalancer]` section of cloud.conf (and the environment) as the load balancer's
 * settings. Environment: `OCCM_WAIT_LB_ACTIVE_STEPS` (upstream) and `OCCM_RESERVE_VIP_PORT=true`
 * (ours: `vipPortMode: reserved`, for Octavia deployments whose network driver does not create
 * Neutron ports, such as the noop driver of test clouds).
 */
import { isLbMethod, parseNodeSelector } from '../../annotations.js';
import type { OpenStackLoadBalancerConfig } from '../../config/read-openstack-cloud-config.js';
import { OpenStackConfigurationError } from '../../errors.js';
import { DEFAULT_LOAD_BALANCER_SETTINGS, type LoadBalancerSettings } from './load-balancer-settings.js';

export const RESERVE_VIP_PORT_ENVIRONMENT_VARIABLE = 'OCCM_RESERVE_VIP_PORT';

const orUndefined = (value: string): string | undefined => (value.trim() === '' ? undefined : value.trim());

export interface LoadBalancerSettingsResult {
  settings: LoadBalancerSettings;
  warnings: string[];
}

export function loadBalancerSettingsFromConfig(config: OpenStackLoadBalancerConfig, environment: Readonly<Record<string, string | undefined>>): LoadBalancerSettingsResult {
  const warnings: string[] = [];
  const method = config.lbMethod.trim().toUpperCase();
  let nodeSelector: Record<string, string>;
  try {
    nodeSelector = parseNodeSelector(config.nodeSelector, 'node-selector');
  } catch (error) {
    throw new OpenStackConfigurationError(`[LoadBalancer] node-selector: ${JSON.stringify(config.nodeSelector)} is not a comma-separated list of key=value or key`, { cause: error });
  }
  if (method !== '' && !isLbMethod(method)) warnings.push(`[LoadBalancer] lb-method ${JSON.stringify(config.lbMethod)} is unknown: using ROUND_ROBIN (LoadBalancerLbMethodUnknown)`);
  const seconds = (milliseconds: number): number => Math.round(milliseconds / 1000);
  const floatingNetworkId = orUndefined(config.floatingNetworkId);
  const floatingSubnetId = orUndefined(config.floatingSubnetId);
  const subnetId = orUndefined(config.subnetId);
  const memberSubnetId = orUndefined(config.memberSubnetId);
  const networkId = orUndefined(config.networkId);
  const flavorId = orUndefined(config.flavorId);
  const availabilityZone = orUndefined(config.availabilityZone);
  const settings: LoadBalancerSettings = {
    ...DEFAULT_LOAD_BALANCER_SETTINGS,
    provider: config.lbProvider === 'octavia' ? 'amphora' : config.lbProvider || DEFAULT_LOAD_BALANCER_SETTINGS.provider,
    method: isLbMethod(method) ? method : DEFAULT_LOAD_BALANCER_SETTINGS.method,
    ...(subnetId === undefined ? {} : { subnetId }),
    ...(memberSubnetId === undefined ? {} : { memberSubnetId }),
    ...(networkId === undefined ? {} : { networkId }),
    ...(floatingNetworkId === undefined ? {} : { floatingNetworkId }),
    ...(floatingSubnetId === undefined ? {} : { floatingSubnetId }),
    internal: config.internalLb,
    createMonitor: config.createMonitor,
    monitorDelaySeconds: seconds(config.monitorDelayMs),
    monitorTimeoutSeconds: seconds(config.monitorTimeoutMs),
    monitorMaxRetries: config.monitorMaxRetries,
    monitorMaxRetriesDown: config.monitorMaxRetriesDown,
    nodeSelector,
    cascadeDelete: config.cascadeDelete,
    ...(flavorId === undefined ? {} : { flavorId }),
    ...(availabilityZone === undefined ? {} : { availabilityZone }),
    enableIngressHostname: config.enableIngressHostname,
    ingressHostnameSuffix: config.ingressHostnameSuffix || DEFAULT_LOAD_BALANCER_SETTINGS.ingressHostnameSuffix,
    serialApiCalls: config.providerRequiresSerialApiCalls,
    manageSecurityGroups: config.manageSecurityGroups,
    vipPortMode: environment[RESERVE_VIP_PORT_ENVIRONMENT_VARIABLE]?.trim().toLowerCase() === 'true' ? 'reserved' : 'octavia',
  };
  if (config.defaultTlsContainerRef !== '') warnings.push('[LoadBalancer] default-tls-container-ref is not implemented (no Barbican): listeners keep their protocol');
  if (config.floatingSubnet !== '' || config.floatingSubnetTags !== '') warnings.push('[LoadBalancer] floating-subnet and floating-subnet-tags are not implemented: use floating-subnet-id');
  if (config.classes.size > 0) warnings.push('[LoadBalancerClass] sections are not implemented: the [LoadBalancer] settings apply to every Service');
  return { settings, warnings };
}
