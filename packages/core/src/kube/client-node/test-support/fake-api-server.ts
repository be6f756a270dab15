/**
 * A scripted fake Kubernetes API server for adapter tests: tests register route handlers, read the
 * recorded requests, and drive open watch streams (send events, close, fail). Listens on
 * 127.0.0.1 with a free port; `close()` ends every open stream.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type RouteHandler = (request: RecordedRequest) => Reply | Promise<Reply>;

export interface OpenWatch {
  request: RecordedRequest;
  send(type: string, object: unknown): void;
  /** Ends the stream normally (server-side timeout). */
  end(): void;
  /** Destroys the connection (transport error on the client). */
  destroy(): void;
  readonly closed: boolean;
}

export class FakeApiServer {
  readonly requests: RecordedRequest[] = [];
  readonly watches: OpenWatch[] = [];
  #routes: Array<{ method: string; path: RegExp; handler: RouteHandler; watch: boolean }> = [];
  #watchWaiters: Array<() => void> = [];
  #server = createServer((request, response) => void this.#handle(request, response));
  #port = 0;

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.#port = (this.#server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    for (const watch of this.watches) watch.destroy();
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }

  get url(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  /** A KubeConfig pointing at this server (plain http, so skipTLSVerify is set). */
  kubeConfig(): KubeConfig {
    const config = new KubeConfig();
    config.loadFromOptions({
      clusters: [{ name: 'fake', server: this.url, skipTLSVerify: true }],
      users: [{ name: 'fake', token: 'fake-token' }],
      contexts: [{ name: 'fake', cluster: 'fake', user: 'fake' }],
      currentContext: 'fake',
    });
    return config;
  }

  /** Handles non-watch requests matching `method` and `path` (later registrations win). */
  on(method: string, path: RegExp, handler: RouteHandler): void {
    this.#routes.unshift({ method, path, handler, watch: false });
  }

  /** Handles `?watch=true` requests on `path`: the handler may reply (e.g. 410) or return undefined to open a stream. */
  onWatch(path: RegExp, handler: (request: RecordedRequest) => Reply | undefined = () => undefined): void {
    this.#routes.unshift({ method: 'GET', path, handler: (request) => handler(request) ?? { status: -1 }, watch: true });
  }

  /** Resolves when at least `count` watch streams have been opened in total. */
  async waitForWatches(count: number): Promise<OpenWatch> {
    while (this.watches.length < count) await new Promise<void>((resolve) => this.#watchWaiters.push(resolve));
    return this.watches[count - 1] as OpenWatch;
  }

  requestsTo(method: string, path: RegExp): RecordedRequest[] {
    return this.requests.filter((request) => request.method === method && path.test(request.path));
  }

  async #handle(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const url = new URL(incoming.url ?? '/', 'http://localhost');
    const request: RecordedRequest = {
      method: incoming.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: incoming.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    this.requests.push(request);
    const isWatch = url.searchParams.get('watch') === 'true';
    const route = this.#routes.find((candidate) => candidate.method === request.method && candidate.watch === isWatch && candidate.path.test(request.path));
    if (route === undefined) {
      this.#reply(response, { status: 404, body: status(404, 'NotFound', `no fake route for ${request.method} ${request.path}`) });
      return;
    }
    const reply = await route.handler(request);
    if (route.watch && reply.status === -1) {
      this.#openWatch(request, response);
      return;
    }
    this.#reply(response, reply);
  }

  #reply(response: ServerResponse, reply: Reply): void {
    response.statusCode = reply.status ?? 200;
    response.setHeader('content-type', 'application/json');
    for (const [name, value] of Object.entries(reply.headers ?? {})) response.setHeader(name, value);
    response.end(reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
  }

  #openWatch(request: RecordedRequest, response: ServerResponse): void {
    response.statusCode = 200;
    response.setHeader('content-type', 'application/json');
    response.flushHeaders();
    let closed = false;
    response.on('close', () => (closed = true));
    const watch: OpenWatch = {
      request,
      send: (type, object) => {
        if (!closed) response.write(`${JSON.stringify({ type, object })}\n`);
      },
      end: () => {
        closed = true;
        response.end();
      },
      destroy: () => {
        closed = true;
        response.destroy();
      },
      get closed() {
        return closed;
      },
    };
    this.watches.push(watch);
    for (const waiter of this.#watchWaiters.splice(0)) waiter();
  }
}

/** A metav1.Status body. */
export function status(code: number, reason: string, message: string): Record<string, unknown> {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
}
