/**
 * Turns the raw config (file + environment) into a VsphereConfig with upstream semantics
 * (`validateConfig` of cloud-provider-vsphere's YAML config):
 * - `global.server` adds a vCenter built from the global values, unless an entry has that name;
 * - vCenter keys that are not set inherit from `global` (port, datacenters, round trips, CA
 *   file, thumbprint, IP families, insecure flag, user and password);
 * - credentials: a vCenter Secret, else the global secrets directory or Secret, else
 *   user/password, which are then required;
 * - `secretsDirectory` defaults to /etc/cloud/secrets when that path exists (upstream); the
 *   directory wins over a global Secret (upstream's connection manager uses only the directory
 *   then), which is logged as a warning rather than refused. A directory that is only the default
 *   does not replace user/password set in the config: upstream logs in with those first.
 * Every problem is collected with the place of the offending value.
 */
import type { CloudConfigProblem } from '@ccm/core/config';
import { parseCidrList, type Cidr, type IpFamily } from '../net/ip-address.js';
import { VSPHERE_CONFIG_SECTIONS, type ConfigKeySpec, type NodesKey } from './config-keys.js';
import { problemAt, type ConfigPlace, type RawEntry, type RawSection, type RawVsphereConfig } from './raw-config.js';
import type { CredentialsSource, NodesConfig, VcenterConfig, VsphereConfig } from './vsphere-config.js';

export const DEFAULT_PORT = 443;
export const DEFAULT_ROUND_TRIP_COUNT = 3;
export const DEFAULT_IP_FAMILIES: readonly IpFamily[] = ['ipv4'];
export const DUAL_STACK_SWITCH = 'ENABLE_ALPHA_DUAL_STACK';
/** Upstream `DefaultSecretDirectory`: used when `secretsDirectory` is not set and the path exists. */
export const DEFAULT_SECRETS_DIRECTORY = '/etc/cloud/secrets';

export interface ResolveOptions {
  /** Whether a path exists (for the default secrets directory); none exists when not given. */
  pathExists?: (path: string) => boolean;
}

export interface ResolveResult {
  /** Undefined when there are problems. */
  config: VsphereConfig | undefined;
  problems: CloudConfigProblem[];
  warnings: CloudConfigProblem[];
}

export function resolveVsphereConfig(raw: RawVsphereConfig, environment: Readonly<Record<string, string | undefined>>, options: ResolveOptions = {}): ResolveResult {
  const problems: CloudConfigProblem[] = [...raw.problems];
  const warnings: CloudConfigProblem[] = [...raw.warnings];
  const global = raw.global;
  const string = (section: RawSection, key: string): string => {
    const value = section.entries.get(key)?.value;
    return typeof value === 'string' ? value.trim() : '';
  };
  const number = (section: RawSection, key: string): number => {
    const value = section.entries.get(key)?.value;
    return typeof value === 'number' ? value : 0;
  };
  const flag = (section: RawSection, key: string): boolean => section.entries.get(key)?.value === true;
  const list = (section: RawSection, key: string): readonly string[] => {
    const value = section.entries.get(key)?.value;
    return Array.isArray(value) ? (value as readonly string[]) : [];
  };
  const placeOf = (section: RawSection, key: string): ConfigPlace => section.entries.get(key)?.place ?? section.place;

  for (const [keyId, key] of Object.entries(VSPHERE_CONFIG_SECTIONS.global.keys) as Array<[string, ConfigKeySpec]>) {
    const entry = global.entries.get(keyId);
    if (entry === undefined || entry.place.fileName.startsWith('environment variable')) continue;
    if (key.status === 'accepted-and-ignored') warnings.push(problemAt(entry.place, `global.${key.yaml} is ignored: ${key.note ?? 'not used by this provider'}`));
    if (key.deprecated === true && raw.format === 'yaml') warnings.push(problemAt(entry.place, `global.${key.yaml} is deprecated: ${key.note ?? ''}`));
  }

  // Global defaults.
  const globalPort = number(global, 'port') || DEFAULT_PORT;
  const globalRoundTrips = number(global, 'soapRoundtripCount') || DEFAULT_ROUND_TRIP_COUNT;
  const globalFamilies = list(global, 'ipFamily').length > 0 ? list(global, 'ipFamily') : DEFAULT_IP_FAMILIES;

  // Global credentials: a Secret or a secrets directory.
  const globalSecretName = string(global, 'secretName');
  const globalSecretNamespace = string(global, 'secretNamespace');
  const configuredDirectory = string(global, 'secretsDirectory');
  const directoryIsDefault = configuredDirectory === '' && (options.pathExists?.(DEFAULT_SECRETS_DIRECTORY) ?? false);
  const secretsDirectory = directoryIsDefault ? DEFAULT_SECRETS_DIRECTORY : configuredDirectory;
  let globalCredentials: CredentialsSource | undefined;
  if ((globalSecretName === '') !== (globalSecretNamespace === '')) {
    const place = placeOf(global, globalSecretName === '' ? 'secretNamespace' : 'secretName');
    problems.push(problemAt(place, 'global secretName and secretNamespace must be set together'));
  } else if (secretsDirectory !== '') {
    if (globalSecretName !== '') {
      warnings.push(
        problemAt(
          placeOf(global, 'secretName'),
          `global Secret ${globalSecretNamespace}/${globalSecretName} is not used: the secrets directory ${secretsDirectory}${directoryIsDefault ? ' (the default, which exists)' : ''} takes precedence, as upstream`,
        ),
      );
    }
    globalCredentials = { kind: 'directory', path: secretsDirectory };
  } else if (globalSecretName !== '') {
    globalCredentials = { kind: 'secret', namespace: globalSecretNamespace, name: globalSecretName };
  }

  // The deprecated single vCenter from global.server.
  const entries = new Map(raw.vcenters);
  const globalServer = string(global, 'server');
  if (globalServer !== '' && !entries.has(globalServer)) {
    entries.set(globalServer, { place: placeOf(global, 'server'), entries: new Map<string, RawEntry>() });
  }
  if (entries.size === 0 && raw.incomplete !== true) {
    problems.push({
      fileName: raw.fileName,
      message:
        raw.format === 'ini'
          ? 'no vCenter configured: add a [VirtualCenter "<server>"] section (or server in [Global], or VSPHERE_VCENTER)'
          : 'no vCenter configured: add a vcenter section (or global.server, or VSPHERE_VCENTER)',
    });
  }

  const inlineUsername = (section: RawSection): string => string(section, 'user') || string(global, 'user');
  const inlinePassword = (section: RawSection): string =>
    (section.entries.get('password')?.value as string | undefined) || (global.entries.get('password')?.value as string | undefined) || '';

  const vcenters: VcenterConfig[] = [];
  for (const [name, section] of entries) {
    const label = name === '' ? 'vCenter entry without a name' : `vCenter ${JSON.stringify(name)}`;
    const server = string(section, 'server') || name;
    if (server === '') {
      problems.push(problemAt(section.place, `${label}: no server (give the section a name or set server)`));
      continue;
    }
    const secretName = string(section, 'secretName');
    const secretNamespace = string(section, 'secretNamespace');
    let credentials: CredentialsSource | undefined;
    if ((secretName === '') !== (secretNamespace === '')) {
      problems.push(problemAt(placeOf(section, secretName === '' ? 'secretNamespace' : 'secretName'), `${label}: secretName and secretNamespace must be set together`));
    } else if (secretName !== '') {
      credentials = { kind: 'secret', namespace: secretNamespace, name: secretName };
    } else if (globalCredentials !== undefined && !(directoryIsDefault && globalSecretName === '' && inlineUsername(section) !== '' && inlinePassword(section) !== '')) {
      credentials = globalCredentials;
    } else {
      const username = inlineUsername(section);
      const password = inlinePassword(section);
      if (username === '') problems.push(problemAt(section.place, `${label}: user is not set (set it in the entry or globally, or use a Secret)`));
      if (password === '') problems.push(problemAt(section.place, `${label}: password is not set (set it in the entry or globally, or use a Secret)`));
      credentials = { kind: 'inline', username, password };
    }

    const portSource = number(section, 'port') !== 0 ? section : global;
    const port = number(section, 'port') || globalPort;
    if (port < 1 || port > 65535) problems.push(problemAt(placeOf(portSource, 'port'), `${label}: port ${port} is out of range 1-65535`));

    const thumbprintSource = string(section, 'thumbprint') !== '' ? section : global;
    const thumbprint = string(thumbprintSource, 'thumbprint');
    if (thumbprint !== '' && !/^(?:[0-9A-Fa-f]{40}|[0-9A-Fa-f]{64})$/.test(thumbprint.replace(/:/g, ''))) {
      problems.push(problemAt(placeOf(thumbprintSource, 'thumbprint'), `${label}: thumbprint ${JSON.stringify(thumbprint)} is not a SHA-1 or SHA-256 fingerprint (hex, colons allowed)`));
    }

    const familySource = list(section, 'ipFamily').length > 0 ? section : global;
    const ipFamilies = validateFamilies(list(section, 'ipFamily').length > 0 ? list(section, 'ipFamily') : globalFamilies, placeOf(familySource, 'ipFamily'), label, environment, problems);

    vcenters.push({
      name,
      server,
      port,
      insecure: flag(section, 'insecureFlag') || flag(global, 'insecureFlag'),
      datacenters: list(section, 'datacenters').length > 0 ? list(section, 'datacenters') : list(global, 'datacenters'),
      roundTripCount: number(section, 'soapRoundtripCount') || globalRoundTrips,
      caFile: string(section, 'caFile') || string(global, 'caFile'),
      thumbprint,
      credentials: credentials ?? { kind: 'inline', username: '', password: '' },
      ipFamilies,
      place: section.place,
    });
  }

  const nodes = resolveNodes(raw.nodes, string, placeOf, problems);
  const config: VsphereConfig = { vcenters, labels: { zone: string(raw.labels, 'zone'), region: string(raw.labels, 'region') }, nodes };
  return { config: problems.length > 0 ? undefined : config, problems: sortProblems(problems), warnings: sortProblems(warnings) };
}

function validateFamilies(
  families: readonly string[],
  place: ConfigPlace,
  label: string,
  environment: Readonly<Record<string, string | undefined>>,
  problems: CloudConfigProblem[],
): IpFamily[] {
  const result: IpFamily[] = [];
  for (const family of families) {
    const normalized = family.toLowerCase();
    if (normalized !== 'ipv4' && normalized !== 'ipv6') {
      problems.push(problemAt(place, `${label}: ipFamily ${JSON.stringify(family)} is not ipv4 or ipv6`));
      continue;
    }
    if (result.includes(normalized)) {
      problems.push(problemAt(place, `${label}: ipFamily lists ${normalized} twice`));
      continue;
    }
    result.push(normalized);
  }
  // Present at all counts as set, whatever the value (upstream os.LookupEnv).
  if (result.length > 1 && environment[DUAL_STACK_SWITCH] === undefined) {
    problems.push(problemAt(place, `${label}: two IP families (dual stack) need the environment variable ${DUAL_STACK_SWITCH} to be set`));
  }
  return result.length > 0 ? result : [...DEFAULT_IP_FAMILIES];
}

function resolveNodes(
  section: RawSection,
  string: (section: RawSection, key: string) => string,
  placeOf: (section: RawSection, key: string) => ConfigPlace,
  problems: CloudConfigProblem[],
): NodesConfig {
  const cidrs = (key: NodesKey): Cidr[] => {
    const text = string(section, key);
    if (text === '') return [];
    const parsed = parseCidrList(text);
    if ('invalid' in parsed) {
      problems.push(problemAt(placeOf(section, key), `nodes.${VSPHERE_CONFIG_SECTIONS.nodes.keys[key].yaml}: ${JSON.stringify(parsed.invalid)} is not a CIDR`));
      return [];
    }
    return parsed.cidrs;
  };
  return {
    internalNetworkSubnets: cidrs('internalNetworkSubnetCidr'),
    externalNetworkSubnets: cidrs('externalNetworkSubnetCidr'),
    excludeInternalNetworkSubnets: cidrs('excludeInternalNetworkSubnetCidr'),
    excludeExternalNetworkSubnets: cidrs('excludeExternalNetworkSubnetCidr'),
    internalVmNetworkName: string(section, 'internalVmNetworkName'),
    externalVmNetworkName: string(section, 'externalVmNetworkName'),
  };
}

function sortProblems(problems: CloudConfigProblem[]): CloudConfigProblem[] {
  return [...problems].sort((left, right) => {
    if (left.fileName !== right.fileName) return left.fileName.startsWith('environment') ? 1 : right.fileName.startsWith('environment') ? -1 : 0;
    return (left.line ?? Number.MAX_SAFE_INTEGER) - (right.line ?? Number.MAX_SAFE_INTEGER);
  });
}
