/**
 * The undici dispatcher carrying a vCenter's TLS settings, shared by the SOAP and REST clients:
 * - default: verify the certificate against the system roots;
 * - `caFile` / `ca`: verify against that CA bundle only (as govmomi's `SetRootCAs`);
 * - `thumbprint`: accept exactly the certificate with this SHA-1 (or SHA-256) fingerprint,
 *   whoever signed it (govmomi `SetThumbprint`), for self-signed vCenter certificates;
 * - `insecure`: no verification at all (upstream `insecure-flag`).
 */
import { readFileSync } from 'node:fs';
import type { TLSSocket } from 'node:tls';
import { Agent, buildConnector } from 'undici';

export interface VsphereTlsOptions {
  insecure?: boolean;
  /** A PEM file with the CA certificate(s) to trust. */
  caFile?: string;
  /** PEM text, instead of `caFile`. */
  ca?: string;
  /** `AB:CD:...` (colons and case ignored), SHA-1 or SHA-256. */
  thumbprint?: string;
  /** Connection timeout; default 30 s. */
  connectTimeoutMs?: number;
}

export class VsphereTlsConfigError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'VsphereTlsConfigError';
  }
}

/** Checks the options (thumbprint format, CA file readable) without building a dispatcher. */
export function checkVsphereTlsOptions(options: VsphereTlsOptions): void {
  const thumbprint = options.thumbprint === undefined || options.thumbprint.trim() === '' ? undefined : normalizeThumbprint(options.thumbprint);
  if (thumbprint !== undefined && !/^(?:[0-9A-F]{40}|[0-9A-F]{64})$/.test(thumbprint)) {
    throw new VsphereTlsConfigError(`thumbprint ${JSON.stringify(options.thumbprint)} is not a SHA-1 or SHA-256 fingerprint (hex, colons allowed)`);
  }
  if (thumbprint === undefined && !options.insecure && options.ca === undefined && options.caFile !== undefined && options.caFile !== '') readCaFile(options.caFile);
}

export function createVsphereDispatcher(options: VsphereTlsOptions = {}): Agent {
  checkVsphereTlsOptions(options);
  const timeout = options.connectTimeoutMs ?? 30_000;
  const thumbprint = options.thumbprint === undefined || options.thumbprint.trim() === '' ? undefined : normalizeThumbprint(options.thumbprint);
  if (thumbprint !== undefined) {
    const connector = buildConnector({ rejectUnauthorized: false, timeout });
    return new Agent({
      connect: (connectOptions, callback) => {
        connector(connectOptions, (error, socket) => {
          if (error !== null) {
            callback(error, null);
            return;
          }
          const certificate = (socket as TLSSocket).getPeerCertificate?.();
          const seen = [certificate?.fingerprint, certificate?.fingerprint256].filter((value): value is string => typeof value === 'string').map(normalizeThumbprint);
          if (!seen.includes(thumbprint)) {
            socket.destroy();
            const mismatch = new Error(`THUMBPRINT_MISMATCH: the server certificate of ${connectOptions.hostname} has thumbprint ${certificate?.fingerprint ?? 'unknown'}, not the configured one`);
            callback(mismatch, null);
            return;
          }
          callback(null, socket);
        });
      },
    });
  }
  if (options.insecure) return new Agent({ connect: { rejectUnauthorized: false, timeout } });
  const ca = options.ca ?? (options.caFile === undefined || options.caFile === '' ? undefined : readCaFile(options.caFile));
  return new Agent({ connect: ca === undefined ? { timeout } : { ca, timeout } });
}

export function normalizeThumbprint(text: string): string {
  return text.replace(/[:\s]/g, '').toUpperCase();
}

function readCaFile(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new VsphereTlsConfigError(`cannot read the CA file ${path}: ${(error as { code?: string }).code ?? (error as Error).message}`, { cause: error });
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----')) throw new VsphereTlsConfigError(`the CA file ${path} holds no PEM certificate`);
  return text;
}
