import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { request as httpsRequest, Agent } from 'node:https';
import type { AddressInfo } from 'node:net';

/** One request that went through the proxy, as the API server answered it. */
export interface RecordedKubeRequest {
  /**
   * Order of completion (the response's end) across every proxy of this process: for two
   * requests in flight at once, the one answered first most likely saw the older state.
   */
  sequence: number;
  /** Tick of the request's arrival, on the same clock as `sequence`. */
  startedAt: number;
  /** Who sent it: the proxy's label (e.g. `ccm` or `harness`). */
  client: string;
  method: string;
  /** Path and query, as sent. */
  url: string;
  contentType: string | undefined;
  /** The request body as text (empty when none). */
  body: string;
  status: number;
  /** The response body as text; cut for watches (streams) and at 1 MiB. */
  responseBody: string;
  /** True for `?watch=true` / `?watch=1` requests (streamed responses). */
  watch: boolean;
}

export interface KubeApiProxyOptions {
  /** Label stored with every recorded request. */
  label: string;
  /** The API server, e.g. `https://127.0.0.1:6443`. */
  upstream: string;
  /** PEM CA of the upstream's serving certificate. */
  upstreamCa: string;
  /** Client certificate and key presented upstream (the admin proxy). */
  upstreamClientCertificate?: { cert: string; key: string };
  /** Serve TLS with this certificate (PEM); plain HTTP when absent. */
  serveTls?: { cert: string; key: string };
  /** Keep every request in memory (see `recorded()`). */
  record?: boolean;
  /** Told of every request as it starts and ends (counting without keeping bodies). */
  observer?: KubeApiProxyObserver;
}

/** What a proxy tells an observer about one request. */
export interface ProxiedRequestInfo {
  method: string;
  url: string;
  watch: boolean;
  /** 0 until the answer's status is known. */
  status: number;
}

export interface KubeApiProxyObserver {
  started?(request: ProxiedRequestInfo): void;
  finished?(request: ProxiedRequestInfo): void;
}

const MAX_RECORDED_BODY = 1024 * 1024;
let nextSequence = 0;
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'host']);

/**
 * A small reverse proxy on 127.0.0.1 in front of a real kube-apiserver. The harness uses one as
 * its admin endpoint (plain HTTP in, client certificate out, so the test client needs no TLS) and
 * one in front of the CCM (TLS in, the CCM's own bearer token passed through) to record what the
 * CCM asks, for the emulator replay test. Streams (watches) are piped as they come.
 */
export class KubeApiProxy {
  private readonly requests: RecordedKubeRequest[] = [];
  private readonly sockets = new Set<import('node:net').Socket>();
  private readonly agent: Agent;

  private constructor(
    private readonly options: KubeApiProxyOptions,
    private readonly server: Server,
  ) {
    this.agent = new Agent({
      keepAlive: true,
      ca: options.upstreamCa,
      ...(options.upstreamClientCertificate ?? {}),
    });
  }

  static async start(options: KubeApiProxyOptions): Promise<KubeApiProxy> {
    let proxy: KubeApiProxy | undefined;
    const handler = (request: IncomingMessage, response: ServerResponse) => proxy!.forward(request, response);
    const server = options.serveTls ? createHttpsServer({ cert: options.serveTls.cert, key: options.serveTls.key }, handler) : createHttpServer(handler);
    proxy = new KubeApiProxy(options, server);
    server.on('connection', (socket) => {
      proxy!.sockets.add(socket);
      socket.once('close', () => proxy!.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return proxy;
  }

  get url(): string {
    const { port } = this.server.address() as AddressInfo;
    return `${this.options.serveTls ? 'https' : 'http'}://127.0.0.1:${port}`;
  }

  /** Every request so far (only with `record: true`), oldest first. */
  recorded(): readonly RecordedKubeRequest[] {
    return this.requests;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.agent.destroy();
  }

  private forward(request: IncomingMessage, response: ServerResponse): void {
    const requestChunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => requestChunks.push(chunk));
    request.on('end', () => {
      const startedAt = nextSequence++;
      const body = Buffer.concat(requestChunks);
      const headers: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        if (value !== undefined && !HOP_BY_HOP.has(name.toLowerCase())) headers[name] = value;
      }
      if (body.length > 0) headers['content-length'] = String(body.length);
      const target = new URL(request.url ?? '/', this.options.upstream);
      const watchValue = target.searchParams.get('watch');
      const info: ProxiedRequestInfo = { method: request.method ?? 'GET', url: request.url ?? '/', watch: watchValue === 'true' || watchValue === '1', status: 0 };
      this.options.observer?.started?.(info);
      let finished = false;
      const finish = (status: number) => {
        if (finished) return;
        finished = true;
        info.status = status;
        this.options.observer?.finished?.(info);
      };
      const upstream = httpsRequest(target, { method: request.method, headers, agent: this.agent }, (answer) => {
        const answerHeaders: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(answer.headers)) {
          if (value !== undefined && !HOP_BY_HOP.has(name.toLowerCase())) answerHeaders[name] = value;
        }
        response.writeHead(answer.statusCode ?? 502, answerHeaders);
        // Send the headers now: a watch may stay silent for long, and clients wait for them.
        response.flushHeaders();
        const recordedChunks: Buffer[] = [];
        let recordedLength = 0;
        answer.on('data', (chunk: Buffer) => {
          if (this.options.record && recordedLength < MAX_RECORDED_BODY) {
            recordedChunks.push(chunk);
            recordedLength += chunk.length;
          }
          response.write(chunk);
        });
        answer.on('end', () => {
          finish(answer.statusCode ?? 0);
          response.end();
          this.record(startedAt, nextSequence++, request, body, answer.statusCode ?? 0, Buffer.concat(recordedChunks));
        });
        answer.on('error', () => {
          finish(answer.statusCode ?? 0);
          response.destroy();
        });
        response.on('close', () => {
          finish(answer.statusCode ?? 0);
          answer.destroy();
        });
      });
      upstream.on('error', (error) => {
        finish(502);
        if (!response.headersSent) {
          response.writeHead(502, { 'content-type': 'text/plain' });
          response.end(`kube-api-proxy ${this.options.label}: upstream error: ${error.message}`);
        } else {
          response.destroy();
        }
      });
      upstream.end(body);
    });
  }

  /** Forgets what was recorded so far (e.g. the harness's own set-up requests). */
  clearRecorded(): void {
    this.requests.length = 0;
  }

  private record(startedAt: number, sequence: number, request: IncomingMessage, body: Buffer, status: number, responseBody: Buffer): void {
    if (!this.options.record) return;
    const url = request.url ?? '/';
    const query = new URL(url, 'http://proxy').searchParams;
    this.requests.push({
      sequence,
      startedAt,
      client: this.options.label,
      method: request.method ?? 'GET',
      url,
      contentType: request.headers['content-type'],
      body: body.toString('utf8'),
      status,
      responseBody: responseBody.subarray(0, MAX_RECORDED_BODY).toString('utf8'),
      watch: query.get('watch') === 'true' || query.get('watch') === '1',
    });
  }
}
