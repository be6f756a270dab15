/**
 * The openstack-client-ts client of the provider, built from `[Global]`: the Keystone session
 * (password, application credential or trust; project, domain or no scope), the catalog region
 * and interface, TLS (CA file, client certificate, insecure) and the request timeout of
 * `[Metadata] request-timeout`. The only place that maps the config onto the client's options.
 */
import { OpenStackClient, type KeystoneCredentials, type KeystoneScope, type OpenStackTlsOptions } from 'openstack-client-ts';
import type { OpenStackGlobalConfig } from '../../config/read-openstack-cloud-config.js';

export const OPENSTACK_USER_AGENT = 'openstack-cloud-controller-manager';

export interface OpenStackSdkClientOptions {
  requestTimeoutMs: number;
  /** `--user-agent` additions; prepended to the CCM's own. */
  userAgent?: string;
  /** PEM of an extra CA (in-process tests); the binary uses `ca-file`. */
  caPem?: string;
  /** Nova microversion; default none (upstream sends none). */
  computeMicroversion?: string;
}

const orUndefined = (value: string): string | undefined => (value === '' ? undefined : value);

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}

export function credentialsOf(global: OpenStackGlobalConfig): KeystoneCredentials {
  const auth = global.auth;
  const user = withoutUndefined({
    userId: orUndefined(auth.userId),
    username: orUndefined(auth.userId) === undefined ? orUndefined(auth.username) : undefined,
    userDomainId: orUndefined(auth.userDomainId),
    userDomainName: orUndefined(auth.userDomainId) === undefined ? orUndefined(auth.userDomainName) : undefined,
  });
  switch (auth.kind) {
    case 'password':
    case 'trust':
      return { method: 'password', password: auth.password, ...user };
    case 'application-credential':
      return auth.id !== ''
        ? { method: 'applicationCredential', id: auth.id, secret: auth.secret }
        : { method: 'applicationCredential', name: auth.name, secret: auth.secret, ...user };
  }
}

export function scopeOf(global: OpenStackGlobalConfig): KeystoneScope | undefined {
  if (global.auth.kind === 'trust') return { trustId: global.auth.trustId };
  const scope = global.scope;
  switch (scope.kind) {
    case 'none':
      return undefined;
    case 'project-id':
      return { projectId: scope.projectId };
    case 'project-name':
      return withoutUndefined({ projectName: scope.projectName, projectDomainId: orUndefined(scope.domainId), projectDomainName: orUndefined(scope.domainId) === undefined ? orUndefined(scope.domainName) : undefined });
    case 'domain':
      return scope.domainId !== '' ? { domainId: scope.domainId } : { domainName: scope.domainName };
  }
}

export function tlsOf(global: OpenStackGlobalConfig, caPem: string | undefined): OpenStackTlsOptions {
  return withoutUndefined({
    caFile: caPem === undefined ? orUndefined(global.caFile) : undefined,
    ca: caPem,
    certFile: orUndefined(global.certFile),
    keyFile: orUndefined(global.keyFile),
    insecure: global.tlsInsecure ? true : undefined,
  }) as OpenStackTlsOptions;
}

export function createOpenStackSdkClient(global: OpenStackGlobalConfig, options: OpenStackSdkClientOptions): OpenStackClient {
  const scope = scopeOf(global);
  return new OpenStackClient({
    authUrl: global.authUrl,
    region: global.region,
    interface: global.endpointType,
    credentials: credentialsOf(global),
    ...(scope === undefined ? {} : { scope }),
    tls: tlsOf(global, options.caPem),
    timeoutMs: options.requestTimeoutMs,
    userAgent: options.userAgent === undefined || options.userAgent === '' ? OPENSTACK_USER_AGENT : `${options.userAgent} ${OPENSTACK_USER_AGENT}`,
    ...(options.computeMicroversion === undefined ? {} : { computeMicroversion: options.computeMicroversion }),
  });
}
