/**
 * Which Entra credential the provider uses, chosen from `azure.json` and the workload identity
 * webhook's environment as upstream's `pkg/azclient` does (`NewAuthProvider`, `auth_conf.go`):
 *
 * 1. workload identity: `AZURE_FEDERATED_TOKEN_FILE` in the environment, or
 *    `useFederatedWorkloadIdentityExtension: true` with `aadFederatedTokenFile`;
 * 2. managed identity: `useManagedIdentityExtension: true` (+ `userAssignedIdentityID`, a client ID
 *    or, when it contains `/subscriptions/`, a resource ID);
 * 3. client secret: `aadClientSecret` (or `AZURE_CLIENT_SECRET`);
 * 4. client certificate: `aadClientCertPath` (+ `aadClientCertPassword`).
 *
 * `AZURE_CLIENT_ID` and `AZURE_TENANT_ID` override `aadClientId` and `tenantId` as upstream. Keys of
 * a kind further down the list are ignored (and reported as ignored). Upstream starts without a
 * credential when none is set (only with `useInstanceMetadata`, which this provider does not
 * offer): here that is an error, and so are keys that contradict each other (a user-assigned
 * identity without managed identity, a certificate password without a certificate, a federated
 * token file without workload identity, workload identity without a token file).
 */
import type { CloudConfigProblem } from '@ccm/core/config';

/** The environment variables upstream reads (injected by the workload identity webhook). */
export const CREDENTIAL_ENVIRONMENT = {
  clientId: 'AZURE_CLIENT_ID',
  tenantId: 'AZURE_TENANT_ID',
  federatedTokenFile: 'AZURE_FEDERATED_TOKEN_FILE',
  clientSecret: 'AZURE_CLIENT_SECRET',
} as const;

/** The config keys that choose or feed a credential (they may also come from the cloud config Secret). */
export const CREDENTIAL_KEYS: readonly string[] = [
  'aadClientSecret',
  'aadClientCertPath',
  'aadClientCertPassword',
  'useManagedIdentityExtension',
  'userAssignedIdentityID',
  'aadFederatedTokenFile',
  'useFederatedWorkloadIdentityExtension',
];

export type AzureCredentialConfig =
  | { kind: 'workload-identity'; tenantId: string; clientId: string; tokenFile: string }
  | { kind: 'managed-identity'; userAssignedIdentity?: { clientId: string } | { resourceId: string } }
  | { kind: 'client-secret'; tenantId: string; clientId: string; clientSecret: string }
  | { kind: 'client-certificate'; tenantId: string; clientId: string; certificatePath: string; certificatePassword: string };

export type AzureCredentialKind = AzureCredentialConfig['kind'];

/** What the chosen credential is, for a log line (never a secret). */
/**
 * What the chosen credential is, for a log line (never a secret). The field names avoid the words
 * core's log redaction withholds (credential, token, secret).
 */
export function describeAzureCredential(credential: AzureCredentialConfig): Record<string, string> {
  switch (credential.kind) {
    case 'workload-identity':
      return { authentication: 'workload identity', clientId: credential.clientId, tenantId: credential.tenantId, federatedIdentityFile: credential.tokenFile };
    case 'managed-identity': {
      const identity = credential.userAssignedIdentity;
      if (identity === undefined) return { authentication: 'managed identity (system-assigned)' };
      return { authentication: 'managed identity (user-assigned)', ...('clientId' in identity ? { identityClientId: identity.clientId } : { identityResourceId: identity.resourceId }) };
    }
    case 'client-secret':
      return { authentication: 'client secret', clientId: credential.clientId, tenantId: credential.tenantId };
    case 'client-certificate':
      return { authentication: 'client certificate', clientId: credential.clientId, tenantId: credential.tenantId, certificatePath: credential.certificatePath };
  }
}

/** The raw credential keys of the merged config, with where each was set. */
export interface CredentialSettings {
  text(name: string): string;
  bool(name: string): boolean;
  has(name: string): boolean;
  placeOf(name: string): Pick<CloudConfigProblem, 'fileName' | 'line'>;
  /** The file named by problems about no key in particular. */
  fileName: string;
}

export interface ResolvedCredential {
  /** Undefined when nothing is configured yet and `requireCredential` was false (the Secret may bring it). */
  credential: AzureCredentialConfig | undefined;
  /** Credential keys that were set but lose to the chosen kind (upstream's precedence). */
  ignoredKeys: string[];
  problems: CloudConfigProblem[];
}

type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The credential of `settings` and `environment`. With `requireCredential` false (the Secret may
 * still bring the credential keys), a config naming no credential and missing client or tenant
 * IDs are not problems; contradictions always are.
 */
export function resolveAzureCredential(settings: CredentialSettings, environment: Environment, options: { requireCredential: boolean }): ResolvedCredential {
  const problems: CloudConfigProblem[] = [];
  const fromEnvironment = (name: string): string => environment[name] ?? '';
  const problem = (key: string, message: string): void => {
    problems.push({ ...settings.placeOf(key), message: `key ${JSON.stringify(key)}: ${message}` });
  };

  // Contradictions: keys that only mean something with another key that is not set.
  const environmentTokenFile = fromEnvironment(CREDENTIAL_ENVIRONMENT.federatedTokenFile);
  const workloadIdentity = environmentTokenFile !== '' || settings.bool('useFederatedWorkloadIdentityExtension');
  const managedIdentity = settings.bool('useManagedIdentityExtension');
  if (settings.text('userAssignedIdentityID') !== '' && !managedIdentity) {
    problem('userAssignedIdentityID', 'is set but "useManagedIdentityExtension" is not true (a user-assigned identity is only used with managed identity)');
  }
  if (settings.text('aadClientCertPassword') !== '' && settings.text('aadClientCertPath') === '') {
    problem('aadClientCertPassword', 'is set without "aadClientCertPath"');
  }
  if (settings.text('aadFederatedTokenFile') !== '' && !workloadIdentity) {
    problem('aadFederatedTokenFile', `is set but "useFederatedWorkloadIdentityExtension" is not true and ${CREDENTIAL_ENVIRONMENT.federatedTokenFile} is not set (upstream ignores the file then)`);
  }
  const tokenFile = environmentTokenFile || settings.text('aadFederatedTokenFile');
  if (settings.bool('useFederatedWorkloadIdentityExtension') && tokenFile === '') {
    problem('useFederatedWorkloadIdentityExtension', `is true but neither "aadFederatedTokenFile" nor ${CREDENTIAL_ENVIRONMENT.federatedTokenFile} names the token file`);
  }

  const clientSecret = fromEnvironment(CREDENTIAL_ENVIRONMENT.clientSecret) || settings.text('aadClientSecret');
  const certificatePath = settings.text('aadClientCertPath');
  const kind: AzureCredentialKind | undefined = workloadIdentity ? 'workload-identity' : managedIdentity ? 'managed-identity' : clientSecret !== '' ? 'client-secret' : certificatePath !== '' ? 'client-certificate' : undefined;

  const ignoredKeys = ignoredKeysOf(kind, settings, clientSecret);
  if (kind === undefined) {
    if (options.requireCredential) {
      problems.push({
        fileName: settings.fileName,
        message: `no credential: set "aadClientSecret", "aadClientCertPath", "useManagedIdentityExtension": true, or "useFederatedWorkloadIdentityExtension": true with "aadFederatedTokenFile" (or ${CREDENTIAL_ENVIRONMENT.federatedTokenFile} in the environment)`,
      });
    }
    return { credential: undefined, ignoredKeys, problems };
  }
  if (kind === 'managed-identity') {
    const identity = settings.text('userAssignedIdentityID');
    const credential: AzureCredentialConfig =
      identity === '' ? { kind } : { kind, userAssignedIdentity: identity.toUpperCase().includes('/SUBSCRIPTIONS/') ? { resourceId: identity } : { clientId: identity } };
    return { credential: problems.length > 0 ? undefined : credential, ignoredKeys, problems };
  }

  // The service principal kinds and workload identity need the application and its tenant.
  const clientId = fromEnvironment(CREDENTIAL_ENVIRONMENT.clientId) || settings.text('aadClientId');
  const tenantId = fromEnvironment(CREDENTIAL_ENVIRONMENT.tenantId) || settings.text('tenantId');
  const missing = [
    ...(clientId === '' ? [['aadClientId', CREDENTIAL_ENVIRONMENT.clientId] as const] : []),
    ...(tenantId === '' ? [['tenantId', CREDENTIAL_ENVIRONMENT.tenantId] as const] : []),
  ];
  if (options.requireCredential) {
    for (const [key, variable] of missing) problem(key, `is required by the ${describeKind(kind)} credential (or ${variable} in the environment)`);
  }
  if (problems.length > 0 || missing.length > 0) return { credential: undefined, ignoredKeys, problems };
  const credential: AzureCredentialConfig =
    kind === 'workload-identity'
      ? { kind, tenantId, clientId, tokenFile }
      : kind === 'client-secret'
        ? { kind, tenantId, clientId, clientSecret }
        : { kind, tenantId, clientId, certificatePath, certificatePassword: settings.text('aadClientCertPassword') };
  return { credential, ignoredKeys, problems };
}

function describeKind(kind: AzureCredentialKind): string {
  return { 'workload-identity': 'workload identity', 'managed-identity': 'managed identity', 'client-secret': 'client secret', 'client-certificate': 'client certificate' }[kind];
}

/** The credential keys set for a kind that loses to `kind`. */
function ignoredKeysOf(kind: AzureCredentialKind | undefined, settings: CredentialSettings, clientSecret: string): string[] {
  if (kind === undefined) return [];
  const order: AzureCredentialKind[] = ['workload-identity', 'managed-identity', 'client-secret', 'client-certificate'];
  const losers = order.slice(order.indexOf(kind) + 1);
  const ignored: string[] = [];
  if (losers.includes('managed-identity') && settings.bool('useManagedIdentityExtension')) ignored.push('useManagedIdentityExtension');
  if (losers.includes('client-secret') && clientSecret !== '' && settings.has('aadClientSecret')) ignored.push('aadClientSecret');
  if (losers.includes('client-certificate') && settings.text('aadClientCertPath') !== '') ignored.push('aadClientCertPath');
  return ignored;
}
