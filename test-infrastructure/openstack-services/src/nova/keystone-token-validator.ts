/**
 * Validates a user's token against the real Keystone as keystonemiddleware does: the stand-in
 * authenticates as the admin (its service user), then `GET /v3/auth/tokens` with the user's
 * token in `X-Subject-Token`. No cache: every request is checked.
 */
import { adminToken, type AdminCredentials } from '../keystone-catalog.js';

export interface ValidatedToken {
  userId: string;
  projectId: string;
  projectName: string;
  roles: string[];
  /** Whether the token has the `admin` role (Nova's default admin policy). */
  admin: boolean;
}

interface TokenBody {
  token?: { user?: { id?: string }; project?: { id?: string; name?: string }; roles?: { name?: string }[] };
}

export class KeystoneTokenValidator {
  readonly #credentials: AdminCredentials;
  #serviceToken: Promise<string> | undefined;
  #serviceTokenAt = 0;

  constructor(credentials: AdminCredentials) {
    this.#credentials = credentials;
  }

  /** The stand-in's own admin token (renewed every 30 minutes, or after Keystone refused it). */
  serviceToken(): Promise<string> {
    if (this.#serviceToken === undefined || Date.now() - this.#serviceTokenAt > 30 * 60_000) {
      this.#serviceTokenAt = Date.now();
      this.#serviceToken = adminToken(this.#credentials);
      this.#serviceToken.catch(() => {
        this.#serviceToken = undefined;
      });
    }
    return this.#serviceToken;
  }

  forgetServiceToken(): void {
    this.#serviceToken = undefined;
  }

  /** The token's user, project and roles; undefined when Keystone does not accept it. */
  async validate(subjectToken: string): Promise<ValidatedToken | undefined> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await fetch(`${this.#credentials.authUrl}/auth/tokens`, {
        headers: { 'X-Auth-Token': await this.serviceToken(), 'X-Subject-Token': subjectToken },
        signal: AbortSignal.timeout(30_000),
      });
      const text = await response.text();
      if (response.status === 401 && attempt === 0) {
        // Our own token was refused (expired): renew it once.
        this.forgetServiceToken();
        continue;
      }
      if (response.status === 404 || response.status === 401 || response.status === 403) return undefined;
      if (response.status !== 200) throw new Error(`Keystone answered HTTP ${response.status} validating a token`);
      const token = (JSON.parse(text) as TokenBody).token;
      const projectId = token?.project?.id;
      const userId = token?.user?.id;
      // Nova needs a project-scoped token.
      if (projectId === undefined || userId === undefined) return undefined;
      const roles = (token?.roles ?? []).map((role) => role.name ?? '').filter((name) => name !== '');
      return { userId, projectId, projectName: token?.project?.name ?? '', roles, admin: roles.includes('admin') };
    }
    return undefined;
  }
}
