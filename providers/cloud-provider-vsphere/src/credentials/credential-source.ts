import type { VsphereCredentials } from '@ccm/vsphere-client';

/** Where one vCenter's credentials come from; asked at every login (so rotation works). */
export interface CredentialSource {
  /** Throws a VsphereProviderError (`CredentialsUnavailable`) saying what is missing. */
  credentials(): Promise<VsphereCredentials>;
  /** `Secret kube-system/vsphere-creds`, for messages. */
  readonly description: string;
}

export function inlineCredentialSource(username: string, password: string): CredentialSource {
  return { credentials: () => Promise.resolve({ username, password }), description: 'the cloud config' };
}
