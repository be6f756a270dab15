/**
 * Builds the client configuration like upstream `clientcmd.BuildConfigFromFlags(--master,
 * --kubeconfig)`: the kubeconfig file when given (its current context; `--master` overrides the
 * server), else `--master` alone (no credentials), else in-cluster (KUBERNETES_SERVICE_HOST/PORT
 * and the service account token). Unlike client-node's `loadFromDefault`, it never falls back
 * silently to http://localhost:8080: with nothing to go on it throws a KubeConfigError.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isIPv6 } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { KubeConfig, type Cluster, type Context, type User } from '@kubernetes/client-node';
import { errorMessage } from '../util/error-message.js';

export type KubeConfigErrorKind = 'NoConfiguration' | 'KubeconfigUnreadable' | 'KubeconfigInvalid' | 'InClusterInvalid';

/** A startup problem with the Kubernetes client configuration; the message names the input. */
export class KubeConfigError extends Error {
  readonly kind: KubeConfigErrorKind;
  /** The file or flag the problem is about (`/etc/kubernetes/ccm.conf`, `--master`). */
  readonly input: string | undefined;
  constructor(kind: KubeConfigErrorKind, message: string, input?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'KubeConfigError';
    this.kind = kind;
    this.input = input;
  }
}

export const SERVICE_ACCOUNT_DIRECTORY = '/var/run/secrets/kubernetes.io/serviceaccount';

export interface LoadKubeConfigOptions {
  /** `--kubeconfig`. */
  kubeconfigPath?: string;
  /** `--master`: the API server URL; overrides the kubeconfig's server. */
  master?: string;
  /** Environment for the in-cluster check (default `process.env`). */
  environment?: Readonly<Record<string, string | undefined>>;
  /** Service account mount (default {@link SERVICE_ACCOUNT_DIRECTORY}). */
  serviceAccountDirectory?: string;
}

export function loadKubeConfig(options: LoadKubeConfigOptions): KubeConfig {
  const kubeconfigPath = options.kubeconfigPath?.trim() || undefined;
  const master = options.master?.trim() || undefined;
  if (master !== undefined) validateMaster(master);
  if (kubeconfigPath !== undefined) return fromKubeconfigFile(kubeconfigPath, master);
  if (master !== undefined) return fromMaster(master);
  const inCluster = fromCluster(options.environment ?? process.env, options.serviceAccountDirectory ?? SERVICE_ACCOUNT_DIRECTORY);
  if (inCluster !== undefined) return inCluster;
  throw new KubeConfigError('NoConfiguration', 'no --kubeconfig given and not running in a cluster: set --kubeconfig or --master');
}

function validateMaster(master: string): void {
  let url: URL;
  try {
    url = new URL(master);
  } catch (error) {
    throw new KubeConfigError('KubeconfigInvalid', `--master ${JSON.stringify(master)} is not a URL`, '--master', { cause: error });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new KubeConfigError('KubeconfigInvalid', `--master ${JSON.stringify(master)} must be an http or https URL`, '--master');
  }
}

/** client-node refuses plain http unless skipTLSVerify is set; TLS settings mean nothing there. */
function withServer(cluster: Cluster, server: string): Cluster {
  return { ...cluster, server, skipTLSVerify: server.startsWith('http:') ? true : cluster.skipTLSVerify };
}

function fromKubeconfigFile(path: string, master: string | undefined): KubeConfig {
  const absolutePath = resolve(path);
  let text: string;
  try {
    text = readFileSync(absolutePath, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new KubeConfigError('KubeconfigUnreadable', `cannot read kubeconfig ${path}: ${reason}`, path, { cause: error });
  }
  const config = new KubeConfig();
  try {
    config.loadFromString(text);
  } catch (error) {
    // No cause: the YAML parser's error carries the file text (a code frame, the whole buffer),
    // and kubeconfigs hold tokens and keys.
    throw new KubeConfigError('KubeconfigInvalid', `invalid kubeconfig ${path}: ${describeParseError(error)}`, path);
  }
  config.makePathsAbsolute(dirname(absolutePath));
  const problem = (message: string): KubeConfigError => new KubeConfigError('KubeconfigInvalid', `invalid kubeconfig ${path}: ${message}`, path);

  const contextName = config.getCurrentContext();
  const context = contextName ? config.getContextObject(contextName) : null;
  if (contextName && context === null) throw problem(`current-context ${JSON.stringify(contextName)} is not defined`);
  if (context === null && master === undefined) throw problem('no current-context set (or use --master)');
  let cluster = context ? config.getCluster(context.cluster) : null;
  if (context && cluster === null && master === undefined) throw problem(`cluster ${JSON.stringify(context.cluster)} of context ${JSON.stringify(context.name)} is not defined`);
  if (context && context.user && config.getUser(context.user) === null) throw problem(`user ${JSON.stringify(context.user)} of context ${JSON.stringify(context.name)} is not defined`);

  const server = master ?? cluster?.server;
  if (!server) throw problem(`cluster ${JSON.stringify(context?.cluster ?? '')} has no server`);
  try {
    new URL(server);
  } catch (error) {
    throw new KubeConfigError('KubeconfigInvalid', `invalid kubeconfig ${path}: server ${JSON.stringify(server)} is not a URL`, path, { cause: error });
  }
  cluster = withServer(cluster ?? { name: 'master', server, skipTLSVerify: false }, server);
  const user: User = (context?.user ? config.getUser(context.user) : null) ?? { name: 'anonymous' };
  for (const [field, file] of [
    ['certificate-authority', cluster.caFile],
    ['client-certificate', user.certFile],
    ['client-key', user.keyFile],
  ] as const) {
    if (file === undefined) continue;
    try {
      readFileSync(file);
    } catch (error) {
      throw new KubeConfigError('KubeconfigInvalid', `invalid kubeconfig ${path}: cannot read ${field} ${file}: ${(error as Error).message}`, path, { cause: error });
    }
  }
  const effectiveContext: Context = { name: context?.name ?? 'master', cluster: cluster.name, user: user.name, ...(context?.namespace ? { namespace: context.namespace } : {}) };
  const effective = new KubeConfig();
  effective.loadFromOptions({ clusters: [cluster], users: [user], contexts: [effectiveContext], currentContext: effectiveContext.name });
  return effective;
}

/**
 * A parse failure as a location and a short reason, never source text: js-yaml's message embeds
 * a code frame of the surrounding lines, so only its `reason` and `mark` (0-based line/column)
 * are used, with quoted fragments (alias and tag names) withheld.
 */
export function describeParseError(error: unknown): string {
  const { reason, mark } = (error ?? {}) as { reason?: unknown; mark?: { line?: unknown; column?: unknown } };
  if (typeof reason === 'string') {
    const place = typeof mark?.line === 'number' && typeof mark.column === 'number' ? `line ${mark.line + 1}, column ${mark.column + 1}: ` : '';
    return `${place}${withholdQuoted(reason)}`;
  }
  // client-node's own checks (`users[0].name is missing`) name fields, not values; keep the
  // first line only in case a parser appended a code frame.
  const message = errorMessage(error);
  return withholdQuoted(message.split('\n', 1)[0] ?? '').replace(/\s*\(\d+:\d+\)\s*$/, '');
}

function withholdQuoted(text: string): string {
  return text.replace(/"[^"]*"|'[^']*'|!<[^>]*>/g, '(withheld)');
}

function fromMaster(master: string): KubeConfig {
  const config = new KubeConfig();
  const cluster = withServer({ name: 'master', server: master, skipTLSVerify: false }, master);
  config.loadFromOptions({
    clusters: [cluster],
    users: [{ name: 'anonymous' }],
    contexts: [{ name: 'master', cluster: 'master', user: 'anonymous' }],
    currentContext: 'master',
  });
  return config;
}

/** client-go `rest.InClusterConfig`: both env vars set and a readable token; undefined when not in a cluster. */
function fromCluster(environment: Readonly<Record<string, string | undefined>>, serviceAccountDirectory: string): KubeConfig | undefined {
  const host = environment.KUBERNETES_SERVICE_HOST;
  const port = environment.KUBERNETES_SERVICE_PORT;
  if (!host || !port) return undefined;
  const tokenFile = join(serviceAccountDirectory, 'token');
  try {
    readFileSync(tokenFile);
  } catch (error) {
    throw new KubeConfigError('InClusterInvalid', `running in a cluster (KUBERNETES_SERVICE_HOST is set) but the service account token ${tokenFile} is unreadable: ${(error as Error).message}`, tokenFile, {
      cause: error,
    });
  }
  const caFile = join(serviceAccountDirectory, 'ca.crt');
  const namespaceFile = join(serviceAccountDirectory, 'namespace');
  const server = `https://${isIPv6(host) ? `[${host}]` : host}:${port}`;
  const config = new KubeConfig();
  config.loadFromOptions({
    clusters: [{ name: 'inCluster', server, skipTLSVerify: false, ...(existsSync(caFile) ? { caFile } : {}) }],
    users: [{ name: 'inClusterUser', authProvider: { name: 'tokenFile', config: { tokenFile } } }],
    contexts: [
      {
        name: 'inClusterContext',
        cluster: 'inCluster',
        user: 'inClusterUser',
        ...(existsSync(namespaceFile) ? { namespace: readFileSync(namespaceFile, 'utf8').trim() } : {}),
      },
    ],
    currentContext: 'inClusterContext',
  });
  return config;
}
