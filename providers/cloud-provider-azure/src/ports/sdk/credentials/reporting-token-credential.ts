/**
 * A TokenCredential that reports its problems and backs off: a refused credential (wrong secret,
 * unknown client, expired assertion, IMDS without the identity) is logged once per distinct
 * problem (the error's kind and first line without Entra's trace and correlation IDs) until a
 * token is issued again, and that recovery once; after a failure, token requests during a cooldown
 * (1 s doubling to 60 s) fail with the same error without asking Entra again, so a node
 * controller that requeues every node does not hammer the token endpoint. Tokens and
 * assertions are never logged; Entra's messages carry none.
 */
import type { AccessToken, GetTokenOptions, TokenCredential } from '@azure/identity';
import type { Logger } from '@ccm/core/logging';

export interface ReportingTokenCredentialOptions {
  logger: Logger;
  /** What the credential is (no secret), e.g. `{ authentication: 'client secret', clientId }`. */
  description: Record<string, string>;
  now?: () => number;
  initialCooldownMs?: number;
  maxCooldownMs?: number;
}

export class ReportingTokenCredential implements TokenCredential {
  readonly #inner: TokenCredential;
  readonly #options: Required<Omit<ReportingTokenCredentialOptions, 'logger' | 'description'>> & Pick<ReportingTokenCredentialOptions, 'logger' | 'description'>;
  /** The problems logged since the last token. */
  readonly #problems = new Set<string>();
  #cooldown: { until: number; delayMs: number; error: unknown } | undefined;

  constructor(inner: TokenCredential, options: ReportingTokenCredentialOptions) {
    this.#inner = inner;
    this.#options = { now: Date.now, initialCooldownMs: 1_000, maxCooldownMs: 60_000, ...options };
  }

  async getToken(scopes: string | string[], options?: GetTokenOptions): Promise<AccessToken | null> {
    const now = this.#options.now();
    if (this.#cooldown !== undefined && now < this.#cooldown.until) throw this.#cooldown.error;
    try {
      const token = await this.#inner.getToken(scopes, options);
      if (this.#problems.size > 0) this.#options.logger.info('Azure credential accepted again', this.#options.description);
      this.#problems.clear();
      this.#cooldown = undefined;
      return token;
    } catch (error) {
      const problem = describeCredentialProblem(error);
      if (!this.#problems.has(problem)) this.#options.logger.warn('Azure credential refused; ARM calls fail until it is fixed', { ...this.#options.description, problem });
      this.#problems.add(problem);
      const delayMs = this.#cooldown === undefined ? this.#options.initialCooldownMs : Math.min(this.#options.maxCooldownMs, this.#cooldown.delayMs * 2);
      this.#cooldown = { until: this.#options.now() + delayMs, delayMs, error };
      throw error;
    }
  }
}

/** One line: the error's name and first line, without the per-request IDs and timestamps Entra appends. */
export function describeCredentialProblem(error: unknown): string {
  const name = error instanceof Error ? error.name : 'Error';
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
  const cleaned = message
    .replace(/\s*Trace ID: [\w-]+/gi, '')
    .replace(/\s*Correlation ID: [\w-]+/gi, '')
    .replace(/\s*Timestamp: [\d\-: .Z]+/gi, '')
    .trim();
  const explanation = MSAL_CODE_EXPLANATIONS.find(([code]) => cleaned.includes(code))?.[1];
  return `${name}: ${cleaned}${explanation === undefined ? '' : ` (${explanation})`}`;
}

/** MSAL error codes whose message alone says little. */
const MSAL_CODE_EXPLANATIONS: ReadonlyArray<readonly [string, string]> = [
  ['endpoints_resolution_error', 'the Entra authority could not be reached, or did not serve its OpenID configuration'],
  ['network_error', 'the token endpoint could not be reached'],
];
