/**
 * The metadata port over HTTP, as Google's clients do it: `http://<host>/computeMetadata/v1/<path>`
 * with `Metadata-Flavor: Google`, the host from `GCE_METADATA_HOST` (else `metadata.google.internal.`),
 * a short timeout per attempt and a few attempts (the server is local; a slow answer means it is
 * not there), and the answer accepted only when it carries `Metadata-Flavor: Google`.
 */
import { GceMetadataError, type MetadataPort } from '../metadata-port.js';

export const DEFAULT_METADATA_HOST = 'metadata.google.internal.';
const ATTEMPTS = 3;
const ATTEMPT_TIMEOUT_MS = 3_000;

export interface HttpMetadataPortOptions {
  /** Default: `GCE_METADATA_HOST`, else `metadata.google.internal.`. */
  host?: string;
  /** Pause before attempt n (1-based); default 200 ms * n. */
  backoffMs?: (attempt: number) => number;
}

export function createHttpMetadataPort(options: HttpMetadataPortOptions = {}): MetadataPort {
  const host = options.host ?? (process.env['GCE_METADATA_HOST'] || DEFAULT_METADATA_HOST);
  const backoffMs = options.backoffMs ?? ((attempt: number) => 200 * attempt);
  const readOnce = async (path: string): Promise<string> => {
    let response: Response;
    try {
      response = await fetch(`http://${host}/computeMetadata/v1/${path}`, { headers: { 'Metadata-Flavor': 'Google' }, signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS) });
    } catch (error) {
      throw new GceMetadataError(path, `${host} did not answer (${error instanceof Error ? error.message : String(error)})`, { cause: error });
    }
    const text = await response.text();
    if (response.headers.get('metadata-flavor') !== 'Google') throw new GceMetadataError(path, `${host} answered without Metadata-Flavor: Google (not a metadata server)`);
    if (response.status === 404) throw new GceMetadataError(path, 'not defined');
    if (!response.ok) throw new GceMetadataError(path, `HTTP ${response.status}`);
    return text.trim();
  };
  return {
    host,
    async get(path: string): Promise<string> {
      let last: GceMetadataError | undefined;
      for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
        try {
          return await readOnce(path);
        } catch (error) {
          last = error as GceMetadataError;
          if (last.reason === 'not defined' || attempt === ATTEMPTS) break;
          await new Promise((resolve) => setTimeout(resolve, backoffMs(attempt)));
        }
      }
      throw last ?? new GceMetadataError(path, 'no answer');
    },
  };
}
