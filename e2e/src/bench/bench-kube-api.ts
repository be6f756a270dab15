/**
 * The Kubernetes side of a benchmark row: @ccm/kube-emulator in this process (the default: fast,
 * no Go) or the real kube-apiserver (`--kube-api real`), behind one small interface so a scenario
 * does not care which. On the real server the CCM runs with its ServiceAccount's token and the
 * sandbox overlay's RBAC, through a counting proxy.
 */
import { startKubeEmulator, type KubeEmulator } from '@ccm/kube-emulator';
import { RealBackend } from '../harness/kube-api-backend.js';
import type { ProxiedRequestInfo } from '../harness/kube-api-proxy.js';
import { KubeTestClient } from '../harness/kube-test-client.js';

export type BenchKubeApiKind = 'emulator' | 'real';

export interface KubeRequestCounts {
  /** Writes (create, update, patch, delete) of the CCM since the last reset. */
  writes: number;
  /** Per resource and verb. */
  byResource: Record<string, Record<string, number>>;
}

/** A node as the benchmark sees it change. */
export interface ObservedNodeChange {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: Record<string, unknown>;
}

export interface BenchKubeApi {
  readonly kind: BenchKubeApiKind;
  writeCcmKubeconfig(path: string): Promise<void>;
  /** Registers Nodes as kubelets do, as fast as the server takes them. */
  createNodes(nodes: object[], onCreating: (name: string) => void): Promise<void>;
  /** Calls `listener` for every change of a Node; returns the unsubscribe function. */
  watchNodes(listener: (change: ObservedNodeChange) => void): Promise<() => void>;
  /** Watches the CCM holds open right now. */
  openCcmWatches(): number;
  requestCounts(): KubeRequestCounts;
  resetRequestCounts(): void;
  close(): Promise<void>;
}

/** `manifestsOverlay`: whose RBAC the CCM gets on the real server (`manifests/<overlay>`). */
export async function startBenchKubeApi(kind: BenchKubeApiKind, manifestsOverlay = 'sandbox'): Promise<BenchKubeApi> {
  return kind === 'real' ? RealBenchKubeApi.start(manifestsOverlay) : new EmulatorBenchKubeApi(await startKubeEmulator({ host: '127.0.0.1', port: 0 }));
}

class EmulatorBenchKubeApi implements BenchKubeApi {
  readonly kind = 'emulator' as const;

  constructor(readonly emulator: KubeEmulator) {}

  writeCcmKubeconfig(path: string): Promise<void> {
    return this.emulator.writeKubeconfig(path);
  }

  async createNodes(nodes: object[], onCreating: (name: string) => void): Promise<void> {
    for (const node of nodes) {
      onCreating(nameOf(node));
      this.emulator.create('nodes', node);
    }
  }

  async watchNodes(listener: (change: ObservedNodeChange) => void): Promise<() => void> {
    return this.emulator.onChange((change) => {
      if (change.resource === 'nodes') listener({ type: change.type as ObservedNodeChange['type'], object: change.object as Record<string, unknown> });
    });
  }

  openCcmWatches(): number {
    return this.emulator.openWatchCount();
  }

  requestCounts(): KubeRequestCounts {
    const counts = this.emulator.requestCounts();
    return { writes: counts.writes, byResource: counts.byResource };
  }

  resetRequestCounts(): void {
    this.emulator.resetRequestCounts();
  }

  close(): Promise<void> {
    return this.emulator.close();
  }
}

const WRITE_VERBS: Record<string, string> = { POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };

/** `/api/v1/nodes/n1/status` -> `nodes/status`; `/apis/coordination.k8s.io/v1/namespaces/x/leases/y` -> `leases`. */
export function resourceOfPath(url: string): string {
  const parts = new URL(url, 'http://bench').pathname.split('/').filter(Boolean);
  const rest = parts[0] === 'api' ? parts.slice(2) : parts.slice(3);
  const withoutNamespace = rest[0] === 'namespaces' && rest.length > 2 ? rest.slice(2) : rest;
  const [resource, , subresource] = withoutNamespace;
  return subresource ? `${resource}/${subresource}` : (resource ?? '');
}

class RealBenchKubeApi implements BenchKubeApi {
  readonly kind = 'real' as const;
  private counts: KubeRequestCounts = { writes: 0, byResource: {} };
  private watches = 0;
  private readonly streams = new Set<AbortController>();
  private backend!: RealBackend;

  static async start(manifestsOverlay: string): Promise<RealBenchKubeApi> {
    const api = new RealBenchKubeApi();
    api.backend = await RealBackend.start({
      manifestsOverlay,
      auditLog: false,
      ccmObserver: { started: (request) => api.started(request), finished: (request) => api.finished(request) },
    });
    return api;
  }

  private started(request: ProxiedRequestInfo): void {
    if (request.watch) this.watches += 1;
  }

  private finished(request: ProxiedRequestInfo): void {
    if (request.watch) this.watches -= 1;
    const verb = WRITE_VERBS[request.method];
    if (verb === undefined || request.status < 200 || request.status > 299) return;
    this.counts.writes += 1;
    const resource = resourceOfPath(request.url);
    const verbs = (this.counts.byResource[resource] ??= {});
    verbs[verb] = (verbs[verb] ?? 0) + 1;
  }

  writeCcmKubeconfig(path: string): Promise<void> {
    return this.backend.writeCcmKubeconfig(path);
  }

  async createNodes(nodes: object[], onCreating: (name: string) => void): Promise<void> {
    const client = new KubeTestClient(this.backend.testClientUrl);
    const queue = [...nodes];
    // As many kubelets registering at once as the API server's default max-requests-inflight allows.
    const workers = Array.from({ length: 64 }, async () => {
      for (let node = queue.shift(); node !== undefined; node = queue.shift()) {
        onCreating(nameOf(node));
        await client.request('POST', '/api/v1/nodes', node);
      }
    });
    await Promise.all(workers);
  }

  /**
   * Watches Nodes until unsubscribed. The API server closes a watch whose reader falls behind (on
   * a busy machine, in a storm of thousands of nodes) and ends every watch after its timeout: the
   * watch is then opened again from the last version seen, and after a 410 (that version is gone)
   * the Nodes are listed and each is reported as MODIFIED before watching from the list's version.
   */
  async watchNodes(listener: (change: ObservedNodeChange) => void): Promise<() => void> {
    const abort = new AbortController();
    this.streams.add(abort);
    const baseUrl = this.backend.testClientUrl;
    let resourceVersion: string | undefined;
    const relist = async (): Promise<void> => {
      const list = (await (await fetch(`${baseUrl}/api/v1/nodes`, { signal: abort.signal })).json()) as { metadata: { resourceVersion: string }; items: Array<Record<string, unknown>> };
      for (const object of list.items) listener({ type: 'MODIFIED', object });
      resourceVersion = list.metadata.resourceVersion;
    };
    const watchOnce = async (): Promise<void> => {
      const query = resourceVersion === undefined ? '' : `&resourceVersion=${encodeURIComponent(resourceVersion)}`;
      const response = await fetch(`${baseUrl}/api/v1/nodes?watch=true&allowWatchBookmarks=true${query}`, { signal: abort.signal });
      if (!response.ok || response.body === null) throw new Error(`watching nodes on the real kube-apiserver: HTTP ${response.status}`);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        for (let newline = buffer.indexOf('\n'); newline >= 0; newline = buffer.indexOf('\n')) {
          const line = buffer.slice(0, newline).trim();
          buffer = buffer.slice(newline + 1);
          if (line === '') continue;
          const event = JSON.parse(line) as { type: string; object: Record<string, unknown> & { code?: number; metadata?: { resourceVersion?: string } } };
          if (event.type === 'ERROR') {
            if (event.object.code === 410) await relist();
            return;
          }
          resourceVersion = event.object.metadata?.resourceVersion ?? resourceVersion;
          if (event.type === 'ADDED' || event.type === 'MODIFIED' || event.type === 'DELETED') listener(event as ObservedNodeChange);
        }
      }
    };
    // Changes after this version are reported, however late the first watch opens.
    const first = await fetch(`${baseUrl}/api/v1/nodes?limit=1`, { signal: abort.signal });
    resourceVersion = ((await first.json()) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    void (async () => {
      while (!abort.signal.aborted) {
        try {
          await watchOnce();
        } catch {
          if (abort.signal.aborted) return;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    })();
    return () => {
      abort.abort();
      this.streams.delete(abort);
    };
  }

  openCcmWatches(): number {
    return this.watches;
  }

  requestCounts(): KubeRequestCounts {
    return { writes: this.counts.writes, byResource: structuredClone(this.counts.byResource) };
  }

  resetRequestCounts(): void {
    this.counts = { writes: 0, byResource: {} };
  }

  async close(): Promise<void> {
    for (const stream of this.streams) stream.abort();
    await this.backend.close();
  }
}

function nameOf(node: object): string {
  return ((node as { metadata?: { name?: string } }).metadata?.name ?? '') as string;
}
