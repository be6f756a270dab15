/**
 * Reads cloud.conf: parse everything, fill unset `[Global]` keys from `clouds.yaml` when
 * `use-clouds` is on (upstream `ReadClouds`: the file's own values win), report every problem
 * with file and line, then validate. Unknown sections and keys are warnings (upstream reads with
 * `gcfg.FatalOnly`). No file at all is an error (upstream: "no OpenStack cloud provider config
 * file given"). No value of a secret key is ever echoed.
 */
import { existsSync } from 'node:fs';
import { CloudConfigError, parseGcfg, type CloudConfigProblem } from '@ccm/core/config';
import { tryParseCidr } from '@ccm/core/net';
import { parseGoDuration } from '@ccm/core/util';
import {
  DEFAULT_METADATA_SEARCH_ORDER,
  METADATA_SEARCH_SOURCES,
  OPENSTACK_CLOUD_CONFIG_SCHEMA,
  SUPPORTED_CONTAINER_STORES,
  SUPPORTED_LB_PROVIDERS,
} from './cloud-config-schema.js';
import { readCloudsYaml, type CloudsYamlEntry } from './read-clouds-yaml.js';

export const DEFAULT_CLOUD_CONFIG_FILE_NAME = 'cloud.conf';
/** Upstream `defaultTimeOut`: the HTTP timeout of every OpenStack call when `request-timeout` is unset. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

export type EndpointInterface = 'public' | 'internal' | 'admin';

/** How the CCM authenticates to Keystone (one method), in the provider's own words. */
export type OpenStackAuthMethod =
  | { kind: 'password'; userId: string; username: string; password: string; userDomainId: string; userDomainName: string }
  | { kind: 'application-credential'; id: string; name: string; secret: string; userId: string; username: string; userDomainId: string; userDomainName: string }
  | { kind: 'trust'; trustId: string; userId: string; username: string; password: string; userDomainId: string; userDomainName: string };

/** What the token is scoped to. */
export type OpenStackAuthScope =
  | { kind: 'none' }
  | { kind: 'project-id'; projectId: string }
  | { kind: 'project-name'; projectName: string; domainId: string; domainName: string }
  | { kind: 'domain'; domainId: string; domainName: string };

export interface OpenStackGlobalConfig {
  authUrl: string;
  region: string;
  auth: OpenStackAuthMethod;
  scope: OpenStackAuthScope;
  endpointType: EndpointInterface;
  caFile: string;
  certFile: string;
  keyFile: string;
  tlsInsecure: boolean;
  /** Where the values came from, for the start-up log line (never a secret). */
  cloudsYaml: string | undefined;
}

export interface OpenStackNetworkingConfig {
  ipv6SupportDisabled: boolean;
  publicNetworkNames: readonly string[];
  internalNetworkNames: readonly string[];
  /** `address-sort-order` as CIDRs, in priority order. */
  addressSortOrder: readonly string[];
}

export interface LoadBalancerClassConfig {
  floatingNetworkId: string;
  floatingSubnetId: string;
  floatingSubnet: string;
  floatingSubnetTags: string;
  networkId: string;
  subnetId: string;
  memberSubnetId: string;
}

export interface OpenStackLoadBalancerConfig extends LoadBalancerClassConfig {
  enabled: boolean;
  lbVersion: string;
  lbMethod: string;
  lbProvider: string;
  createMonitor: boolean;
  monitorDelayMs: number;
  monitorTimeoutMs: number;
  monitorMaxRetries: number;
  monitorMaxRetriesDown: number;
  manageSecurityGroups: boolean;
  internalLb: boolean;
  nodeSelector: string;
  cascadeDelete: boolean;
  flavorId: string;
  availabilityZone: string;
  enableIngressHostname: boolean;
  ingressHostnameSuffix: string;
  defaultTlsContainerRef: string;
  containerStore: string;
  maxSharedLb: number;
  providerRequiresSerialApiCalls: boolean;
  /** `[LoadBalancerClass "<name>"]` sections by name. */
  classes: ReadonlyMap<string, LoadBalancerClassConfig>;
}

export interface OpenStackCloudConfig {
  global: OpenStackGlobalConfig;
  networking: OpenStackNetworkingConfig;
  loadBalancer: OpenStackLoadBalancerConfig;
  route: { routerId: string };
  metadata: { searchOrder: readonly string[]; requestTimeoutMs: number };
}

export interface ReadOpenStackCloudConfigOptions {
  /** Environment for `OS_CLIENT_CONFIG_FILE` / `OS_CLOUD` (default `process.env`). */
  environment?: NodeJS.ProcessEnv;
  /** Where `./clouds.yaml` is looked for (default the working directory). */
  workingDirectory?: string;
}

const ENDPOINT_INTERFACES: Readonly<Record<string, EndpointInterface>> = {
  public: 'public',
  publicURL: 'public',
  internal: 'internal',
  internalURL: 'internal',
  admin: 'admin',
  adminURL: 'admin',
};

export function readOpenStackCloudConfig(
  text: string | undefined,
  fileName = DEFAULT_CLOUD_CONFIG_FILE_NAME,
  options: ReadOpenStackCloudConfigOptions = {},
): { config: OpenStackCloudConfig; warnings: CloudConfigProblem[] } {
  if (text === undefined) throw new CloudConfigError({ fileName, message: 'no OpenStack cloud provider config file given (--cloud-config)' });
  const document = parseGcfg(text, fileName);
  const { config: raw, problems, warnings } = OPENSTACK_CLOUD_CONFIG_SCHEMA.read(document, { unknown: 'warning' });
  const at = (section: string, variable: string): { fileName: string; line?: number } => {
    const line = document.variable(section, variable)?.line ?? document.section(section)?.line;
    return line === undefined ? { fileName } : { fileName, line };
  };
  const problem = (section: string, variable: string, message: string): void => {
    problems.push({ ...at(section, variable), message: `section [${section}], key "${variable}": ${message}` });
  };
  const warning = (section: string, variable: string, message: string): void => {
    warnings.push({ ...at(section, variable), message: `section [${section}], key "${variable}": ${message}` });
  };

  // [Global], completed from clouds.yaml: values set in cloud.conf win.
  const global = { ...raw.global };
  let cloudsYaml: string | undefined;
  if (global.useClouds) {
    const read = readCloudsYaml({
      file: global.cloudsFile === '' ? undefined : global.cloudsFile,
      cloud: global.cloud === '' ? undefined : global.cloud,
      ...(options.environment === undefined ? {} : { environment: options.environment }),
      ...(options.workingDirectory === undefined ? {} : { workingDirectory: options.workingDirectory }),
      requestedAt: at('Global', 'use-clouds'),
    });
    problems.push(...read.problems);
    if (read.entry !== undefined) {
      fillFromClouds(global, read.entry);
      cloudsYaml = global.cloudsFile === '' ? 'clouds.yaml' : global.cloudsFile;
    }
  }
  if (global.authUrl === '') problems.push({ ...at('Global', 'auth-url'), message: 'section [Global]: required key "auth-url" is not set (here or in clouds.yaml)' });
  else if (!isHttpUrl(global.authUrl)) problem('Global', 'auth-url', `${JSON.stringify(global.authUrl)} is not an http(s) URL`);
  if (global.region === '') problems.push({ ...at('Global', 'region'), message: 'section [Global]: required key "region" is not set (here or in clouds.yaml)' });
  if ((global.certFile === '') !== (global.keyFile === '')) problem('Global', global.certFile === '' ? 'key-file' : 'cert-file', '"cert-file" and "key-file" go together');
  for (const [variable, path] of [['ca-file', global.caFile], ['cert-file', global.certFile], ['key-file', global.keyFile]] as const) {
    if (path !== '' && !existsSync(path)) problem('Global', variable, `file ${JSON.stringify(path)} does not exist`);
  }
  const auth = authMethodOf(global);
  if (typeof auth === 'string') problems.push({ ...at('Global', 'auth-url'), message: `section [Global]: ${auth}` });
  const endpointType = ENDPOINT_INTERFACES[global.endpointType] ?? 'public';

  // [Networking]
  const addressSortOrder: string[] = [];
  for (const item of raw.networking.addressSortOrder.split(',').map((value) => value.trim()).filter((value) => value !== '')) {
    if (isCidr(item)) addressSortOrder.push(item);
    else warning('Networking', 'address-sort-order', `ignoring invalid sort order item ${JSON.stringify(item)}: not a CIDR`);
  }

  // [LoadBalancer]: typed here; the load balancer decides what each value means.
  const lb = raw.loadBalancer;
  const duration = (variable: string, value: string): number => {
    const parsed = parseDurationSetting(value);
    if (parsed === undefined || parsed < 0) {
      problem('LoadBalancer', variable, `invalid duration ${JSON.stringify(value)} (use a Go duration such as 5s)`);
      return 0;
    }
    return parsed;
  };
  const monitorDelayMs = duration('monitor-delay', lb.monitorDelay);
  const monitorTimeoutMs = duration('monitor-timeout', lb.monitorTimeout);
  for (const [variable, value] of [['monitor-max-retries', lb.monitorMaxRetries], ['monitor-max-retries-down', lb.monitorMaxRetriesDown], ['max-shared-lb', lb.maxSharedLb]] as const) {
    if (value < 0) problem('LoadBalancer', variable, `must not be negative (got ${value})`);
  }
  if (!(SUPPORTED_LB_PROVIDERS as readonly string[]).includes(lb.lbProvider)) warning('LoadBalancer', 'lb-provider', `unsupported LoadBalancer provider ${JSON.stringify(lb.lbProvider)}`);
  if (!(SUPPORTED_CONTAINER_STORES as readonly string[]).includes(lb.containerStore)) warning('LoadBalancer', 'container-store', `unsupported container store ${JSON.stringify(lb.containerStore)}`);
  if (lb.lbVersion !== '' && lb.lbVersion !== 'v2') warning('LoadBalancer', 'lb-version', `only "v2" is supported: the load balancer is off (got ${JSON.stringify(lb.lbVersion)})`);

  // [Metadata]
  const searchOrder = raw.metadata.searchOrder.split(',').map((value) => value.trim()).filter((value) => value !== '');
  if (searchOrder.length === 0) problem('Metadata', 'search-order', 'must name at least one source');
  if (searchOrder.length > METADATA_SEARCH_SOURCES.length) problem('Metadata', 'search-order', `too many sources (at most ${METADATA_SEARCH_SOURCES.length})`);
  for (const source of searchOrder) {
    if (!(METADATA_SEARCH_SOURCES as readonly string[]).includes(source)) problem('Metadata', 'search-order', `invalid element ${JSON.stringify(source)} (use ${METADATA_SEARCH_SOURCES.join(' or ')})`);
  }
  let requestTimeoutMs = DEFAULT_REQUEST_TIMEOUT_MS;
  if (raw.metadata.requestTimeout !== '') {
    const parsed = parseDurationSetting(raw.metadata.requestTimeout);
    if (parsed === undefined || parsed < 0) problem('Metadata', 'request-timeout', `invalid duration ${JSON.stringify(raw.metadata.requestTimeout)}`);
    else if (parsed > 0) requestTimeoutMs = parsed;
  }

  const byLine = (left: CloudConfigProblem, right: CloudConfigProblem): number => (left.line ?? Infinity) - (right.line ?? Infinity);
  if (problems.length > 0) throw new CloudConfigError(problems.sort(byLine));
  warnings.sort(byLine);
  const classes = new Map<string, LoadBalancerClassConfig>();
  for (const [name, values] of raw.loadBalancerClass) classes.set(name, { ...values });
  return {
    config: {
      global: {
        authUrl: global.authUrl,
        region: global.region,
        auth: auth as OpenStackAuthMethod,
        scope: scopeOf(global),
        endpointType,
        caFile: global.caFile,
        certFile: global.certFile,
        keyFile: global.keyFile,
        tlsInsecure: global.tlsInsecure === 'true',
        cloudsYaml,
      },
      networking: {
        ipv6SupportDisabled: raw.networking.ipv6SupportDisabled,
        publicNetworkNames: [...raw.networking.publicNetworkName],
        internalNetworkNames: [...raw.networking.internalNetworkName],
        addressSortOrder,
      },
      loadBalancer: {
        enabled: lb.enabled && (lb.lbVersion === '' || lb.lbVersion === 'v2'),
        lbVersion: lb.lbVersion,
        subnetId: lb.subnetId,
        memberSubnetId: lb.memberSubnetId,
        networkId: lb.networkId,
        floatingNetworkId: lb.floatingNetworkId,
        floatingSubnetId: lb.floatingSubnetId,
        floatingSubnet: lb.floatingSubnet,
        floatingSubnetTags: lb.floatingSubnetTags,
        lbMethod: lb.lbMethod,
        lbProvider: lb.lbProvider,
        createMonitor: lb.createMonitor,
        monitorDelayMs,
        monitorTimeoutMs,
        monitorMaxRetries: lb.monitorMaxRetries,
        monitorMaxRetriesDown: lb.monitorMaxRetriesDown,
        manageSecurityGroups: lb.manageSecurityGroups,
        internalLb: lb.internalLb,
        nodeSelector: lb.nodeSelector,
        cascadeDelete: lb.cascadeDelete,
        flavorId: lb.flavorId,
        availabilityZone: lb.availabilityZone,
        enableIngressHostname: lb.enableIngressHostname,
        ingressHostnameSuffix: lb.ingressHostnameSuffix,
        defaultTlsContainerRef: lb.defaultTlsContainerRef,
        containerStore: lb.containerStore,
        maxSharedLb: lb.maxSharedLb,
        providerRequiresSerialApiCalls: lb.providerRequiresSerialApiCalls,
        classes,
      },
      route: { routerId: raw.route.routerId },
      metadata: { searchOrder: searchOrder.length === 0 ? DEFAULT_METADATA_SEARCH_ORDER.split(',') : searchOrder, requestTimeoutMs },
    },
    warnings,
  };
}

type GlobalValues = ReturnType<typeof OPENSTACK_CLOUD_CONFIG_SCHEMA.read>['config']['global'];

function fillFromClouds(global: GlobalValues, entry: CloudsYamlEntry): void {
  const fill = (key: keyof GlobalValues, value: string | undefined): void => {
    if (value !== undefined && value !== '' && global[key] === '') (global as Record<string, unknown>)[key] = value;
  };
  fill('authUrl', entry.authUrl);
  fill('userId', entry.userId);
  fill('username', entry.username);
  fill('password', entry.password);
  fill('tenantId', entry.projectId);
  fill('tenantName', entry.projectName);
  fill('domainId', entry.domainId);
  fill('domainName', entry.domainName);
  fill('tenantDomainId', entry.projectDomainId);
  fill('tenantDomainName', entry.projectDomainName);
  fill('userDomainId', entry.userDomainId);
  fill('userDomainName', entry.userDomainName);
  fill('region', entry.regionName);
  fill('caFile', entry.caFile);
  fill('certFile', entry.certFile);
  fill('keyFile', entry.keyFile);
  fill('applicationCredentialId', entry.applicationCredentialId);
  fill('applicationCredentialName', entry.applicationCredentialName);
  fill('applicationCredentialSecret', entry.applicationCredentialSecret);
  if (entry.endpointType !== undefined && entry.endpointType in ENDPOINT_INTERFACES && global.endpointType === 'public') global.endpointType = entry.endpointType;
  if (entry.insecure === true && global.tlsInsecure === '') global.tlsInsecure = 'true';
}

/** The authentication method, or why there is none (gophercloud's `clientconfig` rules). */
function authMethodOf(global: GlobalValues): OpenStackAuthMethod | string {
  const userDomainId = global.userDomainId !== '' ? global.userDomainId : global.domainId;
  const userDomainName = global.userDomainName !== '' ? global.userDomainName : global.domainName;
  const user = { userId: global.userId, username: global.username, userDomainId, userDomainName };
  const userNamed = (method: string): string | undefined => {
    if (user.userId !== '' || user.username === '') return undefined;
    return userDomainId === '' && userDomainName === '' ? `${method}: "username" needs "user-domain-name", "user-domain-id", "domain-name" or "domain-id"` : undefined;
  };
  if (global.applicationCredentialSecret !== '') {
    if (global.applicationCredentialId === '' && global.applicationCredentialName === '') return 'application credential: set "application-credential-id" or "application-credential-name"';
    if (global.applicationCredentialId === '' && user.userId === '' && user.username === '') return 'application credential by name: set "user-id" or "username"';
    const named = global.applicationCredentialId === '' ? userNamed('application credential') : undefined;
    if (named !== undefined) return named;
    return { kind: 'application-credential', id: global.applicationCredentialId, name: global.applicationCredentialName, secret: global.applicationCredentialSecret, ...user };
  }
  if (global.applicationCredentialId !== '' || global.applicationCredentialName !== '') return 'application credential: "application-credential-secret" is not set';
  if (global.trustId !== '') {
    const userId = global.trusteeId !== '' ? global.trusteeId : user.userId;
    const password = global.trusteePassword !== '' ? global.trusteePassword : global.password;
    if (password === '') return 'trust: set "trustee-password" or "password"';
    if (userId === '' && user.username === '') return 'trust: set "trustee-id", "user-id" or "username"';
    const named = userId === '' ? userNamed('trust') : undefined;
    if (named !== undefined) return named;
    return { kind: 'trust', trustId: global.trustId, password, ...user, userId };
  }
  if (global.password === '') return 'no credentials: set "password", "application-credential-secret" or "trust-id" (here or in clouds.yaml)';
  if (user.userId === '' && user.username === '') return 'password: set "user-id" or "username"';
  const named = userNamed('password');
  if (named !== undefined) return named;
  return { kind: 'password', password: global.password, ...user };
}

/** Project by ID, by name (its domain, else `domain-*`), a domain alone, or none (application credentials and trusts carry theirs). */
function scopeOf(global: GlobalValues): OpenStackAuthScope {
  if (global.applicationCredentialSecret !== '' || global.trustId !== '') return { kind: 'none' };
  if (global.tenantId !== '') return { kind: 'project-id', projectId: global.tenantId };
  if (global.tenantName !== '') {
    return {
      kind: 'project-name',
      projectName: global.tenantName,
      domainId: global.tenantDomainId !== '' ? global.tenantDomainId : global.tenantDomainName !== '' ? '' : global.domainId,
      domainName: global.tenantDomainName !== '' ? global.tenantDomainName : global.tenantDomainId !== '' ? '' : global.domainName,
    };
  }
  if (global.domainId !== '' || global.domainName !== '') return { kind: 'domain', domainId: global.domainId, domainName: global.domainName };
  return { kind: 'none' };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

export function isCidr(value: string): boolean {
  return tryParseCidr(value) !== undefined;
}

/** A Go duration setting (upstream `util.MyDuration`, e.g. `monitor-delay = 5s`), trimmed, in milliseconds; undefined when Go would refuse it. */
export function parseDurationSetting(text: string): number | undefined {
  try {
    return parseGoDuration(text.trim());
  } catch {
    return undefined;
  }
}
