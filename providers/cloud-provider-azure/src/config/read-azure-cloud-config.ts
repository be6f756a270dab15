/**
 * Reads upstream's `azure.json` (JSON, or YAML with the same keys) into the typed config. Every
 * problem is collected with its file and line (a malformed file, a key of the wrong type, a
 * required key missing, a value out of range) and thrown as one `CloudConfigError`; unknown keys
 * and keys set that this provider does not support are warnings.
 */
import { CloudConfigError, type CloudConfigProblem } from '@ccm/core/config';
import { LineCounter, isMap, isScalar, isSeq, parseDocument, type Node, type Pair } from 'yaml';
import { AZURE_CONFIG_KEYS_BY_NAME, type ConfigKeySpec } from './azure-config-keys.js';
import { CREDENTIAL_KEYS, resolveAzureCredential, type AzureCredentialConfig } from './azure-credential-config.js';

export const DEFAULT_CLOUD_CONFIG_FILE_NAME = 'azure.json';

/** The ARM endpoint and Entra authority of the named clouds (upstream azclient `AzureClouds`). */
export const AZURE_CLOUDS: Readonly<Record<string, { resourceManagerEndpoint: string; activeDirectoryEndpoint: string; tokenAudience: string }>> = {
  AzurePublicCloud: { resourceManagerEndpoint: 'https://management.azure.com/', activeDirectoryEndpoint: 'https://login.microsoftonline.com/', tokenAudience: 'https://management.azure.com' },
  AzureChinaCloud: { resourceManagerEndpoint: 'https://management.chinacloudapi.cn/', activeDirectoryEndpoint: 'https://login.chinacloudapi.cn/', tokenAudience: 'https://management.chinacloudapi.cn' },
  AzureUSGovernmentCloud: { resourceManagerEndpoint: 'https://management.usgovcloudapi.net/', activeDirectoryEndpoint: 'https://login.microsoftonline.us/', tokenAudience: 'https://management.usgovcloudapi.net' },
};

export type AzureVmType = 'vmss' | 'standard' | 'vmssflex';
export type AzureBackendPoolType = 'nodeIPConfiguration' | 'nodeIP';

export interface AzureCloudConfig {
  cloud: string;
  resourceManagerEndpoint: string;
  activeDirectoryEndpoint: string;
  /** `<audience>/.default`. */
  tokenScope: string;
  /** True for a custom cloud (an authority Entra's instance discovery does not know). */
  customCloud: boolean;
  userAgent: string;
  tenantId: string;
  subscriptionId: string;
  aadClientId: string;
  aadClientSecret: string;
  /** The Entra credential chosen as upstream does; undefined until the Secret brings it (cloudConfigType merge / secret). */
  credential: AzureCredentialConfig | undefined;
  /** Credential keys set that lose to the chosen credential (upstream's precedence). */
  ignoredCredentialKeys: string[];
  cloudConfigType: 'file' | 'secret' | 'merge';
  location: string;
  resourceGroup: string;
  vnetName: string;
  vnetResourceGroup: string;
  subnetName: string;
  securityGroupName: string;
  securityGroupResourceGroup: string;
  routeTableName: string;
  routeTableResourceGroup: string;
  vmType: AzureVmType;
  disableAvailabilitySetNodes: boolean;
  enableVmssFlexNodes: boolean;
  /** From `tags` and `tagsMap`. */
  tags: Record<string, string>;
  loadBalancerName: string;
  loadBalancerResourceGroup: string;
  excludeMasterFromStandardLB: boolean;
  disableOutboundSnat: boolean;
  maximumLoadBalancerRuleCount: number;
  /** `loadBalancerBackendPoolConfigurationType` (`podIP` is refused). */
  backendPoolType: AzureBackendPoolType;
  vmCacheTtlSeconds: number;
  vmssCacheTtlSeconds: number;
  vmssVirtualMachinesCacheTtlSeconds: number;
  disableApiCallCache: boolean;
  /** A node younger than this exists even when its VM is not found (0: off; upstream #10604). */
  nodeInstanceNotFoundGracePeriodSeconds: number;
}

type RawValue = string | boolean | number | Record<string, string> | unknown[] | Record<string, unknown>;

/** The keys a file sets, with their lines, before defaults and validation. */
export interface AzureConfigValues {
  fileName: string;
  values: Map<string, RawValue>;
  lines: Map<string, number>;
}

/** The keys that may come from the `azure-cloud-provider` Secret instead of the file (`cloudConfigType` merge / secret). */
export const CONNECTION_KEYS: readonly string[] = ['cloud', 'resourceManagerEndpoint', 'activeDirectoryEndpoint', 'tenantId', 'subscriptionId', 'aadClientId', 'userAgent', ...CREDENTIAL_KEYS];

/** The environment the credential reads (upstream's workload identity variables); tests pass their own. */
export type ConfigEnvironment = Readonly<Record<string, string | undefined>>;

export function readAzureCloudConfig(text: string | undefined, fileName: string, environment: ConfigEnvironment = process.env): { config: AzureCloudConfig; warnings: CloudConfigProblem[]; file: AzureConfigValues } {
  if (text === undefined) throw new CloudConfigError({ fileName, message: 'the Azure provider needs a cloud config (azure.json): pass --cloud-config' });
  const parsed = parseAzureConfigValues(text, fileName);
  const cloudConfigType = parsed.values.get('cloudConfigType') ?? 'merge';
  // With merge or secret, the credentials may come from the Secret: checked when it is read.
  let config: AzureCloudConfig;
  try {
    config = resolveAzureCloudConfig([parsed], { requireConnection: cloudConfigType === 'file', environment });
  } catch (error) {
    if (error instanceof CloudConfigError) throw new CloudConfigError([...parsed.problems, ...error.problems]);
    throw error;
  }
  if (parsed.problems.length > 0) throw new CloudConfigError(parsed.problems);
  return { config, warnings: parsed.warnings, file: { fileName, values: parsed.values, lines: parsed.lines } };
}

/** Every key of `text` with its line, and the problems of values of the wrong type; throws one `CloudConfigError` for malformed text. */
export function parseAzureConfigValues(text: string, fileName: string): AzureConfigValues & { warnings: CloudConfigProblem[]; problems: CloudConfigProblem[] } {
  const problems: CloudConfigProblem[] = [];
  const warnings: CloudConfigProblem[] = [];
  const values = new Map<string, RawValue>();
  const lines = new Map<string, number>();
  const lineCounter = new LineCounter();
  // JSON (upstream's format) is checked strictly, and first: V8's parser is linear where the YAML
  // parser builds one error per line of a damaged file (seconds for a file of stray braces).
  const json = text.trimStart().startsWith('{') ? jsonErrorOf(text) : undefined;
  if (json?.position !== undefined) throw new CloudConfigError({ fileName, line: lineOfPosition(text, json.position), message: `malformed JSON: ${json.message}` });
  let document: ReturnType<typeof parseDocument>;
  try {
    document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  } catch (error) {
    // The yaml parser recurses per block map line of some shapes (thousands of repeated lines):
    // its stack overflow is a malformed file, not a crash.
    if (error instanceof RangeError) throw new CloudConfigError({ fileName, message: `malformed: ${firstLine(error.message)} (the file is too long or too deeply nested to parse)` });
    throw error;
  }
  for (const error of document.errors) problems.push({ fileName, line: lineCounter.linePos(error.pos[0]).line, message: `malformed: ${firstLine(error.message)}` });
  if (problems.length > 0) throw new CloudConfigError(problems);
  const lineOf = (node: Node | null | undefined): number | undefined => (node?.range?.[0] === undefined ? undefined : lineCounter.linePos(node.range[0]).line);
  // Valid YAML but not JSON (YAML would read `"key": ,` as null).
  if (json !== undefined) throw new CloudConfigError({ fileName, ...withLine(lineOfMissingValue(document.contents, lineOf)), message: `malformed JSON: ${json.message}` });
  const root = document.contents;
  if (root !== null && !(isScalar(root) && (root.value === null || root.value === ''))) {
    if (!isMap(root)) throw new CloudConfigError({ fileName, ...withLine(lineOf(root)), message: 'the cloud config must be a JSON object' });
    for (const pair of root.items as Array<Pair<Node, Node | null>>) {
      const name = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      const line = lineOf(pair.key);
      const spec = AZURE_CONFIG_KEYS_BY_NAME.get(name);
      if (spec === undefined) {
        warnings.push({ fileName, ...withLine(line), message: `unknown key ${JSON.stringify(name)}; ignored` });
        continue;
      }
      const value = readValue(pair.value, spec);
      if (typeof value === 'string' && value.startsWith('\0')) {
        problems.push({ fileName, ...withLine(lineOf(pair.value) ?? line), message: `key ${JSON.stringify(name)}: ${value.slice(1)}` });
        continue;
      }
      if (value === undefined) continue;
      values.set(name, value);
      if (line !== undefined) lines.set(name, line);
      if (spec.status === 'not-supported' && !isDefault(value, spec)) {
        warnings.push({ fileName, ...withLine(line), message: `key ${JSON.stringify(name)} is not supported by this provider (${spec.description}); ignored` });
      }
    }
  }

  return { fileName, values, lines, warnings, problems };
}

/**
 * The typed config of one or more sources, later sources overriding earlier ones key by key
 * (the file, then the Secret). With `requireConnection` false, missing connection keys are left
 * empty (they come from the Secret later).
 */
export function resolveAzureCloudConfig(sources: readonly AzureConfigValues[], options: { requireConnection: boolean; environment?: ConfigEnvironment }): AzureCloudConfig {
  const problems: CloudConfigProblem[] = [];
  const values = new Map<string, RawValue>();
  const lines = new Map<string, number>();
  const fileOf = new Map<string, string>();
  for (const source of sources) {
    for (const [key, value] of source.values) {
      values.set(key, value);
      fileOf.set(key, source.fileName);
      const line = source.lines.get(key);
      if (line === undefined) lines.delete(key);
      else lines.set(key, line);
    }
  }
  const lastFile = sources[sources.length - 1]?.fileName ?? DEFAULT_CLOUD_CONFIG_FILE_NAME;
  const placeOf = (name: string): { fileName: string; line?: number } => ({ fileName: fileOf.get(name) ?? lastFile, ...withLine(lines.get(name)) });
  const text_ = (name: string, fallback = ''): string => (values.get(name) as string | undefined) ?? fallback;
  const bool = (name: string, fallback = false): boolean => (values.get(name) as boolean | undefined) ?? fallback;
  const integer = (name: string, fallback: number): number => {
    const value = values.get(name) as number | undefined;
    if (value === undefined) return fallback;
    if (value < 0) problems.push({ ...placeOf(name), message: `key ${JSON.stringify(name)}: must not be negative, got ${value}` });
    return value;
  };
  const required = (name: string): string => {
    const value = text_(name);
    if (value === '' && (options.requireConnection || !CONNECTION_KEYS.includes(name))) problems.push({ ...placeOf(name), message: `key ${JSON.stringify(name)} is required` });
    return value;
  };

  const cloud = text_('cloud', 'AzurePublicCloud');
  const known = Object.entries(AZURE_CLOUDS).find(([name]) => name.toLowerCase() === cloud.toLowerCase())?.[1];
  const resourceManagerEndpoint = text_('resourceManagerEndpoint') || known?.resourceManagerEndpoint || '';
  const activeDirectoryEndpoint = text_('activeDirectoryEndpoint') || known?.activeDirectoryEndpoint || '';
  if ((resourceManagerEndpoint === '' || activeDirectoryEndpoint === '') && (options.requireConnection || values.has('cloud') || values.has('resourceManagerEndpoint'))) {
    problems.push({ ...placeOf('cloud'), message: `key "cloud": unknown cloud ${JSON.stringify(cloud)} (known: ${Object.keys(AZURE_CLOUDS).join(', ')}); a custom cloud needs resourceManagerEndpoint and activeDirectoryEndpoint` });
  }
  for (const name of ['resourceManagerEndpoint', 'activeDirectoryEndpoint']) {
    const value = text_(name);
    if (value !== '' && !/^https:\/\/[^/\s]+/.test(value)) problems.push({ ...placeOf(name), message: `key ${JSON.stringify(name)}: must be an https:// URL, got ${JSON.stringify(value)}` });
  }
  const customCloud = text_('resourceManagerEndpoint') !== '' || known === undefined;
  const audience = customCloud ? resourceManagerEndpoint.replace(/\/+$/, '') : (known?.tokenAudience ?? '');

  const { credential, ignoredKeys: ignoredCredentialKeys, problems: credentialProblems } = resolveAzureCredential(
    { text: (name) => text_(name), bool: (name) => bool(name), has: (name) => values.has(name), placeOf, fileName: lastFile },
    options.environment ?? process.env,
    { requireCredential: options.requireConnection },
  );
  problems.push(...credentialProblems);
  const cloudConfigType = text_('cloudConfigType', 'merge');
  if (!['file', 'secret', 'merge'].includes(cloudConfigType)) {
    problems.push({ ...placeOf('cloudConfigType'), message: `key "cloudConfigType": must be one of file, secret, merge; got ${JSON.stringify(cloudConfigType)}` });
  }
  const vmType = text_('vmType', 'vmss') || 'vmss';
  if (!['vmss', 'standard', 'vmssflex'].includes(vmType)) {
    problems.push({ ...placeOf('vmType'), message: `key "vmType": must be one of vmss, standard, vmssflex; got ${JSON.stringify(vmType)}` });
  }
  const backendPoolType = backendPoolTypeOf(text_('loadBalancerBackendPoolConfigurationType'), placeOf('loadBalancerBackendPoolConfigurationType'), problems);
  const resourceGroup = required('resourceGroup');
  const maximumLoadBalancerRuleCount = integer('maximumLoadBalancerRuleCount', 250);
  if (maximumLoadBalancerRuleCount < 1) problems.push({ ...placeOf('maximumLoadBalancerRuleCount'), message: 'key "maximumLoadBalancerRuleCount": must be at least 1' });
  const tags = parseTags(text_('tags'), placeOf('tags').fileName, lines.get('tags'), problems);
  Object.assign(tags, (values.get('tagsMap') as Record<string, string> | undefined) ?? {});

  const config: AzureCloudConfig = {
    cloud,
    resourceManagerEndpoint,
    activeDirectoryEndpoint,
    tokenScope: `${audience}/.default`,
    customCloud,
    userAgent: text_('userAgent'),
    // tenantId and aadClientId are checked by the credential that needs them (managed identity does not).
    tenantId: text_('tenantId'),
    subscriptionId: required('subscriptionId'),
    aadClientId: text_('aadClientId'),
    aadClientSecret: text_('aadClientSecret'),
    credential,
    ignoredCredentialKeys,
    cloudConfigType: cloudConfigType as AzureCloudConfig['cloudConfigType'],
    location: required('location'),
    resourceGroup,
    vnetName: text_('vnetName'),
    vnetResourceGroup: text_('vnetResourceGroup') || resourceGroup,
    subnetName: text_('subnetName'),
    securityGroupName: text_('securityGroupName'),
    securityGroupResourceGroup: text_('securityGroupResourceGroup') || resourceGroup,
    routeTableName: text_('routeTableName'),
    routeTableResourceGroup: text_('routeTableResourceGroup') || resourceGroup,
    vmType: vmType as AzureVmType,
    disableAvailabilitySetNodes: bool('disableAvailabilitySetNodes'),
    enableVmssFlexNodes: bool('enableVmssFlexNodes'),
    tags,
    loadBalancerName: text_('loadBalancerName'),
    loadBalancerResourceGroup: text_('loadBalancerResourceGroup') || resourceGroup,
    excludeMasterFromStandardLB: bool('excludeMasterFromStandardLB', true),
    disableOutboundSnat: bool('disableOutboundSNAT'),
    maximumLoadBalancerRuleCount,
    backendPoolType,
    vmCacheTtlSeconds: integer('vmCacheTTLInSeconds', 60),
    vmssCacheTtlSeconds: integer('vmssCacheTTLInSeconds', 600),
    vmssVirtualMachinesCacheTtlSeconds: integer('vmssVirtualMachinesCacheTTLInSeconds', 600),
    disableApiCallCache: bool('disableAPICallCache'),
    nodeInstanceNotFoundGracePeriodSeconds: integer('nodeInstanceNotFoundGracePeriodInSeconds', 0),
  };
  if (problems.length > 0) throw new CloudConfigError(problems);
  return config;
}

/** Upstream compares the backend pool type case-insensitively (`strings.EqualFold`); '' is the default. */
function backendPoolTypeOf(value: string, place: { fileName: string; line?: number }, problems: CloudConfigProblem[]): AzureBackendPoolType {
  const key = 'loadBalancerBackendPoolConfigurationType';
  switch (value.toLowerCase()) {
    case '':
    case 'nodeipconfiguration':
      return 'nodeIPConfiguration';
    case 'nodeip':
      return 'nodeIP';
    case 'podip':
      problems.push({ ...place, message: `key ${JSON.stringify(key)}: podIP (pod IPs in the backend pool) is not supported by this provider; use nodeIPConfiguration or nodeIP` });
      return 'nodeIPConfiguration';
    default:
      problems.push({ ...place, message: `key ${JSON.stringify(key)}: must be one of nodeIPConfiguration, nodeIP; got ${JSON.stringify(value)}` });
      return 'nodeIPConfiguration';
  }
}

/**
 * Why `text` is not JSON, and where when V8 says; undefined when it is JSON. V8's excerpt of the
 * text around the error is dropped: it may hold part of a secret (aadClientSecret).
 */
function jsonErrorOf(text: string): { message: string; position?: number } | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).replace(/, (\.\.\.)?"[\s\S]*"(\.\.\.)? is not valid JSON$/, '');
    const position = /at position (\d+)/.exec(message)?.[1];
    return { message: firstLine(message), ...(position === undefined ? {} : { position: Number(position) }) };
  }
}

function lineOfPosition(text: string, position: number): number {
  let line = 1;
  for (let index = text.indexOf('\n'); index >= 0 && index < position; index = text.indexOf('\n', index + 1)) line++;
  return line;
}

/** The line of the first key without a value (where V8's JSON error names no position). */
function lineOfMissingValue(root: unknown, lineOf: (node: Node | null | undefined) => number | undefined): number | undefined {
  if (!isMap(root)) return undefined;
  for (const pair of root.items as Array<Pair<Node, Node | null>>) {
    if (pair.value === null || (isScalar(pair.value) && pair.value.source === '')) return lineOf(pair.key);
  }
  return undefined;
}

function withLine(line: number | undefined): { line?: number } {
  return line === undefined ? {} : { line };
}

/** The value of a key, `undefined` for JSON null, or `\0<reason>` for a value of the wrong type. */
function readValue(node: Node | null, spec: ConfigKeySpec): RawValue | undefined {
  if (node === null || (isScalar(node) && node.value === null)) return undefined;
  const scalar = isScalar(node) ? node.value : undefined;
  switch (spec.type) {
    case 'string':
      return typeof scalar === 'string' ? scalar : `\0must be a string, got ${describe(node)}`;
    case 'boolean':
      if (typeof scalar === 'boolean') return scalar;
      // Upstream's JSON decoding takes only true/false; YAML 1.1 files may say "true" quoted.
      return `\0must be true or false, got ${describe(node)}`;
    case 'integer':
      return typeof scalar === 'number' && Number.isInteger(scalar) ? scalar : `\0must be an integer, got ${describe(node)}`;
    case 'number':
      return typeof scalar === 'number' ? scalar : `\0must be a number, got ${describe(node)}`;
    case 'string-map': {
      if (!isMap(node)) return `\0must be an object of strings, got ${describe(node)}`;
      const map: Record<string, string> = {};
      for (const pair of node.items as Array<Pair<Node, Node | null>>) {
        const value = isScalar(pair.value) ? pair.value.value : undefined;
        if (typeof value !== 'string') return `\0value of ${JSON.stringify(isScalar(pair.key) ? pair.key.value : '')} must be a string`;
        map[String(isScalar(pair.key) ? pair.key.value : pair.key)] = value;
      }
      return map;
    }
    case 'object':
      return isMap(node) ? (node.toJSON() as Record<string, unknown>) : `\0must be an object, got ${describe(node)}`;
    case 'array':
      return isSeq(node) ? (node.toJSON() as unknown[]) : `\0must be an array, got ${describe(node)}`;
  }
}

function describe(node: Node): string {
  if (isMap(node)) return 'an object';
  if (isSeq(node)) return 'an array';
  return JSON.stringify(isScalar(node) ? node.value : String(node));
}

function isDefault(value: RawValue, spec: ConfigKeySpec): boolean {
  if (typeof value === 'object') return Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0;
  return String(value) === spec.defaultValue || (value === '' && spec.defaultValue === '');
}

/** Upstream `tags`: `k=v,k2=v2`. */
export function parseTags(text: string, fileName: string, line: number | undefined, problems: CloudConfigProblem[]): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const entry of text.split(',').map((part) => part.trim()).filter((part) => part !== '')) {
    const equals = entry.indexOf('=');
    if (equals <= 0) {
      problems.push({ fileName, ...withLine(line), message: `key "tags": ${JSON.stringify(entry)} is not key=value` });
      continue;
    }
    tags[entry.slice(0, equals).trim()] = entry.slice(equals + 1).trim();
  }
  return tags;
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? '';
}
