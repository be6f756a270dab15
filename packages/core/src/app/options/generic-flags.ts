import { DEFAULT_LEASE_NAME, DEFAULT_LEASE_NAMESPACE } from '../../api/well-known.js';
import { DEFAULT_LEASE_DURATION_MS, DEFAULT_RENEW_DEADLINE_MS, DEFAULT_RETRY_PERIOD_MS } from '../../kube/leader-election.js';
import { nonNegativeDuration } from './flag-checks.js';
import { defineFlagGroup } from './flag-definition.js';

/**
 * Upstream `generic` section, controller-manager part (options/generic.go and the leader
 * election bindings). The KubeCloudShared part of the same section is in kube-cloud-shared-flags.ts.
 */
export const genericFlags = defineFlagGroup('generic', {
  minResyncPeriodMs: {
    name: 'min-resync-period',
    type: 'duration',
    default: 12 * 3_600_000,
    help: 'The resync period in reflectors will be random between MinResyncPeriod and 2*MinResyncPeriod.',
  },
  kubeApiContentType: {
    name: 'kube-api-content-type',
    type: 'string',
    default: 'application/vnd.kubernetes.protobuf',
    help: 'Content type of requests sent to apiserver.',
    ignored: 'the Kubernetes client used here speaks JSON only',
  },
  kubeApiQps: {
    name: 'kube-api-qps',
    type: 'float',
    valueName: 'float32',
    default: 20,
    help: 'QPS to use while talking with kubernetes apiserver.',
  },
  kubeApiBurst: {
    name: 'kube-api-burst',
    type: 'int',
    valueName: 'int32',
    minimum: -2_147_483_648,
    maximum: 2_147_483_647,
    default: 30,
    help: 'Burst to use while talking with kubernetes apiserver.',
  },
  controllerStartIntervalMs: {
    name: 'controller-start-interval',
    type: 'duration',
    default: 0,
    check: nonNegativeDuration,
    help: 'Interval between starting controller managers (each wait is jittered by up to 100%).',
  },
  controllers: {
    name: 'controllers',
    type: 'stringList',
    default: ['*'],
    help:
      "A list of controllers to enable. '*' enables all on-by-default controllers, 'foo' enables the controller named 'foo', '-foo' disables the controller named 'foo'. The first matching entry wins.\nAll controllers: cloud-node-controller, cloud-node-lifecycle-controller, node-route-controller, service-lb-controller\nDisabled-by-default controllers: none\nAliases: cloud-node (cloud-node-controller), cloud-node-lifecycle (cloud-node-lifecycle-controller), route (node-route-controller), service (service-lb-controller)",
  },
  leaderElect: {
    name: 'leader-elect',
    type: 'bool',
    default: true,
    help: 'Start a leader election client and gain leadership before executing the main loop. Enable this when running replicated components for high availability.',
  },
  leaderElectLeaseDurationMs: {
    name: 'leader-elect-lease-duration',
    type: 'duration',
    default: DEFAULT_LEASE_DURATION_MS,
    help: 'The duration that non-leader candidates will wait after observing a leadership renewal until attempting to acquire leadership of a led but unrenewed leader slot. This is effectively the maximum duration that a leader can be stopped before it is replaced by another candidate. This is only applicable if leader election is enabled.',
  },
  leaderElectRenewDeadlineMs: {
    name: 'leader-elect-renew-deadline',
    type: 'duration',
    default: DEFAULT_RENEW_DEADLINE_MS,
    help: 'The interval between attempts by the acting master to renew a leadership slot before it stops leading. This must be less than the lease duration. This is only applicable if leader election is enabled.',
  },
  leaderElectRetryPeriodMs: {
    name: 'leader-elect-retry-period',
    type: 'duration',
    default: DEFAULT_RETRY_PERIOD_MS,
    help: 'The duration the clients should wait between attempting acquisition and renewal of a leadership. This is only applicable if leader election is enabled.',
  },
  leaderElectResourceLock: {
    name: 'leader-elect-resource-lock',
    type: 'string',
    default: 'leases',
    help: "The type of resource object that is used for locking during leader election. The only supported option is 'leases'.",
  },
  leaderElectResourceName: {
    name: 'leader-elect-resource-name',
    type: 'string',
    default: DEFAULT_LEASE_NAME,
    help: 'The name of resource object that is used for locking during leader election.',
  },
  leaderElectResourceNamespace: {
    name: 'leader-elect-resource-namespace',
    type: 'string',
    default: DEFAULT_LEASE_NAMESPACE,
    help: 'The namespace of resource object that is used for locking during leader election.',
  },
});
