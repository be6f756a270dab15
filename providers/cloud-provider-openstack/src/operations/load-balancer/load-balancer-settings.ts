/**
 * The `[LoadBalancer]` settings the load balancer operations use, in their own types (the
 * composition root maps the parsed cloud config onto them), with upstream's defaults.
 */
import type { LbMethod } from '../../annotations.js';

/**
 * Who owns the VIP port. `octavia` (upstream): Octavia creates it from `vip_subnet_id` and the
 * floating IP goes on `vip_port_id`. `reserved`: for Octavia deployments whose network driver
 * does not create Neutron ports (the `noop` network driver of test clouds, which refuses
 * `vip_port_id` and reports a fake VIP port): the CCM creates a Neutron port of its own on the VIP
 * subnet, passes its address as `vip_address`, and puts the floating IP on that port.
 */
export type VipPortMode = 'octavia' | 'reserved';

export interface LoadBalancerSettings {
  /** `lb-provider` (default `amphora`). */
  provider: string;
  /** `lb-method` (default `ROUND_ROBIN`). */
  method: LbMethod;
  /** `subnet-id`: the VIP subnet. */
  subnetId?: string;
  /** `member-subnet-id`. */
  memberSubnetId?: string;
  /** `network-id`: the VIP network. */
  networkId?: string;
  /** `floating-network-id`. */
  floatingNetworkId?: string;
  /** `floating-subnet-id`. */
  floatingSubnetId?: string;
  /** `internal-lb` (default false): every load balancer internal. */
  internal: boolean;
  /** `create-monitor` (default false). */
  createMonitor: boolean;
  /** `monitor-delay` in seconds (default 5). */
  monitorDelaySeconds: number;
  /** `monitor-timeout` in seconds (default 3). */
  monitorTimeoutSeconds: number;
  /** `monitor-max-retries` (default 1). */
  monitorMaxRetries: number;
  /** `monitor-max-retries-down` (default 3). */
  monitorMaxRetriesDown: number;
  /** `node-selector` (default: every node). */
  nodeSelector: Readonly<Record<string, string>>;
  /** `cascade-delete` (default true): one `DELETE ?cascade=true` instead of deleting children first. */
  cascadeDelete: boolean;
  /** `flavor-id`. */
  flavorId?: string;
  /** `availability-zone`. */
  availabilityZone?: string;
  /** `enable-ingress-hostname` (default false): with PROXY protocol, report `<ip>.<suffix>` as hostname. */
  enableIngressHostname: boolean;
  /** `ingress-hostname-suffix` (default `nip.io`). */
  ingressHostnameSuffix: string;
  vipPortMode: VipPortMode;
  /**
   * `provider-requires-serial-api-calls` (default false): the load balancer is created empty, then
   * listeners, pools, members and monitors one call at a time; members are created and deleted one
   * by one instead of the batch update.
   */
  serialApiCalls: boolean;
  /**
   * `manage-security-groups` (default false): a security group per Service opening its node ports
   * to the load balancer, attached to the member nodes' ports. Off: a group a Service has is
   * deleted at its next ensure (upstream).
   */
  manageSecurityGroups: boolean;
}

export const DEFAULT_LOAD_BALANCER_SETTINGS: LoadBalancerSettings = {
  provider: 'amphora',
  method: 'ROUND_ROBIN',
  internal: false,
  createMonitor: false,
  monitorDelaySeconds: 5,
  monitorTimeoutSeconds: 3,
  monitorMaxRetries: 1,
  monitorMaxRetriesDown: 3,
  nodeSelector: {},
  cascadeDelete: true,
  enableIngressHostname: false,
  ingressHostnameSuffix: 'nip.io',
  vipPortMode: 'octavia',
  serialApiCalls: false,
  manageSecurityGroups: false,
};
