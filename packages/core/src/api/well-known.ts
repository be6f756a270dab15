/** Well-known taints, labels, annotations and finalizers (core-checklist §4.2). Stable: never change. */
export const TAINT_UNINITIALIZED = 'node.cloudprovider.kubernetes.io/uninitialized';
export const TAINT_SHUTDOWN = 'node.cloudprovider.kubernetes.io/shutdown';
export const TAINT_TO_BE_DELETED_BY_CLUSTER_AUTOSCALER = 'ToBeDeletedByClusterAutoscaler';

export const ANNOTATION_PROVIDED_NODE_IP = 'alpha.kubernetes.io/provided-node-ip';
export const ANNOTATION_LOAD_BALANCER_SOURCE_RANGES = 'service.beta.kubernetes.io/load-balancer-source-ranges';

export const LABEL_INSTANCE_TYPE = 'node.kubernetes.io/instance-type';
export const LABEL_INSTANCE_TYPE_BETA = 'beta.kubernetes.io/instance-type';
export const LABEL_ZONE = 'topology.kubernetes.io/zone';
export const LABEL_ZONE_BETA = 'failure-domain.beta.kubernetes.io/zone';
export const LABEL_REGION = 'topology.kubernetes.io/region';
export const LABEL_REGION_BETA = 'failure-domain.beta.kubernetes.io/region';
export const LABEL_EXCLUDE_FROM_EXTERNAL_LOAD_BALANCERS = 'node.kubernetes.io/exclude-from-external-load-balancers';

export const FINALIZER_LOAD_BALANCER_CLEANUP = 'service.kubernetes.io/load-balancer-cleanup';

export const NETWORK_UNAVAILABLE_REASON_ROUTE_CREATED = 'RouteCreated';
export const NETWORK_UNAVAILABLE_MESSAGE_ROUTE_CREATED = 'RouteController created a route';
export const NETWORK_UNAVAILABLE_REASON_NO_ROUTE_CREATED = 'NoRouteCreated';
export const NETWORK_UNAVAILABLE_MESSAGE_NO_ROUTE_CREATED = 'RouteController failed to create a route';

export const CLOUD_CONTROLLER_MANAGER_PORT = 10258;
export const CLOUD_CONTROLLER_MANAGER_WEBHOOK_PORT = 10260;
export const DEFAULT_LEASE_NAME = 'cloud-controller-manager';
export const DEFAULT_LEASE_NAMESPACE = 'kube-system';
export const EXTERNAL_PROVIDER_NAME = 'external';

/** AdditionalLabels may not use these prefixes: `(^|\.)(kubernetes|k8s)\.io/`. */
export const RESERVED_LABEL_PREFIX_PATTERN = /(^|\.)(kubernetes|k8s)\.io\//;
