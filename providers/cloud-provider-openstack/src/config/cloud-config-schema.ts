/**
 * The OpenStack cloud-config file (`cloud.conf`, upstream `pkg/openstack/openstack.go` `Config`
 * and `pkg/client/client.go` `AuthOpts`), declared once: the gcfg schema (names, types, defaults,
 * descriptions) plus the support status of every upstream key. The reader, the typed config and
 * the docs table all come from here. Key names are upstream's gcfg names (fields without a tag,
 * such as `username`, `password` and `region`, are matched by field name as gcfg does).
 */
import type { KeyStatus } from '@ccm/core/service-input';
import { defineGcfgSchema } from '@ccm/core/config';

export const ENDPOINT_TYPES = ['public', 'internal', 'admin', 'publicURL', 'internalURL', 'adminURL'] as const;
/** Upstream `supportedLBProvider` (others are accepted with a warning). */
export const SUPPORTED_LB_PROVIDERS = ['amphora', 'octavia', 'ovn'] as const;
/** Upstream `supportedContainerStore` (others are accepted with a warning). */
export const SUPPORTED_CONTAINER_STORES = ['barbican', 'external'] as const;
export const METADATA_SEARCH_SOURCES = ['configDrive', 'metadataService'] as const;
export const DEFAULT_METADATA_SEARCH_ORDER = 'configDrive,metadataService';
export const DEFAULT_INGRESS_HOSTNAME_SUFFIX = 'nip.io';

const lbClassKeys = {
  floatingNetworkId: { type: 'string', name: 'floating-network-id', description: 'External network the floating IPs of this class come from.' },
  floatingSubnetId: { type: 'string', name: 'floating-subnet-id', description: 'Subnet of the floating network the floating IPs of this class come from.' },
  floatingSubnet: { type: 'string', name: 'floating-subnet', description: 'Name pattern of the floating subnets (`name`, glob, `~regex`, `!` negates).' },
  floatingSubnetTags: { type: 'string', name: 'floating-subnet-tags', description: 'Tags of the floating subnets (`a,b` any of, `&a,b` all of, `!` negates).' },
  networkId: { type: 'string', name: 'network-id', description: 'Network of the VIP.' },
  subnetId: { type: 'string', name: 'subnet-id', description: 'Subnet of the VIP.' },
  memberSubnetId: { type: 'string', name: 'member-subnet-id', description: 'Subnet of the members.' },
} as const;

export const OPENSTACK_CLOUD_CONFIG_SCHEMA = defineGcfgSchema({
  global: {
    name: 'Global',
    description: 'How to reach and authenticate to OpenStack (Keystone v3).',
    keys: {
      authUrl: { type: 'string', name: 'auth-url', description: 'Keystone URL, e.g. `https://keystone.example:5000/v3` (a URL without `/v3` gets it appended).' },
      region: { type: 'string', name: 'region', description: 'Region of the service catalog endpoints; also the region label of the nodes.' },
      username: { type: 'string', name: 'username', description: 'User name (with `user-domain-name` or `user-domain-id`).' },
      userId: { type: 'string', name: 'user-id', description: 'User ID (instead of `username`).' },
      password: { type: 'string', name: 'password', description: 'Password of the user.', secret: true },
      tenantId: { type: 'string', name: 'tenant-id', description: 'Project ID to scope the token to.' },
      tenantName: { type: 'string', name: 'tenant-name', description: 'Project name to scope the token to (with `tenant-domain-name`/`-id`, else `domain-name`/`-id`).' },
      tenantDomainId: { type: 'string', name: 'tenant-domain-id', description: 'Domain ID of the project.' },
      tenantDomainName: { type: 'string', name: 'tenant-domain-name', description: 'Domain name of the project.' },
      domainId: { type: 'string', name: 'domain-id', description: 'Domain ID of the user and the project when their own domain keys are not set; alone: a domain-scoped token.' },
      domainName: { type: 'string', name: 'domain-name', description: 'Domain name of the user and the project when their own domain keys are not set; alone: a domain-scoped token.' },
      userDomainId: { type: 'string', name: 'user-domain-id', description: 'Domain ID of the user.' },
      userDomainName: { type: 'string', name: 'user-domain-name', description: 'Domain name of the user.' },
      trustId: { type: 'string', name: 'trust-id', description: 'Trust to scope the token to (trust-scoped authentication).' },
      trusteeId: { type: 'string', name: 'trustee-id', description: 'Trustee user ID (replaces `user-id` with `trust-id`).' },
      trusteePassword: { type: 'string', name: 'trustee-password', description: 'Trustee password (replaces `password` with `trust-id`).', secret: true },
      applicationCredentialId: { type: 'string', name: 'application-credential-id', description: 'Application credential ID (recommended instead of a password).' },
      applicationCredentialName: { type: 'string', name: 'application-credential-name', description: 'Application credential name (with `username` or `user-id`).' },
      applicationCredentialSecret: { type: 'string', name: 'application-credential-secret', description: 'Application credential secret.', secret: true },
      endpointType: { type: 'string', name: 'os-endpoint-type', description: 'Catalog interface of the endpoints.', allowed: ENDPOINT_TYPES, default: 'public' },
      caFile: { type: 'string', name: 'ca-file', description: 'PEM file of the CAs the OpenStack endpoints are verified against.' },
      certFile: { type: 'string', name: 'cert-file', description: 'Client certificate (TLS client authentication; with `key-file`).' },
      keyFile: { type: 'string', name: 'key-file', description: 'Client key (TLS client authentication; with `cert-file`).' },
      tlsInsecure: { type: 'string', name: 'tls-insecure', description: '`true`: do not verify the endpoints\' certificates.', allowed: ['true', 'false'] },
      useClouds: { type: 'bool', name: 'use-clouds', description: 'Fill the keys not set here from a `clouds.yaml` entry.' },
      cloudsFile: { type: 'string', name: 'clouds-file', description: 'The `clouds.yaml` to read (default: `$OS_CLIENT_CONFIG_FILE`, `./clouds.yaml`, `~/.config/openstack/clouds.yaml`, `/etc/openstack/clouds.yaml`).' },
      cloud: { type: 'string', name: 'cloud', description: 'The entry of `clouds.yaml` (default `$OS_CLOUD`, else `openstack`).' },
    },
  },
  networking: {
    name: 'Networking',
    description: 'Which server addresses become node addresses.',
    keys: {
      ipv6SupportDisabled: { type: 'bool', name: 'ipv6-support-disabled', description: 'Drop IPv6 addresses from the node addresses.' },
      publicNetworkName: { type: 'list', name: 'public-network-name', description: 'Networks whose addresses are ExternalIP (repeat the key).' },
      internalNetworkName: { type: 'list', name: 'internal-network-name', description: 'Networks whose addresses are InternalIP; when set, addresses of other (non-public) networks are dropped (repeat the key).' },
      addressSortOrder: { type: 'string', name: 'address-sort-order', description: 'Comma-separated CIDRs: node addresses in these CIDRs come first, in this order (stable otherwise).' },
    },
  },
  loadBalancer: {
    name: 'LoadBalancer',
    description: 'Load balancers on Octavia.',
    keys: {
      enabled: { type: 'bool', name: 'enabled', description: '`false`: no LoadBalancer capability (the service controller does not run).', default: true },
      lbVersion: { type: 'string', name: 'lb-version', description: 'Only `v2` (empty: detect).' },
      useOctavia: { type: 'bool', name: 'use-octavia', description: 'Historic: use the Octavia endpoint (always the case).', default: true },
      subnetId: lbClassKeys.subnetId,
      memberSubnetId: lbClassKeys.memberSubnetId,
      networkId: lbClassKeys.networkId,
      floatingNetworkId: lbClassKeys.floatingNetworkId,
      floatingSubnetId: lbClassKeys.floatingSubnetId,
      floatingSubnet: lbClassKeys.floatingSubnet,
      floatingSubnetTags: lbClassKeys.floatingSubnetTags,
      lbMethod: { type: 'string', name: 'lb-method', description: 'Pool algorithm (`ROUND_ROBIN`, `LEAST_CONNECTIONS`, `SOURCE_IP`, `SOURCE_IP_PORT`).', default: 'ROUND_ROBIN' },
      lbProvider: { type: 'string', name: 'lb-provider', description: 'Octavia provider (`amphora`, `octavia`, `ovn`; others warn).', default: 'amphora' },
      createMonitor: { type: 'bool', name: 'create-monitor', description: 'Create a health monitor per pool.' },
      monitorDelay: { type: 'string', name: 'monitor-delay', description: 'Health monitor delay (Go duration).', default: '5s' },
      monitorTimeout: { type: 'string', name: 'monitor-timeout', description: 'Health monitor timeout (Go duration).', default: '3s' },
      monitorMaxRetries: { type: 'int', name: 'monitor-max-retries', description: 'Health monitor successes to go ONLINE.', default: 1 },
      monitorMaxRetriesDown: { type: 'int', name: 'monitor-max-retries-down', description: 'Health monitor failures to go ERROR.', default: 3 },
      manageSecurityGroups: { type: 'bool', name: 'manage-security-groups', description: 'Create a security group per Service and attach it to the node ports.' },
      internalLb: { type: 'bool', name: 'internal-lb', description: 'Load balancers are internal (no floating IP) unless annotated otherwise.' },
      nodeSelector: { type: 'string', name: 'node-selector', description: 'Nodes that become members: `key=value, key2` (comma-separated).' },
      cascadeDelete: { type: 'bool', name: 'cascade-delete', description: 'Delete load balancers with `?cascade=true`.', default: true },
      flavorId: { type: 'string', name: 'flavor-id', description: 'Octavia flavor of new load balancers.' },
      availabilityZone: { type: 'string', name: 'availability-zone', description: 'Octavia availability zone of new load balancers.' },
      enableIngressHostname: { type: 'bool', name: 'enable-ingress-hostname', description: 'With proxy protocol: report `<ip>.<suffix>` as the ingress hostname.' },
      ingressHostnameSuffix: { type: 'string', name: 'ingress-hostname-suffix', description: 'Suffix of that hostname.', default: DEFAULT_INGRESS_HOSTNAME_SUFFIX },
      defaultTlsContainerRef: { type: 'string', name: 'default-tls-container-ref', description: 'TLS container of TERMINATED_HTTPS listeners.' },
      containerStore: { type: 'string', name: 'container-store', description: 'Where `default-tls-container-ref` lives (`barbican`, `external`).', default: 'barbican' },
      maxSharedLb: { type: 'int', name: 'max-shared-lb', description: 'Services that may share one load balancer.', default: 2 },
      providerRequiresSerialApiCalls: { type: 'bool', name: 'provider-requires-serial-api-calls', description: 'Create listeners, pools and members one call at a time instead of one fully populated create.' },
    },
  },
  loadBalancerClass: {
    name: 'LoadBalancerClass',
    description: 'Named sets of networks and subnets, chosen by the `loadbalancer.openstack.org/class` annotation.',
    subsections: true,
    keys: lbClassKeys,
  },
  route: {
    name: 'Route',
    description: 'Pod routes as extra routes of a Neutron router.',
    keys: {
      routerId: { type: 'string', name: 'router-id', description: 'The router; unset: no Routes capability.' },
    },
  },
  metadata: {
    name: 'Metadata',
    description: 'The instance metadata sources.',
    keys: {
      searchOrder: { type: 'string', name: 'search-order', description: 'Comma-separated `configDrive`, `metadataService`.', default: DEFAULT_METADATA_SEARCH_ORDER },
      requestTimeout: { type: 'string', name: 'request-timeout', description: 'Timeout of every OpenStack request (Go duration; `0`/unset: 60 s).' },
    },
  },
});

export type OpenStackCloudConfigSchema = typeof OPENSTACK_CLOUD_CONFIG_SCHEMA;
type Sections = OpenStackCloudConfigSchema['sections'];
export type SectionProperty = keyof Sections;
type KeysOf<S extends SectionProperty> = keyof Sections[S]['keys'];

/** Status of a key (core's one vocabulary), with a note. */
export type { KeyStatus } from '@ccm/core/service-input';

const supported: KeyStatus = { status: 'supported' };
const lbOwned = (note?: string): KeyStatus => (note === undefined ? { status: 'supported', note: 'Used by the Octavia load balancer.' } : { status: 'supported', note });

/** Support status of every upstream key; the compiler insists every declared key has one. */
export const KEY_STATUS: { readonly [S in SectionProperty]: Readonly<Record<KeysOf<S>, KeyStatus>> } = {
  global: {
    authUrl: { status: 'supported', note: 'Required (here or in `clouds.yaml`).' },
    region: { status: 'supported', note: 'Required (here or in `clouds.yaml`).' },
    username: supported,
    userId: supported,
    password: supported,
    tenantId: supported,
    tenantName: supported,
    tenantDomainId: supported,
    tenantDomainName: supported,
    domainId: supported,
    domainName: supported,
    userDomainId: supported,
    userDomainName: supported,
    trustId: supported,
    trusteeId: supported,
    trusteePassword: supported,
    applicationCredentialId: supported,
    applicationCredentialName: supported,
    applicationCredentialSecret: supported,
    endpointType: { status: 'supported', note: '`publicURL`-style names are read as their v3 interface.' },
    caFile: supported,
    certFile: supported,
    keyFile: supported,
    tlsInsecure: supported,
    useClouds: { status: 'supported', note: 'Keys set in this file win over `clouds.yaml`, as upstream.' },
    cloudsFile: supported,
    cloud: supported,
  },
  networking: {
    ipv6SupportDisabled: supported,
    publicNetworkName: supported,
    internalNetworkName: supported,
    addressSortOrder: supported,
  },
  loadBalancer: {
    enabled: supported,
    lbVersion: { status: 'supported', note: 'Anything but `v2` turns the load balancer off, as upstream.' },
    useOctavia: { status: 'accepted-and-ignored', note: 'Octavia is always used (Neutron LBaaS is gone).' },
    subnetId: lbOwned(),
    memberSubnetId: lbOwned(),
    networkId: lbOwned(),
    floatingNetworkId: lbOwned(),
    floatingSubnetId: lbOwned(),
    floatingSubnet: { status: 'accepted-and-ignored', note: 'logged as a warning; floating subnets are not chosen by name pattern; use floating-subnet-id.' },
    floatingSubnetTags: { status: 'accepted-and-ignored', note: 'logged as a warning; floating subnets are not chosen by tags; use floating-subnet-id.' },
    lbMethod: lbOwned(),
    lbProvider: lbOwned('The Octavia provider of new load balancers; `octavia` is sent as `amphora`.'),
    createMonitor: lbOwned(),
    monitorDelay: lbOwned(),
    monitorTimeout: lbOwned(),
    monitorMaxRetries: lbOwned(),
    monitorMaxRetriesDown: lbOwned(),
    manageSecurityGroups: lbOwned('A security group `lb-sg-<uid>-<namespace>-<name>` per Service opens its node ports to the members\' subnet (OVN: to the source ranges) and is attached to the member nodes\' ports; off, a Service\'s group is detached and deleted at its next sync.'),
    internalLb: lbOwned(),
    nodeSelector: lbOwned(),
    cascadeDelete: lbOwned(),
    flavorId: lbOwned(),
    availabilityZone: lbOwned(),
    enableIngressHostname: lbOwned(),
    ingressHostnameSuffix: lbOwned(),
    defaultTlsContainerRef: { status: 'accepted-and-ignored', note: 'logged as a warning; no Barbican, no TERMINATED_HTTPS listeners.' },
    containerStore: { status: 'accepted-and-ignored', note: 'no TLS containers are used.' },
    maxSharedLb: { status: 'accepted-and-ignored', note: 'load balancers are not shared between Services (the load-balancer-id annotation may only name the load balancer of the Service itself).' },
    providerRequiresSerialApiCalls: lbOwned('Used by the Octavia load balancer: created empty, then listeners, pools, members (one by one) and monitors; needed with the noop-driver Octavia of the test services (docs/testing.md).'),
  },
  loadBalancerClass: {
    floatingNetworkId: { status: 'accepted-and-ignored', note: 'logged as a warning; [LoadBalancerClass] sections and the class annotation are not implemented.' },
    floatingSubnetId: { status: 'accepted-and-ignored', note: 'logged as a warning; [LoadBalancerClass] sections and the class annotation are not implemented.' },
    floatingSubnet: { status: 'accepted-and-ignored', note: 'logged as a warning; [LoadBalancerClass] sections and the class annotation are not implemented.' },
    floatingSubnetTags: { status: 'accepted-and-ignored', note: 'logged as a warning; [LoadBalancerClass] sections and the class annotation are not implemented.' },
    networkId: { status: 'accepted-and-ignored', note: 'logged as a warning; [LoadBalancerClass] sections and the class annotation are not implemented.' },
    subnetId: { status: 'accepted-and-ignored', note: 'logged as a warning; [LoadBalancerClass] sections and the class annotation are not implemented.' },
    memberSubnetId: { status: 'accepted-and-ignored', note: 'logged as a warning; [LoadBalancerClass] sections and the class annotation are not implemented.' },
  },
  route: {
    routerId: supported,
  },
  metadata: {
    searchOrder: { status: 'supported', note: 'Validated as upstream; the CCM itself never reads instance metadata (upstream: used by the CSI node plugin).' },
    requestTimeout: supported,
  },
};
