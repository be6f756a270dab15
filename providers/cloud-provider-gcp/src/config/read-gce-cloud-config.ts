/**
 * Reads gce.conf: parse everything, report every problem with file and line, then validate
 * (upstream `readConfig` with `gcfg.FatalOnly`: unknown keys are warnings). The project, zone and
 * network may be left out: `completeFromMetadata` then asks the metadata server, as upstream.
 */
import { CloudConfigError, parseGcfg, type CloudConfigProblem } from '@ccm/core/config';
import { DEFAULT_API_ENDPOINT, GCE_CLOUD_CONFIG_SCHEMA, TOKEN_URL_NIL } from './cloud-config-schema.js';

export const DEFAULT_CLOUD_CONFIG_FILE_NAME = 'gce.conf';

export type StackType = '' | 'IPV4' | 'IPV6' | 'IPV4_IPV6';

/** Where the Compute API is: the SDK takes protocol, host and port; the path is always `/compute/v1/`. */
export interface ComputeEndpoint {
  protocol: 'http' | 'https';
  host: string;
  port: number;
  /** The normalised base, `<protocol>://<host>:<port>/compute/v1/`, as written into selfLinks. */
  baseUrl: string;
}

/** How the CCM authenticates: an alternate token source, or Application Default Credentials. */
export type GceCredentialsSource = { kind: 'token-url'; url: string; body: string } | { kind: 'application-default' };

export interface GceCloudConfig {
  projectId: string;
  networkProjectId: string;
  /** The network's name (the last path element when the key holds a URL). */
  networkName: string;
  subnetworkName: string;
  nodeTags: string[];
  nodeInstancePrefix: string;
  regional: boolean;
  multizone: boolean;
  endpoint: ComputeEndpoint;
  localZone: string;
  region: string;
  stackType: StackType;
  alphaFeatures: string[];
  credentials: GceCredentialsSource;
}

/** Upstream `GetGCERegion`: the zone without its last `-x` part (`us-central1-b` -> `us-central1`). */
export function regionOfZone(zone: string): string | undefined {
  const cut = zone.lastIndexOf('-');
  return cut <= 0 ? undefined : zone.slice(0, cut);
}

/** The last path element of a name-or-URL value. */
export function lastPathElement(value: string): string {
  return value.replace(/\/+$/, '').split('/').at(-1) ?? value;
}

export function parseComputeEndpoint(value: string): ComputeEndpoint | string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `unsupported scheme ${url.protocol}`;
  const path = url.pathname.replace(/projects\/?$/, '');
  if (!/^\/compute\/v1\/?$/.test(path)) return `its path must be /compute/v1/ (got ${url.pathname})`;
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  const port = url.port === '' ? (protocol === 'http' ? 80 : 443) : Number(url.port);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return { protocol, host, port, baseUrl: `${protocol}://${url.host}/compute/v1/` };
}

export function readGceCloudConfig(text: string | undefined, fileName = DEFAULT_CLOUD_CONFIG_FILE_NAME): { config: GceCloudConfig; warnings: CloudConfigProblem[] } {
  const document = parseGcfg(text ?? '', fileName);
  const { config: raw, problems, warnings } = GCE_CLOUD_CONFIG_SCHEMA.read(document, { unknown: 'warning' });
  const global = raw.global;
  const at = (variable: string): number | undefined => document.variable('global', variable)?.line;
  const problem = (variable: string, message: string): void => {
    const line = at(variable);
    problems.push(line === undefined ? { fileName, message: `section [global], key "${variable}": ${message}` } : { fileName, line, message: `section [global], key "${variable}": ${message}` });
  };

  const region = global.localZone === '' ? '' : (regionOfZone(global.localZone) ?? '');
  if (global.localZone !== '' && region === '') problem('local-zone', `cannot derive a region from zone ${JSON.stringify(global.localZone)}`);
  const endpoint = parseComputeEndpoint(global.apiEndpoint === '' ? DEFAULT_API_ENDPOINT : global.apiEndpoint);
  if (typeof endpoint === 'string') problem('api-endpoint', `${JSON.stringify(global.apiEndpoint)}: ${endpoint}`);
  let credentials: GceCredentialsSource = { kind: 'application-default' };
  if (global.tokenUrl !== '' && global.tokenUrl !== TOKEN_URL_NIL) {
    try {
      new URL(global.tokenUrl);
      credentials = { kind: 'token-url', url: global.tokenUrl, body: global.tokenBody };
    } catch {
      problem('token-url', `${JSON.stringify(global.tokenUrl)} is not a URL (or "nil")`);
    }
  }
  for (const tag of global.nodeTags) if (!/^[a-z]([-a-z0-9]*[a-z0-9])?$/.test(tag)) problem('node-tags', `${JSON.stringify(tag)} is not a valid network tag`);

  if (problems.length > 0) throw new CloudConfigError(problems.sort((left, right) => (left.line ?? Infinity) - (right.line ?? Infinity)));
  return {
    config: {
      projectId: global.projectId,
      networkProjectId: global.networkProjectId === '' ? global.projectId : global.networkProjectId,
      networkName: lastPathElement(global.networkName),
      subnetworkName: lastPathElement(global.subnetworkName),
      nodeTags: [...global.nodeTags],
      nodeInstancePrefix: global.nodeInstancePrefix,
      regional: global.regional,
      multizone: global.multizone,
      endpoint: endpoint as ComputeEndpoint,
      localZone: global.localZone,
      region,
      stackType: global.stackType as StackType,
      alphaFeatures: [...global.alphaFeatures],
      credentials,
    },
    warnings,
  };
}
