/**
 * Upstream's alternate token source (`token_source.go` `AltTokenSource`): POST `token-body` to
 * `token-url` (JSON) and read `{"accessToken","expireTime"}`. The token is cached until a minute
 * before it expires; concurrent callers share one refresh. The object is what the Compute
 * clients' REST transport needs from an auth client: request headers and a fetch.
 */
import { GceApiError } from '../gce-api-error.js';

/** Refresh this long before `expireTime`. */
export const TOKEN_REFRESH_MARGIN_MS = 60_000;

export interface TokenUrlAuthClient {
  getRequestHeaders(url?: string): Promise<Headers>;
  fetch(input: string | URL, init?: RequestInit): Promise<Response>;
}

export function createTokenUrlAuthClient(tokenUrl: string, tokenBody: string, now: () => number = Date.now): TokenUrlAuthClient {
  let cached: { token: string; expiresAt: number } | undefined;
  let refreshing: Promise<string> | undefined;

  async function refresh(): Promise<string> {
    let response: Response;
    const post = (): Promise<Response> => fetch(tokenUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: tokenBody });
    try {
      // A reset on a pooled keep-alive connection the server just closed: one fresh attempt at once.
      response = await post().catch((error: unknown) => {
        if ((error as { cause?: { code?: string } }).cause?.code === 'ECONNRESET') return post();
        throw error;
      });
    } catch (error) {
      const code = (error as { cause?: { code?: string } }).cause?.code ?? 'network error';
      throw new GceApiError(`cannot reach token-url ${tokenUrl} (${code})`, { kind: 'Unavailable', reason: code, operation: 'token.fetch', retryable: true, cause: error });
    }
    if (!response.ok) {
      const retryable = response.status >= 500 || response.status === 429;
      throw new GceApiError(`token-url ${tokenUrl} answered HTTP ${response.status}`, {
        kind: response.status === 429 ? 'Throttled' : retryable ? 'Unavailable' : 'Unauthorized',
        reason: '',
        operation: 'token.fetch',
        retryable,
        httpStatus: response.status,
      });
    }
    const answer = (await response.json().catch(() => ({}))) as { accessToken?: unknown; expireTime?: unknown };
    if (typeof answer.accessToken !== 'string' || answer.accessToken === '') {
      throw new GceApiError(`token-url ${tokenUrl} answered without an accessToken`, { kind: 'Unauthorized', reason: '', operation: 'token.fetch', retryable: false });
    }
    const expiresAt = typeof answer.expireTime === 'string' ? Date.parse(answer.expireTime) : Number.NaN;
    cached = { token: answer.accessToken, expiresAt: Number.isNaN(expiresAt) ? now() + 5 * 60_000 : expiresAt };
    return answer.accessToken;
  }

  async function token(): Promise<string> {
    if (cached !== undefined && cached.expiresAt - TOKEN_REFRESH_MARGIN_MS > now()) return cached.token;
    refreshing ??= refresh().finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  }

  return {
    async getRequestHeaders(): Promise<Headers> {
      return new Headers({ authorization: `Bearer ${await token()}` });
    },
    /** The REST transport sends every request through this: it adds the bearer token. */
    async fetch(input, init) {
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${await token()}`);
      return fetch(input, { ...init, headers });
    },
  };
}
