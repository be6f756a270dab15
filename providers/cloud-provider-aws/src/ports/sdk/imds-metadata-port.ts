/**
 * MetadataPort over the EC2 instance metadata service (IMDSv2 with a session token, IMDSv1 when
 * the token endpoint is not there). Endpoint: the `ec2imds` ServiceOverride, else
 * `AWS_EC2_METADATA_SERVICE_ENDPOINT`, else http://169.254.169.254.
 */
import { AwsApiError } from '../aws-api-error.js';
import type { CallOptions } from '@ccm/core/cloud';
import type { MetadataPort } from '../metadata-port.js';

export const DEFAULT_IMDS_ENDPOINT = 'http://169.254.169.254';

export interface ImdsOptions {
  endpoint?: string;
  timeoutMs?: number;
  attempts?: number;
  fetch?: typeof fetch;
}

export function createImdsMetadataPort(options: ImdsOptions = {}): MetadataPort {
  const endpoint = (options.endpoint ?? process.env['AWS_EC2_METADATA_SERVICE_ENDPOINT'] ?? DEFAULT_IMDS_ENDPOINT).replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 2000;
  const attempts = options.attempts ?? 3;
  const fetchFunction = options.fetch ?? fetch;
  let token: { value: string | undefined; expiresAt: number } | undefined;

  const signalFor = (callOptions?: CallOptions): AbortSignal =>
    callOptions?.signal ? AbortSignal.any([callOptions.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);

  async function sessionToken(callOptions?: CallOptions): Promise<string | undefined> {
    if (token && token.expiresAt > Date.now()) return token.value;
    const response = await fetchFunction(`${endpoint}/latest/api/token`, {
      method: 'PUT',
      headers: { 'x-aws-ec2-metadata-token-ttl-seconds': '21600' },
      signal: signalFor(callOptions),
    });
    // No token service (IMDSv1 only): go on without a token.
    const value = response.ok ? await response.text() : undefined;
    token = { value, expiresAt: Date.now() + 6 * 3600_000 - 60_000 };
    return value;
  }

  async function get(path: string, callOptions?: CallOptions): Promise<string> {
    let lastError: unknown;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        const value = await sessionToken(callOptions);
        const response = await fetchFunction(`${endpoint}${path}`, {
          headers: value === undefined ? {} : { 'x-aws-ec2-metadata-token': value },
          signal: signalFor(callOptions),
        });
        if (response.status === 401) token = undefined;
        if (!response.ok) {
          throw new AwsApiError(`GET ${path} returned HTTP ${response.status}`, {
            kind: response.status === 404 ? 'NotFound' : response.status >= 500 ? 'Unavailable' : 'Invalid',
            code: String(response.status),
            operation: 'imds.get',
            retryable: response.status >= 500 || response.status === 401,
            httpStatus: response.status,
          });
        }
        return (await response.text()).trim();
      } catch (error) {
        lastError = error;
        if (callOptions?.signal?.aborted) break;
        if (error instanceof AwsApiError && !error.retryable) break;
      }
    }
    if (lastError instanceof AwsApiError) throw lastError;
    throw new AwsApiError(`instance metadata service at ${endpoint} is not reachable: ${String(lastError)}`, {
      kind: 'Unavailable',
      code: '',
      operation: 'imds.get',
      retryable: true,
      cause: lastError,
    });
  }

  return {
    async region(callOptions) {
      try {
        const document = JSON.parse(await get('/latest/dynamic/instance-identity/document', callOptions)) as { region?: unknown };
        if (typeof document.region === 'string' && document.region !== '') return document.region;
      } catch {
        // Fall back to the plain metadata key below.
      }
      return get('/latest/meta-data/placement/region', callOptions);
    },
    instanceId: (callOptions) => get('/latest/meta-data/instance-id', callOptions),
    availabilityZone: (callOptions) => get('/latest/meta-data/placement/availability-zone', callOptions),
  };
}
