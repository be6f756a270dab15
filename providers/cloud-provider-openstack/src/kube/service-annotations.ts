/**
 * The annotations upstream's OpenStack CCM writes on a Service it ensured
 * (`loadbalancer_service_patcher.go`, `ensureOctaviaLoadBalancer`):
 * `loadbalancer.openstack.org/load-balancer-id` and `loadbalancer.openstack.org/load-balancer-address`.
 * A JSON merge patch of only the annotations that differ, through the CCM's own client; none when
 * the Service already carries them (upstream compares the annotations before patching).
 */
import { CoreV1Api, PatchStrategy, setHeaderOptions, type KubeConfig, type V1Service } from '@kubernetes/client-node';

/** What the load balancer needs of the Service's annotations (the consumer's port). */
export interface ServiceAnnotationPort {
  /** Sets `annotations` on the Service, patching only those whose value differs. */
  write(service: V1Service, annotations: Readonly<Record<string, string>>): Promise<void>;
}

/** The annotations of `wanted` the Service lacks or holds with another value (pure). */
export function annotationsToWrite(service: V1Service, wanted: Readonly<Record<string, string>>): Record<string, string> {
  const current = service.metadata?.annotations ?? {};
  return Object.fromEntries(Object.entries(wanted).filter(([key, value]) => current[key] !== value));
}

/** Patches the Service through the API server, once `attach`ed in `initialize` (the client is made at the first write). */
export class KubeServiceAnnotations implements ServiceAnnotationPort {
  #kubeConfig: KubeConfig | undefined;
  #api: CoreV1Api | undefined;

  attach(kubeConfig: KubeConfig): void {
    this.#kubeConfig = kubeConfig;
    this.#api = undefined;
  }

  async write(service: V1Service, annotations: Readonly<Record<string, string>>): Promise<void> {
    const changed = annotationsToWrite(service, annotations);
    if (Object.keys(changed).length === 0) return;
    const name = service.metadata?.name ?? '';
    const namespace = service.metadata?.namespace ?? 'default';
    if (this.#kubeConfig === undefined) throw new Error(`cannot annotate Service ${namespace}/${name}: the cloud provider is not initialized`);
    const api = (this.#api ??= this.#kubeConfig.makeApiClient(CoreV1Api));
    try {
      await api.patchNamespacedService({ name, namespace, body: { metadata: { annotations: changed } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
    } catch (error) {
      throw new Error(`cannot annotate Service ${namespace}/${name} with ${Object.keys(changed).join(', ')}: ${(error as Error).message}`, { cause: error });
    }
  }
}
