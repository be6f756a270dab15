import { describe, expect, it } from 'vitest';
import { cachedSubjectAccessReviewer, subjectAccessReviewKey, type NonResourceAccess, type SubjectAccessReviewVerdict } from './subject-access-reviewer.js';
import { cachedTokenReviewer, type TokenReviewVerdict } from './token-reviewer.js';
import { userInfo } from './user-info.js';

function clock(): { now: () => number; advance: (ms: number) => void } {
  let time = 1_000_000;
  return { now: () => time, advance: (ms) => (time += ms) };
}

describe('cachedTokenReviewer', () => {
  function reviewerAnswering(answers: Record<string, TokenReviewVerdict | Error>) {
    const calls: string[] = [];
    return {
      calls,
      reviewer: {
        review(token: string): Promise<TokenReviewVerdict> {
          calls.push(token);
          const answer = answers[token];
          if (answer === undefined) throw new Error(`unexpected token`);
          return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
        },
      },
    };
  }

  it('keeps authenticated and unauthenticated answers for the TTL', async () => {
    const time = clock();
    const { calls, reviewer } = reviewerAnswering({ good: { authenticated: true, user: userInfo('alice') }, bad: { authenticated: false } });
    const cached = cachedTokenReviewer(reviewer, { ttlMs: 10_000, now: time.now });
    expect(await cached.review('good')).toEqual({ authenticated: true, user: userInfo('alice') });
    expect(await cached.review('good')).toEqual({ authenticated: true, user: userInfo('alice') });
    expect(await cached.review('bad')).toEqual({ authenticated: false });
    expect(await cached.review('bad')).toEqual({ authenticated: false });
    expect(calls).toEqual(['good', 'bad']);
    time.advance(10_001);
    await cached.review('good');
    await cached.review('bad');
    expect(calls).toEqual(['good', 'bad', 'good', 'bad']);
  });

  it('never keeps failures: thrown errors and answers carrying status.error', async () => {
    const { calls, reviewer } = reviewerAnswering({ flaky: new Error('connection reset'), undecided: { authenticated: false, error: 'webhook unavailable' } });
    const cached = cachedTokenReviewer(reviewer, { ttlMs: 10_000 });
    await expect(cached.review('flaky')).rejects.toThrow('connection reset');
    await expect(cached.review('flaky')).rejects.toThrow('connection reset');
    await cached.review('undecided');
    await cached.review('undecided');
    expect(calls).toEqual(['flaky', 'flaky', 'undecided', 'undecided']);
  });

  it('shares one review among concurrent requests with the same token', async () => {
    const { calls, reviewer } = reviewerAnswering({ good: { authenticated: true, user: userInfo('alice') } });
    const cached = cachedTokenReviewer(reviewer, { ttlMs: 10_000 });
    await Promise.all([cached.review('good'), cached.review('good'), cached.review('good')]);
    expect(calls).toEqual(['good']);
  });

  it('is off with a TTL of 0, and bounded', async () => {
    const { calls, reviewer } = reviewerAnswering({ a: { authenticated: false }, b: { authenticated: false }, c: { authenticated: false } });
    const uncached = cachedTokenReviewer(reviewer, { ttlMs: 0 });
    await uncached.review('a');
    await uncached.review('a');
    expect(calls).toEqual(['a', 'a']);
    const small = cachedTokenReviewer(reviewer, { ttlMs: 10_000, maxEntries: 2 });
    for (const token of ['a', 'b', 'c', 'a']) await small.review(token);
    expect(calls).toEqual(['a', 'a', 'a', 'b', 'c', 'a']);
  });
});

describe('cachedSubjectAccessReviewer', () => {
  const access = (user = userInfo('alice', { groups: ['dev'] }), path = '/metrics'): NonResourceAccess => ({ user, verb: 'get', path });

  it('keeps allowed and denied answers for their own TTLs', async () => {
    const time = clock();
    const calls: string[] = [];
    const verdicts: Record<string, SubjectAccessReviewVerdict> = { '/metrics': { allowed: true, denied: false, reason: 'RBAC' }, '/configz': { allowed: false, denied: false, reason: '' } };
    const cached = cachedSubjectAccessReviewer(
      {
        review: (request) => {
          calls.push(request.path);
          return Promise.resolve(verdicts[request.path] as SubjectAccessReviewVerdict);
        },
      },
      { authorizedTtlMs: 300_000, unauthorizedTtlMs: 30_000, now: time.now },
    );
    await cached.review(access(undefined, '/metrics'));
    await cached.review(access(undefined, '/configz'));
    time.advance(30_001);
    await cached.review(access(undefined, '/metrics'));
    await cached.review(access(undefined, '/configz'));
    expect(calls).toEqual(['/metrics', '/configz', '/configz']);
  });

  it('never keeps failures', async () => {
    let calls = 0;
    const cached = cachedSubjectAccessReviewer({ review: () => (calls += 1, Promise.reject(new Error('timeout'))) }, { authorizedTtlMs: 10_000, unauthorizedTtlMs: 10_000 });
    await expect(cached.review(access())).rejects.toThrow('timeout');
    await expect(cached.review(access())).rejects.toThrow('timeout');
    expect(calls).toBe(2);
  });

  it('keys on everything the review is about', () => {
    const base = subjectAccessReviewKey(access());
    expect(subjectAccessReviewKey(access(userInfo('alice', { groups: ['dev', 'ops'] })))).not.toBe(base);
    expect(subjectAccessReviewKey(access(userInfo('alice', { groups: ['dev'], extra: { scopes: ['a'] } })))).not.toBe(base);
    expect(subjectAccessReviewKey({ ...access(), verb: 'head' })).not.toBe(base);
    expect(subjectAccessReviewKey(access(userInfo('alice', { groups: ['dev'], extra: { b: ['1'], a: ['2'] } })))).toBe(
      subjectAccessReviewKey(access(userInfo('alice', { groups: ['dev'], extra: { a: ['2'], b: ['1'] } }))),
    );
  });
});
