import type { CloudProvider } from '@ccm/core/provider';
import type { V1Service } from '@kubernetes/client-node';

/** One cloud instance created for a contract test, as the suite needs to know it. */
export interface ContractInstance {
  /** The Node name a kubelet on this instance registers with. */
  nodeName: string;
  /** The provider ID the provider must report, `<providerName>://...`. */
  providerId: string;
  /** When given, metadata must report exactly these (in order). */
  expectedAddresses?: Array<{ type: string; address: string }>;
  expectedInstanceType?: string;
  expectedZone?: string;
  expectedRegion?: string;
}

/** What a contract suite may do to the cloud behind the provider's back. */
export interface ContractCloudControl {
  createInstance(name: string): Promise<ContractInstance>;
  stopInstance(instance: ContractInstance): Promise<void>;
  startInstance(instance: ContractInstance): Promise<void>;
  /** Deletes (terminates) the instance: the provider must then report it as not existing. */
  deleteInstance(instance: ContractInstance): Promise<void>;
}

/** The cloud-side view of a Service's load balancer, read around the provider. */
export interface ContractLoadBalancerView {
  /** Backends normalised to Node names, sorted. */
  backendNodeNames: string[];
  /** Frontend ports, sorted. */
  ports: number[];
}

export interface ContractFixture {
  provider: CloudProvider;
  cloud: ContractCloudControl;
  /** `--cluster-name` to pass to load balancer and route calls. Default `kubernetes`. */
  clusterName?: string;
  /** Reads the load balancer of a Service from the cloud; `undefined` when there is none. */
  readLoadBalancer?(service: V1Service): Promise<ContractLoadBalancerView | undefined>;
  /** Called after every test. */
  cleanup?(): Promise<void>;
}

/** Builds a fresh fixture; called before every test. */
export type ContractSetup = () => Promise<ContractFixture>;

export interface InstancesV2ContractOptions {
  /** The provider finds instances by Node name when the Node has no providerID. Default true. */
  lookupByNodeName?: boolean;
}

export interface LoadBalancerContractOptions {
  /**
   * Two Services with the same namespace and name but different UIDs (a deleted and recreated
   * Service) get different load balancer names. Default true; false for providers that name load
   * balancers by namespace and name, as upstream OpenStack does (`kube_service_<cluster>_<ns>_<name>`).
   */
  namesDifferByUid?: boolean;
}

export interface RoutesContractOptions {
  /** Routes to IPv6 pod CIDRs are supported. Default true. */
  ipv6?: boolean;
  /** A route whose target instance was deleted is listed as a blackhole. Default true. */
  blackholeWhenTargetDeleted?: boolean;
}
