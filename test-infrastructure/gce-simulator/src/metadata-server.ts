/**
 * The GCE metadata server as seen from the machine the CCM runs on (`/computeMetadata/v1/`, what
 * `GCE_METADATA_HOST` points clients at): the project, the instance's zone, hostname and network,
 * and the default service account's access token. Rules of the real server that clients rely on:
 * requests need `Metadata-Flavor: Google` (403 otherwise), requests carrying `X-Forwarded-For` are
 * refused (403), every answer carries `Metadata-Flavor: Google`, values are `text/plain` except
 * the token (JSON), and a directory answers its entries one per line.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export const METADATA_PREFIX = '/computeMetadata/v1/';

/** The instance the metadata server describes (the CCM's own machine). */
export interface MetadataInstance {
  name: string;
  zone: string;
  /** Numeric instance ID, as a decimal string. */
  id: string;
  machineType: string;
  network: string;
  /** Primary internal IP, when known. */
  ip?: string;
}

export interface MetadataContext {
  project: string;
  numericProjectId: string;
  instance: MetadataInstance;
  /** Issues an access token the Compute API accepts. */
  issueToken(): { token: string; lifetimeSeconds: number };
  serviceAccountEmail: string;
}

type MetadataValue = string | (() => { json: unknown });

function values(context: MetadataContext): Map<string, MetadataValue> {
  const { instance, numericProjectId } = context;
  const entries: Array<[string, MetadataValue]> = [
    ['project/project-id', context.project],
    ['project/numeric-project-id', numericProjectId],
    ['instance/id', instance.id],
    ['instance/name', instance.name],
    ['instance/hostname', `${instance.name}.${instance.zone}.c.${context.project}.internal`],
    ['instance/zone', `projects/${numericProjectId}/zones/${instance.zone}`],
    ['instance/machine-type', `projects/${numericProjectId}/machineTypes/${instance.machineType}`],
    ['instance/network-interfaces/0/network', `projects/${numericProjectId}/networks/${instance.network}`],
    ['instance/service-accounts/default/email', context.serviceAccountEmail],
    ['instance/service-accounts/default/scopes', 'https://www.googleapis.com/auth/compute\nhttps://www.googleapis.com/auth/cloud-platform'],
    [
      'instance/service-accounts/default/token',
      () => {
        const { token, lifetimeSeconds } = context.issueToken();
        return { json: { access_token: token, expires_in: lifetimeSeconds, token_type: 'Bearer' } };
      },
    ],
  ];
  if (instance.ip !== undefined) entries.push(['instance/network-interfaces/0/ip', instance.ip]);
  return new Map(entries);
}

function answer(response: ServerResponse, status: number, contentType: string, text: string): void {
  response.writeHead(status, { 'metadata-flavor': 'Google', 'content-type': contentType, 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

/** Answers one request under `/computeMetadata/v1/`. */
export function handleMetadataRequest(request: IncomingMessage, response: ServerResponse, context: MetadataContext): void {
  if (request.headers['x-forwarded-for'] !== undefined) {
    answer(response, 403, 'text/html; charset=UTF-8', 'Request denied: X-Forwarded-For is not allowed.\n');
    return;
  }
  if (request.headers['metadata-flavor'] !== 'Google') {
    answer(response, 403, 'text/html; charset=UTF-8', 'Missing Metadata-Flavor:Google header.\n');
    return;
  }
  if (request.method !== 'GET') {
    answer(response, 405, 'text/html; charset=UTF-8', 'Method not allowed.\n');
    return;
  }
  const url = new URL(request.url ?? '/', 'http://metadata.google.internal');
  const path = url.pathname.slice(METADATA_PREFIX.length).replace(/\/+$/, '');
  const known = values(context);
  const value = known.get(path);
  if (typeof value === 'string') {
    answer(response, 200, 'application/text', value);
    return;
  }
  if (value !== undefined) {
    answer(response, 200, 'application/json', JSON.stringify(value().json));
    return;
  }
  // A directory: its direct entries, sub-directories with a trailing slash.
  const prefix = path === '' ? '' : `${path}/`;
  const entries = new Set<string>();
  for (const key of known.keys()) {
    if (!key.startsWith(prefix)) continue;
    const rest = key.slice(prefix.length);
    const slash = rest.indexOf('/');
    entries.add(slash === -1 ? rest : `${rest.slice(0, slash)}/`);
  }
  if (entries.size === 0) {
    answer(response, 404, 'text/html; charset=UTF-8', `The requested URL ${url.pathname} was not found on this server.\n`);
    return;
  }
  answer(response, 200, 'application/text', `${[...entries].sort().join('\n')}\n`);
}
