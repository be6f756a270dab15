/**
 * A seeded fault-injecting reverse proxy: put it between a CCM and its cloud (or simulator), or
 * between a CCM and kube-apiserver. Each CCM replica gets a listener of its own, so every request
 * is tagged with the replica that sent it; the proxy records (time, replica, operation, write,
 * fault, status) for every request. HTTPS upstreams get an HTTPS proxy with a certificate of its
 * own (`certificate`: the CCM's CA); the proxy trusts `upstreamCa`.
 */
import { Agent as HttpAgent, createServer as createHttpServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent, createServer as createHttpsServer, request as httpsRequest } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { generateSelfSignedCertificate } from '@ccm/kube-emulator';
import type { CloudFaultFlavor, FaultResponse } from './cloud-fault-flavors.js';
import { FaultPlan, type FaultKind } from './fault-plan.js';
import { isWatchRequest } from './kube-operation.js';
import type { ProxiedRequest } from './proxied-request.js';

export interface FaultInjectingProxyOptions {
  /** Base URL of the real server, e.g. `http://127.0.0.1:5000` or `https://127.0.0.1:6443`. */
  upstream: string;
  /** PEM CA of the upstream's certificate (HTTPS upstreams). */
  upstreamCa?: string;
  /** The operation name of a request (AWS `Action=`, the SOAP method, `update leases`, ...). */
  operationOf(request: ProxiedRequest): string;
  /** True for requests that change the cloud (recorded as writes); default: every method but GET/HEAD. */
  isWrite?(operation: string, request: ProxiedRequest): boolean;
  /** How the upstream answers errors and throttling. */
  flavor: CloudFaultFlavor;
  /** Faults to inject (default none; see `setPlan`). */
  plan?: FaultPlan;
  /** Retry-After of throttling answers (default 1 s). */
  retryAfterSeconds?: number;
  /** How long a `timeout` fault holds the request before resetting it (default 10 s). */
  timeoutMs?: number;
  /** Extra delay of a `slow` fault (default 1.5 s). */
  slowMs?: number;
  /** Keep the response body of these operations in the records (e.g. `update leases`). */
  keepResponseBodyOf?(operation: string): boolean;
  /** Keep the request body of these operations in the records. */
  keepRequestBodyOf?(operation: string): boolean;
}

/** One request through the proxy. Times are `Date.now()` milliseconds. */
export interface ProxyRecord {
  replica: string;
  operation: string;
  method: string;
  path: string;
  write: boolean;
  /** When the request (with its body) arrived. */
  startedAt: number;
  /** When the answer's headers arrived from upstream (or the fault was answered); 0 while pending. */
  answeredAt: number;
  /** The injected fault, if any. */
  fault?: FaultKind | 'watchCut' | 'gone' | 'unreachable';
  /** HTTP status sent to the client (0: the connection was reset or is still pending). */
  status: number;
  requestBody?: string;
  responseBody?: string;
}

/** Counts of injected faults per kind (`unreachable`: outages started with `makeUnreachable`). */
export type FaultCounts = Record<NonNullable<ProxyRecord['fault']>, number>;

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

interface Listener {
  replica: string;
  server: Server;
  url: string;
}

interface OpenWatch {
  record: ProxyRecord;
  response: ServerResponse;
  cut(): void;
}



export class FaultInjectingProxy {
  readonly #options: FaultInjectingProxyOptions;
  readonly #target: URL;
  readonly #agent: HttpAgent | HttpsAgent;
  readonly #certificate: { privateKeyPem: string; certificatePem: string } | undefined;
  readonly #listeners = new Map<string, Listener>();
  readonly #sockets = new Set<Socket>();
  readonly #records: ProxyRecord[] = [];
  readonly #openWatches = new Set<OpenWatch>();
  readonly #pendingTimers = new Set<NodeJS.Timeout>();
  readonly #observers = new Set<(record: ProxyRecord) => void>();
  #plan: FaultPlan;
  #unreachableUntil = 0;
  #outages = 0;
  #goneOnResumeRate = 0;
  #goneRandom: () => number = () => 1;
  #closed = false;

  constructor(options: FaultInjectingProxyOptions) {
    this.#options = options;
    this.#target = new URL(options.upstream);
    const secure = this.#target.protocol === 'https:';
    this.#agent = secure
      ? new HttpsAgent({ keepAlive: true, maxSockets: 64, ...(options.upstreamCa === undefined ? {} : { ca: options.upstreamCa }) })
      : new HttpAgent({ keepAlive: true, maxSockets: 64 });
    this.#certificate = secure ? generateSelfSignedCertificate(['127.0.0.1', 'localhost']) : undefined;
    this.#plan = options.plan ?? FaultPlan.none();
  }

  /** PEM of the proxy's own certificate (HTTPS upstreams): the CA file the CCM must trust. */
  get certificate(): string | undefined {
    return this.#certificate?.certificatePem;
  }

  /** The plan of the requests from now on (`FaultPlan.none()` stops injecting). */
  setPlan(plan: FaultPlan): void {
    this.#plan = plan;
  }

  /**
   * Answers this fraction of watch requests that resume from a resourceVersion with an
   * `Expired` (410 Gone) ERROR event, as kube-apiserver does when the version was compacted.
   */
  setGoneOnResume(rate: number, random: () => number): void {
    this.#goneOnResumeRate = rate;
    this.#goneRandom = random;
  }

  /** A listener for one replica (idempotent); its URL is where that replica must send requests. */
  async listen(replica: string): Promise<string> {
    const existing = this.#listeners.get(replica);
    if (existing !== undefined) return existing.url;
    const handler = (incoming: IncomingMessage, outgoing: ServerResponse): void => {
      this.#handle(replica, incoming, outgoing).catch((error: unknown) => {
        if (!outgoing.headersSent) outgoing.writeHead(500, { 'content-type': 'text/plain' });
        outgoing.end(`fault-injecting proxy: ${error instanceof Error ? error.message : String(error)}`);
      });
    };
    const server =
      this.#certificate === undefined ? createHttpServer(handler) : createHttpsServer({ key: this.#certificate.privateKeyPem, cert: this.#certificate.certificatePem }, handler);
    server.on('connection', (socket: Socket) => {
      if (Date.now() < this.#unreachableUntil) {
        socket.destroy();
        return;
      }
      this.#sockets.add(socket);
      socket.once('close', () => this.#sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const url = `${this.#certificate === undefined ? 'http' : 'https'}://127.0.0.1:${port}`;
    this.#listeners.set(replica, { replica, server, url });
    return url;
  }

  /** Every request so far, oldest first (by arrival). */
  records(): readonly ProxyRecord[] {
    return this.#records;
  }

  clearRecords(): void {
    this.#records.length = 0;
  }

  /** Injected faults per kind so far. */
  faultCounts(): FaultCounts {
    const counts: FaultCounts = { serverError: 0, throttle: 0, timeout: 0, reset: 0, slow: 0, watchCut: 0, gone: 0, unreachable: 0 };
    for (const record of this.#records) if (record.fault !== undefined && record.fault !== 'unreachable') counts[record.fault]++;
    // Outages, not the requests refused during them.
    counts.unreachable = this.#outages;
    return counts;
  }

  /**
   * Calls `observer` with every request as it arrives, before it is faulted or forwarded (a
   * test can act "in the middle" of a request, e.g. kill its sender). Returns the unsubscribe.
   */
  observe(observer: (record: ProxyRecord) => void): () => void {
    this.#observers.add(observer);
    return () => this.#observers.delete(observer);
  }

  /** Cuts every open watch stream now (the client sees the connection end); returns how many. */
  cutWatches(): number {
    const watches = [...this.#openWatches];
    for (const watch of watches) watch.cut();
    return watches.length;
  }

  /**
   * Makes the upstream unreachable for `ms`: open connections are reset and new ones are
   * reset on arrival until the time is up.
   */
  makeUnreachable(ms: number): void {
    this.#unreachableUntil = Date.now() + ms;
    this.#outages += 1;
    this.cutWatches();
    for (const socket of this.#sockets) socket.destroy();
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#pendingTimers) clearTimeout(timer);
    for (const socket of this.#sockets) socket.destroy();
    await Promise.all([...this.#listeners.values()].map(({ server }) => new Promise<void>((resolve) => server.close(() => resolve()))));
    this.#agent.destroy();
  }

  #delay(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#pendingTimers.delete(timer);
        resolve();
      }, ms);
      this.#pendingTimers.add(timer);
    });
  }

  async #handle(replica: string, incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    const body = await readBody(incoming);
    const request: ProxiedRequest = { method: incoming.method ?? 'GET', path: incoming.url ?? '/', headers: incoming.headers, body: body.toString('utf8') };
    const operation = this.#options.operationOf(request);
    const write = this.#options.isWrite?.(operation, request) ?? !['GET', 'HEAD'].includes(request.method.toUpperCase());
    const record: ProxyRecord = { replica, operation, method: request.method, path: request.path, write, startedAt: Date.now(), answeredAt: 0, status: 0 };
    if (this.#options.keepRequestBodyOf?.(operation) === true) record.requestBody = request.body;
    this.#records.push(record);
    for (const observer of this.#observers) observer(record);

    if (Date.now() < this.#unreachableUntil) {
      record.fault = 'unreachable';
      incoming.socket.destroy();
      return;
    }
    const watch = isWatchRequest(request);
    const fault = this.#plan.next(operation);
    if (fault !== undefined) record.fault = fault;
    switch (fault) {
      case 'serverError':
        return this.#answer(record, outgoing, this.#options.flavor.serverError(request));
      case 'throttle':
        return this.#answer(record, outgoing, this.#options.flavor.throttle(request, this.#options.retryAfterSeconds ?? 1));
      case 'reset':
        record.answeredAt = Date.now();
        incoming.socket.destroy();
        return;
      case 'timeout':
        // Nothing comes back; the client gives up first, or the connection is reset.
        await this.#delay(this.#options.timeoutMs ?? 10_000);
        record.answeredAt = Date.now();
        incoming.socket.destroy();
        return;
      case 'slow':
        await this.#delay(this.#options.slowMs ?? 1_500);
        break;
      default:
        break;
    }
    if (this.#closed) return;
    if (watch && this.#goneOnResumeRate > 0) {
      const resourceVersion = new URL(request.path, 'http://proxy').searchParams.get('resourceVersion');
      if (resourceVersion !== null && resourceVersion !== '' && resourceVersion !== '0' && this.#goneRandom() < this.#goneOnResumeRate) {
        record.fault = 'gone';
        return this.#answerGone(record, outgoing, resourceVersion);
      }
    }
    this.#forward(record, request, body, incoming, outgoing, watch);
  }

  #answer(record: ProxyRecord, outgoing: ServerResponse, response: FaultResponse): void {
    record.answeredAt = Date.now();
    record.status = response.status;
    outgoing.writeHead(response.status, { ...response.headers, 'content-length': String(Buffer.byteLength(response.body)) });
    outgoing.end(response.body);
  }

  /** What kube-apiserver streams when a watch resumes from a compacted resourceVersion. */
  #answerGone(record: ProxyRecord, outgoing: ServerResponse, resourceVersion: string): void {
    record.answeredAt = Date.now();
    record.status = 200;
    const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `too old resource version: ${resourceVersion} (injected by the chaos proxy)`, reason: 'Expired', code: 410 };
    outgoing.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
    outgoing.end(`${JSON.stringify({ type: 'ERROR', object: status })}\n`);
  }

  #forward(record: ProxyRecord, request: ProxiedRequest, body: Buffer, incoming: IncomingMessage, outgoing: ServerResponse, watch: boolean): void {
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(incoming.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
    headers['host'] = this.#target.host;
    // The origin the client reached, for servers that echo their own URLs (the Azure simulator's Entra discovery).
    if (incoming.headers.host !== undefined) headers['x-forwarded-host'] = incoming.headers.host;
    headers['content-length'] = String(body.length);
    const send = this.#target.protocol === 'https:' ? httpsRequest : httpRequest;
    const keepBody = this.#options.keepResponseBodyOf?.(record.operation) === true;
    const upstream = send(
      { protocol: this.#target.protocol, hostname: this.#target.hostname, port: this.#target.port, method: request.method, path: request.path, headers, agent: this.#agent },
      (answer) => {
        record.answeredAt = Date.now();
        record.status = answer.statusCode ?? 502;
        const answerHeaders: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) answerHeaders[name] = value;
        outgoing.writeHead(record.status, answerHeaders);
        outgoing.flushHeaders();
        const chunks: Buffer[] = [];
        let open: OpenWatch | undefined;
        if (watch) {
          open = {
            record,
            response: outgoing,
            cut: () => {
              record.fault ??= 'watchCut';
              answer.destroy();
              outgoing.destroy();
            },
          };
          this.#openWatches.add(open);
        }
        answer.on('data', (chunk: Buffer) => {
          if (keepBody) chunks.push(chunk);
          outgoing.write(chunk);
        });
        answer.on('end', () => {
          if (keepBody) record.responseBody = Buffer.concat(chunks).toString('utf8');
          outgoing.end();
        });
        answer.on('error', () => outgoing.destroy());
        outgoing.on('close', () => {
          if (open !== undefined) this.#openWatches.delete(open);
          answer.destroy();
        });
      },
    );
    upstream.on('error', (error) => {
      if (!outgoing.headersSent) {
        record.answeredAt = Date.now();
        record.status = 502;
        outgoing.writeHead(502, { 'content-type': 'text/plain' });
        outgoing.end(`fault-injecting proxy: ${this.#target.origin} did not answer: ${error.message}`);
      } else {
        outgoing.destroy();
      }
    });
    upstream.end(body);
  }
}


