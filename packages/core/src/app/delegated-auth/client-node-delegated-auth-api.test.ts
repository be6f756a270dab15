import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger.js';
import { userInfo } from './user-info.js';
import type { ConfigMapData } from './authentication-config-map.js';
import { KubeApiError } from '../../kube/kube-api-error.js';
import { FakeApiServer } from '../../kube/client-node/test-support/fake-api-server.js';
import {
  createClientNodeDelegatedAuthenticationApi,
  createClientNodeDelegatedAuthorizationApi,
  isTransientWebhookFailure,
  retryTransientWebhookFailures,
} from './client-node-delegated-auth-api.js';

const TOKEN_REVIEWS = /^\/apis\/authentication\.k8s\.io\/v1\/tokenreviews$/;
const ACCESS_REVIEWS = /^\/apis\/authorization\.k8s\.io\/v1\/subjectaccessreviews$/;
const CONFIG_MAP = /^\/api\/v1\/namespaces\/kube-system\/configmaps\/extension-apiserver-authentication$/;
const CONFIG_MAPS = /^\/api\/v1\/namespaces\/kube-system\/configmaps$/;

describe('client-node delegated auth adapters', () => {
  let server: FakeApiServer;
  let sleeps: number[];
  const retry = { sleep: async (ms: number) => void sleeps.push(ms), random: () => 0 };

  beforeEach(async () => {
    server = new FakeApiServer();
    await server.start();
    sleeps = [];
  });
  afterEach(async () => {
    await server.close();
  });

  it('creates TokenReviews and maps the user', async () => {
    server.on('POST', TOKEN_REVIEWS, (request) => {
      const review = JSON.parse(request.body) as { spec: { token: string } };
      return review.spec.token === 'good'
        ? { status: 201, body: { ...review, status: { authenticated: true, user: { username: 'alice', uid: 'u1', groups: ['dev'], extra: { scopes: ['a'] } } } } }
        : { status: 201, body: { ...review, status: { authenticated: false, error: 'token expired' } } };
    });
    const api = createClientNodeDelegatedAuthenticationApi({ kubeConfig: server.kubeConfig(), logger: silentLogger, retry });
    expect(await api.tokenReviewer.review('good')).toEqual({ authenticated: true, user: userInfo('alice', { uid: 'u1', groups: ['dev'], extra: { scopes: ['a'] } }) });
    expect(await api.tokenReviewer.review('old')).toEqual({ authenticated: false, error: 'token expired' });
    expect(JSON.parse(server.requestsTo('POST', TOKEN_REVIEWS)[0]?.body ?? '{}')).toEqual({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 'good' } });
    expect(server.requestsTo('POST', TOKEN_REVIEWS)[0]?.headers['user-agent']).toBe('cloud-controller-manager');
  });

  it('retries transient failures with the webhook backoff, and not the others', async () => {
    let answers = [500, 429, 201];
    server.on('POST', TOKEN_REVIEWS, () => {
      const status = answers.shift() ?? 403;
      return status === 201 ? { status, body: { status: { authenticated: false } } } : { status, body: { kind: 'Status', code: status, message: `failure ${status}` } };
    });
    const api = createClientNodeDelegatedAuthenticationApi({ kubeConfig: server.kubeConfig(), logger: silentLogger, retry });
    expect(await api.tokenReviewer.review('x')).toEqual({ authenticated: false });
    expect(sleeps).toEqual([500, 750]);
    answers = [403];
    await expect(api.tokenReviewer.review('x')).rejects.toThrow('failure 403');
    expect(sleeps).toEqual([500, 750]);
    answers = [500, 500, 500, 500, 500, 500];
    await expect(api.tokenReviewer.review('x')).rejects.toThrow('failure 500');
    expect(sleeps).toHaveLength(2 + 4);
  });

  it('creates non-resource SubjectAccessReviews', async () => {
    server.on('POST', ACCESS_REVIEWS, (request) => {
      const review = JSON.parse(request.body) as Record<string, unknown>;
      return { status: 201, body: { ...review, status: { allowed: false, denied: true, reason: 'denied by webhook' } } };
    });
    const api = createClientNodeDelegatedAuthorizationApi({ kubeConfig: server.kubeConfig(), logger: silentLogger, retry });
    const verdict = await api.subjectAccessReviewer.review({ user: userInfo('alice', { uid: 'u1', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a'] } }), verb: 'get', path: '/metrics' });
    expect(verdict).toEqual({ allowed: false, denied: true, reason: 'denied by webhook' });
    expect(JSON.parse(server.requestsTo('POST', ACCESS_REVIEWS)[0]?.body ?? '{}')).toEqual({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: { user: 'alice', uid: 'u1', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a'] }, nonResourceAttributes: { path: '/metrics', verb: 'get' } },
    });
  });

  it('reads the authentication ConfigMap (missing = undefined, forbidden = error)', async () => {
    const api = createClientNodeDelegatedAuthenticationApi({ kubeConfig: server.kubeConfig(), logger: silentLogger, retry });
    server.on('GET', CONFIG_MAP, () => ({ status: 200, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'extension-apiserver-authentication' }, data: { 'client-ca-file': 'pem' } } }));
    expect(await api.authenticationConfigMap.read()).toEqual({ 'client-ca-file': 'pem' });
    server.on('GET', CONFIG_MAP, () => ({ status: 404, body: { kind: 'Status', code: 404, reason: 'NotFound', message: 'not found' } }));
    expect(await api.authenticationConfigMap.read()).toBeUndefined();
    server.on('GET', CONFIG_MAP, () => ({ status: 403, body: { kind: 'Status', code: 403, reason: 'Forbidden', message: 'configmaps "extension-apiserver-authentication" is forbidden' } }));
    await expect(api.authenticationConfigMap.read()).rejects.toMatchObject({ statusCode: 403 });
  });

  it('watches only the authentication ConfigMap, by field selector', async () => {
    const configMap = (resourceVersion: string, data: Record<string, string>) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'extension-apiserver-authentication', namespace: 'kube-system', resourceVersion },
      data,
    });
    server.on('GET', CONFIG_MAPS, () => ({ status: 200, body: { apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '10' }, items: [configMap('10', { 'client-ca-file': 'one' })] } }));
    server.onWatch(CONFIG_MAPS);
    const api = createClientNodeDelegatedAuthenticationApi({ kubeConfig: server.kubeConfig(), logger: silentLogger, retry });
    const seen: ConfigMapData[] = [];
    const stop = new AbortController();
    api.authenticationConfigMap.watch((data) => seen.push(data), stop.signal);
    const watch = await server.waitForWatches(1);
    expect(server.requestsTo('GET', CONFIG_MAPS)[0]?.query.get('fieldSelector')).toBe('metadata.name=extension-apiserver-authentication');
    expect(watch.request.query.get('fieldSelector')).toBe('metadata.name=extension-apiserver-authentication');
    watch.send('MODIFIED', configMap('11', { 'client-ca-file': 'two' }));
    watch.send('DELETED', configMap('12', {}));
    await expect.poll(() => seen).toEqual([{ 'client-ca-file': 'one' }, { 'client-ca-file': 'two' }, undefined]);
    stop.abort();
  });

  it('classifies transient failures like client-go', async () => {
    expect(isTransientWebhookFailure(new KubeApiError('x', 500, 'InternalError'))).toBe(true);
    expect(isTransientWebhookFailure(new KubeApiError('x', 504, 'Timeout'))).toBe(true);
    expect(isTransientWebhookFailure(new KubeApiError('x', 429))).toBe(true);
    expect(isTransientWebhookFailure(new KubeApiError('create tokenreview: fetch failed: read ECONNRESET', 0))).toBe(true);
    expect(isTransientWebhookFailure(new KubeApiError('create tokenreview: connect ECONNREFUSED', 0))).toBe(false);
    expect(isTransientWebhookFailure(new KubeApiError('x', 403, 'Forbidden'))).toBe(false);
    expect(isTransientWebhookFailure(new Error('x'))).toBe(false);
    let calls = 0;
    await expect(retryTransientWebhookFailures(() => (calls += 1, Promise.reject(new KubeApiError('x', 500))), { steps: 3, sleep: async () => undefined })).rejects.toThrow('x');
    expect(calls).toBe(3);
  });
});
