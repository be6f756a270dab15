/** User name and password for one vCenter. The password is a secret: never log it. */
export interface VsphereCredentials {
  username: string;
  password: string;
}

/**
 * Where a client gets its credentials: called at every login (first call, session expiry,
 * re-login), so a rotated password is picked up without building a new client.
 */
export type VsphereCredentialsProvider = () => VsphereCredentials | Promise<VsphereCredentials>;
