/**
 * The flags upstream's Azure cloud-controller-manager has beyond k8s.io/cloud-provider's common set
 * (kubernetes-sigs/cloud-provider-azure `cmd/cloud-controller-manager/app`, docs/parity.md "Azure"):
 * - `options/dynamic.go` `DynamicReloadingOptions.AddFlags`, section "dynamic reloading";
 * - `options/nodeipamcontroller.go` `NodeIPAMControllerOptions.AddFlags`, section "node ipam controller";
 * - `options/options.go` `Flags`, section "node filtering";
 * - `pkg/log` `BindCLIFlags` (`--log-format`), bound by `controllermanager.go`.
 * Defaults and help texts are upstream's. `--node-instance-not-found-grace-period-in-seconds` is
 * implemented; `--node-filter-requirements` is refused unless empty (ignoring it would manage every
 * node); the others are accepted with no effect (logged when set away from their default, and
 * listed as ignored in the generated docs).
 */
import { defineFlagGroup, nodeIpamFlags } from '@ccm/core/app';

const NODE_IPAM_NOT_HERE = 'node IPAM (the node-ipam controller) is not part of this cloud-controller-manager';
const NO_DYNAMIC_RELOADING =
  'the cloud config is read from --cloud-config at start-up (restart the pod to apply a change; the connection keys follow the azure-cloud-provider Secret as cloudConfigType says); it is never read from the Secret these flags name';

export const AZURE_DYNAMIC_RELOADING_FLAGS = defineFlagGroup('dynamic reloading', {
  enableDynamicReloading: {
    name: 'enable-dynamic-reloading',
    type: 'bool',
    default: false,
    help: 'Enable re-configuring cloud controller manager from secret without restarting',
    ignored: NO_DYNAMIC_RELOADING,
  },
  cloudConfigSecretName: {
    name: 'cloud-config-secret-name',
    type: 'string',
    default: 'cloud-provider-config',
    help: "The name of the cloud config secret, default to 'cloud-provider-config'",
    ignored: NO_DYNAMIC_RELOADING,
  },
  cloudConfigSecretNamespace: {
    name: 'cloud-config-secret-namespace',
    type: 'string',
    default: 'kube-system',
    help: "The k8s namespace of the cloud config secret, default to 'kube-system'",
    ignored: NO_DYNAMIC_RELOADING,
  },
  cloudConfigKey: {
    name: 'cloud-config-key',
    type: 'string',
    default: 'cloud-config',
    help: "The key of the config data in the cloud config secret, default to 'cloud-config'",
    ignored: NO_DYNAMIC_RELOADING,
  },
});

export const AZURE_NODE_IPAM_FLAGS = defineFlagGroup('node ipam controller', {
  ...nodeIpamFlags({ nodeCidrMaskSize: 24, ignored: NODE_IPAM_NOT_HERE }),
});

export const AZURE_NODE_FILTERING_FLAGS = defineFlagGroup('node filtering', {
  nodeFilterRequirements: {
    name: 'node-filter-requirements',
    type: 'string',
    default: '',
    help: "Label selector for nodes to be managed by CCM (e.g., 'foo=bar' or 'foo in (bar,baz)')",
    check: (value) => (value === '' ? undefined : 'is not supported: this cloud-controller-manager cannot restrict itself to a subset of the nodes, and ignoring the selector would manage every node'),
    ignored: 'only the empty value is accepted; a selector stops the command at start-up (the informers are not filtered)',
  },
  nodeInstanceNotFoundGracePeriodSeconds: {
    name: 'node-instance-not-found-grace-period-in-seconds',
    type: 'int',
    default: 0,
    minimum: 0,
    help: "Grace period in seconds, measured from a node's creation timestamp, during which a node whose backing VM/VMSS instance is not yet visible in ARM is still reported as existing to avoid premature deletion. Defaults to 0 (disabled).",
  },
});

export const AZURE_LOG_FLAGS = defineFlagGroup('logging', {
  logFormat: {
    name: 'log-format',
    type: 'string',
    default: 'text',
    help: 'The log format to use. One of: text, json.',
    check: (value) => (value === 'text' || value === 'json' ? undefined : 'must be one of: text, json'),
    ignored: 'the log format is set by --logging-format (text or json)',
  },
});

/** Every flag group the Azure binary adds to core's command. */
export const AZURE_FLAG_GROUPS = [AZURE_DYNAMIC_RELOADING_FLAGS, AZURE_NODE_IPAM_FLAGS, AZURE_NODE_FILTERING_FLAGS, AZURE_LOG_FLAGS] as const;
