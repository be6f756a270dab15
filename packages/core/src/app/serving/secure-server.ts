/**
 * The HTTPS listener on `--bind-address:--secure-port`. An unspecified bind address (0.0.0.0 or
 * ::) listens on every interface and both IP families when the host has IPv6 (as Go does),
 * falling back to IPv4 only.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { SecureVersion } from 'node:tls';
import type { CertificateAndKey } from './self-signed-certificate.js';

export interface SecureServerOptions {
  bindAddress: string;
  /** 0 picks a free port (tests); the command never calls this with `--secure-port=0`. */
  port: number;
  certificate: CertificateAndKey;
  /** `--tls-min-version` (VersionTLS12 ...); default Node's (TLS 1.2). */
  minVersion?: string;
  handler: Parameters<typeof createServer>[1];
  /**
   * Ask clients for a certificate (TLS CertificateRequest) without requiring one: delegated
   * authentication verifies it against the client CA or the front proxy CA, which can change
   * while serving. Default false.
   */
  requestClientCertificate?: boolean;
}

export interface RunningSecureServer {
  readonly address: AddressInfo;
  close(): Promise<void>;
}

export class ListenError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ListenError';
  }
}

const TLS_VERSIONS: Readonly<Record<string, SecureVersion>> = {
  VersionTLS10: 'TLSv1',
  VersionTLS11: 'TLSv1.1',
  VersionTLS12: 'TLSv1.2',
  VersionTLS13: 'TLSv1.3',
};

export async function startSecureServer(options: SecureServerOptions): Promise<RunningSecureServer> {
  const minVersion = options.minVersion ? TLS_VERSIONS[options.minVersion] : undefined;
  const server = createServer(
    {
      cert: options.certificate.certificatePem,
      key: options.certificate.privateKeyPem,
      ...(minVersion ? { minVersion } : {}),
      ...(options.requestClientCertificate ? { requestCert: true, rejectUnauthorized: false } : {}),
    },
    options.handler,
  );
  server.keepAliveTimeout = 5_000;
  const unspecified = options.bindAddress === '' || options.bindAddress === '0.0.0.0' || options.bindAddress === '::';
  if (unspecified) {
    try {
      await listen(server, '::', options.port);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EAFNOSUPPORT' && code !== 'EADDRNOTAVAIL') throw describeListenError(error, options.bindAddress || '0.0.0.0', options.port);
      await listen(server, '0.0.0.0', options.port).catch((fallbackError: unknown) => {
        throw describeListenError(fallbackError, '0.0.0.0', options.port);
      });
    }
  } else {
    await listen(server, options.bindAddress, options.port).catch((error: unknown) => {
      throw describeListenError(error, options.bindAddress, options.port);
    });
  }
  return {
    address: server.address() as AddressInfo,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => {
      server.off('listening', onListening);
      reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen({ host, port });
  });
}

function describeListenError(error: unknown, host: string, port: number): ListenError {
  const code = (error as NodeJS.ErrnoException).code;
  const reason =
    code === 'EADDRINUSE' ? 'address already in use' : code === 'EACCES' ? 'permission denied' : code === 'EADDRNOTAVAIL' ? 'address not available on this host' : (error as Error).message;
  const address = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  return new ListenError(`cannot serve HTTPS on ${address} (--bind-address, --secure-port): ${reason}`, { cause: error });
}
