/**
 * LoadBalancer of the Azure provider (upstream `azure_loadbalancer.go`, Standard SKU): Services
 * become frontends of the shared cluster load balancer `<cluster>` (`loadBalancerName`) or
 * `<cluster>-internal`. Services of another `loadBalancerClass` are left alone
 * (ImplementedElsewhere). The nodes are those the service controller passes (it already drops
 * nodes labelled `node.kubernetes.io/exclude-from-external-load-balancers`); control-plane nodes
 * (with `excludeMasterFromStandardLB`) and unmanaged nodes never join the backend pool either.
 * Ensure, update and delete run one at a time (upstream's `serviceReconcileLock`).
 */
import type { V1Node, V1Service } from '@kubernetes/client-node';
import type { CloudApiObserver } from '@ccm/core/cloud';
import { ImplementedElsewhereError, type CloudCallOptions, type LoadBalancer, type LoadBalancerStatus } from '@ccm/core/provider';
import { isUnmanaged, resourceGroupsOf } from './azure-instances.js';
import { AZURE_UPSTREAM_OPERATIONS } from './metrics/upstream-metrics.js';
import type { InstanceLocator } from './operations/instance-locator.js';
import { serviceKey } from './operations/load-balancer/load-balancer-names.js';
import type { ServiceLoadBalancerOperations } from './operations/load-balancer/service-load-balancer-operations.js';
import { ServiceReconcileLock } from './operations/load-balancer/service-reconcile-lock.js';
import type { AzureVirtualMachine } from './ports/compute-port.js';
import { parseAzureProviderId } from './provider-id.js';

export const CONTROL_PLANE_LABELS = ['node-role.kubernetes.io/control-plane', 'node-role.kubernetes.io/master'] as const;

/** Whether a node stays out of the backend pool (upstream `ShouldNodeExcludedFromLoadBalancer`). */
export function excludedFromLoadBalancers(node: V1Node, excludeControlPlane: boolean): boolean {
  const labels = node.metadata?.labels ?? {};
  if (excludeControlPlane && CONTROL_PLANE_LABELS.some((label) => labels[label] !== undefined)) return true;
  return isUnmanaged(node);
}

export interface AzureLoadBalancersDependencies {
  operations: ServiceLoadBalancerOperations;
  excludeControlPlane: boolean;
  /** Times each ensure, update and delete into upstream's `cloudprovider_azure_op_*` series (none without metrics). */
  operationMetrics?: CloudApiObserver;
}

export class AzureLoadBalancers implements LoadBalancer {
  readonly #dependencies: AzureLoadBalancersDependencies;
  readonly #reconcileLock = new ServiceReconcileLock();

  constructor(dependencies: AzureLoadBalancersDependencies) {
    this.#dependencies = dependencies;
  }

  getLoadBalancerName(clusterName: string, service: V1Service): string {
    return this.#dependencies.operations.loadBalancerName(clusterName, service);
  }

  async getLoadBalancer(clusterName: string, service: V1Service, options?: CloudCallOptions): Promise<{ status: LoadBalancerStatus | undefined; exists: boolean }> {
    checkImplementedHere(service);
    const status = await this.#dependencies.operations.status(clusterName, service, options);
    return { status, exists: status !== undefined };
  }

  async ensureLoadBalancer(clusterName: string, service: V1Service, nodes: V1Node[], options?: CloudCallOptions): Promise<LoadBalancerStatus> {
    checkImplementedHere(service);
    return this.#reconcileLock.run(() => this.#timed(AZURE_UPSTREAM_OPERATIONS.ensureLoadBalancer, service, () => this.#dependencies.operations.ensure(clusterName, service, this.#members(nodes), options)), options?.signal);
  }

  async updateLoadBalancer(clusterName: string, service: V1Service, nodes: V1Node[], options?: CloudCallOptions): Promise<void> {
    checkImplementedHere(service);
    await this.#reconcileLock.run(() => this.#timed(AZURE_UPSTREAM_OPERATIONS.updateLoadBalancer, service, () => this.#dependencies.operations.update(clusterName, service, this.#members(nodes), options)), options?.signal);
  }

  async ensureLoadBalancerDeleted(clusterName: string, service: V1Service, options?: CloudCallOptions): Promise<void> {
    if (service.spec?.loadBalancerClass !== undefined) return;
    await this.#reconcileLock.run(() => this.#timed(AZURE_UPSTREAM_OPERATIONS.ensureLoadBalancerDeleted, service, () => this.#dependencies.operations.delete(clusterName, service, options)), options?.signal);
  }

  /** Runs `run` as upstream's operation `request` of `service` (its `source`). */
  #timed<T>(request: string, service: V1Service, run: () => Promise<T>): Promise<T> {
    const observer = this.#dependencies.operationMetrics;
    return observer === undefined ? run() : observer.observe(request, run, [serviceKey(service)]);
  }

  #members(nodes: readonly V1Node[]): V1Node[] {
    return nodes.filter((node) => !excludedFromLoadBalancers(node, this.#dependencies.excludeControlPlane));
  }
}

function checkImplementedHere(service: V1Service): void {
  const loadBalancerClass = service.spec?.loadBalancerClass;
  if (loadBalancerClass !== undefined) throw new ImplementedElsewhereError(`loadBalancerClass ${loadBalancerClass} is implemented by another controller`);
}

/** The VMs of `nodes` (by provider ID, else by name); nodes whose VM is not found are left out. */
export function nodeVirtualMachines(locator: InstanceLocator, clusterResourceGroup: string) {
  return async (nodes: readonly V1Node[]): Promise<AzureVirtualMachine[]> => {
    const found: AzureVirtualMachine[] = [];
    for (const node of nodes) {
      const ref = parseAzureProviderId(node.spec?.providerID ?? '');
      const vm = ref !== undefined ? await locator.byReference(ref) : await locator.byNodeName(node.metadata?.name ?? '', resourceGroupsOf(node, clusterResourceGroup));
      if (vm !== undefined) found.push(vm);
    }
    return found;
  };
}
