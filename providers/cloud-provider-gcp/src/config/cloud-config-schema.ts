/**
 * The GCE cloud-config file (`gce.conf`, upstream `providers/gce/gce.go` `ConfigGlobal`), declared
 * once: the gcfg schema (names, types, defaults, descriptions) plus the support status of every
 * upstream key. The docs table is generated from both.
 */
import type { KeyStatus } from '@ccm/core/service-input';
import { defineGcfgSchema } from '@ccm/core/config';

/** `token-url = nil`: Application Default Credentials instead of an alternate token source. */
export const TOKEN_URL_NIL = 'nil';
export const DEFAULT_API_ENDPOINT = 'https://compute.googleapis.com/compute/v1/';
export const STACK_TYPES = ['', 'IPV4', 'IPV6', 'IPV4_IPV6'] as const;
export const ALPHA_FEATURES = ['ILBSubsets', 'SkipIGsManagement', 'ILBCustomSubnet', 'NetLBRbs'] as const;

export const GCE_CLOUD_CONFIG_SCHEMA = defineGcfgSchema({
  global: {
    name: 'global',
    description: 'The only section of gce.conf.',
    keys: {
      tokenUrl: {
        type: 'string',
        name: 'token-url',
        description: 'Alternate token source: `token-body` is POSTed to this URL and `{"accessToken","expireTime"}` read back. `nil`: Application Default Credentials.',
      },
      tokenBody: { type: 'string', name: 'token-body', description: 'Body of the `token-url` POST.', secret: true },
      projectId: { type: 'string', name: 'project-id', description: 'The project of the cluster. Default: the metadata server\'s `project/project-id`.' },
      networkProjectId: { type: 'string', name: 'network-project-id', description: 'Project that owns the network (shared VPC): firewalls, routes, networks and subnetworks go there. Default: `project-id`.' },
      networkName: { type: 'string', name: 'network-name', description: 'Network name or URL (contains `/`). Default: the metadata server\'s `instance/network-interfaces/0/network`.' },
      subnetworkName: { type: 'string', name: 'subnetwork-name', description: 'Subnetwork name or URL.' },
      secondaryRangeName: { type: 'string', name: 'secondary-range-name', description: 'Deprecated alias-range name for IPAM.', deprecated: 'deprecated upstream; used only by the alias IPAM' },
      nodeTags: { type: 'list', name: 'node-tags', description: 'Network tags used as the `targetTags` of firewalls (repeat the key). Default: per host, the longest instance tag that is a prefix of its name.' },
      nodeInstancePrefix: { type: 'string', name: 'node-instance-prefix', description: 'Prefix of the node instance names (upstream filters instance lists with it).' },
      regional: { type: 'bool', name: 'regional', description: 'Regional cluster: every zone of the region is managed.' },
      multizone: { type: 'bool', name: 'multizone', description: 'Every zone of the region is managed.' },
      apiEndpoint: { type: 'string', name: 'api-endpoint', description: 'Compute API base, e.g. `http://127.0.0.1:8080/compute/v1/` (its path must end in `/compute/v1/`, optionally followed by `projects/`).', default: DEFAULT_API_ENDPOINT },
      containerApiEndpoint: { type: 'string', name: 'container-api-endpoint', description: 'GKE container API base (upstream Clusters interface).' },
      localZone: { type: 'string', name: 'local-zone', description: 'The zone the CCM runs in; the region is this zone without its last `-x` part. Default: the metadata server\'s `instance/zone`.' },
      alphaFeatures: { type: 'list', name: 'alpha-features', description: 'Upstream alpha gates (`ILBSubsets`, `SkipIGsManagement`, ...).' },
      stackType: { type: 'string', name: 'stack-type', description: '`IPV4`, `IPV6` or `IPV4_IPV6`: with `IPV6` node addresses list IPv6 first.', allowed: STACK_TYPES },
    },
  },
});

export type GceCloudConfigSchema = typeof GCE_CLOUD_CONFIG_SCHEMA;
type GlobalKeys = keyof GceCloudConfigSchema['sections']['global']['keys'];

/** Status of a key (core's one vocabulary), with a note. */
export type { KeyStatus } from '@ccm/core/service-input';

/** Support status of every upstream key; the compiler insists every declared key has one. */
export const GLOBAL_KEY_STATUS: Readonly<Record<GlobalKeys, KeyStatus>> = {
  tokenUrl: { status: 'supported', note: 'The POST carries no credential of its own (upstream authenticates it with the metadata-server token); unset or `nil`: Application Default Credentials (google-auth-library).' },
  tokenBody: { status: 'supported' },
  projectId: { status: 'supported', note: 'Unset: read with `local-zone` from the metadata server (`GCE_METADATA_HOST` or metadata.google.internal), as upstream. A project number is used as given (upstream turns it into the name with `projects.get`).' },
  networkProjectId: { status: 'supported' },
  networkName: { status: 'supported', note: 'Unset: read from the metadata server, as upstream.' },
  subnetworkName: { status: 'supported', note: 'The subnetwork of internal load balancer VIPs (and of the instance groups\' nodes, see `cloud.google.com/gke-node-pool-subnet`). Not auto-detected: without it internal forwarding rules carry no subnetwork.' },
  secondaryRangeName: { status: 'not-supported', note: 'Only used by the alias IPAM (node-ipam controller), which this CCM does not ship.' },
  nodeTags: { status: 'supported' },
  nodeInstancePrefix: { status: 'supported', note: 'Accepted; host lookups filter by exact node names, so the prefix filter is not needed.' },
  regional: { status: 'supported' },
  multizone: { status: 'supported' },
  apiEndpoint: { status: 'supported' },
  containerApiEndpoint: { status: 'not-supported', note: 'The Clusters interface (GKE container API) is not offered.' },
  localZone: { status: 'supported', note: 'Unset: read with `project-id` from the metadata server, as upstream.' },
  alphaFeatures: { status: 'supported', note: '`ILBSubsets`: new internal load balancers (no forwarding rule, no `gke.networking.io/l4-ilb-v1` finalizer, not the legacy internal class) are left to another controller. `SkipIGsManagement`, `ILBCustomSubnet`, `NetLBRbs` are accepted and ignored.' },
  stackType: { status: 'supported' },
};
