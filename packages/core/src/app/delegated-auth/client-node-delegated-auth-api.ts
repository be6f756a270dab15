/**
 * Delegated authentication and authorization over client-node: TokenReviews
 * (`authentication.k8s.io/v1`), non-resource SubjectAccessReviews (`authorization.k8s.io/v1`)
 * and the `kube-system/extension-apiserver-authentication` ConfigMap (read once, then watched
 * with a field selector on its name, which the built-in `extension-apiserver-authentication-reader`
 * Role allows). Like upstream's webhook clients: 200 requests/s (burst 400), a 10 s limit per
 * request, and transient failures (connection reset, 429, 500, 504) retried up to 5 times with a
 * backoff from 500 ms (×1.5, 20% jitter).
 */
import { AuthenticationV1Api, AuthorizationV1Api, CoreV1Api, type KubeConfig, type V1ConfigMap } from '@kubernetes/client-node';
import type { AuthenticationConfigMapApi, DelegatedAuthenticationApi, DelegatedAuthorizationApi } from './delegated-auth-api.js';
import { AUTHENTICATION_CONFIG_MAP_NAME, AUTHENTICATION_CONFIG_MAP_NAMESPACE, type ConfigMapData } from './authentication-config-map.js';
import type { NonResourceAccess, SubjectAccessReviewVerdict } from './subject-access-reviewer.js';
import type { TokenReviewVerdict } from './token-reviewer.js';
import { userInfo } from './user-info.js';
import type { Logger } from '../../logging/logger.js';
import { KubeApiError } from '../../kube/kube-api-error.js';
import { TokenBucket } from '../../kube/token-bucket.js';
import { RequestExecutor } from '../../kube/client-node/request-executor.js';
import { ResilientInformer } from '../../kube/client-node/resilient-informer.js';
import { shareDispatcher } from '../../kube/client-node/share-dispatcher.js';
import { createClientNodeWatch } from '../../kube/client-node/watch-function.js';

export interface DelegatedAuthClientOptions {
  kubeConfig: KubeConfig;
  logger: Logger;
  userAgent?: string;
  /** Per-request limit; default 10 s (upstream `TokenRequestTimeout` / `ClientTimeout`). */
  requestTimeoutMs?: number;
  retry?: WebhookRetryOptions;
}

export interface WebhookRetryOptions {
  /** Attempts in all; default 5 (upstream `DefaultAuthWebhookRetryBackoff`). */
  steps?: number;
  initialDelayMs?: number;
  factor?: number;
  jitter?: number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
const USER_AGENT = 'cloud-controller-manager';

/** client-go's `DefaultShouldRetry` for webhooks: connection resets, 429, InternalError (500), Timeout (504). */
export function isTransientWebhookFailure(error: unknown): boolean {
  if (!(error instanceof KubeApiError)) return false;
  if (error.statusCode === 429 || error.statusCode === 500 || error.statusCode === 504) return true;
  return error.statusCode === 0 && error.reason !== 'Timeout' && /ECONNRESET|socket hang up|other side closed|EPIPE/i.test(error.message);
}

export async function retryTransientWebhookFailures<T>(call: () => Promise<T>, options: WebhookRetryOptions = {}): Promise<T> {
  const steps = options.steps ?? 5;
  const factor = options.factor ?? 1.5;
  const jitter = options.jitter ?? 0.2;
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let delay = options.initialDelayMs ?? 500;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= steps || !isTransientWebhookFailure(error)) throw error;
      await sleep(delay * (1 + jitter * random()));
      delay *= factor;
    }
  }
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number, description: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new KubeApiError(`${description}: no answer within ${timeoutMs / 1000}s`, 0, 'Timeout')), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function executorFor(options: DelegatedAuthClientOptions): RequestExecutor {
  shareDispatcher(options.kubeConfig);
  return new RequestExecutor({ bucket: new TokenBucket({ qps: 200, burst: 400 }), userAgent: options.userAgent ?? USER_AGENT, logger: options.logger, maxRetries: 0 });
}

export function createClientNodeDelegatedAuthenticationApi(options: DelegatedAuthClientOptions): DelegatedAuthenticationApi {
  const executor = executorFor(options);
  const timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const authentication = options.kubeConfig.makeApiClient(AuthenticationV1Api);
  const core = options.kubeConfig.makeApiClient(CoreV1Api);
  const tokenReviewer = {
    async review(token: string): Promise<TokenReviewVerdict> {
      const review = await retryTransientWebhookFailures(
        () =>
          withTimeout(
            executor.execute({ method: 'POST', description: 'create tokenreview' }, (callOptions) =>
              authentication.createTokenReview({ body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } } }, callOptions),
            ),
            timeoutMs,
            'create tokenreview',
          ),
        options.retry,
      );
      const status = review.status ?? {};
      if (status.authenticated === true) {
        const user = status.user ?? {};
        return {
          authenticated: true,
          user: userInfo(user.username ?? '', { uid: user.uid ?? '', groups: user.groups ?? [], extra: user.extra ?? {} }),
        };
      }
      return status.error ? { authenticated: false, error: status.error } : { authenticated: false };
    },
  };
  return { tokenReviewer, authenticationConfigMap: clientNodeAuthenticationConfigMap(options, core, executor, timeoutMs) };
}

export function createClientNodeDelegatedAuthorizationApi(options: DelegatedAuthClientOptions): DelegatedAuthorizationApi {
  const executor = executorFor(options);
  const timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const authorization = options.kubeConfig.makeApiClient(AuthorizationV1Api);
  return {
    subjectAccessReviewer: {
      async review(access: NonResourceAccess): Promise<SubjectAccessReviewVerdict> {
        const extra = Object.fromEntries(Object.entries(access.user.extra).map(([key, values]) => [key, [...values]]));
        const review = await retryTransientWebhookFailures(
          () =>
            withTimeout(
              executor.execute({ method: 'POST', description: 'create subjectaccessreview' }, (callOptions) =>
                authorization.createSubjectAccessReview(
                  {
                    body: {
                      apiVersion: 'authorization.k8s.io/v1',
                      kind: 'SubjectAccessReview',
                      spec: {
                        user: access.user.name,
                        ...(access.user.uid !== '' ? { uid: access.user.uid } : {}),
                        groups: [...access.user.groups],
                        ...(Object.keys(extra).length > 0 ? { extra } : {}),
                        nonResourceAttributes: { path: access.path, verb: access.verb },
                      },
                    },
                  },
                  callOptions,
                ),
              ),
              timeoutMs,
              'create subjectaccessreview',
            ),
          options.retry,
        );
        const status = review.status;
        return { allowed: status?.allowed === true, denied: status?.denied === true, reason: status?.reason ?? '' };
      },
    },
  };
}

function clientNodeAuthenticationConfigMap(options: DelegatedAuthClientOptions, core: CoreV1Api, executor: RequestExecutor, timeoutMs: number): AuthenticationConfigMapApi {
  const namespace = AUTHENTICATION_CONFIG_MAP_NAMESPACE;
  const name = AUTHENTICATION_CONFIG_MAP_NAME;
  const fieldSelector = `metadata.name=${name}`;
  return {
    async read(): Promise<ConfigMapData> {
      try {
        const configMap = await withTimeout(
          executor.execute({ method: 'GET', description: `get configmap ${namespace}/${name}` }, (callOptions) => core.readNamespacedConfigMap({ namespace, name }, callOptions)),
          timeoutMs,
          `get configmap ${namespace}/${name}`,
        );
        return configMap.data ?? {};
      } catch (error) {
        if (error instanceof KubeApiError && error.isNotFound) return undefined;
        throw error;
      }
    },
    watch(onChange: (data: ConfigMapData) => void, signal: AbortSignal): void {
      if (signal.aborted) return;
      const informer = new ResilientInformer<V1ConfigMap>({
        resource: `configmap ${namespace}/${name}`,
        apiVersion: 'v1',
        kind: 'ConfigMap',
        model: 'V1ConfigMap',
        watchPath: `/api/v1/namespaces/${namespace}/configmaps`,
        watchQuery: { fieldSelector },
        list: async (page) => {
          const result = await executor.execute({ method: 'GET', description: `list configmap ${namespace}/${name}` }, (callOptions) =>
            core.listNamespacedConfigMap({ namespace, fieldSelector, limit: page.limit, _continue: page.continueToken }, callOptions),
          );
          return {
            items: result.items,
            resourceVersion: result.metadata?.resourceVersion ?? '',
            ...(result.metadata?._continue ? { continueToken: result.metadata._continue } : {}),
          };
        },
        watch: createClientNodeWatch(options.kubeConfig),
        throttle: () => executor.throttle(),
        logger: options.logger,
      });
      informer.addHandlers({
        onAdd: (configMap) => onChange(configMap.data ?? {}),
        onUpdate: (_previous, configMap) => onChange(configMap.data ?? {}),
        onDelete: () => onChange(undefined),
      });
      informer.start();
      signal.addEventListener('abort', () => void informer.stop(), { once: true });
    },
  };
}
