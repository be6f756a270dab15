/**
 * The credential Secrets, read from the CCM's shared Secret informers (handed over in the
 * initialize context; one per Secret, field selector `metadata.name`, started with the
 * controllers' informers and kept current by them). A changed Secret is simply read at the next
 * login; a credential lookup that comes before the first list waits for it (bounded).
 */
import type { SharedInformer } from '@ccm/core/kube';
import type { Logger } from '@ccm/core/logging';
import type { ProviderInformers } from '@ccm/core/provider';
import type { V1Secret } from '@kubernetes/client-node';
import type { SecretState, SecretStore } from './secret-credentials.js';

export interface SharedSecretStoreOptions {
  informers: Pick<ProviderInformers, 'secrets'>;
  logger: Logger;
  /** How long a credential lookup waits for a Secret's first list. Default 10 s. */
  syncTimeoutMs?: number;
}

export class SharedSecretStore implements SecretStore {
  readonly #options: SharedSecretStoreOptions;
  readonly #watched = new Map<string, SharedInformer<V1Secret>>();

  constructor(options: SharedSecretStoreOptions) {
    this.#options = options;
  }

  /** Follows a Secret (once per namespace/name), logging when it changes or goes away. */
  watch(namespace: string, name: string): void {
    const key = `${namespace}/${name}`;
    if (this.#watched.has(key)) return;
    const informer = this.#options.informers.secrets(namespace, name);
    this.#watched.set(key, informer);
    informer.addHandlers({
      onUpdate: (previous, current) => {
        if (previous.metadata?.resourceVersion === current.metadata?.resourceVersion) return;
        this.#options.logger.info('Credential Secret changed; the next vCenter login uses it', { object: `Secret ${key}` });
      },
      onDelete: () => this.#options.logger.warn('Credential Secret deleted', { object: `Secret ${key}` }),
    });
  }

  read(namespace: string, name: string): SecretState {
    const key = `${namespace}/${name}`;
    const informer = this.#watched.get(key);
    if (informer === undefined) return { status: 'unknown', reason: 'it is not watched (the provider is not initialized yet)' };
    if (!informer.hasSynced()) return { status: 'unknown', reason: 'it is being read' };
    const secret = informer.store.get(key);
    return secret === undefined ? { status: 'missing' } : { status: 'present', data: decodeSecretData(secret) };
  }

  /** Resolves once the Secret has been listed, or after the sync timeout (then `read` still says why not). */
  async settled(namespace: string, name: string): Promise<void> {
    const informer = this.#watched.get(`${namespace}/${name}`);
    if (informer === undefined || informer.hasSynced()) return;
    const timeout = AbortSignal.timeout(this.#options.syncTimeoutMs ?? 10_000);
    await informer.waitForSync(timeout).catch(() => undefined);
  }
}

export function decodeSecretData(secret: V1Secret): Map<string, string> {
  const data = new Map<string, string>();
  for (const [key, value] of Object.entries(secret.data ?? {})) data.set(key, Buffer.from(value, 'base64').toString('utf8'));
  for (const [key, value] of Object.entries(secret.stringData ?? {})) data.set(key, value);
  return data;
}
