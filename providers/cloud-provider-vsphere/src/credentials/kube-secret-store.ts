/**
 * Watches the credential Secrets through the Kubernetes API (client-node ListWatch, one per
 * Secret, field selector `metadata.name`). client-node stops a ListWatch after any error other
 * than 410: this store restarts it with backoff (1 s doubling to 30 s) and reports the failure
 * once per change. A changed Secret is simply read at the next login.
 */
import { CoreV1Api, ListWatch, Watch, type KubeConfig, type V1Secret } from '@kubernetes/client-node';
import type { Logger } from '@ccm/core';
import { errorMessage } from '../errors.js';
import type { ProblemReporter } from '../operations/problem-reporter.js';
import type { SecretState, SecretStore } from './secret-credentials.js';

export interface KubeSecretStoreOptions {
  kubeConfig: KubeConfig;
  logger: Logger;
  reporter: ProblemReporter;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
}

interface WatchedSecret {
  namespace: string;
  name: string;
  informer: ListWatch<V1Secret>;
  synced: boolean;
  lastError: string | undefined;
  backoffMs: number;
  timer: NodeJS.Timeout | undefined;
  resourceVersion: string | undefined;
}

export class KubeSecretStore implements SecretStore {
  readonly #options: KubeSecretStoreOptions;
  readonly #core: CoreV1Api;
  readonly #watched = new Map<string, WatchedSecret>();
  #stopped = false;

  constructor(options: KubeSecretStoreOptions) {
    this.#options = options;
    this.#core = options.kubeConfig.makeApiClient(CoreV1Api);
  }

  /** Starts watching a Secret (once per namespace/name). */
  watch(namespace: string, name: string): void {
    const key = `${namespace}/${name}`;
    if (this.#watched.has(key) || this.#stopped) return;
    const fieldSelector = `metadata.name=${name}`;
    const informer = new ListWatch<V1Secret>(
      `/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets`,
      new Watch(this.#options.kubeConfig),
      () => this.#core.listNamespacedSecret({ namespace, fieldSelector }),
      false,
      undefined,
      fieldSelector,
    );
    const entry: WatchedSecret = { namespace, name, informer, synced: false, lastError: undefined, backoffMs: 0, timer: undefined, resourceVersion: undefined };
    this.#watched.set(key, entry);
    const onChange = (secret: V1Secret): void => {
      const version = secret.metadata?.resourceVersion;
      if (entry.resourceVersion !== undefined && version !== entry.resourceVersion) {
        this.#options.logger.info('Credential Secret changed; the next vCenter login uses it', { object: `Secret ${key}` });
      }
      entry.resourceVersion = version;
    };
    informer.on('add', onChange);
    informer.on('update', onChange);
    informer.on('delete', () => {
      entry.resourceVersion = undefined;
      this.#options.logger.warn('Credential Secret deleted', { object: `Secret ${key}` });
    });
    informer.on('error', (error: unknown) => this.#failed(entry, error));
    void this.#start(entry);
  }

  read(namespace: string, name: string): SecretState {
    const entry = this.#watched.get(`${namespace}/${name}`);
    if (entry === undefined) return { status: 'unknown', reason: 'it is not watched (the provider is not initialized yet)' };
    if (!entry.synced) return { status: 'unknown', reason: entry.lastError === undefined ? 'it is being read' : `reading it failed: ${entry.lastError}` };
    const secret = entry.informer.get(name, namespace);
    if (secret === undefined) return { status: 'missing' };
    return { status: 'present', data: decodeSecretData(secret) };
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    for (const entry of this.#watched.values()) {
      if (entry.timer !== undefined) clearTimeout(entry.timer);
      await entry.informer.stop();
    }
  }

  async #start(entry: WatchedSecret): Promise<void> {
    if (this.#stopped) return;
    let failed = false;
    const onError = (): void => {
      failed = true;
    };
    entry.informer.on('error', onError);
    try {
      await entry.informer.start();
    } finally {
      entry.informer.off('error', onError);
    }
    if (!failed && entry.informer.latestResourceVersion() !== '') {
      entry.synced = true;
      entry.lastError = undefined;
      entry.backoffMs = 0;
      this.#options.reporter.resolve(problemKey(entry));
    }
  }

  #failed(entry: WatchedSecret, error: unknown): void {
    if (this.#stopped) return;
    entry.lastError = describe(error);
    this.#options.reporter.report(problemKey(entry), `cannot read the credential Secret ${entry.namespace}/${entry.name}: ${entry.lastError}`, { object: `Secret ${entry.namespace}/${entry.name}` });
    if (entry.timer !== undefined) return;
    const initial = this.#options.initialBackoffMs ?? 1_000;
    entry.backoffMs = entry.backoffMs === 0 ? initial : Math.min(entry.backoffMs * 2, this.#options.maxBackoffMs ?? 30_000);
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      void this.#start(entry);
    }, entry.backoffMs);
    entry.timer.unref();
  }
}

function problemKey(entry: WatchedSecret): string {
  return `secret ${entry.namespace}/${entry.name}`;
}

export function decodeSecretData(secret: V1Secret): Map<string, string> {
  const data = new Map<string, string>();
  for (const [key, value] of Object.entries(secret.data ?? {})) data.set(key, Buffer.from(value, 'base64').toString('utf8'));
  for (const [key, value] of Object.entries(secret.stringData ?? {})) data.set(key, value);
  return data;
}

function describe(error: unknown): string {
  const code = (error as { statusCode?: unknown } | null)?.statusCode ?? (error as { code?: unknown } | null)?.code;
  const message = errorMessage(error);
  const isHttpStatus = typeof code === 'number' && code >= 100 && code < 600;
  return isHttpStatus && !message.includes(String(code)) ? `HTTP ${code}: ${message}` : message;
}
