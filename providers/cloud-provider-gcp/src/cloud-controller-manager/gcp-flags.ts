/**
 * The flags upstream's GCP cloud-controller-manager adds to k8s.io/cloud-provider's command
 * (kubernetes/cloud-provider-gcp, docs/parity.md "GCP"):
 * - `cmd/cloud-controller-manager/main.go`, section "GCE Cloud Provider": the GKE switches;
 * - `cmd/cloud-controller-manager/options/nodeipamcontroller.go` `NodeIPAMControllerOptions.AddFlags`,
 *   section "nodeipam controller";
 * - `providers/gce/gce_loadbalancer.go` `init`: the Go flags `--cloud-provider-gce-lb-src-cidrs` and
 *   `--cloud-provider-gce-l7lb-src-cidrs`, which k8s.io/cloud-provider's command hoists into its
 *   "generic" section when the GCE provider is linked in.
 * Every default and help text is upstream's. `--cloud-provider-gce-lb-src-cidrs` is implemented
 * (the source ranges of the load balancers' health-check firewalls); the others switch on upstream
 * features this CCM does not have, so they are accepted with no effect (logged when set away from
 * their default, and listed as ignored in the generated docs).
 */
import { defineFlagGroup, nodeIpamFlags } from '@ccm/core/app';
import { formatCidrAsGo, tryParseCidr } from '@ccm/core/net';
import { L4_HEALTH_CHECK_SOURCE_RANGES } from '../operations/load-balancer/load-balancer-names.js';

/** Google's L7 proxy and health-check ranges (upstream's `--cloud-provider-gce-l7lb-src-cidrs` default). */
const L7_SOURCE_RANGES = ['130.211.0.0/22', '35.191.0.0/16'] as const;

const NODE_IPAM_NOT_HERE = 'node IPAM (the nodeipam controller) is not part of this cloud-controller-manager';

export const GCE_CLOUD_PROVIDER_FLAGS = defineFlagGroup(
  'GCE Cloud Provider',
  {
    enableMultiProject: {
      name: 'enable-multi-project',
      type: 'bool',
      default: false,
      help: 'Enables project selection from Node providerID for GCE API calls. CAUTION: Only enable if Node providerID is configured by a trusted source.',
      ignored: "every GCE API call uses the project of gce.conf (or of the metadata server); the project in a Node's providerID is not used",
    },
    enableDiscretePortForwarding: {
      name: 'enable-discrete-port-forwarding',
      type: 'bool',
      default: false,
      help: 'Enables forwarding of individual ports instead of port ranges for GCE external load balancers.',
      ignored: "external load balancers' forwarding rules always carry a port range (upstream's default)",
    },
    enableRbsDefaultL4NetLb: {
      name: 'enable-rbs-default-l4-netlb',
      type: 'bool',
      default: false,
      help: 'Enables RBS defaulting for GCE L4 NetLB',
      ignored: "Services are not defaulted to backend-service NetLB; external load balancers use target pools (upstream's default)",
    },
    enableL4LbAnnotations: {
      name: 'enable-l4-lb-annotations',
      type: 'bool',
      default: false,
      help: 'Enables Annotations for GCE L4 LB Services',
      ignored: "the resource annotations of L4 load balancer Services are not written (upstream's default)",
    },
    enableL4DenyFirewall: {
      name: 'enable-l4-deny-firewall',
      type: 'bool',
      default: false,
      help: 'Enable creation and updates of Deny VPC Firewall Rules for L4 external load balancers. Requires --enable-pinhole and --enable-l4-deny-firewall-rollback-cleanup to be true.',
      ignored: "no deny firewall rules are created (upstream's default)",
    },
    enableL4DenyFirewallRollbackCleanup: {
      name: 'enable-l4-deny-firewall-rollback-cleanup',
      type: 'bool',
      default: false,
      help: 'Enable cleanup codepath of the deny firewalls for rollback. The reason for it not being enabled by default is the additional GCE API calls that are made for checking if the deny firewalls exist/deletion which will eat up the quota unnecessarily.',
      ignored: "deny firewall rules are neither looked up nor deleted (upstream's default)",
    },
    enableGkeTenantController: {
      name: 'enable-gke-tenant-controller',
      type: 'bool',
      default: false,
      help: 'Enables the GKE Tenant Controller Manager for Multi-Tenancy.',
      ignored: 'the gke-tenant-controller-manager is not part of this cloud-controller-manager',
    },
  },
  {
    // Upstream `cloudInitializer`: klog.Fatal when the deny firewall is enabled without its cleanup.
    validate: (values) =>
      values.enableL4DenyFirewall && !values.enableL4DenyFirewallRollbackCleanup ? ['--enable-l4-deny-firewall requires --enable-l4-deny-firewall-rollback-cleanup to be true'] : [],
  },
);

export const GCE_NODE_IPAM_FLAGS = defineFlagGroup('nodeipam controller', {
  ...nodeIpamFlags({ nodeCidrMaskSize: 0, ignored: NODE_IPAM_NOT_HERE }),
  enableMultiSubnetCluster: {
    name: 'enable-multi-subnet-cluster',
    type: 'bool',
    default: false,
    help: 'Enabled multi-subnet cluster feature. This enables generating updated nodeTopology custom resource. ',
    ignored: NODE_IPAM_NOT_HERE,
  },
  enableMultiNetworking: {
    name: 'enable-multi-networking',
    type: 'bool',
    default: false,
    help: 'Enabled multi-networking related logics such as multi-networking IPAM.',
    ignored: NODE_IPAM_NOT_HERE,
  },
  enableNodeNetworkConfig: {
    name: 'enable-node-network-config',
    type: 'bool',
    default: false,
    help: 'Enabled node network config feature. This enables generating nodeNetworkConfig custom resource for each node.',
    ignored: NODE_IPAM_NOT_HERE,
  },
});

/** The `providers/gce` Go flags that k8s.io/cloud-provider's command shows in its "generic" section. */
export const GCE_LOAD_BALANCER_SOURCE_FLAGS = defineFlagGroup('generic', {
  l4SourceRanges: {
    name: 'cloud-provider-gce-lb-src-cidrs',
    type: 'string',
    valueName: 'cidrs',
    default: L4_HEALTH_CHECK_SOURCE_RANGES.join(','),
    help: 'CIDRs opened in GCE firewall for L4 LB traffic proxy & health checks',
    check: sourceRangesProblem,
  },
  l7SourceRanges: {
    name: 'cloud-provider-gce-l7lb-src-cidrs',
    type: 'string',
    valueName: 'cidrs',
    default: L7_SOURCE_RANGES.join(','),
    help: 'CIDRs opened in GCE firewall for L7 LB traffic proxy & health checks',
    check: sourceRangesProblem,
    ignored: 'only L7 (Ingress) load balancers use it, and this cloud-controller-manager makes none (neither does upstream\'s)',
  },
});

/** Every flag group the GCP binary adds to core's command. */
export const GCP_FLAG_GROUPS = [GCE_CLOUD_PROVIDER_FLAGS, GCE_NODE_IPAM_FLAGS, GCE_LOAD_BALANCER_SOURCE_FLAGS] as const;

/** Upstream `cidrs.Set`: comma-separated, every entry a CIDR (an empty value is refused too). */
export function sourceRangesProblem(value: string): string | undefined {
  const bad = value.split(',').find((entry) => tryParseCidr(entry) === undefined);
  return bad === undefined ? undefined : `invalid CIDR address: ${bad}`;
}

/**
 * The health-check source ranges of `--cloud-provider-gce-lb-src-cidrs`: canonical networks, without
 * duplicates (upstream keeps them in a set), sorted. Call after {@link sourceRangesProblem} passed.
 */
export function parseSourceRanges(value: string): string[] {
  const ranges = new Set<string>();
  for (const entry of value.split(',')) {
    const cidr = tryParseCidr(entry);
    if (cidr === undefined) throw new Error(sourceRangesProblem(value));
    ranges.add(formatCidrAsGo(cidr));
  }
  return [...ranges].sort();
}
