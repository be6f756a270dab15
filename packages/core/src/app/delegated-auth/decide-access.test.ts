// Table tests of the pure decisions: the authenticator chain, the authorizer union, and the
// answer the secure port gives (upstream's 401 and 403 bodies, byte for byte).
import { describe, expect, it } from 'vitest';
import { goQuote } from '../../logging/go-quote.js';
import { decideAccess } from './access-decision.js';
import { alwaysAllowPathMatcher, alwaysAllowPathsProblem } from './always-allow-paths.js';
import { authenticateRequest, decideAuthentication, type AuthenticationOutcome } from './authenticate-request.js';
import type { Authenticator, AuthenticatorResult } from './authenticator.js';
import { alwaysAllowPathsAuthorizer, authorizeRequest, decideAuthorization, privilegedGroupsAuthorizer, type AuthorizerResult } from './authorize-request.js';
import { readBearerToken } from './bearer-token.js';
import { ANONYMOUS_USER, userInfo } from './user-info.js';

const alice = userInfo('alice', { groups: ['dev'] });
const authenticated = (user = alice, by = 'x509'): AuthenticatorResult => ({ kind: 'authenticated', user, by });
const failed = (reason: string): AuthenticatorResult => ({ kind: 'failed', reason });
const none: AuthenticatorResult = { kind: 'no-opinion' };

describe('decideAuthentication', () => {
  it.each<[string, AuthenticatorResult[], boolean, AuthenticationOutcome]>([
    ['no credentials: anonymous', [none, none, none], true, { kind: 'authenticated', user: ANONYMOUS_USER, by: 'anonymous' }],
    ['no authenticators: anonymous', [], true, { kind: 'authenticated', user: ANONYMOUS_USER, by: 'anonymous' }],
    ['no credentials without anonymous: 401', [none], false, { kind: 'unauthenticated', reasons: [] }],
    ['a user gets system:authenticated', [none, authenticated()], true, { kind: 'authenticated', user: userInfo('alice', { groups: ['dev', 'system:authenticated'] }), by: 'x509' }],
    ['a failure before a success does not matter', [failed('request-header: unknown CA'), authenticated()], true, { kind: 'authenticated', user: userInfo('alice', { groups: ['dev', 'system:authenticated'] }), by: 'x509' }],
    ['a bad token is never anonymous', [none, none, failed('invalid bearer token')], true, { kind: 'unauthenticated', reasons: ['invalid bearer token'] }],
    ['every failure is reported', [failed('a'), failed('b')], true, { kind: 'unauthenticated', reasons: ['a', 'b'] }],
    ['system:authenticated is not added twice', [authenticated(userInfo('bob', { groups: ['system:authenticated'] }))], true, { kind: 'authenticated', user: userInfo('bob', { groups: ['system:authenticated'] }), by: 'x509' }],
  ])('%s', (_name, results, anonymous, expected) => {
    expect(decideAuthentication(results, { anonymous })).toEqual(expected);
  });

  it('stops at the first authenticator that knows the user', async () => {
    const calls: string[] = [];
    const fake = (name: string, result: AuthenticatorResult): Authenticator => ({
      name,
      authenticate: () => {
        calls.push(name);
        return Promise.resolve(result);
      },
    });
    const outcome = await authenticateRequest([fake('request-header', none), fake('x509', authenticated()), fake('token-review', failed('never asked'))], { headers: {}, peerCertificates: [] }, { anonymous: true });
    expect(outcome.kind).toBe('authenticated');
    expect(calls).toEqual(['request-header', 'x509']);
  });
});

describe('decideAuthorization', () => {
  const allow: AuthorizerResult = { decision: 'allow', reason: 'RBAC: allowed' };
  const deny: AuthorizerResult = { decision: 'deny', reason: 'denied by policy' };
  const noOpinion = (reason = ''): AuthorizerResult => ({ decision: 'no-opinion', reason });
  const error: AuthorizerResult = { decision: 'no-opinion', reason: '', error: 'connection refused' };

  it.each<[string, AuthorizerResult[], ReturnType<typeof decideAuthorization>]>([
    ['allowed', [noOpinion(), allow], { kind: 'allowed', reason: 'RBAC: allowed' }],
    ['nobody has an opinion: forbidden', [noOpinion(), noOpinion()], { kind: 'forbidden', reason: '' }],
    ['reasons are joined', [noOpinion('a'), noOpinion('b')], { kind: 'forbidden', reason: 'a\nb' }],
    ['deny ends the union', [deny, allow], { kind: 'forbidden', reason: 'denied by policy' }],
    ['a failed review is an error (500)', [noOpinion(), error], { kind: 'error', error: 'connection refused' }],
    ['several failures are aggregated', [error, error], { kind: 'error', error: '[connection refused, connection refused]' }],
    ['an allow wins over an earlier failure', [error, allow], { kind: 'allowed', reason: 'RBAC: allowed' }],
    ['no authorizer at all: forbidden', [], { kind: 'forbidden', reason: '' }],
  ])('%s', (_name, results, expected) => {
    expect(decideAuthorization(results)).toEqual(expected);
  });

  it('allows system:masters and the always-allow paths without a review', async () => {
    const authorizers = [privilegedGroupsAuthorizer(), alwaysAllowPathsAuthorizer(alwaysAllowPathMatcher(['/healthz', '/readyz', '/livez']))];
    const admin = userInfo('admin', { groups: ['system:masters', 'system:authenticated'] });
    expect(await authorizeRequest(authorizers, { user: admin, verb: 'get', path: '/metrics' })).toEqual({ kind: 'allowed', reason: '' });
    expect(await authorizeRequest(authorizers, { user: ANONYMOUS_USER, verb: 'get', path: '/healthz' })).toEqual({ kind: 'allowed', reason: '' });
    expect(await authorizeRequest(authorizers, { user: ANONYMOUS_USER, verb: 'get', path: '/metrics' })).toEqual({ kind: 'forbidden', reason: '' });
  });
});

describe('--authorization-always-allow-paths', () => {
  it.each<[string[], string, boolean]>([
    [['/healthz'], '/healthz', true],
    [['/healthz'], '/healthz/ping', false],
    [['/healthz'], '/healthzz', false],
    [['healthz'], '/healthz', true],
    [['/debug/*'], '/debug/pprof/heap', true],
    [['/debug/*'], '/debug', false],
    [['/*'], '/anything', true],
    [['/'], '/', true],
    [['/'], '/metrics', false],
    [[], '/healthz', false],
  ])('%j allows %s: %s', (paths, path, allowed) => {
    expect(alwaysAllowPathMatcher(paths)(path)).toBe(allowed);
  });

  it('refuses a * that is not trailing, as upstream', () => {
    expect(alwaysAllowPathsProblem(['/healthz', '/de*bug/*'])).toBe('only trailing * allowed in "/de*bug/*"');
    expect(alwaysAllowPathsProblem(['/healthz', '/debug/*', '*'])).toBeUndefined();
    expect(() => alwaysAllowPathMatcher(['/a*b'])).toThrow('only trailing * allowed in "/a*b"');
  });
});

describe('readBearerToken', () => {
  it.each<[string[], string | undefined]>([
    [[], undefined],
    [[''], undefined],
    [['Bearer abc.def'], 'abc.def'],
    [['bearer abc'], 'abc'],
    [['  BEARER abc  '], 'abc'],
    [['Bearer abc extra'], 'abc'],
    [['Bearer'], undefined],
    [['Bearer  abc'], undefined],
    [['Basic dXNlcjpwYXNz'], undefined],
    [['garbage'], undefined],
    [['\u0000\u00ff Bearer x'], undefined],
    [['Bearer first', 'Bearer second'], 'first'],
  ])('%j -> %s', (headers, token) => {
    expect(readBearerToken(headers)).toBe(token);
  });
});

describe('decideAccess', () => {
  const request = { verb: 'get', path: '/metrics', uri: '/metrics?x=1' };
  const user: AuthenticationOutcome = { kind: 'authenticated', user: userInfo('system:serviceaccount:monitoring:prometheus'), by: 'token-review' };

  it('answers 401 with upstream Unauthorized Status', () => {
    expect(decideAccess(request, { kind: 'unauthenticated', reasons: ['invalid bearer token'] }, undefined)).toEqual({
      kind: 'deny',
      status: 401,
      contentType: 'application/json',
      body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}\n',
    });
  });

  it('answers 403 with upstream Forbidden Status, with and without a reason', () => {
    expect(decideAccess(request, user, { kind: 'forbidden', reason: '' })).toEqual({
      kind: 'deny',
      status: 403,
      contentType: 'application/json',
      body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"forbidden: User \\"system:serviceaccount:monitoring:prometheus\\" cannot get path \\"/metrics\\"","reason":"Forbidden","details":{},"code":403}\n',
    });
    const withReason = decideAccess({ ...request, path: '/a<b>' }, { kind: 'authenticated', user: ANONYMOUS_USER, by: 'anonymous' }, { kind: 'forbidden', reason: 'no RBAC policy matched' });
    expect(withReason.kind === 'deny' && withReason.body).toContain('"message":"forbidden: User \\"system:anonymous\\" cannot get path \\"/a\\u003cb\\u003e\\": no RBAC policy matched"');
  });

  it('answers 500 when the review could not be made, and serves when allowed', () => {
    expect(decideAccess(request, user, { kind: 'error', error: 'connection refused' })).toEqual({
      kind: 'deny',
      status: 500,
      contentType: 'text/plain; charset=utf-8',
      body: 'Internal Server Error: "/metrics?x=1": connection refused\n',
    });
    expect(decideAccess(request, user, { kind: 'allowed', reason: '' })).toEqual({ kind: 'serve', user: user.kind === 'authenticated' ? user.user : ANONYMOUS_USER });
  });

  it('quotes like Go %q', () => {
    expect(goQuote('a"b\\c\nd\u0001')).toBe('"a\\"b\\\\c\\nd\\x01"');
  });
});
