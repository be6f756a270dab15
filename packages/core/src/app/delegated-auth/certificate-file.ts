/**
 * A CA bundle read from a file (`--client-ca-file`, `--requestheader-client-ca-file`) and read
 * again every minute, like upstream's `DynamicFileCAContent`: a rotated file is picked up without
 * a restart; a file that becomes unreadable or invalid keeps the last good bundle (and is logged).
 */
import type { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Logger } from '../../logging/logger.js';
import { CertificateBundleError, parseCertificateBundle } from './certificate-bundle.js';

export interface WatchedCertificateFile {
  current(): readonly X509Certificate[];
  close(): void;
}

export const CERTIFICATE_FILE_RELOAD_INTERVAL_MS = 60_000;

/** `flag` names the flag in messages (`--client-ca-file`). Throws CertificateBundleError when the file is unusable at start. */
export async function watchCertificateFile(flag: string, path: string, logger: Logger, intervalMs = CERTIFICATE_FILE_RELOAD_INTERVAL_MS): Promise<WatchedCertificateFile> {
  const source = `${flag} ${path}`;
  let text = await readText(source, path);
  let certificates = parseCertificateBundle(text, source);
  const timer = setInterval(() => {
    void (async () => {
      try {
        const next = await readText(source, path);
        if (next === text) return;
        certificates = parseCertificateBundle(next, source);
        text = next;
        logger.info('Loaded a changed certificate authority bundle', { flag, path, certificates: certificates.length });
      } catch (error) {
        logger.warn('Keeping the previous certificate authority bundle', { flag, path, reason: (error as Error).message });
      }
    })();
  }, intervalMs);
  timer.unref();
  return { current: () => certificates, close: () => clearInterval(timer) };
}

async function readText(source: string, path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new CertificateBundleError('Unreadable', `cannot read ${source}: ${reason}`, { cause: error });
  }
}
