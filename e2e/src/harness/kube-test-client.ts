import { request as httpsRequest } from 'node:https';
import type { KubeLease, KubeList, KubeNode, KubeService, ObservedEvent } from './kube-objects.js';

/** A non-2xx answer from the API server. */
export class KubeRequestError extends Error {
  override readonly name = 'KubeRequestError';
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly reason: string | undefined,
    message: string,
  ) {
    super(`${method} ${path}: HTTP ${status}${reason ? ` ${reason}` : ''}: ${message}`);
  }
}

export type PatchKind = 'merge' | 'strategic';

const PATCH_CONTENT_TYPES: Record<PatchKind, string> = {
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
};

interface CoreEventJson {
  type?: string;
  reason?: string;
  message?: string;
  count?: number;
  involvedObject?: ObservedEvent['involvedObject'];
  source?: { component?: string };
  reportingComponent?: string;
}

/**
 * A small typed client for tests, speaking plain JSON over HTTP to the API server the CCM
 * watches. It is deliberately independent of the CCM's own client so a bug there cannot hide
 * itself in the assertions.
 */
export class KubeTestClient {
  private readonly baseUrl: string;
  private tls: { token: string; ca: string } | undefined;

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  /** A client that talks TLS to the API server itself with a bearer token (e.g. a ServiceAccount's). */
  static withTls(server: string, credentials: { token: string; ca: string }): KubeTestClient {
    const client = new KubeTestClient(server);
    client.tls = credentials;
    return client;
  }

  async request<T>(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    const payload = body === undefined ? undefined : JSON.stringify(body);
    if (payload !== undefined) headers['content-type'] = contentType;
    const response = this.tls ? await this.sendTls(method, path, headers, payload) : await this.sendPlain(method, path, headers, payload);
    const text = response.text;
    if (response.status < 200 || response.status > 299) {
      let reason: string | undefined;
      let message = text;
      try {
        const status = JSON.parse(text) as { reason?: string; message?: string };
        reason = status.reason;
        message = status.message ?? text;
      } catch {
        // Not a Status object; keep the raw text.
      }
      throw new KubeRequestError(method, path, response.status, reason, message);
    }
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }

  private async sendPlain(method: string, path: string, headers: Record<string, string>, payload: string | undefined): Promise<{ status: number; text: string }> {
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, ...(payload === undefined ? {} : { body: payload }) });
    return { status: response.status, text: await response.text() };
  }

  private sendTls(method: string, path: string, headers: Record<string, string>, payload: string | undefined): Promise<{ status: number; text: string }> {
    const tls = this.tls!;
    return new Promise((resolve, reject) => {
      const request = httpsRequest(`${this.baseUrl}${path}`, { method, headers: { ...headers, authorization: `Bearer ${tls.token}` }, ca: tls.ca }, (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        response.on('error', reject);
      });
      request.on('error', reject);
      request.end(payload);
    });
  }

  private async findOrUndefined<T>(path: string): Promise<T | undefined> {
    try {
      return await this.request<T>('GET', path);
    } catch (error) {
      if (error instanceof KubeRequestError && error.status === 404) return undefined;
      throw error;
    }
  }

  // Namespaces

  /** Creates the namespace unless it exists. */
  async ensureNamespace(name: string): Promise<void> {
    try {
      await this.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    } catch (error) {
      if (!(error instanceof KubeRequestError && error.status === 409)) throw error;
    }
  }

  /** A TokenRequest for an existing ServiceAccount: its bearer token. */
  async requestServiceAccountToken(namespace: string, name: string, expirationSeconds: number): Promise<string> {
    const answer = await this.request<{ status: { token: string } }>('POST', `/api/v1/namespaces/${namespace}/serviceaccounts/${name}/token`, {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds },
    });
    return answer.status.token;
  }

  // Nodes

  createNode(node: KubeNode): Promise<KubeNode> {
    return this.request('POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', ...node });
  }

  getNode(name: string): Promise<KubeNode> {
    return this.request('GET', `/api/v1/nodes/${encodeURIComponent(name)}`);
  }

  /** The node, or undefined when it does not exist. */
  findNode(name: string): Promise<KubeNode | undefined> {
    return this.findOrUndefined(`/api/v1/nodes/${encodeURIComponent(name)}`);
  }

  async listNodes(): Promise<KubeNode[]> {
    return (await this.request<KubeList<KubeNode>>('GET', '/api/v1/nodes')).items;
  }

  patchNode(name: string, patch: unknown, kind: PatchKind = 'merge'): Promise<KubeNode> {
    return this.request('PATCH', `/api/v1/nodes/${encodeURIComponent(name)}`, patch, PATCH_CONTENT_TYPES[kind]);
  }

  patchNodeStatus(name: string, patch: unknown, kind: PatchKind = 'merge'): Promise<KubeNode> {
    return this.request('PATCH', `/api/v1/nodes/${encodeURIComponent(name)}/status`, patch, PATCH_CONTENT_TYPES[kind]);
  }

  /** Deletes the node; a node that is already gone is fine. */
  async deleteNode(name: string): Promise<void> {
    try {
      await this.request('DELETE', `/api/v1/nodes/${encodeURIComponent(name)}`);
    } catch (error) {
      if (!(error instanceof KubeRequestError && error.status === 404)) throw error;
    }
  }

  // Services

  createService(service: KubeService): Promise<KubeService> {
    const namespace = service.metadata.namespace ?? 'default';
    return this.request('POST', `/api/v1/namespaces/${encodeURIComponent(namespace)}/services`, {
      apiVersion: 'v1',
      kind: 'Service',
      ...service,
    });
  }

  getService(namespace: string, name: string): Promise<KubeService> {
    return this.request('GET', servicePath(namespace, name));
  }

  findService(namespace: string, name: string): Promise<KubeService | undefined> {
    return this.findOrUndefined(servicePath(namespace, name));
  }

  async listServices(namespace: string): Promise<KubeService[]> {
    return (await this.request<KubeList<KubeService>>('GET', `/api/v1/namespaces/${encodeURIComponent(namespace)}/services`)).items;
  }

  patchService(namespace: string, name: string, patch: unknown, kind: PatchKind = 'merge'): Promise<KubeService> {
    return this.request('PATCH', servicePath(namespace, name), patch, PATCH_CONTENT_TYPES[kind]);
  }

  patchServiceStatus(namespace: string, name: string, patch: unknown, kind: PatchKind = 'merge'): Promise<KubeService> {
    return this.request('PATCH', `${servicePath(namespace, name)}/status`, patch, PATCH_CONTENT_TYPES[kind]);
  }

  /** Asks for deletion (the object stays while finalizers remain); a missing service is fine. */
  async deleteService(namespace: string, name: string): Promise<void> {
    try {
      await this.request('DELETE', servicePath(namespace, name));
    } catch (error) {
      if (!(error instanceof KubeRequestError && error.status === 404)) throw error;
    }
  }

  // Leases

  findLease(namespace: string, name: string): Promise<KubeLease | undefined> {
    return this.findOrUndefined(
      `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(namespace)}/leases/${encodeURIComponent(name)}`,
    );
  }

  // Events

  /**
   * Every event in the cluster. core/v1 and events.k8s.io/v1 share one storage in an API
   * server, so the core/v1 view shows events written through either API.
   */
  async listEvents(): Promise<ObservedEvent[]> {
    const core = await this.request<KubeList<CoreEventJson>>('GET', '/api/v1/events');
    return core.items.map((event) => {
      const component = event.source?.component ?? event.reportingComponent;
      return {
        type: event.type ?? '',
        reason: event.reason ?? '',
        message: event.message ?? '',
        involvedObject: event.involvedObject ?? {},
        ...(component ? { component } : {}),
        count: event.count ?? 1,
      };
    });
  }

  /** Events about one object (matched by kind and name, and namespace for namespaced objects). */
  async eventsFor(kind: string, name: string, namespace?: string): Promise<ObservedEvent[]> {
    return (await this.listEvents()).filter(
      (event) =>
        event.involvedObject.kind === kind &&
        event.involvedObject.name === name &&
        (namespace === undefined || event.involvedObject.namespace === namespace),
    );
  }
}

function servicePath(namespace: string, name: string): string {
  return `/api/v1/namespaces/${encodeURIComponent(namespace)}/services/${encodeURIComponent(name)}`;
}
