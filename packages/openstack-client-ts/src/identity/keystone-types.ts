/** Keystone v3 authentication inputs and the token it returns. */

/** How to authenticate (exactly one method). */
export type KeystoneCredentials =
  | {
      method: 'password';
      password: string;
      /** A user ID, or a user name with its domain (ID or name). */
      userId?: string;
      username?: string;
      userDomainId?: string;
      userDomainName?: string;
    }
  | {
      method: 'applicationCredential';
      secret: string;
      /** The credential's ID, or its name with the owning user (ID, or name and domain). */
      id?: string;
      name?: string;
      userId?: string;
      username?: string;
      userDomainId?: string;
      userDomainName?: string;
    }
  | { method: 'token'; token: string };

/** What the token is scoped to; none = unscoped (application credentials carry their own scope). */
export type KeystoneScope =
  | { projectId: string }
  | { projectName: string; projectDomainId?: string; projectDomainName?: string }
  | { domainId: string }
  | { domainName: string }
  | { trustId: string }
  | { system: 'all' };

export type EndpointInterface = 'public' | 'internal' | 'admin';

export interface CatalogEndpoint {
  id: string;
  interface: EndpointInterface;
  region_id: string | null;
  region?: string | null;
  url: string;
}

export interface CatalogEntry {
  id: string;
  type: string;
  name: string;
  endpoints: CatalogEndpoint[];
}

export interface KeystoneToken {
  /** The `X-Subject-Token` value: a secret, never log it. */
  id: string;
  expiresAt: Date;
  issuedAt: Date;
  methods: string[];
  userId: string;
  userName: string;
  projectId: string | undefined;
  projectName: string | undefined;
  domainId: string | undefined;
  roles: string[];
  catalog: CatalogEntry[];
}
