import { request } from 'node:https';

export interface EndpointResponse {
  status: number;
  body: string;
}

export interface SecurePortRequest {
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  headers?: Record<string, string | string[]>;
  clientCertificate?: { certificatePem: string; privateKeyPem: string };
  method?: string;
  /** Default 127.0.0.1. */
  host?: string;
}

export interface SecurePortResponse extends EndpointResponse {
  contentType: string | undefined;
}

/**
 * A request to the CCM's secure port, as its clients make them (anonymous, a bearer token, a
 * client certificate, extra headers). The CCM serves a self-signed certificate, so the
 * certificate is not verified (this is a test talking to a process it started).
 */
export function fetchSecurePort(port: number, path: string, options: SecurePortRequest = {}, timeoutMs = 5_000): Promise<SecurePortResponse> {
  const host = options.host ?? '127.0.0.1';
  const headers: Record<string, string | string[]> = { accept: '*/*', ...options.headers };
  if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host,
        port,
        path,
        method: options.method ?? 'GET',
        headers,
        rejectUnauthorized: false,
        timeout: timeoutMs,
        agent: false,
        ...(options.clientCertificate ? { cert: options.clientCertificate.certificatePem, key: options.clientCertificate.privateKeyPem } : {}),
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, contentType: response.headers['content-type'], body }));
        response.on('error', reject);
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error(`${options.method ?? 'GET'} https://${host}:${port}${path} timed out after ${timeoutMs} ms`)));
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** GETs a path from the CCM's secure port anonymously: status and body. */
export async function fetchCcmEndpoint(port: number, path: string, timeoutMs = 5_000, host = '127.0.0.1'): Promise<EndpointResponse> {
  const { status, body } = await fetchSecurePort(port, path, { host }, timeoutMs);
  return { status, body };
}

/** One sample line of the Prometheus text format. */
export interface MetricSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Metric family names declared by `# TYPE` lines, plus names of samples without one. */
export function metricFamilyNames(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const line of exposition.split('\n')) {
    const typeLine = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) /.exec(line);
    if (typeLine?.[1] !== undefined) names.add(typeLine[1]);
  }
  for (const sample of parseMetricSamples(exposition)) {
    const family = sample.name.replace(/_(bucket|sum|count)$/, '');
    if (!names.has(family) && !names.has(sample.name)) names.add(sample.name);
  }
  return names;
}

function unescapeLabelValue(value: string): string {
  return value.replace(/\\(["\\n])/g, (_match, character: string) => (character === 'n' ? '\n' : character));
}

/** Parses the sample lines of the Prometheus text format (comments are skipped). */
export function parseMetricSamples(exposition: string): MetricSample[] {
  const samples: MetricSample[] = [];
  for (const rawLine of exposition.split('\n')) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match?.[1] || match[4] === undefined) continue;
    const labels: Record<string, string> = {};
    const labelText = match[3] ?? '';
    for (const label of labelText.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      if (label[1] !== undefined && label[2] !== undefined) labels[label[1]] = unescapeLabelValue(label[2]);
    }
    samples.push({ name: match[1], labels, value: Number(match[4]) });
  }
  return samples;
}
