/**
 * Every cloud-config key of the vSphere provider, declared once: its YAML and INI names, type,
 * default, environment variable, status and description. The YAML reader, the INI schema (core
 * gcfg), the environment overrides and docs/cloud-controller-manager.md all come from here.
 *
 * Names follow upstream cloud-provider-vsphere: YAML keys are camelCase under `global`,
 * `vcenter.<name>`, `labels` and `nodes`; INI keys are kebab-case under `[Global]`,
 * `[VirtualCenter "<name>"]`, `[Labels]` and `[Nodes]`.
 */
import type { InputStatus } from '@ccm/core/service-input';

export type ConfigKeyType = 'string' | 'boolean' | 'integer' | 'list';

/**
 * - `supported`: read and used (with `deprecated`: a warning points to the replacement);
 * - `accepted-and-ignored`: accepted for compatibility with upstream files, has no effect (a
 *   warning says so).
 * (Core's one status vocabulary, `@ccm/core/service-input`.)
 */
export type ConfigKeyStatus = Extract<InputStatus, 'supported' | 'accepted-and-ignored'>;

export interface ConfigKeySpec {
  /** YAML key (camelCase). */
  yaml: string;
  /** INI key (kebab-case). */
  ini: string;
  type: ConfigKeyType;
  /** Shown in the docs; applied when nothing (file, environment, inheritance) sets the key. */
  default?: string | number | boolean | readonly string[];
  /**
   * Environment override. Global keys: the variable name (`VSPHERE_USER`). vCenter keys: the
   * suffix of `VCENTER_<id>_<suffix>` for vCenters declared with `VSPHERE_VCENTER_<id>`.
   */
  env?: string;
  status: ConfigKeyStatus;
  /** Used, with a warning that `note` names the replacement. */
  deprecated?: boolean;
  /** Why ignored / what replaces it. */
  note?: string;
  /** Passwords: never echoed in messages or logs. */
  secret?: boolean;
  /** In INI a list is one comma-separated value (`datacenters = dc1,dc2`). */
  description: string;
}

export interface ConfigSectionSpec {
  yaml: string;
  ini: string;
  /** `vcenter: {<name>: {...}}` / `[VirtualCenter "<name>"]`: repeated, keyed by name. */
  named?: boolean;
  /** `not-supported` sections (NSX-T) are recognised and reported, never read. */
  status: Extract<InputStatus, 'supported' | 'not-supported'>;
  description: string;
  keys: Readonly<Record<string, ConfigKeySpec>>;
}

const connectionKeys = {
  user: {
    yaml: 'user',
    ini: 'user',
    type: 'string',
    status: 'supported',
    description: 'vCenter user name. Not needed when the credentials come from a Secret or a secrets directory.',
  },
  password: {
    yaml: 'password',
    ini: 'password',
    type: 'string',
    status: 'supported',
    secret: true,
    description: 'vCenter password in clear text. Prefer a Secret (`secretName`/`secretNamespace`).',
  },
  port: {
    yaml: 'port',
    ini: 'port',
    type: 'integer',
    default: 443,
    status: 'supported',
    description: 'vCenter HTTPS port.',
  },
  insecureFlag: {
    yaml: 'insecureFlag',
    ini: 'insecure-flag',
    type: 'boolean',
    default: false,
    status: 'supported',
    description: 'Do not verify the vCenter certificate (self-signed certificates). Prefer `caFile` or `thumbprint`.',
  },
  datacenters: {
    yaml: 'datacenters',
    ini: 'datacenters',
    type: 'list',
    status: 'supported',
    description: 'Datacenters (names or inventory paths such as `/folder/dc`) searched for node VMs; empty means every datacenter of the vCenter.',
  },
  soapRoundtripCount: {
    yaml: 'soapRoundtripCount',
    ini: 'soap-roundtrip-count',
    type: 'integer',
    default: 3,
    status: 'supported',
    description: 'Attempts per vCenter call when the connection fails transiently (retries = count - 1).',
  },
  caFile: {
    yaml: 'caFile',
    ini: 'ca-file',
    type: 'string',
    status: 'supported',
    description: 'PEM file with the CA certificate(s) that signed the vCenter certificate; default the system CAs.',
  },
  thumbprint: {
    yaml: 'thumbprint',
    ini: 'thumbprint',
    type: 'string',
    status: 'supported',
    description: 'SHA-1 (or SHA-256) thumbprint of the vCenter certificate (`AB:CD:...`); the certificate is then accepted whoever signed it.',
  },
  secretName: {
    yaml: 'secretName',
    ini: 'secret-name',
    type: 'string',
    status: 'supported',
    description: 'Secret holding the credentials as `<server>.username` / `<server>.password` (or `server_<x>`, `username_<x>`, `password_<x>`). Watched: a rotated password is used without a restart.',
  },
  secretNamespace: {
    yaml: 'secretNamespace',
    ini: 'secret-namespace',
    type: 'string',
    status: 'supported',
    description: 'Namespace of `secretName`.',
  },
  ipFamily: {
    yaml: 'ipFamily',
    ini: 'ip-family',
    type: 'list',
    default: ['ipv4'],
    status: 'supported',
    description: 'IP families of node addresses, in priority order: `ipv4`, `ipv6`. Two families (dual stack) need the environment variable `ENABLE_ALPHA_DUAL_STACK`.',
  },
} as const satisfies Record<string, ConfigKeySpec>;

export const VSPHERE_CONFIG_SECTIONS = {
  global: {
    yaml: 'global',
    ini: 'Global',
    status: 'supported',
    description: 'Defaults for every vCenter, and the deprecated single-vCenter form (`server`).',
    keys: {
      user: { ...connectionKeys.user, env: 'VSPHERE_USER' },
      password: { ...connectionKeys.password, env: 'VSPHERE_PASSWORD' },
      server: {
        yaml: 'server',
        ini: 'server',
        type: 'string',
        env: 'VSPHERE_VCENTER',
        status: 'supported',
        deprecated: true,
        note: 'declare vCenters in the vcenter section / [VirtualCenter "<server>"] sections',
        description: 'A single vCenter (host name or IP) configured from the global values.',
      },
      port: { ...connectionKeys.port, env: 'VSPHERE_VCENTER_PORT' },
      insecureFlag: { ...connectionKeys.insecureFlag, env: 'VSPHERE_INSECURE' },
      datacenters: { ...connectionKeys.datacenters, env: 'VSPHERE_DATACENTER' },
      soapRoundtripCount: { ...connectionKeys.soapRoundtripCount, env: 'VSPHERE_ROUNDTRIP_COUNT' },
      caFile: { ...connectionKeys.caFile, env: 'VSPHERE_CAFILE' },
      thumbprint: { ...connectionKeys.thumbprint, env: 'VSPHERE_THUMBPRINT' },
      secretName: { ...connectionKeys.secretName, env: 'VSPHERE_SECRET_NAME' },
      secretNamespace: { ...connectionKeys.secretNamespace, env: 'VSPHERE_SECRET_NAMESPACE' },
      secretsDirectory: {
        yaml: 'secretsDirectory',
        ini: 'secrets-directory',
        type: 'string',
        env: 'VSPHERE_SECRETS_DIRECTORY',
        status: 'supported',
        description:
          'A mounted directory with one file per credential key (`<server>.username`, `<server>.password`), read at every login. Defaults to `/etc/cloud/secrets` when that path exists (upstream); a default directory does not replace `user`/`password` set in the config. Wins over a global `secretName`/`secretNamespace` (which is then ignored with a warning, as upstream); a vCenter\'s own Secret wins over it.',
      },
      apiDisable: {
        yaml: 'apiDisable',
        ini: 'api-disable',
        type: 'boolean',
        default: true,
        status: 'accepted-and-ignored',
        note: 'upstream gRPC node API, not part of this port',
        description: 'Disables the upstream CPI gRPC API.',
      },
      apiBinding: {
        yaml: 'apiBinding',
        ini: 'api-binding',
        type: 'string',
        default: ':43001',
        status: 'accepted-and-ignored',
        note: 'upstream gRPC node API, not part of this port',
        description: 'Listen address of the upstream CPI gRPC API.',
      },
      ipFamily: connectionKeys.ipFamily,
    },
  },
  vcenter: {
    yaml: 'vcenter',
    ini: 'VirtualCenter',
    named: true,
    status: 'supported',
    description:
      'One entry per vCenter, keyed by a name (the tenant reference; also the server when `server` is not set). Unset keys inherit from `global`. From the environment: `VSPHERE_VCENTER_<id>=<name>` plus `VCENTER_<id>_<KEY>` variables.',
    keys: {
      server: {
        yaml: 'server',
        ini: 'server',
        type: 'string',
        env: 'SERVER',
        status: 'supported',
        description: 'vCenter host name or IP; default the entry name.',
      },
      user: { ...connectionKeys.user, env: 'USERNAME' },
      password: { ...connectionKeys.password, env: 'PASSWORD' },
      port: { ...connectionKeys.port, env: 'PORT' },
      insecureFlag: { ...connectionKeys.insecureFlag, env: 'INSECURE' },
      datacenters: { ...connectionKeys.datacenters, env: 'DATACENTERS' },
      soapRoundtripCount: { ...connectionKeys.soapRoundtripCount, env: 'ROUNDTRIP' },
      caFile: { ...connectionKeys.caFile, env: 'CAFILE' },
      thumbprint: { ...connectionKeys.thumbprint, env: 'THUMBPRINT' },
      secretName: { ...connectionKeys.secretName, env: 'SECRET_NAME' },
      secretNamespace: { ...connectionKeys.secretNamespace, env: 'SECRET_NAMESPACE' },
      ipFamily: { ...connectionKeys.ipFamily, env: 'IP_FAMILY' },
    },
  },
  labels: {
    yaml: 'labels',
    ini: 'Labels',
    status: 'supported',
    description:
      'vSphere tag categories that give nodes their zone and region. The tag of that category found on the VM host or its ancestors (cluster, folders, datacenter) names the zone/region. As upstream, both `zone` and `region` must be set for either to take effect (one alone is ignored with a warning); when a tag of either category is not found, the node is not initialized.',
    keys: {
      zone: { yaml: 'zone', ini: 'zone', type: 'string', env: 'VSPHERE_LABEL_ZONE', status: 'supported', description: 'Tag category of zones (`topology.kubernetes.io/zone`).' },
      region: { yaml: 'region', ini: 'region', type: 'string', env: 'VSPHERE_LABEL_REGION', status: 'supported', description: 'Tag category of regions (`topology.kubernetes.io/region`).' },
    },
  },
  nodes: {
    yaml: 'nodes',
    ini: 'Nodes',
    status: 'supported',
    description:
      'Node address selection among the VM guest IPs, per IP family: excluded subnets are dropped, then an IP in the internal/external subnet wins, then one on the internal/external VM network, else the first IP is both InternalIP and ExternalIP.',
    keys: {
      internalNetworkSubnetCidr: {
        yaml: 'internalNetworkSubnetCidr',
        ini: 'internal-network-subnet-cidr',
        type: 'string',
        status: 'supported',
        description: 'Comma-separated CIDRs; the first guest IP inside one becomes the InternalIP.',
      },
      externalNetworkSubnetCidr: {
        yaml: 'externalNetworkSubnetCidr',
        ini: 'external-network-subnet-cidr',
        type: 'string',
        status: 'supported',
        description: 'Comma-separated CIDRs; the first guest IP inside one becomes the ExternalIP.',
      },
      internalVmNetworkName: {
        yaml: 'internalVmNetworkName',
        ini: 'internal-vm-network-name',
        type: 'string',
        status: 'supported',
        description: 'VM network (port group) name whose first IP becomes the InternalIP (case-insensitive).',
      },
      externalVmNetworkName: {
        yaml: 'externalVmNetworkName',
        ini: 'external-vm-network-name',
        type: 'string',
        status: 'supported',
        description: 'VM network (port group) name whose first IP becomes the ExternalIP (case-insensitive).',
      },
      excludeInternalNetworkSubnetCidr: {
        yaml: 'excludeInternalNetworkSubnetCidr',
        ini: 'exclude-internal-network-subnet-cidr',
        type: 'string',
        status: 'supported',
        description: 'Comma-separated CIDRs never used for the InternalIP.',
      },
      excludeExternalNetworkSubnetCidr: {
        yaml: 'excludeExternalNetworkSubnetCidr',
        ini: 'exclude-external-network-subnet-cidr',
        type: 'string',
        status: 'supported',
        description: 'Comma-separated CIDRs never used for the ExternalIP.',
      },
    },
  },
  nsxt: {
    yaml: 'nsxt',
    ini: 'NSXT',
    status: 'not-supported',
    description: 'NSX-T connection for load balancers and routes. Not implemented by this port: LoadBalancer and Routes are unsupported.',
    keys: {},
  },
  loadBalancer: {
    yaml: 'loadBalancer',
    ini: 'LoadBalancer',
    status: 'not-supported',
    description: 'NSX-T load balancer settings. Not implemented by this port.',
    keys: {},
  },
  loadBalancerClass: {
    yaml: 'loadBalancerClass',
    ini: 'LoadBalancerClass',
    named: true,
    status: 'not-supported',
    description: 'NSX-T load balancer classes. Not implemented by this port.',
    keys: {},
  },
  route: {
    yaml: 'route',
    ini: 'Route',
    status: 'not-supported',
    description: 'NSX-T routes (`routerPath`). Not implemented by this port.',
    keys: {},
  },
} as const satisfies Record<string, ConfigSectionSpec>;

export type VsphereConfigSections = typeof VSPHERE_CONFIG_SECTIONS;
export type SectionId = keyof VsphereConfigSections;
export type GlobalKey = keyof VsphereConfigSections['global']['keys'];
export type VcenterKey = keyof VsphereConfigSections['vcenter']['keys'];
export type LabelsKey = keyof VsphereConfigSections['labels']['keys'];
export type NodesKey = keyof VsphereConfigSections['nodes']['keys'];

/** Environment variables read outside the config keys. */
export const VSPHERE_ENVIRONMENT_SWITCHES = {
  SKIP_NODE_DELETION: 'When present, whatever its value (even empty; upstream checks presence only), a node whose VM is not found is never reported as gone: InstanceExists fails instead, so the node is not deleted.',
  ENABLE_ALPHA_DUAL_STACK: 'When present, whatever its value (even empty; upstream checks presence only), allows two IP families in `ipFamily` (dual stack).',
  'VSPHERE_VCENTER_<id>': 'Declares a vCenter named by its value; `VCENTER_<id>_<KEY>` variables set its keys (see the vcenter section).',
} as const;

export function sectionSpec(id: SectionId): ConfigSectionSpec {
  return VSPHERE_CONFIG_SECTIONS[id];
}
