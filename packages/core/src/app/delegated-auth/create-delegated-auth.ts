/**
 * Builds the secure port's delegated authentication and authorization from the flags, the way
 * upstream's `DelegatingAuthenticationOptions.ApplyTo` and `DelegatingAuthorizationOptions.ApplyTo`
 * do for controller managers:
 *
 * - Clients: `--authentication-kubeconfig` / `--authorization-kubeconfig`, or, when empty, the
 *   in-cluster service account (never `--kubeconfig`); neither = no TokenReview / no
 *   SubjectAccessReview (logged). A kubeconfig that cannot be loaded stops the command.
 * - Client CA: `--client-ca-file` (re-read every minute), else (unless
 *   `--authentication-skip-lookup`) `client-ca-file` of the `extension-apiserver-authentication`
 *   ConfigMap, watched, so a rotated CA is used without a restart.
 * - Front proxy: `--requestheader-client-ca-file` with the `--requestheader-*` flags, else (unless
 *   skipped) the ConfigMap's `requestheader-*` keys, looked up once at start (a failure stops the
 *   command unless `--authentication-tolerate-lookup-failure`) and then watched.
 * - Anonymous requests are allowed; authorization decides. `system:masters` and the
 *   `--authorization-always-allow-paths` skip SubjectAccessReview; without an authorization
 *   client every other request is forbidden.
 */
import type { X509Certificate } from 'node:crypto';
import type { KubeConfig } from '@kubernetes/client-node';
import { createClientNodeDelegatedAuthenticationApi, createClientNodeDelegatedAuthorizationApi } from './client-node-delegated-auth-api.js';
import { KubeConfigError, type LoadKubeConfigOptions } from '../../kube/load-kube-config.js';
import type { Logger } from '../../logging/logger.js';
import type { CloudControllerManagerOptions } from '../options/cloud-controller-manager-flags.js';
import { decideAccess, type AccessDecision, type AccessRequest } from './access-decision.js';
import { alwaysAllowPathMatcher } from './always-allow-paths.js';
import { authenticateRequest } from './authenticate-request.js';
import type { AuthenticationRequest, Authenticator } from './authenticator.js';
import {
  AUTHENTICATION_CONFIG_MAP_NAME,
  AUTHENTICATION_CONFIG_MAP_NAMESPACE,
  clientCertificateAuthoritiesFrom,
  requestHeaderSettingsFrom,
  type ConfigMapData,
} from './authentication-config-map.js';
import { alwaysAllowPathsAuthorizer, authorizeRequest, privilegedGroupsAuthorizer, subjectAccessReviewAuthorizer, type Authorizer } from './authorize-request.js';
import { watchCertificateFile } from './certificate-file.js';
import { clientCertificateAuthenticator } from './client-certificate-authenticator.js';
import type { DelegatedAuthenticationApi, DelegatedAuthorizationApi } from './delegated-auth-api.js';
import { DelegatedAuthStartupError, type DelegatedAuthStartupErrorKind } from './delegated-auth-startup-error.js';
import { requestHeaderAuthenticator, type RequestHeaderSettings } from './request-header-authenticator.js';
import { cachedSubjectAccessReviewer } from './subject-access-reviewer.js';
import { tokenReviewAuthenticator } from './token-review-authenticator.js';
import { cachedTokenReviewer } from './token-reviewer.js';

export type DelegatedAuthOptions = Pick<
  CloudControllerManagerOptions,
  | 'authenticationKubeconfig'
  | 'authenticationSkipLookup'
  | 'authenticationTokenWebhookCacheTtlMs'
  | 'authenticationTolerateLookupFailure'
  | 'clientCaFile'
  | 'requestheaderClientCaFile'
  | 'requestheaderAllowedNames'
  | 'requestheaderUsernameHeaders'
  | 'requestheaderUidHeaders'
  | 'requestheaderGroupHeaders'
  | 'requestheaderExtraHeadersPrefix'
  | 'authorizationKubeconfig'
  | 'authorizationAlwaysAllowPaths'
  | 'authorizationWebhookCacheAuthorizedTtlMs'
  | 'authorizationWebhookCacheUnauthorizedTtlMs'
>;

export interface DelegatedAuthDependencies {
  logger: Logger;
  /** For the in-cluster service account check. */
  environment: Readonly<Record<string, string | undefined>>;
  loadKubeConfig(options: LoadKubeConfigOptions): KubeConfig;
  createAuthenticationApi?(kubeConfig: KubeConfig, logger: Logger): DelegatedAuthenticationApi;
  createAuthorizationApi?(kubeConfig: KubeConfig, logger: Logger): DelegatedAuthorizationApi;
  now?: () => Date;
  /** Bound of the start-up ConfigMap lookup; default 10 s. */
  lookupTimeoutMs?: number;
}

export interface DelegatedAuth {
  /** The TLS server should ask for client certificates (a client CA or front proxy CA may apply). */
  readonly requestsClientCertificates: boolean;
  /** Authenticates and authorizes one request; never throws. */
  check(request: AuthenticationRequest, access: AccessRequest): Promise<AccessDecision>;
  /** Stops watching the ConfigMap and the CA files. */
  close(): void;
}

const LOOKUP_TIMEOUT_MS = 10_000;
const CONFIG_MAP = `configmap/${AUTHENTICATION_CONFIG_MAP_NAME} in ${AUTHENTICATION_CONFIG_MAP_NAMESPACE}`;

export async function createDelegatedAuth(options: DelegatedAuthOptions, dependencies: DelegatedAuthDependencies): Promise<DelegatedAuth> {
  const logger = dependencies.logger;
  const now = dependencies.now ?? (() => new Date());
  const closers: Array<() => void> = [];
  const watching = new AbortController();
  closers.push(() => watching.abort());
  const close = (): void => {
    for (const closer of closers.splice(0)) closer();
  };

  try {
    const authenticationConfig = clientConfig('authentication', options.authenticationKubeconfig, dependencies);
    const authenticationApi =
      authenticationConfig === undefined
        ? undefined
        : (dependencies.createAuthenticationApi ?? ((kubeConfig, apiLogger) => createClientNodeDelegatedAuthenticationApi({ kubeConfig, logger: apiLogger })))(authenticationConfig, logger);
    const fromConfigMap = new ConfigMapAuthentication(logger);
    let watchConfigMap = false;

    let clientCertificateAuthorities: (() => readonly X509Certificate[]) | undefined;
    if (options.clientCaFile.trim() !== '') {
      const file = await loadCertificateFile('ClientCaFile', '--client-ca-file', options.clientCaFile, 'unable to load client CA provider', logger);
      closers.push(file.close);
      clientCertificateAuthorities = file.current;
    } else if (!options.authenticationSkipLookup) {
      if (authenticationApi === undefined) {
        logger.warn(`No authentication-kubeconfig provided in order to lookup client-ca-file in ${CONFIG_MAP}, so client certificate authentication won't work.`);
      } else {
        watchConfigMap = true;
        clientCertificateAuthorities = () => fromConfigMap.clientCertificateAuthorities;
      }
    }

    let requestHeader: (() => RequestHeaderSettings | undefined) | undefined;
    if (options.requestheaderClientCaFile.trim() !== '') {
      const file = await loadCertificateFile(
        'RequestHeaderClientCaFile',
        '--requestheader-client-ca-file',
        options.requestheaderClientCaFile,
        'unable to create request header authentication config',
        logger,
      );
      closers.push(file.close);
      const fromFlags = {
        allowedNames: options.requestheaderAllowedNames,
        usernameHeaders: options.requestheaderUsernameHeaders,
        uidHeaders: options.requestheaderUidHeaders,
        groupHeaders: options.requestheaderGroupHeaders,
        extraHeaderPrefixes: options.requestheaderExtraHeadersPrefix,
      };
      requestHeader = () => ({ ...fromFlags, certificateAuthorities: file.current() });
    } else if (!options.authenticationSkipLookup) {
      if (authenticationApi === undefined) {
        logger.warn(`No authentication-kubeconfig provided in order to lookup requestheader-client-ca-file in ${CONFIG_MAP}, so request-header client certificate authentication won't work.`);
      } else {
        try {
          const data = await withTimeout(authenticationApi.authenticationConfigMap.read(), dependencies.lookupTimeoutMs ?? LOOKUP_TIMEOUT_MS);
          fromConfigMap.applyAtStart(data);
          watchConfigMap = true;
          requestHeader = () => fromConfigMap.requestHeader;
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          if (!options.authenticationTolerateLookupFailure) {
            throw new DelegatedAuthStartupError('AuthenticationLookup', `unable to load configmap based request-header-client-ca-file (${CONFIG_MAP}): ${reason}`, { cause: error });
          }
          logger.warn(
            `Error looking up in-cluster authentication configuration (${CONFIG_MAP}): ${reason}. Continuing without it because --authentication-tolerate-lookup-failure=true: front proxy authentication is off and requests may be treated as anonymous.`,
          );
        }
      }
    }
    if (watchConfigMap && authenticationApi !== undefined) authenticationApi.authenticationConfigMap.watch((data) => fromConfigMap.apply(data), watching.signal);

    const authenticators: Authenticator[] = [];
    if (requestHeader !== undefined) authenticators.push(requestHeaderAuthenticator(requestHeader, now));
    if (clientCertificateAuthorities !== undefined) authenticators.push(clientCertificateAuthenticator(clientCertificateAuthorities, now));
    if (authenticationApi !== undefined) {
      authenticators.push(tokenReviewAuthenticator(cachedTokenReviewer(authenticationApi.tokenReviewer, { ttlMs: options.authenticationTokenWebhookCacheTtlMs }), logger));
    }

    const authorizers = buildAuthorizers(options, dependencies);
    const requestsClientCertificates = requestHeader !== undefined || clientCertificateAuthorities !== undefined;
    logger.info('Delegated authentication and authorization', {
      authenticators: authenticators.map((authenticator) => authenticator.name),
      authorizers: authorizers.map((authorizer) => authorizer.name),
      alwaysAllowPaths: options.authorizationAlwaysAllowPaths,
    });

    return {
      requestsClientCertificates,
      async check(request: AuthenticationRequest, access: AccessRequest): Promise<AccessDecision> {
        const authentication = await authenticateRequest(authenticators, request, { anonymous: true });
        if (authentication.kind === 'unauthenticated') {
          logger.warn('Unable to authenticate the request', { path: access.path, reasons: authentication.reasons });
          return decideAccess(access, authentication, undefined);
        }
        const authorization = await authorizeRequest(authorizers, { user: authentication.user, verb: access.verb, path: access.path });
        if (authorization.kind === 'forbidden') logger.verbose(4, 'Forbidden', { path: access.path, user: authentication.user.name, reason: authorization.reason });
        if (authorization.kind === 'error') logger.error('Authorization failed', { path: access.path, user: authentication.user.name, reason: authorization.error });
        return decideAccess(access, authentication, authorization);
      },
      close,
    };
  } catch (error) {
    close();
    throw error;
  }
}

function buildAuthorizers(options: DelegatedAuthOptions, dependencies: DelegatedAuthDependencies): Authorizer[] {
  const authorizers: Authorizer[] = [privilegedGroupsAuthorizer()];
  if (options.authorizationAlwaysAllowPaths.length > 0) {
    let matcher: (path: string) => boolean;
    try {
      matcher = alwaysAllowPathMatcher(options.authorizationAlwaysAllowPaths);
    } catch (error) {
      throw new DelegatedAuthStartupError('AlwaysAllowPaths', `--authorization-always-allow-paths: ${(error as Error).message}`, { cause: error });
    }
    authorizers.push(alwaysAllowPathsAuthorizer(matcher));
  }
  const authorizationConfig = clientConfig('authorization', options.authorizationKubeconfig, dependencies);
  if (authorizationConfig === undefined) {
    dependencies.logger.warn("No authorization-kubeconfig provided, so SubjectAccessReview of authorization tokens won't work.");
    return authorizers;
  }
  const create = dependencies.createAuthorizationApi ?? ((kubeConfig, apiLogger) => createClientNodeDelegatedAuthorizationApi({ kubeConfig, logger: apiLogger }));
  const api = create(authorizationConfig, dependencies.logger);
  authorizers.push(
    subjectAccessReviewAuthorizer(
      cachedSubjectAccessReviewer(api.subjectAccessReviewer, {
        authorizedTtlMs: options.authorizationWebhookCacheAuthorizedTtlMs,
        unauthorizedTtlMs: options.authorizationWebhookCacheUnauthorizedTtlMs,
      }),
    ),
  );
  return authorizers;
}

/** The flag's kubeconfig; else the in-cluster service account; else undefined ("remote kubeconfig optional"). */
function clientConfig(purpose: 'authentication' | 'authorization', path: string, dependencies: DelegatedAuthDependencies): KubeConfig | undefined {
  const flag = `--${purpose}-kubeconfig`;
  if (path.trim() !== '') {
    try {
      return dependencies.loadKubeConfig({ kubeconfigPath: path });
    } catch (error) {
      const kind: DelegatedAuthStartupErrorKind = purpose === 'authentication' ? 'AuthenticationKubeconfig' : 'AuthorizationKubeconfig';
      throw new DelegatedAuthStartupError(kind, `failed to get delegated ${purpose} kubeconfig (${flag}): ${(error as Error).message}`, { cause: error });
    }
  }
  try {
    return dependencies.loadKubeConfig({ environment: dependencies.environment });
  } catch (error) {
    if (!(error instanceof KubeConfigError && error.kind === 'NoConfiguration')) {
      dependencies.logger.warn(`failed to read in-cluster kubeconfig for delegated ${purpose}`, { reason: (error as Error).message });
    }
    return undefined;
  }
}

async function loadCertificateFile(kind: DelegatedAuthStartupErrorKind, flag: string, path: string, prefix: string, logger: Logger) {
  try {
    return await watchCertificateFile(flag, path, logger);
  } catch (error) {
    throw new DelegatedAuthStartupError(kind, `${prefix}: ${(error as Error).message}`, { cause: error });
  }
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000}s`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The client CA and front proxy settings from the ConfigMap, replaced on every change. Content
 * that cannot be parsed keeps the previous settings (and is logged), like upstream's controllers.
 */
class ConfigMapAuthentication {
  clientCertificateAuthorities: readonly X509Certificate[] = [];
  requestHeader: RequestHeaderSettings | undefined;
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** The start-up lookup: bad content fails like an unreachable server. */
  applyAtStart(data: ConfigMapData): void {
    this.requestHeader = requestHeaderSettingsFrom(data);
    this.apply(data);
  }

  apply(data: ConfigMapData): void {
    try {
      this.clientCertificateAuthorities = clientCertificateAuthoritiesFrom(data);
    } catch (error) {
      this.#logger.warn(`Keeping the previous client CA of ${CONFIG_MAP}`, { reason: (error as Error).message });
    }
    try {
      this.requestHeader = requestHeaderSettingsFrom(data);
    } catch (error) {
      this.#logger.warn(`Keeping the previous request-header settings of ${CONFIG_MAP}`, { reason: (error as Error).message });
    }
  }
}
