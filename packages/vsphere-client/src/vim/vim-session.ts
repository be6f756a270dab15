/**
 * Session handling for VIM SOAP: lazy login, one login at a time, transparent re-login when a
 * call answers NotAuthenticated (expired or terminated session), retries of transient transport
 * failures (`roundTripCount` attempts, as govmomi's soapRoundtripCount), and an optional
 * keep-alive that reads `SessionManager.currentSession` and logs in again when it is gone.
 */
import type { VsphereCredentialsProvider } from '../credentials.js';
import type { VsphereClientLogger } from '../http/http-fetch.js';
import type { SoapTransport } from '../soap/soap-transport.js';
import { VsphereError, findVsphereError } from '../vsphere-error.js';
import type { XmlObject } from '../xml/parse-xml.js';
import { child } from '../xml/xml-node.js';
import { xmlText } from '../xml/xml-writer.js';
import { managedObjectReferenceXml } from './managed-object-reference.js';
import { propertyFilterSpecXml, readRetrieveResult, retrieveOptionsXml } from './property-collector-specs.js';
import { readServiceContent, readUserSession, type ServiceContent, type UserSession } from './service-content.js';

export interface VimSessionOptions {
  transport: SoapTransport;
  credentials: VsphereCredentialsProvider;
  /** Attempts per call for retryable failures (1 = no retry). */
  roundTripCount: number;
  retryDelayMs: number;
  /** 0 disables the keep-alive. */
  keepAliveIntervalMs: number;
  logger: VsphereClientLogger;
  /** For messages: `vcenter.example.com:443`. */
  serverName: string;
}

export interface InvokeOptions {
  signal?: AbortSignal | undefined;
  /** Skips login (RetrieveServiceContent, Login itself). */
  anonymous?: boolean;
  /** Inspects a successful answer; may throw a NotAuthenticated VsphereError to force a re-login. */
  inspect?: (response: XmlObject) => void;
}

export class VimSession {
  readonly #options: VimSessionOptions;
  #serviceContent: ServiceContent | undefined;
  #session: UserSession | undefined;
  /** Incremented at every successful login; a call retries only on the session it failed with. */
  #generation = 0;
  #login: Promise<UserSession> | undefined;
  #keepAlive: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: VimSessionOptions) {
    this.#options = options;
  }

  get session(): UserSession | undefined {
    return this.#session;
  }

  async serviceContent(signal?: AbortSignal): Promise<ServiceContent> {
    if (this.#serviceContent) return this.#serviceContent;
    const response = await this.invoke('RetrieveServiceContent', managedObjectReferenceXml('_this', { type: 'ServiceInstance', value: 'ServiceInstance' }), {
      signal,
      anonymous: true,
    });
    const content = readServiceContent(child(response, 'returnval'));
    if (content.about.apiVersion !== '') this.#options.transport.soapAction = `urn:vim25/${content.about.apiVersion}`;
    this.#serviceContent = content;
    return content;
  }

  /** Logs in now (or joins a login in flight). Throws `InvalidLogin` for wrong credentials. */
  login(signal?: AbortSignal): Promise<UserSession> {
    this.#login ??= this.#doLogin(signal).finally(() => {
      this.#login = undefined;
    });
    return this.#login;
  }

  async #doLogin(signal?: AbortSignal): Promise<UserSession> {
    const content = await this.serviceContent(signal);
    const credentials = await this.#options.credentials();
    this.#options.transport.clearSession();
    let response: XmlObject;
    try {
      response = await this.invoke(
        'Login',
        managedObjectReferenceXml('_this', content.sessionManager) + xmlText('userName', credentials.username) + xmlText('password', credentials.password),
        { signal, anonymous: true },
      );
    } catch (error) {
      const fault = findVsphereError(error);
      if (fault?.kind === 'InvalidLogin') {
        throw new VsphereError(`cannot log in to ${this.#options.serverName} as ${JSON.stringify(credentials.username)}: the user name or password is wrong (${fault.faultType ?? 'InvalidLogin'})`, {
          kind: 'InvalidLogin',
          operation: 'Login',
          ...(fault.faultType === undefined ? {} : { faultType: fault.faultType }),
          ...(fault.httpStatus === undefined ? {} : { httpStatus: fault.httpStatus }),
          cause: error,
        });
      }
      throw error;
    }
    const session = readUserSession(child(response, 'returnval'));
    if (session === undefined) throw new VsphereError('Login: the answer has no session', { kind: 'InvalidResponse', operation: 'Login' });
    this.#session = session;
    this.#generation += 1;
    this.#options.logger.debug('Logged in to vCenter', { server: this.#options.serverName, user: session.userName });
    this.#startKeepAlive();
    return session;
  }

  /** Logs out (best effort) and stops the keep-alive; the next call logs in again. */
  async logout(signal?: AbortSignal): Promise<void> {
    this.#stopKeepAlive();
    const content = this.#serviceContent;
    if (this.#session === undefined || content === undefined) return;
    this.#session = undefined;
    try {
      await this.invoke('Logout', managedObjectReferenceXml('_this', content.sessionManager), { signal, anonymous: true });
    } finally {
      this.#options.transport.clearSession();
    }
  }

  /** Stops the keep-alive and logs out; the session refuses calls afterwards. */
  async close(): Promise<void> {
    try {
      await this.logout();
    } catch (error) {
      this.#options.logger.debug('Logout failed while closing', { server: this.#options.serverName, error: errorMessage(error) });
    } finally {
      this.#closed = true;
    }
  }

  /**
   * Calls `method`. Logs in first when needed; on NotAuthenticated logs in again once and
   * retries; retries retryable failures up to `roundTripCount` attempts.
   */
  async invoke(method: string, parametersXml: string, options: InvokeOptions = {}): Promise<XmlObject> {
    if (this.#closed) throw new VsphereError(`${method}: the client is closed`, { kind: 'Aborted', operation: method });
    if (options.anonymous) return this.#withRetries(method, parametersXml, options);
    if (this.#session === undefined) await this.login(options.signal);
    const generation = this.#generation;
    try {
      return await this.#withRetries(method, parametersXml, options);
    } catch (error) {
      if (findVsphereError(error)?.kind !== 'NotAuthenticated') throw error;
      this.#options.logger.debug('vCenter session is not valid any more, logging in again', { server: this.#options.serverName, method });
      if (this.#generation === generation) {
        this.#session = undefined;
        await this.login(options.signal);
      } else if (this.#login) {
        await this.#login;
      }
      return this.#withRetries(method, parametersXml, options);
    }
  }

  async #withRetries(method: string, parametersXml: string, options: InvokeOptions): Promise<XmlObject> {
    const attempts = Math.max(1, this.#options.roundTripCount);
    for (let attempt = 1; ; attempt++) {
      try {
        const response = await this.#options.transport.call(method, parametersXml, options.signal);
        options.inspect?.(response);
        return response;
      } catch (error) {
        const typed = findVsphereError(error);
        if (attempt >= attempts || typed === undefined || !typed.retryable) throw error;
        this.#options.logger.debug('Retrying vCenter call', { server: this.#options.serverName, method, attempt, error: typed.message });
        await delay(this.#options.retryDelayMs * attempt, options.signal);
      }
    }
  }

  /** The current session as the server sees it; undefined when it is gone. */
  async currentSession(signal?: AbortSignal): Promise<UserSession | undefined> {
    const content = await this.serviceContent(signal);
    const response = await this.#withRetries(
      'RetrievePropertiesEx',
      managedObjectReferenceXml('_this', content.propertyCollector) +
        propertyFilterSpecXml({ propSet: [{ type: 'SessionManager', paths: ['currentSession'] }], objectSet: [{ obj: content.sessionManager }] }) +
        retrieveOptionsXml(undefined),
      { signal },
    );
    const result = readRetrieveResult('RetrievePropertiesEx', child(response, 'returnval'));
    const value = result.objects[0]?.properties.get('currentSession');
    return value === undefined ? undefined : readUserSession(value);
  }

  #startKeepAlive(): void {
    this.#stopKeepAlive();
    if (this.#options.keepAliveIntervalMs <= 0) return;
    this.#keepAlive = setInterval(() => void this.#keepSessionAlive(), this.#options.keepAliveIntervalMs);
    this.#keepAlive.unref();
  }

  #stopKeepAlive(): void {
    if (this.#keepAlive !== undefined) clearInterval(this.#keepAlive);
    this.#keepAlive = undefined;
  }

  async #keepSessionAlive(): Promise<void> {
    if (this.#login || this.#session === undefined) return;
    try {
      const current = await this.currentSession();
      if (current === undefined) {
        this.#options.logger.debug('vCenter session expired, logging in again', { server: this.#options.serverName });
        this.#session = undefined;
        await this.login();
      }
    } catch (error) {
      this.#options.logger.warn('vCenter session keep-alive failed', { server: this.#options.serverName, error: errorMessage(error) });
    }
  }
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new VsphereError('aborted', { kind: 'Aborted', operation: 'retry', cause: signal.reason }));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new VsphereError('aborted', { kind: 'Aborted', operation: 'retry', cause: signal?.reason }));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
