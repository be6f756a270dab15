/** Starting and stopping the HTTP or HTTPS listener. */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface ListeningServer {
  port: number;
  close(): Promise<void>;
}

export interface ListenOptions {
  host: string;
  port: number;
  tls?: { certificatePem: string; privateKeyPem: string };
}

export function listen(handler: (request: IncomingMessage, response: ServerResponse) => void, options: ListenOptions): Promise<ListeningServer> {
  const server: Server = options.tls ? createHttpsServer({ cert: options.tls.certificatePem, key: options.tls.privateKeyPem }, handler) : createHttpServer(handler);
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once('error', onError);
    server.listen(options.port, options.host, () => {
      server.off('error', onError);
      const address = server.address() as AddressInfo;
      resolve({
        port: address.port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
