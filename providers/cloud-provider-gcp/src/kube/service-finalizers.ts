/**
 * The Service finalizers upstream's GCE load balancers write (`gce_loadbalancer.go`:
 * `gke.networking.io/l4-netlb-v1` on external, `gke.networking.io/l4-ilb-v1` on internal load
 * balancers, added before the first cloud write and removed once the load balancer is deleted).
 * We write them too: a cluster that swaps upstream's CCM for ours has Services carrying them, and a
 * Service whose finalizer nobody removes stays Terminating forever.
 *
 * Strategic merge patches as upstream's two-way merge makes them (`finalizers` merges as a set:
 * adding appends, `$deleteFromPrimitiveList` removes), so no read and no conflict with the
 * controller's own `service.kubernetes.io/load-balancer-cleanup` finalizer.
 */
import { CoreV1Api, PatchStrategy, setHeaderOptions, type KubeConfig, type V1Service } from '@kubernetes/client-node';

/** What the load balancers need of the Service's finalizers (the consumer's port). */
export interface ServiceFinalizerPort {
  /** Adds `finalizer` unless `service` already has it. */
  add(service: V1Service, finalizer: string): Promise<void>;
  /** Removes `finalizer` when `service` has it; a Service that is gone is fine. */
  remove(service: V1Service, finalizer: string): Promise<void>;
}

export const hasFinalizer = (service: V1Service, finalizer: string): boolean => (service.metadata?.finalizers ?? []).includes(finalizer);

const statusOf = (error: unknown): number | undefined => {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'number' ? code : undefined;
};

/** Patches the Service's finalizers through the API server, once `attach`ed in `initialize`. */
export class KubeServiceFinalizers implements ServiceFinalizerPort {
  #api: CoreV1Api | undefined;

  attach(kubeConfig: KubeConfig): void {
    this.#api = kubeConfig.makeApiClient(CoreV1Api);
  }

  async add(service: V1Service, finalizer: string): Promise<void> {
    if (hasFinalizer(service, finalizer)) return;
    await this.#patch(service, { metadata: { finalizers: [finalizer] } }, `add the ${finalizer} finalizer to`);
  }

  async remove(service: V1Service, finalizer: string): Promise<void> {
    if (!hasFinalizer(service, finalizer)) return;
    try {
      await this.#patch(service, { metadata: { [`$deleteFromPrimitiveList/finalizers`]: [finalizer] } }, `remove the ${finalizer} finalizer from`);
    } catch (error) {
      if (statusOf((error as Error).cause) !== 404) throw error;
    }
  }

  async #patch(service: V1Service, body: object, what: string): Promise<void> {
    const api = this.#api;
    const name = service.metadata?.name ?? '';
    const namespace = service.metadata?.namespace ?? 'default';
    if (api === undefined) throw new Error(`cannot ${what} Service ${namespace}/${name}: the cloud provider is not initialized`);
    try {
      await api.patchNamespacedService({ name, namespace, body }, setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch));
    } catch (error) {
      throw new Error(`cannot ${what} Service ${namespace}/${name}: ${(error as Error).message}`, { cause: error });
    }
  }
}
