import { clusterCidrValue, positiveDuration } from './flag-checks.js';
import { defineFlagGroup } from './flag-definition.js';
import { parseGoBool } from '../../util/parse-go-bool.js';

/** Upstream `generic` section, cloud part (options/kubecloudshared.go, cloudprovider.go, the feature gates). */
export const kubeCloudSharedFlags = defineFlagGroup('generic', {
  cloudProvider: {
    name: 'cloud-provider',
    type: 'string',
    default: '',
    help: 'The provider for cloud services. Empty string for no provider.',
  },
  cloudConfig: {
    name: 'cloud-config',
    type: 'string',
    default: '',
    help: 'The path to the cloud provider configuration file. Empty string for no configuration file.',
  },
  externalCloudVolumePlugin: {
    name: 'external-cloud-volume-plugin',
    type: 'string',
    default: '',
    help: 'The plugin to use when cloud provider is set to external. Can be empty, should only be set when cloud-provider is external. Currently used to allow node-ipam-controller, persistentvolume-binder-controller, persistentvolume-expander-controller and attach-detach-controller to work for in tree cloud providers.',
    ignored: 'only kube-controller-manager uses it',
  },
  useServiceAccountCredentials: {
    name: 'use-service-account-credentials',
    type: 'bool',
    default: false,
    help: 'If true, use individual service account credentials for each controller.',
    ignored: 'per-controller service account tokens are not implemented; every controller uses the credentials of --kubeconfig (or the pod)',
  },
  allowUntaggedCloud: {
    name: 'allow-untagged-cloud',
    type: 'bool',
    default: false,
    help: 'Allow the cluster to run without the cluster-id on cloud instances. This is a legacy mode of operation and a cluster-id will be required in the future.',
    deprecated: 'This flag is deprecated and will be removed in a future release. A cluster-id will be required on cloud instances.',
  },
  routeReconciliationPeriodMs: {
    name: 'route-reconciliation-period',
    type: 'duration',
    default: 10_000,
    check: positiveDuration,
    help: 'The period for reconciling routes created for Nodes by cloud provider.',
  },
  nodeMonitorPeriodMs: {
    name: 'node-monitor-period',
    type: 'duration',
    default: 5_000,
    check: positiveDuration,
    help: 'The period for syncing NodeStatus in cloud-node-lifecycle-controller.',
  },
  clusterName: {
    name: 'cluster-name',
    type: 'string',
    default: 'kubernetes',
    help: 'The instance prefix for the cluster.',
  },
  clusterCidr: {
    name: 'cluster-cidr',
    type: 'string',
    default: '',
    check: clusterCidrValue,
    help: 'CIDR Range for Pods in cluster. Only used when --allocate-node-cidrs=true; if false, this option will be ignored.',
  },
  allocateNodeCidrs: {
    name: 'allocate-node-cidrs',
    type: 'bool',
    default: false,
    help: 'Should CIDRs for Pods be allocated and set on the cloud provider.',
  },
  cidrAllocatorType: {
    name: 'cidr-allocator-type',
    type: 'string',
    default: 'RangeAllocator',
    help: 'Type of CIDR allocator to use',
    ignored: 'node IPAM is not part of this cloud-controller-manager',
  },
  configureCloudRoutes: {
    name: 'configure-cloud-routes',
    type: 'bool',
    default: true,
    help: 'Should CIDRs allocated by allocate-node-cidrs be configured on the cloud provider.',
  },
  nodeSyncPeriodMs: {
    name: 'node-sync-period',
    type: 'duration',
    default: 0,
    help: "This flag is deprecated and will be removed in future releases. See node-monitor-period for Node health checking or route-reconciliation-period for cloud provider's route configuration settings.",
    deprecated: 'This flag is currently no-op and will be deleted.',
  },
  featureGates: {
    name: 'feature-gates',
    type: 'stringList',
    valueName: 'mapStringBool',
    default: [],
    help: 'A set of key=value pairs that describe feature gates for alpha/experimental features.',
    ignored: 'no feature gate changes the behaviour of this cloud-controller-manager',
    check(entries) {
      for (const entry of entries) {
        const equals = entry.indexOf('=');
        if (equals <= 0) return `missing bool value for ${entry}`;
        if (parseGoBool(entry.slice(equals + 1).trim()) === undefined) return `invalid value of ${entry.slice(0, equals)}=${entry.slice(equals + 1)}, err: strconv.ParseBool`;
      }
      return undefined;
    },
  },
});
