import { randomBytes } from 'node:crypto';

/** Access tokens the simulator issued, with their expiry. */
export class TokenIssuer {
  private readonly tokens = new Map<string, number>();

  constructor(private readonly lifetimeMs = 3_600_000) {}

  issue(): { token: string; expiresAt: Date } {
    const token = `gce-sim.${randomBytes(24).toString('base64url')}`;
    const expiresAt = new Date(Date.now() + this.lifetimeMs);
    this.tokens.set(token, expiresAt.getTime());
    return { token, expiresAt };
  }

  isValid(token: string): boolean {
    const expiry = this.tokens.get(token);
    return expiry !== undefined && expiry > Date.now();
  }

  get lifetimeSeconds(): number {
    return Math.floor(this.lifetimeMs / 1000);
  }
}
