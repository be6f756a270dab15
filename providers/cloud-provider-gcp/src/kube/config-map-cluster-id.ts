/**
 * The cluster ID (upstream `gce_clusterid.go`): ConfigMap `kube-system/ingress-uid`, keys `uid`
 * and `provider-uid` (preferred when set). When it is missing the CCM creates it with 8 random
 * bytes in hex, as upstream; a create race (409) re-reads the winner's. Read once, then cached.
 */
import { randomBytes } from 'node:crypto';
import { CoreV1Api, type KubeConfig, type V1ConfigMap } from '@kubernetes/client-node';

export const CLUSTER_ID_CONFIG_MAP_NAMESPACE = 'kube-system';
export const CLUSTER_ID_CONFIG_MAP_NAME = 'ingress-uid';
export const CLUSTER_ID_KEY = 'uid';
export const PROVIDER_UID_KEY = 'provider-uid';

const statusOf = (error: unknown): number | undefined => {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'number' ? code : undefined;
};

function idOf(configMap: V1ConfigMap): string | undefined {
  const data = configMap.data ?? {};
  return data[PROVIDER_UID_KEY] || data[CLUSTER_ID_KEY] || undefined;
}

export class ConfigMapClusterId {
  #api: CoreV1Api | undefined;
  #cached: string | undefined;
  #pending: Promise<string> | undefined;

  /** Called from `initialize` with the CCM's client configuration. */
  attach(kubeConfig: KubeConfig): void {
    this.#api = kubeConfig.makeApiClient(CoreV1Api);
  }

  async clusterId(): Promise<string> {
    if (this.#cached !== undefined) return this.#cached;
    this.#pending ??= this.#load().finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  async #load(): Promise<string> {
    const api = this.#api;
    if (api === undefined) throw new Error('the cluster ID is not available before the cloud provider is initialized');
    const read = async (): Promise<string | undefined> => {
      try {
        return idOf(await api.readNamespacedConfigMap({ name: CLUSTER_ID_CONFIG_MAP_NAME, namespace: CLUSTER_ID_CONFIG_MAP_NAMESPACE }));
      } catch (error) {
        if (statusOf(error) === 404) return undefined;
        throw new Error(`cannot read ConfigMap ${CLUSTER_ID_CONFIG_MAP_NAMESPACE}/${CLUSTER_ID_CONFIG_MAP_NAME}: ${(error as Error).message}`, { cause: error });
      }
    };
    let id = await read();
    if (id === undefined) {
      const fresh = randomBytes(8).toString('hex');
      try {
        await api.createNamespacedConfigMap({
          namespace: CLUSTER_ID_CONFIG_MAP_NAMESPACE,
          body: { metadata: { name: CLUSTER_ID_CONFIG_MAP_NAME, namespace: CLUSTER_ID_CONFIG_MAP_NAMESPACE }, data: { [CLUSTER_ID_KEY]: fresh, [PROVIDER_UID_KEY]: fresh } },
        });
        id = fresh;
      } catch (error) {
        if (statusOf(error) !== 409) throw new Error(`cannot create ConfigMap ${CLUSTER_ID_CONFIG_MAP_NAMESPACE}/${CLUSTER_ID_CONFIG_MAP_NAME}: ${(error as Error).message}`, { cause: error });
        id = await read();
      }
    }
    if (id === undefined) throw new Error(`ConfigMap ${CLUSTER_ID_CONFIG_MAP_NAMESPACE}/${CLUSTER_ID_CONFIG_MAP_NAME} has no ${CLUSTER_ID_KEY}`);
    this.#cached = id;
    return id;
  }
}
