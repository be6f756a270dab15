/** The SDK-backed ports of one openstack-client-ts client (one Keystone session for every service). */
import type { OpenStackGlobalConfig } from '../../config/read-openstack-cloud-config.js';
import type { ComputePort } from '../compute-port.js';
import type { LoadBalancerNetworkPort } from '../load-balancer-network-port.js';
import type { NetworkPort } from '../network-port.js';
import type { OctaviaPort } from '../octavia-port.js';
import type { SecurityGroupPort } from '../security-group-port.js';
import { createOpenStackSdkClient, type OpenStackSdkClientOptions } from './openstack-sdk-client.js';
import { createSdkComputePort } from './sdk-compute-port.js';
import { createSdkLoadBalancerNetworkPort } from './sdk-load-balancer-network-port.js';
import { createSdkNetworkPort } from './sdk-network-port.js';
import { createSdkOctaviaPort } from './sdk-octavia-port.js';
import { createSdkSecurityGroupPort } from './sdk-security-group-port.js';

export interface OpenStackSdkPorts {
  compute: ComputePort;
  network: NetworkPort;
  octavia: OctaviaPort;
  loadBalancerNetwork: LoadBalancerNetworkPort;
  securityGroups: SecurityGroupPort;
}

export function createOpenStackSdkPorts(global: OpenStackGlobalConfig, options: OpenStackSdkClientOptions): OpenStackSdkPorts {
  const client = createOpenStackSdkClient(global, options);
  return {
    compute: createSdkComputePort(client.compute),
    network: createSdkNetworkPort(client.network),
    octavia: createSdkOctaviaPort(client.loadBalancer),
    loadBalancerNetwork: createSdkLoadBalancerNetworkPort(client.network),
    securityGroups: createSdkSecurityGroupPort(client.network),
  };
}
