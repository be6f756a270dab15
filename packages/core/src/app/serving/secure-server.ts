/**
 * The HTTPS listener on `--bind-address:--secure-port`. An unspecified bind address (0.0.0.0 or
 * ::) listens on every interface and both IP families when the host has IPv6 (as Go does),
 * falling back to IPv4 only.
 *
 * Hardened against slow and greedy clients ({@link SECURE_SERVER_LIMITS}): the request headers
 * must arrive within 32 s (upstream's `ReadHeaderTimeout`), the whole request within 60 s, the TLS
 * handshake within 10 s; at most 1024 connections are open at once (more are closed on accept);
 * idle keep-alive connections close after 5 s. TLS options come from `tls-options.ts`.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { CertificateAndKey } from './self-signed-certificate.js';
import { nodeTlsOptions } from './tls-options.js';

export interface SecureServerOptions {
  bindAddress: string;
  /** 0 picks a free port (tests); the command never calls this with `--secure-port=0`. */
  port: number;
  certificate: CertificateAndKey;
  /** `--tls-min-version` (VersionTLS12 ...); default Node's (TLS 1.2). */
  minVersion?: string;
  /** `--tls-cipher-suites` (Go names); default Node's. */
  cipherSuites?: readonly string[];
  /** `--tls-curve-preferences` (Go names or IDs); default Node's. */
  curvePreferences?: readonly string[];
  /** Overrides of {@link SECURE_SERVER_LIMITS} (tests). */
  limits?: Partial<SecureServerLimits>;
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

export interface SecureServerLimits {
  /** Time to receive the request headers (Go's `ReadHeaderTimeout`, 32 s upstream). */
  headersTimeoutMs: number;
  /** Time to receive the whole request. */
  requestTimeoutMs: number;
  /** Time to finish the TLS handshake. */
  handshakeTimeoutMs: number;
  /** Connections open at once; more are closed as they are accepted. */
  maxConnections: number;
  /** Idle keep-alive connections close after this. */
  keepAliveTimeoutMs: number;
  /** How often the headers and request timeouts are checked. */
  timeoutCheckIntervalMs: number;
}

export const SECURE_SERVER_LIMITS: Readonly<SecureServerLimits> = {
  headersTimeoutMs: 32_000,
  requestTimeoutMs: 60_000,
  handshakeTimeoutMs: 10_000,
  maxConnections: 1024,
  keepAliveTimeoutMs: 5_000,
  timeoutCheckIntervalMs: 2_000,
};

export async function startSecureServer(options: SecureServerOptions): Promise<RunningSecureServer> {
  const tls = nodeTlsOptions({
    ...(options.minVersion !== undefined ? { minVersion: options.minVersion } : {}),
    ...(options.cipherSuites !== undefined ? { cipherSuites: options.cipherSuites } : {}),
    ...(options.curvePreferences !== undefined ? { curvePreferences: options.curvePreferences } : {}),
  });
  const limits: SecureServerLimits = { ...SECURE_SERVER_LIMITS, ...options.limits };
  const server = createServer(
    {
      cert: options.certificate.certificatePem,
      key: options.certificate.privateKeyPem,
      ...(tls.minVersion ? { minVersion: tls.minVersion } : {}),
      ...(tls.ciphers ? { ciphers: tls.ciphers } : {}),
      ...(tls.ecdhCurve ? { ecdhCurve: tls.ecdhCurve } : {}),
      ...(options.requestClientCertificate ? { requestCert: true, rejectUnauthorized: false } : {}),
      handshakeTimeout: limits.handshakeTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: limits.timeoutCheckIntervalMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
    },
    options.handler,
  );
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.maxConnections = limits.maxConnections;
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
