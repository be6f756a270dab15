/**
 * The bearer token of a request, read as upstream's `bearertoken` authenticator reads it: the
 * first `Authorization` header, trimmed, split on single spaces; the scheme `Bearer` in any case
 * and a non-empty second part. Anything else (no header, `Basic ...`, `Bearer` alone) is not a
 * bearer token and leaves the request to the other authenticators (and, in the end, anonymous).
 */
export function readBearerToken(authorizationHeaders: readonly string[]): string | undefined {
  const header = authorizationHeaders[0]?.trim() ?? '';
  if (header === '') return undefined;
  const parts = header.split(' ');
  if (parts.length < 2 || parts[0]?.toLowerCase() !== 'bearer') return undefined;
  const token = parts[1] ?? '';
  return token === '' ? undefined : token;
}
