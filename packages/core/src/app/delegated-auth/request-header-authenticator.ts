/**
 * The front proxy (request-header) authenticator: a request whose client certificate is signed
 * by the request-header CA (and, when `allowedNames` is set, has one of those common names)
 * names its user in headers, as the kube-apiserver's aggregator does when it proxies. Upstream
 * `headerrequest` behind `x509request.NewDynamicCAVerifier`: the user is the first non-empty
 * username header; groups are every value of the group headers; extra attributes come from
 * headers with an extra prefix (the rest of the name, lower case and URL-unescaped, is the key).
 */
import type { X509Certificate } from 'node:crypto';
import { headerValues, NO_OPINION, type AuthenticationRequest, type Authenticator, type AuthenticatorResult } from './authenticator.js';
import { commonName, verifyClientCertificateChain } from './certificate-bundle.js';
import { userInfo } from './user-info.js';

export interface RequestHeaderSettings {
  readonly certificateAuthorities: readonly X509Certificate[];
  /** Empty: any certificate the CA signed may assert users. */
  readonly allowedNames: readonly string[];
  readonly usernameHeaders: readonly string[];
  readonly uidHeaders: readonly string[];
  readonly groupHeaders: readonly string[];
  readonly extraHeaderPrefixes: readonly string[];
}

/** `settings()` is read per request, so a watched ConfigMap can change it; undefined = not configured. */
export function requestHeaderAuthenticator(settings: () => RequestHeaderSettings | undefined, now: () => Date = () => new Date()): Authenticator {
  return {
    name: 'request-header',
    authenticate(request: AuthenticationRequest): Promise<AuthenticatorResult> {
      return Promise.resolve(authenticateWithHeaders(request, settings(), now()));
    },
  };
}

function authenticateWithHeaders(request: AuthenticationRequest, settings: RequestHeaderSettings | undefined, now: Date): AuthenticatorResult {
  const leaf = request.peerCertificates[0];
  if (settings === undefined || settings.certificateAuthorities.length === 0 || leaf === undefined) return NO_OPINION;
  const verification = verifyClientCertificateChain(request.peerCertificates, settings.certificateAuthorities, now);
  if (!verification.ok) return { kind: 'failed', reason: `request-header client certificate: ${verification.reason}` };
  if (settings.allowedNames.length > 0) {
    const name = commonName(leaf);
    if (!settings.allowedNames.includes(name)) return { kind: 'failed', reason: `request-header client certificate: x509: subject with cn=${name} is not in the allowed list` };
  }
  const name = firstHeaderValue(request, settings.usernameHeaders);
  if (name === '') return NO_OPINION;
  return {
    kind: 'authenticated',
    user: userInfo(name, {
      uid: firstHeaderValue(request, settings.uidHeaders),
      groups: allHeaderValues(request, settings.groupHeaders),
      extra: extraAttributes(request, settings.extraHeaderPrefixes),
    }),
    by: 'request-header',
  };
}

function firstHeaderValue(request: AuthenticationRequest, names: readonly string[]): string {
  for (const name of names) {
    if (name.trim() === '') continue;
    const value = headerValues(request, name.trim())[0] ?? '';
    if (value !== '') return value;
  }
  return '';
}

function allHeaderValues(request: AuthenticationRequest, names: readonly string[]): string[] {
  const values: string[] = [];
  for (const name of names) {
    if (name.trim() === '') continue;
    for (const value of headerValues(request, name.trim())) if (value !== '') values.push(value);
  }
  return values;
}

function extraAttributes(request: AuthenticationRequest, prefixes: readonly string[]): Record<string, string[]> {
  const extra: Record<string, string[]> = {};
  for (const rawPrefix of prefixes) {
    const prefix = rawPrefix.trim().toLowerCase();
    if (prefix === '') continue;
    for (const [header, values] of Object.entries(request.headers)) {
      if (values === undefined || !header.startsWith(prefix) || header.length === prefix.length) continue;
      const key = unescapeExtraKey(header.slice(prefix.length));
      (extra[key] ??= []).push(...values);
    }
  }
  return extra;
}

function unescapeExtraKey(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}
