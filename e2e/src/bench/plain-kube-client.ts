/**
 * A plain Kubernetes client for the benchmark's baseline: JSON over HTTP(S) with keep-alive
 * connections, the credentials of a kubeconfig, and a client-side token bucket like the CCM's
 * (`--kube-api-qps` / `--kube-api-burst`, shared by every request). Nothing else: no informer, no
 * retries, no work queue.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';
import { TokenBucket } from '@ccm/core/kube';
import type { KubeWrite } from './node-initialization-writes.js';

export interface PlainKubeClientOptions {
  qps: number;
  burst: number;
}

export class PlainKubeClientError extends Error {
  override readonly name = 'PlainKubeClientError';
  constructor(
    readonly request: string,
    readonly status: number,
    body: string,
  ) {
    super(`${request}: HTTP ${status}: ${body.slice(0, 300)}`);
  }
}

export class PlainKubeClient {
  readonly #server: URL;
  readonly #headers: Record<string, string>;
  readonly #agent: HttpAgent | HttpsAgent;
  readonly #bucket: TokenBucket;
  readonly #streams = new Set<IncomingMessage>();
  #closed = false;

  private constructor(server: URL, token: string | undefined, ca: string | undefined, options: PlainKubeClientOptions) {
    this.#server = server;
    this.#headers = { accept: 'application/json', ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) };
    this.#agent = server.protocol === 'https:' ? new HttpsAgent({ keepAlive: true, ...(ca === undefined ? {} : { ca }) }) : new HttpAgent({ keepAlive: true });
    this.#bucket = new TokenBucket({ qps: options.qps, burst: options.burst });
  }

  /** The cluster and the bearer token of `path`'s current context. */
  static fromKubeconfig(path: string, options: PlainKubeClientOptions): PlainKubeClient {
    const config = new KubeConfig();
    config.loadFromFile(path);
    const cluster = config.getCurrentCluster();
    if (cluster === null) throw new Error(`kubeconfig ${path}: no current cluster`);
    const ca = cluster.caData === undefined ? undefined : Buffer.from(cluster.caData, 'base64').toString('utf8');
    return new PlainKubeClient(new URL(cluster.server), config.getCurrentUser()?.token, ca, options);
  }

  /**
   * Sends `write`; resolves with the answer's JSON, rejects with PlainKubeClientError on a non-2xx
   * answer. A connection the server closed while idle (ECONNRESET, EPIPE on a reused keep-alive
   * socket) is retried up to twice; a retried write answered with a conflict (409) was written
   * by the attempt the connection lost, and counts as written.
   */
  async write(write: KubeWrite): Promise<unknown> {
    const body = JSON.stringify(write.body);
    for (let attempt = 1; ; attempt++) {
      await this.#bucket.take();
      let answer: { status: number; text: string };
      try {
        answer = await this.#send(write.method, write.path, { 'content-type': write.contentType }, body);
      } catch (error) {
        if (attempt < 3 && isConnectionLost(error)) continue;
        throw error;
      }
      if (attempt > 1 && answer.status === 409) return undefined;
      if (answer.status < 200 || answer.status > 299) throw new PlainKubeClientError(`${write.method} ${write.path}`, answer.status, answer.text);
      return JSON.parse(answer.text) as unknown;
    }
  }

  async get(path: string): Promise<unknown> {
    await this.#bucket.take();
    const { status, text } = await this.#send('GET', path, {}, undefined);
    if (status !== 200) throw new PlainKubeClientError(`GET ${path}`, status, text);
    return JSON.parse(text) as unknown;
  }

  /** Watches `path` (a list path) from `resourceVersion`, calling `onEvent` per event line and `onEnd` when the server ends the stream. */
  async watch(path: string, resourceVersion: string, onEvent: (event: { type: string; object: unknown }) => void, onEnd: () => void): Promise<void> {
    await this.#bucket.take();
    const url = new URL(`${path}?watch=true&allowWatchBookmarks=false&resourceVersion=${encodeURIComponent(resourceVersion)}`, this.#server);
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { method: 'GET', headers: this.#headers, agent: this.#agent }, resolve);
      request.on('error', reject);
      request.end();
    });
    if (response.statusCode !== 200) throw new PlainKubeClientError(`GET ${path} (watch)`, response.statusCode ?? 0, '');
    this.#streams.add(response);
    let buffer = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      buffer += chunk;
      for (let newline = buffer.indexOf('\n'); newline >= 0; newline = buffer.indexOf('\n')) {
        const line = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        if (line !== '') onEvent(JSON.parse(line) as { type: string; object: unknown });
      }
    });
    response.on('error', () => undefined);
    response.on('close', () => {
      const ended = this.#streams.delete(response);
      if (ended && !this.#closed) onEnd();
    });
  }

  close(): void {
    this.#closed = true;
    for (const stream of this.#streams) stream.destroy();
    this.#agent.destroy();
  }

  #send(method: string, path: string, headers: Record<string, string>, body: string | undefined): Promise<{ status: number; text: string }> {
    const url = new URL(path, this.#server);
    return new Promise((resolve, reject) => {
      const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { method, headers: { ...this.#headers, ...headers }, agent: this.#agent }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        response.on('error', reject);
      });
      request.on('error', reject);
      request.end(body);
    });
  }
}

function isConnectionLost(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === 'ECONNRESET' || code === 'EPIPE';
}
