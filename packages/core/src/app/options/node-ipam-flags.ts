/**
 * The node IPAM flags some providers' binaries add (GCP and Azure: their own
 * `NodeIPAMControllerOptions.AddFlags`, from kube-controller-manager's): the service CIDRs and the
 * node CIDR mask sizes. No node IPAM controller runs in these binaries, so the flags are accepted
 * with the provider's reason (`ignored`); their values are still checked at start-up.
 */
import type { FlagDefinition } from './flag-definition.js';
import { tryParseCidr } from '../../net/cidr.js';

/**
 * The four flags, to spread into a provider's `defineFlagGroup`. `nodeCidrMaskSize` is the
 * provider's default of `--node-cidr-mask-size` (upstream GCP 0, Azure 24); the per-family sizes
 * default to 0 in both.
 */
export function nodeIpamFlags(settings: { nodeCidrMaskSize: number; ignored: string }) {
  return {
    serviceClusterIpRange: {
      name: 'service-cluster-ip-range',
      type: 'string',
      default: '',
      help: 'CIDR Range for Services in cluster. Requires --allocate-node-cidrs to be true',
      check: serviceClusterIpRangeValue,
      ignored: settings.ignored,
    },
    nodeCidrMaskSize: {
      name: 'node-cidr-mask-size',
      type: 'int',
      valueName: 'int32',
      default: settings.nodeCidrMaskSize,
      minimum: 0,
      maximum: 128,
      help: 'Mask size for node cidr in cluster. Default is 24 for IPv4 and 64 for IPv6.',
      ignored: settings.ignored,
    },
    nodeCidrMaskSizeIpv4: {
      name: 'node-cidr-mask-size-ipv4',
      type: 'int',
      valueName: 'int32',
      default: 0,
      minimum: 0,
      maximum: 32,
      help: 'Mask size for IPv4 node cidr in dual-stack cluster. Default is 24.',
      ignored: settings.ignored,
    },
    nodeCidrMaskSizeIpv6: {
      name: 'node-cidr-mask-size-ipv6',
      type: 'int',
      valueName: 'int32',
      default: 0,
      minimum: 0,
      maximum: 128,
      help: 'Mask size for IPv6 node cidr in dual-stack cluster. Default is 64.',
      ignored: settings.ignored,
    },
  } as const satisfies Record<string, FlagDefinition>;
}

/**
 * `--service-cluster-ip-range`: empty, or one or two comma-separated CIDRs (upstream
 * `NodeIPAMControllerOptions.Validate`: "can not contain more than two entries"; a malformed entry
 * would stop upstream's node IPAM controller).
 */
export const serviceClusterIpRangeValue = (value: string): string | undefined => {
  if (value === '') return undefined;
  const entries = value.split(',');
  if (entries.length > 2) return '--service-cluster-ip-range can not contain more than two entries';
  const bad = entries.find((entry) => tryParseCidr(entry.trim()) === undefined);
  return bad === undefined ? undefined : `invalid CIDR address: ${bad}`;
};
