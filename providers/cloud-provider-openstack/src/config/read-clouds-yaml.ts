/**
 * `clouds.yaml` (the OpenStack SDKs' file, read by upstream through gophercloud's
 * `clientconfig.GetCloudFromYAML`): one entry of `clouds:`, its `auth` block, `region_name`,
 * `interface`, `cacert`, `cert`, `key` and `verify`. Problems name the file and line; no value is
 * ever echoed (passwords and secrets live here).
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { findDuplicateYamlKeys, type CloudConfigProblem } from '@ccm/core/config';
import { LineCounter, isMap, isScalar, parseDocument, type Node, type YAMLMap } from 'yaml';

/** The `clouds.yaml` values that can fill `[Global]` keys (upstream `ReadClouds`). */
export interface CloudsYamlEntry {
  authUrl?: string;
  userId?: string;
  username?: string;
  password?: string;
  projectId?: string;
  projectName?: string;
  domainId?: string;
  domainName?: string;
  projectDomainId?: string;
  projectDomainName?: string;
  userDomainId?: string;
  userDomainName?: string;
  applicationCredentialId?: string;
  applicationCredentialName?: string;
  applicationCredentialSecret?: string;
  regionName?: string;
  endpointType?: string;
  caFile?: string;
  certFile?: string;
  keyFile?: string;
  /** `verify: false`. */
  insecure?: boolean;
}

/** `auth:` keys -> entry properties. */
const AUTH_KEYS: Readonly<Record<string, keyof CloudsYamlEntry>> = {
  auth_url: 'authUrl',
  user_id: 'userId',
  username: 'username',
  password: 'password',
  project_id: 'projectId',
  tenant_id: 'projectId',
  project_name: 'projectName',
  tenant_name: 'projectName',
  domain_id: 'domainId',
  domain_name: 'domainName',
  project_domain_id: 'projectDomainId',
  project_domain_name: 'projectDomainName',
  user_domain_id: 'userDomainId',
  user_domain_name: 'userDomainName',
  application_credential_id: 'applicationCredentialId',
  application_credential_name: 'applicationCredentialName',
  application_credential_secret: 'applicationCredentialSecret',
};

/** Top-level keys of a cloud entry -> entry properties. */
const CLOUD_KEYS: Readonly<Record<string, keyof CloudsYamlEntry>> = {
  region_name: 'regionName',
  interface: 'endpointType',
  endpoint_type: 'endpointType',
  cacert: 'caFile',
  cert: 'certFile',
  key: 'keyFile',
};

export const DEFAULT_CLOUD_NAME = 'openstack';

/**
 * Where `clouds.yaml` is looked for when `clouds-file` is not set: `$OS_CLIENT_CONFIG_FILE`, the
 * working directory, `~/.config/openstack`, `/etc/openstack` (the first that exists).
 */
export function cloudsYamlCandidates(environment: NodeJS.ProcessEnv, workingDirectory: string, home: string = homedir()): string[] {
  const candidates: string[] = [];
  if (environment['OS_CLIENT_CONFIG_FILE'] !== undefined && environment['OS_CLIENT_CONFIG_FILE'] !== '') candidates.push(environment['OS_CLIENT_CONFIG_FILE']);
  candidates.push(join(workingDirectory, 'clouds.yaml'), join(home, '.config', 'openstack', 'clouds.yaml'), '/etc/openstack/clouds.yaml');
  return candidates;
}

export interface CloudsYamlSource {
  /** The file to read (`clouds-file`), or undefined to search the default places. */
  file: string | undefined;
  /** The entry (`cloud`), or undefined for `$OS_CLOUD`, else `openstack`. */
  cloud: string | undefined;
  environment?: NodeJS.ProcessEnv;
  workingDirectory?: string;
  /** Where problems point when no file is found: the cloud.conf key that asked for it. */
  requestedAt: { fileName: string; line?: number };
}

export function readCloudsYaml(source: CloudsYamlSource): { entry: CloudsYamlEntry | undefined; problems: CloudConfigProblem[] } {
  const environment = source.environment ?? process.env;
  const cloudName = source.cloud ?? (environment['OS_CLOUD'] !== undefined && environment['OS_CLOUD'] !== '' ? environment['OS_CLOUD'] : DEFAULT_CLOUD_NAME);
  const requested = (message: string): CloudConfigProblem => ({ fileName: source.requestedAt.fileName, ...(source.requestedAt.line === undefined ? {} : { line: source.requestedAt.line }), message });
  const candidates = source.file === undefined ? cloudsYamlCandidates(environment, source.workingDirectory ?? process.cwd()) : [source.file];
  const file = candidates.find((candidate) => existsSync(candidate));
  if (file === undefined) return { entry: undefined, problems: [requested(`use-clouds: no clouds.yaml found (looked at ${candidates.join(', ')})`)] };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return { entry: undefined, problems: [requested(`use-clouds: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`)] };
  }
  return parseCloudsYaml(text, file, cloudName);
}

/** The entry `cloudName` of a `clouds.yaml` text. */
export function parseCloudsYaml(text: string, fileName: string, cloudName: string): { entry: CloudsYamlEntry | undefined; problems: CloudConfigProblem[] } {
  const lineCounter = new LineCounter();
  // The one-pass duplicate check instead of `uniqueKeys` (quadratic in the keys of a mapping:
  // seconds of CPU for a 256 KiB file of distinct keys).
  const document = parseDocument(text, { lineCounter, uniqueKeys: false });
  const problems: CloudConfigProblem[] = [];
  const lineOf = (node: Node | null | undefined): number | undefined => (node?.range ? lineCounter.linePos(node.range[0]).line : undefined);
  const problem = (node: Node | null | undefined, message: string): void => {
    const line = lineOf(node);
    problems.push(line === undefined ? { fileName, message } : { fileName, line, message });
  };
  for (const error of document.errors) {
    problems.push({ fileName, line: lineCounter.linePos(error.pos[0]).line, message: error.message.split('\n')[0] ?? error.message });
  }
  if (problems.length === 0) {
    for (const duplicate of findDuplicateYamlKeys(document)) problem(duplicate, 'Map keys must be unique');
  }
  if (problems.length > 0) return { entry: undefined, problems };
  const root = document.contents;
  if (!isMap(root)) {
    problem(root, 'a clouds.yaml is a mapping with a `clouds:` key');
    return { entry: undefined, problems };
  }
  const clouds = root.get('clouds', true);
  if (!isMap(clouds)) {
    problem(clouds ?? root, '`clouds:` must be a mapping of cloud names');
    return { entry: undefined, problems };
  }
  const cloud = clouds.get(cloudName, true);
  if (cloud === undefined) {
    problem(clouds, `cloud ${JSON.stringify(cloudName)} not found (found: ${clouds.items.map((pair) => String(isScalar(pair.key) ? pair.key.value : pair.key)).join(', ') || 'none'})`);
    return { entry: undefined, problems };
  }
  if (!isMap(cloud)) {
    problem(cloud as Node, `cloud ${JSON.stringify(cloudName)} must be a mapping`);
    return { entry: undefined, problems };
  }
  const entry: CloudsYamlEntry = {};
  readStrings(cloud, CLOUD_KEYS, entry, problem);
  const verify = cloud.get('verify', true);
  if (verify !== undefined) {
    if (isScalar(verify) && typeof verify.value === 'boolean') entry.insecure = !verify.value;
    else problem(verify as Node, '`verify` must be true or false');
  }
  const auth = cloud.get('auth', true);
  if (auth !== undefined) {
    if (isMap(auth)) readStrings(auth, AUTH_KEYS, entry, problem);
    else problem(auth as Node, '`auth` must be a mapping');
  }
  return { entry: problems.length === 0 ? entry : undefined, problems };
}

function readStrings(map: YAMLMap, keys: Readonly<Record<string, keyof CloudsYamlEntry>>, entry: CloudsYamlEntry, problem: (node: Node | null | undefined, message: string) => void): void {
  for (const [yamlKey, property] of Object.entries(keys)) {
    const node = map.get(yamlKey, true);
    if (node === undefined || node === null) continue;
    if (!isScalar(node) || (typeof node.value !== 'string' && typeof node.value !== 'number')) {
      problem(node as Node, `\`${yamlKey}\` must be a string`);
      continue;
    }
    (entry as Record<string, unknown>)[property] = String(node.value);
  }
}
