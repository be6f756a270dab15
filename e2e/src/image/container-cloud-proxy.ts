/**
 * An HTTP proxy in front of a cloud simulator that records which container sent each request:
 * the containers share the host's network (hostNetwork), so a connection is traced to its
 * process by the socket inode (/proc/net/tcp, /proc/<pid>/fd) and the process to its container
 * by its cgroup (the pod runner puts container <id> in /ccm-pod-runner/<id>). Runs as root.
 */
import { readdir, readFile, readlink } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface AttributedRequest {
  at: number;
  method: string;
  path: string;
  /** The container id (`<pod>-<token>-<n>`), or a description of why it is unknown. */
  container: string;
}

/** Inode of the TCP socket whose local port is `localPort` and remote port `remotePort` (IPv4 and IPv6 tables). */
async function socketInode(localPort: number, remotePort: number): Promise<string | undefined> {
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = await readFile(table, 'utf8').catch(() => '');
    for (const line of text.split('\n').slice(1)) {
      const columns = line.trim().split(/\s+/);
      if (columns.length < 10) continue;
      const local = parseInt(columns[1]!.split(':')[1]!, 16);
      const remote = parseInt(columns[2]!.split(':')[1]!, 16);
      if (local === localPort && remote === remotePort) return columns[9];
    }
  }
  return undefined;
}

/** The container (per its cgroup) of the process holding socket `inode`. */
async function containerOfSocket(inode: string): Promise<string | undefined> {
  const wanted = `socket:[${inode}]`;
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cgroup = await readFile(`/proc/${entry}/cgroup`, 'utf8').catch(() => '');
    const match = /\/ccm-pod-runner\/([^/\n]+)/.exec(cgroup);
    if (match === null) continue;
    const descriptors = await readdir(`/proc/${entry}/fd`).catch(() => [] as string[]);
    for (const descriptor of descriptors) {
      if ((await readlink(`/proc/${entry}/fd/${descriptor}`).catch(() => '')) === wanted) return match[1];
    }
  }
  return undefined;
}

export class ContainerCloudProxy {
  private readonly requests: AttributedRequest[] = [];
  private readonly owners = new WeakMap<Socket, Promise<string>>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(upstream: string): Promise<ContainerCloudProxy> {
    const target = new URL(upstream);
    let proxy: ContainerCloudProxy | undefined;
    const server = createServer((incoming: IncomingMessage, response: ServerResponse) => void proxy!.forward(target, incoming, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    proxy = new ContainerCloudProxy(server, `http://127.0.0.1:${port}`);
    server.on('connection', (socket: Socket) => {
      // Traced once per connection, while it is open (the client side is a container's socket).
      proxy!.owners.set(
        socket,
        (async () => {
          const inode = await socketInode(socket.remotePort ?? 0, port);
          if (inode === undefined) return `(no socket for port ${socket.remotePort})`;
          return (await containerOfSocket(inode)) ?? '(not a pod-runner container)';
        })(),
      );
    });
    return proxy;
  }

  private async forward(target: URL, incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const at = Date.now();
    const container = (await this.owners.get(incoming.socket)) ?? '(unknown connection)';
    this.requests.push({ at, method: incoming.method ?? 'GET', path: incoming.url ?? '/', container });
    const outgoing = httpRequest(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: { ...incoming.headers, host: target.host } },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    outgoing.on('error', (error) => {
      response.writeHead(502).end(error.message);
    });
    incoming.pipe(outgoing);
  }

  /** Every request so far, oldest first. */
  recorded(): readonly AttributedRequest[] {
    return this.requests;
  }

  /** Requests that change the cloud (anything but GET and HEAD). */
  writes(): AttributedRequest[] {
    return this.requests.filter((entry) => entry.method !== 'GET' && entry.method !== 'HEAD');
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
