/**
 * Connection reuse for client-node. @kubernetes/client-node 2.0.1 builds a new undici `Agent`
 * for every request whenever the cluster has any TLS setting (a CA, a client certificate, or
 * `insecure-skip-tls-verify`), i.e. for every real cluster: each API call then opens its own
 * connection (and TLS handshake), and the agents with their idle sockets pile up until their
 * keep-alive expires. Under load (5,000 node initializations) that was thousands of sockets and
 * over 100 MB of undici queues in the CCM.
 *
 * `shareDispatcher` makes one KubeConfig hand out one dispatcher per distinct set of connection
 * options (what client-go does with its shared transport), so requests and watches reuse
 * connections. When the options change (a rotated client certificate) the new dispatcher
 * replaces the old one, which is closed gracefully once its requests have finished.
 */
import { createHash } from 'node:crypto';
import type { KubeConfig } from '@kubernetes/client-node';

interface Closable {
  close(): Promise<void>;
}

type CreateDispatcher = (cluster: unknown, agentOptions: unknown) => Closable | undefined;

const SHARED = Symbol.for('ccm.kube.sharedDispatcher');

/** Returns `kubeConfig` (patched in place, idempotent); false from `isDispatcherShared` means the library changed shape. */
export function shareDispatcher(kubeConfig: KubeConfig): KubeConfig {
  if (Reflect.get(kubeConfig, SHARED) === true) return kubeConfig;
  const create = Reflect.get(kubeConfig, 'createDispatcher') as CreateDispatcher | undefined;
  if (typeof create !== 'function' || typeof kubeConfig.createDispatcherOptions !== 'function') return kubeConfig;
  let current: { key: string; dispatcher: Closable } | undefined;
  const shared: CreateDispatcher = (cluster, agentOptions) => {
    const options = kubeConfig.createDispatcherOptions(cluster as Parameters<KubeConfig['createDispatcherOptions']>[0], agentOptions as object);
    const key = createHash('sha256').update(JSON.stringify(options)).digest('hex');
    if (current?.key === key) return current.dispatcher;
    const dispatcher = create.call(kubeConfig, cluster, agentOptions);
    if (dispatcher === undefined) return undefined;
    const previous = current;
    current = { key, dispatcher };
    void previous?.dispatcher.close().catch(() => undefined);
    return dispatcher;
  };
  Reflect.set(kubeConfig, 'createDispatcher', shared);
  Reflect.set(kubeConfig, SHARED, true);
  return kubeConfig;
}

/** Whether `shareDispatcher` could patch this KubeConfig. */
export function isDispatcherShared(kubeConfig: KubeConfig): boolean {
  return Reflect.get(kubeConfig, SHARED) === true;
}
