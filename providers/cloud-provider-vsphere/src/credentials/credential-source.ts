import type { VcenterCredentials } from '../ports/vcenter-port.js';

/** Where one vCenter's credentials come from; asked at every login (so rotation works). */
export interface CredentialSource {
  /** Throws a VsphereProviderError (`CredentialsUnavailable`) saying what is missing. */
  credentials(): Promise<VcenterCredentials>;
  /** `Secret kube-system/vsphere-creds`, for messages. */
  readonly description: string;
}

export function inlineCredentialSource(username: string, password: string): CredentialSource {
  return { credentials: () => Promise.resolve({ username, password }), description: 'the cloud config' };
}
