/** startKubeEmulator: the store, the HTTP(S) API over it, fault injection and counters in one object. */
import { writeFile } from 'node:fs/promises';
import { isIPv6 } from 'node:net';
import { FaultInjector, type ExpiredWatchResponse } from './faults/fault-injector.js';
import { createRequestHandler } from './http/request-handler.js';
import { listen } from './http/server.js';
import { WatchRegistry } from './http/watch-stream.js';
import { ObjectAccess } from './in-process-api.js';
import { buildKubeconfig } from './kubeconfig.js';
import { RequestCounter, type RequestCounts } from './metrics/request-counter.js';
import { initialNamespaces, namespaceResource } from './resources/namespace-resource.js';
import { serviceResource } from './resources/service-resource.js';
import { resourceTable } from './resources/resource-table.js';
import { ObjectStore } from './store/object-store.js';
import { createObject } from './store/write-operations.js';
import { generateSelfSignedCertificate } from './tls/self-signed-certificate.js';

export interface KubeEmulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Serve HTTPS with a self-signed certificate generated at start. */
  https?: boolean;
  /** Changes kept per resource for watch resumption; older resourceVersions answer 410. Default 10000. */
  watchHistorySize?: number;
  /** Period of BOOKMARK events for watches with allowWatchBookmarks=true. Default 60000. */
  bookmarkIntervalMs?: number;
  /** How a watch from an expired resourceVersion is answered. Default `error-event` (like kube's watch cache). */
  expiredWatchResponse?: ExpiredWatchResponse;
}

export interface InMemoryKubeOptions {
  watchHistorySize?: number;
}

export const defaultWatchHistorySize = 10_000;
export const defaultBookmarkIntervalMs = 60_000;

function checkPositiveInteger(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
}

/** A store with the pre-created namespaces, without a server. */
export function createObjectStore(options: InMemoryKubeOptions = {}): ObjectStore {
  const watchHistorySize = options.watchHistorySize ?? defaultWatchHistorySize;
  checkPositiveInteger('watchHistorySize', watchHistorySize);
  const store = new ObjectStore({ definitions: resourceTable, watchHistorySize });
  for (const name of initialNamespaces) createObject(store, namespaceResource, undefined, { metadata: { name } });
  return store;
}

/**
 * The `default/kubernetes` Service that every kube-apiserver keeps (its bootstrap controller),
 * pointing at this server; only the served emulator has it, as only it stands in for an API server.
 */
function createKubernetesService(store: ObjectStore, port: number): void {
  createObject(store, serviceResource, 'default', {
    metadata: { name: 'kubernetes', labels: { component: 'apiserver', provider: 'kubernetes' } },
    spec: { type: 'ClusterIP', clusterIP: '10.96.0.1', sessionAffinity: 'None', ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: port }] },
  });
}

/** In-process object access without HTTP (unit tests). */
export function createInMemoryKube(options: InMemoryKubeOptions = {}): ObjectAccess {
  return new ObjectAccess(createObjectStore(options));
}

export class KubeEmulator extends ObjectAccess {
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly https: boolean;
  /** PEM of the self-signed serving certificate (https only). */
  readonly certificateAuthorityPem: string | undefined;
  readonly faults: FaultInjector;
  private readonly counter: RequestCounter;
  private readonly stop: () => Promise<void>;
  private readonly watches: WatchRegistry;
  private closed = false;

  /** Use startKubeEmulator(). */
  constructor(parts: {
    store: ObjectStore;
    url: string;
    host: string;
    port: number;
    https: boolean;
    certificateAuthorityPem: string | undefined;
    faults: FaultInjector;
    counter: RequestCounter;
    watches: WatchRegistry;
    stop: () => Promise<void>;
  }) {
    super(parts.store);
    this.url = parts.url;
    this.host = parts.host;
    this.port = parts.port;
    this.https = parts.https;
    this.certificateAuthorityPem = parts.certificateAuthorityPem;
    this.faults = parts.faults;
    this.counter = parts.counter;
    this.watches = parts.watches;
    this.stop = parts.stop;
  }

  kubeconfigYaml(options: { namespace?: string; name?: string } = {}): string {
    return buildKubeconfig({ server: this.url, ...(this.certificateAuthorityPem ? { certificateAuthorityPem: this.certificateAuthorityPem } : {}), ...options });
  }

  async writeKubeconfig(path: string, options: { namespace?: string; name?: string } = {}): Promise<void> {
    await writeFile(path, this.kubeconfigYaml(options), { mode: 0o600 });
  }

  requestCounts(): RequestCounts {
    return this.counter.snapshot();
  }

  resetRequestCounts(): void {
    this.counter.reset();
  }

  openWatchCount(): number {
    return this.watches.size;
  }

  /** Ends every watch and stops the server. Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.watches.closeAll('end');
    await this.stop();
  }
}

const clientHost = (host: string): string => (host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host);
const urlHost = (host: string): string => (isIPv6(host) ? `[${host}]` : host);

export async function startKubeEmulator(options: KubeEmulatorOptions = {}): Promise<KubeEmulator> {
  const host = options.host ?? '127.0.0.1';
  const bookmarkIntervalMs = options.bookmarkIntervalMs ?? defaultBookmarkIntervalMs;
  checkPositiveInteger('bookmarkIntervalMs', bookmarkIntervalMs);
  const store = createObjectStore(options.watchHistorySize === undefined ? {} : { watchHistorySize: options.watchHistorySize });
  const watches = new WatchRegistry();
  const faults = new FaultInjector(
    {
      dropWatches: (mode) => watches.closeAll(mode),
      compactHistory: () => {
        store.compactHistory();
        return store.resourceVersion;
      },
      openWatches: () => watches.size,
    },
    options.expiredWatchResponse ?? 'error-event',
  );
  const counter = new RequestCounter();
  const reachableHost = clientHost(host);
  const tls = options.https ? generateSelfSignedCertificate(['localhost', '127.0.0.1', '::1', reachableHost]) : undefined;
  let address = '';
  const handler = createRequestHandler({
    store,
    table: resourceTable,
    faults,
    counter,
    watches,
    bookmarkIntervalMs,
    expiredWatchResponse: () => faults.expiredWatchResponse,
    serverAddress: () => address,
  });
  const server = await listen(handler, { host, port: options.port ?? 0, ...(tls ? { tls } : {}) });
  address = `${urlHost(reachableHost)}:${server.port}`;
  createKubernetesService(store, server.port);
  return new KubeEmulator({
    store,
    url: `${options.https ? 'https' : 'http'}://${address}`,
    host,
    port: server.port,
    https: options.https === true,
    certificateAuthorityPem: tls?.certificatePem,
    faults,
    counter,
    watches,
    stop: () => server.close(),
  });
}
