/**
 * A provider driver: what the conformance suite needs to know about one cloud to run the same
 * scenarios against it. The suite runs the provider's CCM as a real child process against
 * @ccm/kube-emulator over HTTP; the driver starts the cloud (or its simulator), creates and
 * changes instances there, and reads the cloud side back to check what the CCM did.
 */
import type { UpstreamCloudMetrics } from '@ccm/core/cloud';

export interface DriverInstance {
  /** The Node name the kubelet would register with. */
  nodeName: string;
  /** The provider ID the CCM is expected to set, e.g. `aws:///us-east-1a/i-0abc`. */
  expectedProviderId: string;
  /**
   * Addresses the CCM is expected to publish (type + address), in upstream order, for a node
   * without the provided-node-ip annotation. When the cloud reports no Hostname entry the
   * suite expects the kubelet's Hostname appended, and it applies the provided-node-ip
   * filter itself (as upstream does).
   */
  expectedAddresses: Array<{ type: string; address: string }>;
  expectedInstanceType?: string;
  expectedZone?: string;
  expectedRegion?: string;
  /** An IP of the instance usable as `alpha.kubernetes.io/provided-node-ip`. */
  internalIp: string;
}

export interface CloudLoadBalancerView {
  exists: boolean;
  /** Backend identity per node as the cloud sees it, normalised to Node names. */
  backendNodeNames: string[];
  /** Frontend ports. */
  ports: number[];
  /**
   * Whether the load balancer has only a private frontend. Drivers whose capabilities declare
   * `internalLoadBalancer` must set it for every load balancer they read.
   */
  internal?: boolean;
  /**
   * The node port the cloud's health check probes. Drivers whose capabilities declare
   * `externalTrafficPolicyLocal` must set it (for an `externalTrafficPolicy: Local` Service it is
   * the Service's `spec.healthCheckNodePort`).
   */
  healthCheckNodePort?: number;
  /**
   * The firewall the CCM keeps for the Service on its nodes (OpenStack `manage-security-groups`:
   * the Service's security group). Drivers whose capabilities declare `nodeFirewall` set it
   * whenever the firewall exists, also once the load balancer is gone; undefined: there is none.
   */
  nodeFirewall?: CloudNodeFirewallView;
}

/** What a Service's node firewall lets in, and on which nodes. */
export interface CloudNodeFirewallView {
  /** Inbound rules, sorted by protocol then port. */
  rules: CloudFirewallRuleView[];
  /** The nodes the firewall is attached to (their network interfaces), as Node names, sorted. */
  nodeNames: string[];
}

export interface CloudFirewallRuleView {
  /** Upper case: `TCP`, `UDP`, `SCTP`. */
  protocol: string;
  port: number;
  /** Sorted. */
  sourceRanges: string[];
}

export interface CloudRouteView {
  destinationCidr: string;
  targetNodeName: string;
  /** True for a blackhole route (its target is gone). Optional: drivers without the notion omit it. */
  blackhole?: boolean;
}

/** A route written straight into the cloud, as another actor (or an old cluster) would. */
export interface InjectedRoute {
  destinationCidr: string;
  /** Node name of the target; may name a node that does not exist. */
  targetNodeName: string;
  /** Create it as a blackhole route (only when `capabilities.blackholeRoutes`). */
  blackhole?: boolean;
}

export interface ProviderDriverCapabilities {
  loadBalancer: boolean;
  routes: boolean;
  /** The driver can inject blackhole routes (needs `injectRoute`). */
  blackholeRoutes?: boolean;
  /**
   * The cloud has internal load balancers: the Service annotations that ask for one. The suite
   * then checks an internal Service gets a private LB (`CloudLoadBalancerView.internal`).
   */
  internalLoadBalancer?: { annotations: Record<string, string> };
  /**
   * The driver reads the health-check node port (`CloudLoadBalancerView.healthCheckNodePort`): the
   * suite then checks `externalTrafficPolicy: Local` Services are probed on `spec.healthCheckNodePort`.
   */
  externalTrafficPolicyLocal?: boolean;
  /**
   * The CCM keeps a firewall per Service on its backends (OpenStack `manage-security-groups`),
   * opening each node port to `sourceRanges` (the OpenStack amphora provider: the member subnet).
   * The driver then sets `CloudLoadBalancerView.nodeFirewall`.
   */
  nodeFirewall?: { sourceRanges: string[] };
}

export interface CcmProcessSpec {
  /** Executable, normally `process.execPath`. */
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** One HTTP request the CCM sent to the cloud, as a counting proxy sees it. */
export interface CloudRequest {
  method: string;
  /** Path and query, e.g. `/?Action=DescribeInstances` or `/sdk`. */
  path: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The request body as text ('' without one). */
  body: string;
}

/** Where the simulator serves the cloud API, so that the benchmark can put a counting proxy in front of it. */
export interface CloudEndpoint {
  /** Base URL, e.g. `http://127.0.0.1:5000` or `https://127.0.0.1:8989`. */
  url: string;
  /** PEM of the CA that signed the simulator's certificate (HTTPS only). */
  ca?: string;
  /** The cloud operation of a request, for the count per operation: AWS `Action=`, the vSphere SOAP method. */
  operationOf(request: CloudRequest): string;
}

/** How a benchmark row runs the CCM: against the counting proxy, with the row's policy. */
export interface BenchCcmOptions {
  /** Base URL the CCM must use for the cloud API (the proxy's). */
  cloudUrl: string;
  /** PEM file of the CA of the proxy's certificate, when `cloudUrl` is HTTPS. */
  caFile?: string;
  /** Our batched lookups, or one lookup per call (upstream); providers without such a switch ignore it. */
  lookupPolicy: 'batched' | 'single';
  /** The CCM's cloud API budget (requests/s), where the provider's config has one. */
  apiQps: number;
}

/**
 * One Service of the swap scenario as its user wrote it while the upstream CCM ran: external or
 * internal, with or without a requested IP, in the cloud's own way of asking.
 */
export interface SwapServiceVariant {
  /** A short DNS-1123 label naming the variant (`external`, `internal-requested-ip`, ...); part of the Service name. */
  label: string;
  /** The annotations the user set (the internal annotation, a requested-IP annotation...). */
  annotations?: Record<string, string>;
  /** `spec.loadBalancerIP`, when the variant requests its IP that way (reserve it in `userServices`). */
  loadBalancerIP?: string;
  /** `spec.externalTrafficPolicy` (default `Cluster`). */
  externalTrafficPolicy?: 'Cluster' | 'Local';
}

/** One Service as the API server holds it, for the fixture to write upstream's resources for it. */
export interface SwapServiceSeed {
  namespace: string;
  name: string;
  /** The Service's UID (upstream derives most resource names from it). */
  uid: string;
  variant: SwapServiceVariant;
  /** The Service's ports with the node ports the API server allocated. */
  ports: Array<{ name?: string; protocol: string; port: number; nodePort: number }>;
  /** `spec.healthCheckNodePort` of an `externalTrafficPolicy: Local` Service. */
  healthCheckNodePort?: number;
}

/** One Node the upstream CCM initialized: its instance and the pod CIDR upstream's route controller programmed. */
export interface SwapNodeSeed {
  instance: DriverInstance;
  /** The Node's UID, set by the scenario once the Node exists (upstream's route controller names routes after it: GCP). */
  uid?: string;
  /** `spec.podCIDR` (inside the suite's cluster CIDR); set only when the provider has routes. */
  podCidr?: string;
}

/** What the upstream CCM left on one Service besides the cloud resources. */
export interface UpstreamServiceState {
  /** `status.loadBalancer.ingress` as upstream published it; ours must publish the same. */
  ingress: Array<{ ip?: string; hostname?: string }>;
  /**
   * Finalizers upstream's CCM added besides `service.kubernetes.io/load-balancer-cleanup`
   * (GCP: `gke.networking.io/l4-netlb-v1`, `l4-ilb-v1`); ours must remove them on delete.
   */
  extraFinalizers: string[];
  /** Annotations upstream's CCM wrote on the Service (OpenStack: `loadbalancer.openstack.org/load-balancer-id`, ...). */
  writtenAnnotations: Record<string, string>;
}

/**
 * Cloud resources by a stable description (`<kind>/<name>`), each valued by what must not
 * change while they are adopted: the resource's ID and the addresses it holds. A resource deleted
 * and made again gets a new ID, so two equal inventories mean nothing was recreated.
 */
export type CloudInventory = Record<string, string>;

export interface SwapInventory {
  /** Load balancers and everything upstream made for them for this cluster (addresses, rules, groups, pools...). */
  loadBalancers: CloudInventory;
  /** Routes upstream programmed for this cluster's nodes. */
  routes: CloudInventory;
  /** What the user made and upstream only used (a reserved static IP): never deleted. */
  user: CloudInventory;
  /** What another cluster in the same project, account or tenant owns (its load balancer...): never touched. */
  foreign: CloudInventory;
}

/**
 * The swap scenario's fixture: writes in the cloud for tests exactly what the upstream CCM at the
 * pinned commit (docs/parity.md) leaves behind, citing upstream's code for every name, tag and
 * description in a comment, so the suite can start our CCM on top of it.
 */
export interface ProviderSwapFixture {
  /**
   * The `--cluster-name` both CCMs run with: 42 characters or more where the cloud's names
   * depend on it (names cut to fit are where adoption breaks).
   */
  readonly clusterName: string;
  /**
   * The Services of the scenario as the user wrote them; reserves what the user made in the
   * cloud (a static IP to request). Empty for a provider without load balancers.
   */
  userServices(): Promise<SwapServiceVariant[]>;
  /**
   * Writes upstream's leftovers for these Services (which exist in the API server, with their
   * UIDs) and for these nodes (routes for their pod CIDRs), and a load balancer of another
   * cluster; returns what upstream left on each Service, in `services` order.
   */
  seedUpstream(input: { services: SwapServiceSeed[]; nodes: SwapNodeSeed[] }): Promise<UpstreamServiceState[]>;
  /** Reads the four inventories from the cloud. */
  inventory(): Promise<SwapInventory>;
  /**
   * Optional: ConfigMaps upstream's side left in the API server that our CCM reads, created by the
   * scenario after `seedUpstream` and before our CCM starts (GCP: `kube-system/ingress-uid`, the
   * cluster ID upstream's resource names hold; without it our CCM would make a new ID).
   */
  upstreamConfigMaps?(): Array<{ namespace: string; name: string; data: Record<string, string> }>;
  /** Removes the user's and the other cluster's resources (at the end of the scenario). */
  cleanUp(): Promise<void>;
}

export interface ProviderDriver {
  readonly name: string;
  readonly capabilities: ProviderDriverCapabilities;
  /** Why the driver cannot run on this machine (missing simulator), or undefined when it can. */
  unavailableReason(): Promise<string | undefined>;
  /** Optional: how to install what `unavailableReason` reports missing (shown when skipping or failing). */
  readonly installHint?: string;
  /**
   * The kustomize overlay under manifests/ whose RBAC the CCM runs with on the real
   * kube-apiserver (default: the driver's name).
   */
  readonly manifestsOverlay?: string;
  /** Starts the cloud or its simulator and prepares shared resources (VPC, datacenter...). */
  start(): Promise<void>;
  stop(): Promise<void>;
  /**
   * How to start the CCM: the suite appends the common flags (`--kubeconfig`, `--secure-port`,
   * `--leader-elect*`, `--cluster-cidr`, `--controllers`...).
   */
  ccmProcess(): CcmProcessSpec;
  createInstance(name: string): Promise<DriverInstance>;
  stopInstance(instance: DriverInstance): Promise<void>;
  startInstance(instance: DriverInstance): Promise<void>;
  deleteInstance(instance: DriverInstance): Promise<void>;
  /**
   * Optional: how long the suite waits for each step of a load balancer change to show (the
   * Service's finalizer and ingress, the cloud's view, the events); default the suite's 20 s. A
   * cloud whose load balancer calls are serial and slow on a loaded machine declares more.
   */
  readonly loadBalancerWaitMs?: number;
  /** Reads the load balancer of a Service from the cloud side. */
  readLoadBalancer(service: { namespace: string; name: string; uid: string }): Promise<CloudLoadBalancerView>;
  /** Reads the routes the CCM programmed. */
  readRoutes(): Promise<CloudRouteView[]>;
  /** Cloud resources the CCM created and did not delete (must be empty after cleanup). */
  leakedResources(): Promise<string[]>;
  /**
   * Optional: writes a route into the cloud's route table behind the CCM's back, so the suite
   * can check that stale routes inside the cluster CIDR are removed and others are left alone.
   */
  injectRoute?(route: InjectedRoute): Promise<void>;
  /**
   * Optional (needed with `injectRoute`): deletes the route for `destinationCidr` behind the
   * CCM's back; used to clean up routes the CCM must not touch and to break a route on purpose.
   */
  removeRoute?(destinationCidr: string): Promise<void>;
  /** Optional (benchmarks): many instances at once, faster than one `createInstance` each; in `names` order. */
  createInstances?(names: readonly string[]): Promise<DriverInstance[]>;
  /**
   * Optional: the upstream CCM's cloud API series the provider exports (its
   * `src/metrics/upstream-metrics.ts`); the suite scrapes `/metrics` after each group and checks
   * each is there with upstream's type, help and label names.
   */
  readonly upstreamMetrics?: UpstreamCloudMetrics;
  /** Optional (benchmarks, with `benchCcmProcess`): the simulator's endpoint for a counting proxy. */
  cloudEndpoint?(): CloudEndpoint;
  /**
   * The swap scenario (`e2e/src/conformance/scenarios/swap.ts`): what the upstream CCM leaves in
   * the cloud, so the suite can check our CCM adopts it, deletes it cleanly and touches nothing else.
   */
  readonly swap: ProviderSwapFixture;
  /** Optional (benchmarks): the CCM of a benchmark row; the benchmark appends the common flags and the policy's. */
  benchCcmProcess?(options: BenchCcmOptions): Promise<CcmProcessSpec>;
}
