/** The body of `POST /v3/auth/tokens` for credentials and a scope (pure). */
import { OpenStackError } from '../openstack-error.js';
import type { KeystoneCredentials, KeystoneScope } from './keystone-types.js';

function invalid(message: string): OpenStackError {
  return new OpenStackError(message, { kind: 'InvalidConfiguration', operation: 'Keystone authentication' });
}

function userReference(options: { userId?: string | undefined; username?: string | undefined; userDomainId?: string | undefined; userDomainName?: string | undefined }, what: string): Record<string, unknown> {
  if (options.userId) return { id: options.userId };
  if (!options.username) throw invalid(`${what} needs a user ID or a user name`);
  if (options.userDomainId) return { name: options.username, domain: { id: options.userDomainId } };
  if (options.userDomainName) return { name: options.username, domain: { name: options.userDomainName } };
  throw invalid(`${what}: the user name ${JSON.stringify(options.username)} needs a user domain (ID or name)`);
}

export function authenticationBody(credentials: KeystoneCredentials, scope: KeystoneScope | undefined): Record<string, unknown> {
  let identity: Record<string, unknown>;
  switch (credentials.method) {
    case 'password':
      if (!credentials.password) throw invalid('password authentication needs a password');
      identity = { methods: ['password'], password: { user: { ...userReference(credentials, 'password authentication'), password: credentials.password } } };
      break;
    case 'applicationCredential': {
      if (!credentials.secret) throw invalid('application credential authentication needs the secret');
      if (scope !== undefined) throw invalid('an application credential is already scoped: give no project, domain or trust');
      const reference = credentials.id ? { id: credentials.id } : credentials.name ? { name: credentials.name, user: userReference(credentials, 'an application credential given by name') } : undefined;
      if (reference === undefined) throw invalid('application credential authentication needs the credential ID, or its name and user');
      identity = { methods: ['application_credential'], application_credential: { ...reference, secret: credentials.secret } };
      break;
    }
    case 'token':
      if (!credentials.token) throw invalid('token authentication needs a token');
      identity = { methods: ['token'], token: { id: credentials.token } };
      break;
  }
  const auth: Record<string, unknown> = { identity };
  if (scope !== undefined) auth['scope'] = scopeBody(scope);
  return { auth };
}

function scopeBody(scope: KeystoneScope): Record<string, unknown> {
  if ('projectId' in scope) return { project: { id: scope.projectId } };
  if ('projectName' in scope) {
    if (scope.projectDomainId) return { project: { name: scope.projectName, domain: { id: scope.projectDomainId } } };
    if (scope.projectDomainName) return { project: { name: scope.projectName, domain: { name: scope.projectDomainName } } };
    throw invalid(`the project name ${JSON.stringify(scope.projectName)} needs a project domain (ID or name)`);
  }
  if ('domainId' in scope) return { domain: { id: scope.domainId } };
  if ('domainName' in scope) return { domain: { name: scope.domainName } };
  if ('trustId' in scope) return { 'OS-TRUST:trust': { id: scope.trustId } };
  return { system: { all: true } };
}
