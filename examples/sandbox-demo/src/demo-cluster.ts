import { CoreV1Api, KubeConfig, PatchStrategy, setHeaderOptions, type V1Node, type V1Service } from '@kubernetes/client-node';

/** What the API server sets itself: stripped before a create. */
function withoutServerFields<T extends { metadata?: { uid?: string; creationTimestamp?: Date; resourceVersion?: string } }>(object: T): T {
  const copy = structuredClone(object);
  if (copy.metadata !== undefined) {
    delete copy.metadata.uid;
    delete copy.metadata.creationTimestamp;
    delete copy.metadata.resourceVersion;
  }
  return copy;
}

/** The demo's side of the Kubernetes API: what kubelets and a user would do. */
export class DemoCluster {
  readonly #core: CoreV1Api;

  constructor(kubeconfigYaml: string) {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromString(kubeconfigYaml);
    this.#core = kubeConfig.makeApiClient(CoreV1Api);
  }

  /** Registers a Node like a kubelet: create, then post its status. */
  async registerNode(node: V1Node): Promise<void> {
    const body = withoutServerFields(node);
    const status = body.status;
    delete body.status;
    await this.#core.createNode({ body });
    if (status !== undefined) {
      await this.#core.patchNodeStatus({ name: node.metadata!.name!, body: { status } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
    }
  }

  async createService(service: V1Service): Promise<void> {
    const body = withoutServerFields(service);
    delete body.status;
    if (body.spec !== undefined) {
      delete body.spec.clusterIP;
      delete body.spec.clusterIPs;
    }
    await this.#core.createNamespacedService({ namespace: body.metadata?.namespace ?? 'default', body });
  }

  async listNodes(): Promise<V1Node[]> {
    return (await this.#core.listNode()).items;
  }

  async readService(namespace: string, name: string): Promise<V1Service | undefined> {
    try {
      return await this.#core.readNamespacedService({ namespace, name });
    } catch (error) {
      if ((error as { code?: number }).code === 404) return undefined;
      throw error;
    }
  }
}
