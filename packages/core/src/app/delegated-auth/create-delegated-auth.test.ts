// The composed delegated auth behind a real HTTPS server, with the Kubernetes side faked:
// tokens, client certificates (CA from the ConfigMap, rotated while serving), the front proxy,
// authorization, start-up failures, and that no token reaches the log.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { request } from 'node:https';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KubeApiError } from '../../kube/kube-api-error.js';
import { KubeConfigError, type LoadKubeConfigOptions } from '../../kube/load-kube-config.js';
import type { LogFields, Logger } from '../../logging/logger.js';
import type { CertificateAndKey } from '@ccm/self-signed-certificate';
import { Registry } from 'prom-client';
import { HealthChecks } from '../serving/health-checks.js';
import { startSecureServer, type RunningSecureServer } from '../serving/secure-server.js';
import { createServingHandler } from '../serving/serving-handler.js';
import { generateSelfSignedCertificate } from '../serving/self-signed-certificate.js';
import { testCertificateAuthority, testClientCertificate } from './test-support/test-certificates.js';
import type { ConfigMapData } from './authentication-config-map.js';
import { createDelegatedAuth, type DelegatedAuth, type DelegatedAuthDependencies, type DelegatedAuthOptions } from './create-delegated-auth.js';
import type { DelegatedAuthenticationApi, DelegatedAuthorizationApi } from './delegated-auth-api.js';
import { DelegatedAuthStartupError } from './delegated-auth-startup-error.js';
import { protectHandler } from './protect-handler.js';
import type { NonResourceAccess } from './subject-access-reviewer.js';
import { userInfo, type UserInfo } from './user-info.js';

const DEFAULTS: DelegatedAuthOptions = {
  authenticationKubeconfig: '/etc/kubernetes/authn.conf',
  authenticationSkipLookup: false,
  authenticationTokenWebhookCacheTtlMs: 10_000,
  authenticationTolerateLookupFailure: false,
  clientCaFile: '',
  requestheaderClientCaFile: '',
  requestheaderAllowedNames: [],
  requestheaderUsernameHeaders: ['x-remote-user'],
  requestheaderUidHeaders: [],
  requestheaderGroupHeaders: ['x-remote-group'],
  requestheaderExtraHeadersPrefix: ['x-remote-extra-'],
  authorizationKubeconfig: '/etc/kubernetes/authz.conf',
  authorizationAlwaysAllowPaths: ['/healthz', '/readyz', '/livez'],
  authorizationWebhookCacheAuthorizedTtlMs: 10_000,
  authorizationWebhookCacheUnauthorizedTtlMs: 10_000,
};

const SECRET_TOKEN = 'prometheus-token-s3cr3t';

/** The API server side: who each token is, who may get which path, the ConfigMap. */
class FakeCluster {
  readonly tokens = new Map<string, UserInfo>([[SECRET_TOKEN, userInfo('system:serviceaccount:monitoring:prometheus', { groups: ['system:serviceaccounts'] })]]);
  readonly grants = new Set<string>(['system:serviceaccount:monitoring:prometheus get /metrics', 'alice get /metrics']);
  configMap: ConfigMapData = undefined;
  readFailure: Error | undefined;
  tokenReviews = 0;
  readonly reviews: NonResourceAccess[] = [];
  readonly #watchers: Array<(data: ConfigMapData) => void> = [];

  authenticationApi(): DelegatedAuthenticationApi {
    return {
      tokenReviewer: {
        review: (token) => {
          this.tokenReviews += 1;
          const user = this.tokens.get(token);
          return Promise.resolve(user ? { authenticated: true, user } : { authenticated: false });
        },
      },
      authenticationConfigMap: {
        read: () => (this.readFailure ? Promise.reject(this.readFailure) : Promise.resolve(this.configMap)),
        watch: (onChange, signal) => {
          this.#watchers.push(onChange);
          onChange(this.configMap);
          signal.addEventListener('abort', () => this.#watchers.splice(this.#watchers.indexOf(onChange), 1));
        },
      },
    };
  }

  authorizationApi(): DelegatedAuthorizationApi {
    return {
      subjectAccessReviewer: {
        review: (access) => {
          this.reviews.push(access);
          return Promise.resolve({ allowed: this.grants.has(`${access.user.name} ${access.verb} ${access.path}`), denied: false, reason: '' });
        },
      },
    };
  }

  updateConfigMap(data: ConfigMapData): void {
    this.configMap = data;
    for (const watcher of this.#watchers) watcher(data);
  }

  get watcherCount(): number {
    return this.#watchers.length;
  }
}

class RecordingLogger implements Logger {
  readonly lines: string[] = [];
  error(message: string, fields?: LogFields): void {
    this.lines.push(`E ${message} ${JSON.stringify(fields ?? {})}`);
  }
  warn(message: string, fields?: LogFields): void {
    this.lines.push(`W ${message} ${JSON.stringify(fields ?? {})}`);
  }
  info(message: string, fields?: LogFields): void {
    this.lines.push(`I ${message} ${JSON.stringify(fields ?? {})}`);
  }
  verbose(_level: number, message: string, fields?: LogFields): void {
    this.lines.push(`V ${message} ${JSON.stringify(fields ?? {})}`);
  }
  child(): Logger {
    return this;
  }
  warnings(): string[] {
    return this.lines.filter((line) => line.startsWith('W '));
  }
}

interface Reply {
  status: number;
  contentType: string | undefined;
  body: string;
}

function get(port: number, path: string, options: { headers?: Record<string, string | string[]>; client?: CertificateAndKey; method?: string; body?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        rejectUnauthorized: false,
        headers: options.headers ?? {},
        ...(options.client ? { cert: options.client.certificatePem, key: options.client.privateKeyPem } : {}),
        agent: false,
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, contentType: response.headers['content-type'], body }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

const clientCa = testCertificateAuthority('kubernetes-client-ca');
const frontProxyCa = testCertificateAuthority('front-proxy-ca');
const FORBIDDEN_PROMETHEUS_CONFIGZ =
  '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"forbidden: User \\"system:serviceaccount:monitoring:prometheus\\" cannot get path \\"/configz\\"","reason":"Forbidden","details":{},"code":403}\n';
const UNAUTHORIZED = '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}\n';

describe('createDelegatedAuth behind the secure port', () => {
  let cluster: FakeCluster;
  let logger: RecordingLogger;
  let auth: DelegatedAuth | undefined;
  let server: RunningSecureServer | undefined;
  let directory: string;
  const loadedKubeconfigs: string[] = [];

  function dependencies(overrides: Partial<DelegatedAuthDependencies> = {}): DelegatedAuthDependencies {
    return {
      logger,
      environment: {},
      loadKubeConfig: (options: LoadKubeConfigOptions) => {
        if (!options.kubeconfigPath) throw new KubeConfigError('NoConfiguration', 'not in a cluster');
        if (options.kubeconfigPath.includes('missing')) throw new KubeConfigError('KubeconfigUnreadable', `cannot read kubeconfig ${options.kubeconfigPath}: no such file`, options.kubeconfigPath);
        loadedKubeconfigs.push(options.kubeconfigPath);
        return new KubeConfig();
      },
      createAuthenticationApi: () => cluster.authenticationApi(),
      createAuthorizationApi: () => cluster.authorizationApi(),
      ...overrides,
    };
  }

  async function serve(
    options: Partial<DelegatedAuthOptions> = {},
    overrides: Partial<DelegatedAuthDependencies> = {},
    handler: (incoming: IncomingMessage, response: ServerResponse) => void = (incoming, response) => response.end(`served ${incoming.url}`),
  ): Promise<number> {
    auth = await createDelegatedAuth({ ...DEFAULTS, ...options }, dependencies(overrides));
    server = await startSecureServer({
      bindAddress: '127.0.0.1',
      port: 0,
      certificate: generateSelfSignedCertificate(),
      requestClientCertificate: auth.requestsClientCertificates,
      handler: protectHandler(auth, handler, logger),
    });
    return server.address.port;
  }

  beforeEach(async () => {
    cluster = new FakeCluster();
    cluster.configMap = { 'client-ca-file': clientCa.certificatePem };
    logger = new RecordingLogger();
    loadedKubeconfigs.length = 0;
    directory = await mkdtemp(join(tmpdir(), 'ccm-delegated-auth-'));
  });
  afterEach(async () => {
    await server?.close();
    auth?.close();
    server = undefined;
    auth = undefined;
    await rm(directory, { recursive: true, force: true });
  });

  it('serves a token the cluster knows where RBAC allows it, 403 elsewhere, 401 for an unknown token', async () => {
    const port = await serve();
    expect(loadedKubeconfigs).toEqual(['/etc/kubernetes/authn.conf', '/etc/kubernetes/authz.conf']);
    const bearer = { authorization: `Bearer ${SECRET_TOKEN}` };
    expect(await get(port, '/metrics', { headers: bearer })).toEqual({ status: 200, contentType: undefined, body: 'served /metrics' });
    expect(await get(port, '/configz', { headers: bearer })).toEqual({ status: 403, contentType: 'application/json', body: FORBIDDEN_PROMETHEUS_CONFIGZ });
    expect(await get(port, '/metrics', { headers: { authorization: 'Bearer not-a-token' } })).toEqual({ status: 401, contentType: 'application/json', body: UNAUTHORIZED });
    expect(cluster.reviews.map((review) => `${review.user.name} ${review.verb} ${review.path} ${review.user.groups.join(',')}`)).toEqual([
      'system:serviceaccount:monitoring:prometheus get /metrics system:serviceaccounts,system:authenticated',
      'system:serviceaccount:monitoring:prometheus get /configz system:serviceaccounts,system:authenticated',
    ]);
  });

  it('authorizes /debug/flags/v and the per-check health paths like /metrics: PUT needs the put verb on the path', async () => {
    cluster.tokens.set('viewer-token', userInfo('viewer', { groups: [] }));
    cluster.grants.add('system:serviceaccount:monitoring:prometheus put /debug/flags/v');
    cluster.grants.add('system:serviceaccount:monitoring:prometheus get /healthz/ping');
    let verbosity = 0;
    const port = await serve({}, {}, createServingHandler({
      healthChecks: new HealthChecks(),
      metrics: new Registry(),
      configz: () => ({}),
      logger,
      verbosity: { verbosity: () => verbosity, setVerbosity: (level) => (verbosity = level) },
    }));
    const viewer = { authorization: 'Bearer viewer-token', 'content-type': 'text/plain' };
    const prometheus = { authorization: `Bearer ${SECRET_TOKEN}` };
    expect(await get(port, '/debug/flags/v', { method: 'PUT', headers: viewer, body: '4' })).toMatchObject({ status: 403, body: expect.stringContaining('cannot put path \\"/debug/flags/v\\"') });
    expect(verbosity).toBe(0);
    expect(await get(port, '/debug/flags/v', { method: 'PUT', headers: prometheus, body: '4' })).toEqual({ status: 200, contentType: 'text/plain', body: 'successfully set klog.logging.verbosity to 4\n' });
    expect(verbosity).toBe(4);
    // Upstream's always-allow paths are exact: /healthz/ping needs authorization.
    expect(await get(port, '/healthz/ping')).toMatchObject({ status: 403 });
    expect(await get(port, '/healthz/ping', { headers: prometheus })).toMatchObject({ status: 200, body: 'ok' });
    expect(cluster.reviews.map((review) => `${review.user.name} ${review.verb} ${review.path}`)).toEqual([
      'viewer put /debug/flags/v',
      'system:serviceaccount:monitoring:prometheus put /debug/flags/v',
      'system:anonymous get /healthz/ping',
      'system:serviceaccount:monitoring:prometheus get /healthz/ping',
    ]);
  });

  it('caches token and access reviews for the TTLs', async () => {
    const port = await serve();
    for (let index = 0; index < 3; index += 1) await get(port, '/metrics', { headers: { authorization: `Bearer ${SECRET_TOKEN}` } });
    expect(cluster.tokenReviews).toBe(1);
    expect(cluster.reviews).toHaveLength(1);
  });

  it('lets anonymous requests reach /healthz only; the rest is 403 for system:anonymous', async () => {
    const port = await serve();
    expect(await get(port, '/healthz')).toMatchObject({ status: 200, body: 'served /healthz' });
    expect(await get(port, '/readyz')).toMatchObject({ status: 200 });
    const forbidden = await get(port, '/metrics');
    expect(forbidden.status).toBe(403);
    expect(JSON.parse(forbidden.body)).toMatchObject({ message: 'forbidden: User "system:anonymous" cannot get path "/metrics"', reason: 'Forbidden', code: 403 });
    expect(cluster.reviews.at(-1)?.user).toEqual({ name: 'system:anonymous', uid: '', groups: ['system:unauthenticated'], extra: {} });
    // A bad token is refused even on an always-allowed path (authentication runs first, as upstream).
    expect(await get(port, '/healthz', { headers: { authorization: 'Bearer wrong' } })).toMatchObject({ status: 401, body: UNAUTHORIZED });
  });

  it('answers garbage Authorization headers without crashing and never logs a token', async () => {
    const port = await serve();
    const garbage = ['Bearer', 'Bearer  ', 'Basic dXNlcjpwYXNz', '\u00ff\u00fe', 'Bearer a b c d', `Bearer ${'x'.repeat(16_000)}`, 'NTLM', 'Bearer \t'];
    const statuses: number[] = [];
    for (const value of garbage) statuses.push((await get(port, '/metrics', { headers: { authorization: value } })).status);
    // Non-bearer schemes are anonymous (then 403 on /metrics); a bearer token the cluster does not know is 401.
    expect(statuses).toEqual([403, 403, 403, 403, 401, 401, 403, 403]);
    expect((await get(port, '/metrics', { headers: { authorization: ['Bearer one', 'Bearer two'] } })).status).toBe(401);
    await get(port, '/metrics', { headers: { authorization: `Bearer ${SECRET_TOKEN}` } });
    expect(await get(port, '/healthz')).toMatchObject({ status: 200 });
    const log = logger.lines.join('\n');
    expect(log).toContain('Unable to authenticate the request');
    expect(log).not.toContain(SECRET_TOKEN);
    expect(log).not.toContain('xxxxxxxx');
    expect(log).not.toContain('not-a-token');
  });

  it('authenticates client certificates signed by the ConfigMap client CA, refuses others, and follows a CA rotation', async () => {
    const port = await serve();
    const alice = testClientCertificate(clientCa, 'alice', { organizations: ['dev'] });
    expect(await get(port, '/metrics', { client: alice })).toMatchObject({ status: 200 });
    expect(cluster.reviews.at(-1)?.user).toEqual(userInfo('alice', { groups: ['dev', 'system:authenticated'] }));
    const mallory = testClientCertificate(testCertificateAuthority('evil-ca'), 'alice');
    expect(await get(port, '/metrics', { client: mallory })).toEqual({ status: 401, contentType: 'application/json', body: UNAUTHORIZED });
    const admin = testClientCertificate(clientCa, 'kubernetes-admin', { organizations: ['system:masters'] });
    const reviewsBefore = cluster.reviews.length;
    expect(await get(port, '/configz', { client: admin })).toMatchObject({ status: 200 });
    expect(cluster.reviews).toHaveLength(reviewsBefore);

    const rotatedCa = testCertificateAuthority('kubernetes-client-ca-2');
    cluster.updateConfigMap({ 'client-ca-file': rotatedCa.certificatePem });
    expect(await get(port, '/metrics', { client: alice })).toMatchObject({ status: 401 });
    expect(await get(port, '/metrics', { client: testClientCertificate(rotatedCa, 'alice') })).toMatchObject({ status: 200 });
    cluster.updateConfigMap({ 'client-ca-file': 'garbage' });
    expect(await get(port, '/metrics', { client: testClientCertificate(rotatedCa, 'alice') })).toMatchObject({ status: 200 });
    expect(logger.warnings().join('\n')).toContain('Keeping the previous client CA of configmap/extension-apiserver-authentication in kube-system');
  });

  it('trusts front proxy headers from the ConfigMap request-header settings', async () => {
    cluster.configMap = {
      'client-ca-file': clientCa.certificatePem,
      'requestheader-client-ca-file': frontProxyCa.certificatePem,
      'requestheader-allowed-names': '["front-proxy-client"]',
      'requestheader-username-headers': '["X-Remote-User"]',
      'requestheader-group-headers': '["X-Remote-Group"]',
      'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
    };
    const port = await serve();
    const proxy = testClientCertificate(frontProxyCa, 'front-proxy-client');
    expect(await get(port, '/metrics', { client: proxy, headers: { 'x-remote-user': 'alice', 'x-remote-group': ['g1', 'g2'] } })).toMatchObject({ status: 200 });
    expect(cluster.reviews.at(-1)?.user).toEqual(userInfo('alice', { groups: ['g1', 'g2', 'system:authenticated'] }));
    const otherProxy = testClientCertificate(frontProxyCa, 'someone-else');
    expect(await get(port, '/metrics', { client: otherProxy, headers: { 'x-remote-user': 'alice' } })).toMatchObject({ status: 401 });
  });

  it('uses the client CA and front proxy files and flags instead of the ConfigMap when given', async () => {
    const clientCaFile = join(directory, 'client-ca.crt');
    const frontProxyFile = join(directory, 'front-proxy-ca.crt');
    const fileCa = testCertificateAuthority('file-ca');
    await writeFile(clientCaFile, fileCa.certificatePem);
    await writeFile(frontProxyFile, frontProxyCa.certificatePem);
    const port = await serve({ clientCaFile, requestheaderClientCaFile: frontProxyFile, requestheaderUsernameHeaders: ['x-user'] });
    expect(cluster.watcherCount).toBe(0);
    expect(await get(port, '/metrics', { client: testClientCertificate(fileCa, 'alice') })).toMatchObject({ status: 200 });
    expect(await get(port, '/metrics', { client: testClientCertificate(clientCa, 'alice') })).toMatchObject({ status: 401 });
    expect(await get(port, '/metrics', { client: testClientCertificate(frontProxyCa, 'proxy'), headers: { 'x-user': 'alice' } })).toMatchObject({ status: 200 });
  });

  it('without clients (no kubeconfig, not in a cluster): anonymous, only the always-allow paths and system:masters', async () => {
    const port = await serve({ authenticationKubeconfig: '', authorizationKubeconfig: '', clientCaFile: '' });
    expect(await get(port, '/healthz', { headers: { authorization: `Bearer ${SECRET_TOKEN}` } })).toMatchObject({ status: 200 });
    expect(await get(port, '/metrics', { headers: { authorization: `Bearer ${SECRET_TOKEN}` } })).toMatchObject({ status: 403 });
    expect(cluster.tokenReviews).toBe(0);
    expect(logger.warnings().map((line) => line.split(' {')[0])).toEqual([
      "W No authentication-kubeconfig provided in order to lookup client-ca-file in configmap/extension-apiserver-authentication in kube-system, so client certificate authentication won't work.",
      "W No authentication-kubeconfig provided in order to lookup requestheader-client-ca-file in configmap/extension-apiserver-authentication in kube-system, so request-header client certificate authentication won't work.",
      "W No authorization-kubeconfig provided, so SubjectAccessReview of authorization tokens won't work.",
    ]);
  });

  it('uses the in-cluster service account when the kubeconfig flags are empty', async () => {
    const inCluster: LoadKubeConfigOptions[] = [];
    await serve(
      { authenticationKubeconfig: '', authorizationKubeconfig: '' },
      {
        environment: { KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '443' },
        loadKubeConfig: (options) => {
          inCluster.push(options);
          return new KubeConfig();
        },
      },
    );
    expect(inCluster).toEqual([
      { environment: { KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '443' } },
      { environment: { KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '443' } },
    ]);
    expect(auth?.requestsClientCertificates).toBe(true);
  });

  it('skips the ConfigMap with --authentication-skip-lookup', async () => {
    cluster.readFailure = new Error('must not be read');
    await serve({ authenticationSkipLookup: true });
    expect(cluster.watcherCount).toBe(0);
    expect(auth?.requestsClientCertificates).toBe(false);
  });

  describe('start-up failures', () => {
    it('a bad authentication or authorization kubeconfig stops the command with one line', async () => {
      const failure = createDelegatedAuth({ ...DEFAULTS, authenticationKubeconfig: '/missing/authn.conf' }, dependencies());
      await expect(failure).rejects.toThrow(DelegatedAuthStartupError);
      await expect(failure).rejects.toThrow('failed to get delegated authentication kubeconfig (--authentication-kubeconfig): cannot read kubeconfig /missing/authn.conf: no such file');
      await expect(createDelegatedAuth({ ...DEFAULTS, authorizationKubeconfig: '/missing/authz.conf' }, dependencies())).rejects.toMatchObject({
        kind: 'AuthorizationKubeconfig',
        message: 'failed to get delegated authorization kubeconfig (--authorization-kubeconfig): cannot read kubeconfig /missing/authz.conf: no such file',
      });
    });

    it('an unreachable cluster fails the ConfigMap lookup, unless --authentication-tolerate-lookup-failure', async () => {
      cluster.readFailure = new KubeApiError('get configmap kube-system/extension-apiserver-authentication: connect ECONNREFUSED 127.0.0.1:1', 0);
      const failure = createDelegatedAuth(DEFAULTS, dependencies());
      await expect(failure).rejects.toMatchObject({
        kind: 'AuthenticationLookup',
        message:
          'unable to load configmap based request-header-client-ca-file (configmap/extension-apiserver-authentication in kube-system): get configmap kube-system/extension-apiserver-authentication: connect ECONNREFUSED 127.0.0.1:1',
      });
      expect((await failure.catch((error: Error) => error)).message).not.toContain('\n');

      logger = new RecordingLogger();
      const port = await serve({ authenticationTolerateLookupFailure: true });
      const warnings = logger.warnings();
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('Error looking up in-cluster authentication configuration');
      expect(warnings[0]).toContain('ECONNREFUSED');
      expect(await get(port, '/healthz')).toMatchObject({ status: 200 });
    });

    it('a lookup that never answers fails after the lookup timeout', async () => {
      const never = cluster.authenticationApi();
      const hanging: DelegatedAuthenticationApi = { ...never, authenticationConfigMap: { ...never.authenticationConfigMap, read: () => new Promise(() => undefined) } };
      await expect(createDelegatedAuth(DEFAULTS, dependencies({ createAuthenticationApi: () => hanging, lookupTimeoutMs: 50 }))).rejects.toThrow(/no answer within 0.05s/);
    });

    it('a missing CA file names its flag', async () => {
      await expect(createDelegatedAuth({ ...DEFAULTS, clientCaFile: join(directory, 'nope.crt') }, dependencies())).rejects.toMatchObject({
        kind: 'ClientCaFile',
        message: `unable to load client CA provider: cannot read --client-ca-file ${join(directory, 'nope.crt')}: no such file`,
      });
      const notPem = join(directory, 'front-proxy.crt');
      await writeFile(notPem, 'hello');
      await expect(createDelegatedAuth({ ...DEFAULTS, requestheaderClientCaFile: notPem }, dependencies())).rejects.toMatchObject({
        kind: 'RequestHeaderClientCaFile',
        message: `unable to create request header authentication config: --requestheader-client-ca-file ${notPem} holds no PEM certificate`,
      });
    });
  });
});
