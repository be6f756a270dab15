/**
 * TLS settings for every request: default system roots; `caFile`/`ca` trusts that bundle only;
 * `certFile`+`keyFile` present a client certificate; `insecure` skips verification.
 */
import { readFileSync } from 'node:fs';
import { Agent } from 'undici';
import { OpenStackError } from '../openstack-error.js';

export interface OpenStackTlsOptions {
  caFile?: string;
  /** PEM text instead of `caFile`. */
  ca?: string;
  certFile?: string;
  keyFile?: string;
  insecure?: boolean;
}

function readPem(path: string, what: string, marker: RegExp): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new OpenStackError(`cannot read the ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { kind: 'InvalidConfiguration', operation: 'TLS setup', cause: error });
  }
  if (!marker.test(text)) throw new OpenStackError(`the ${what} ${path} holds no PEM block`, { kind: 'InvalidConfiguration', operation: 'TLS setup' });
  return text;
}

export function createOpenStackDispatcher(options: OpenStackTlsOptions = {}, connectTimeoutMs = 30_000): Agent {
  const ca = options.ca ?? (options.caFile ? readPem(options.caFile, 'CA file', /-----BEGIN CERTIFICATE-----/) : undefined);
  if ((options.certFile === undefined) !== (options.keyFile === undefined)) {
    throw new OpenStackError('a client certificate needs both certFile and keyFile', { kind: 'InvalidConfiguration', operation: 'TLS setup' });
  }
  const cert = options.certFile ? readPem(options.certFile, 'client certificate', /-----BEGIN CERTIFICATE-----/) : undefined;
  const key = options.keyFile ? readPem(options.keyFile, 'client key', /-----BEGIN [A-Z ]*PRIVATE KEY-----/) : undefined;
  return new Agent({
    connect: {
      timeout: connectTimeoutMs,
      ...(options.insecure ? { rejectUnauthorized: false } : ca === undefined ? {} : { ca }),
      ...(cert === undefined || key === undefined ? {} : { cert, key }),
    },
  });
}
