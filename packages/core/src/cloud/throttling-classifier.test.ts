import { describe, expect, it } from 'vitest';
import { createThrottlingClassifier, defaultThrottlingClassifier, parseRetryAfter } from './throttling-classifier.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');

describe('defaultThrottlingClassifier', () => {
  const classify = createThrottlingClassifier({ now: () => NOW });

  it.each([
    ['AWS EC2 RequestLimitExceeded', Object.assign(new Error('Request limit exceeded.'), { name: 'RequestLimitExceeded', $metadata: { httpStatusCode: 503 } })],
    ['AWS ELB Throttling', Object.assign(new Error('Rate exceeded'), { name: 'Throttling', $metadata: { httpStatusCode: 400 } })],
    ['AWS SDK $retryable.throttling', Object.assign(new Error('slow down'), { name: 'SomethingNew', $retryable: { throttling: true } })],
    ['HTTP 429 statusCode', Object.assign(new Error('Too Many Requests'), { statusCode: 429 })],
    ['HTTP 429 status as text', { status: '429' }],
    ['fetch-style response.status', { message: 'failed', response: { status: 429 } }],
    ['Google rateLimitExceeded in errors[]', { code: 403, errors: [{ reason: 'rateLimitExceeded', message: 'Rate Limit Exceeded' }] }],
    ['Azure TooManyRequests code', { code: 'TooManyRequests', statusCode: 429 }],
    ['Azure SubscriptionRequestsThrottled', { code: 'SubscriptionRequestsThrottled' }],
  ])('recognises %s', (_name, error) => {
    expect(classify(error)).toBeDefined();
  });

  it.each([
    ['a 500', { statusCode: 500 }],
    ['an AWS not-found', Object.assign(new Error('nope'), { name: 'InvalidInstanceID.NotFound', $metadata: { httpStatusCode: 400 } })],
    ['a Google quota error that is not a rate', { code: 403, errors: [{ reason: 'quotaExceeded' }] }],
    ['a plain Error', new Error('Throttling')],
    ['a string', 'Throttling'],
    ['undefined', undefined],
    ['null', null],
  ])('does not treat %s as throttling', (_name, error) => {
    expect(classify(error)).toBeUndefined();
  });

  it('finds throttling wrapped in our own errors (cause chain)', () => {
    const wrapped = new Error('failed to get instance metadata', { cause: new Error('describe', { cause: { statusCode: 429, retryAfterMs: 1500 } }) });
    expect(classify(wrapped)).toEqual({ retryAfterMs: 1500 });
  });

  it('reads Retry-After from a retryAfterMs property, plain headers, Headers and $response', () => {
    expect(classify({ statusCode: 429, retryAfterMs: 250 })).toEqual({ retryAfterMs: 250 });
    expect(classify({ statusCode: 429, retryAfterSeconds: 2 })).toEqual({ retryAfterMs: 2000 });
    expect(classify({ statusCode: 429, headers: { 'Retry-After': '7' } })).toEqual({ retryAfterMs: 7000 });
    expect(classify({ statusCode: 429, headers: { 'retry-after': ['3'] } })).toEqual({ retryAfterMs: 3000 });
    expect(classify({ response: { status: 429, headers: new Headers({ 'Retry-After': '4' }) } })).toEqual({ retryAfterMs: 4000 });
    expect(classify({ name: 'Throttling', $response: { headers: { 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' } } })).toEqual({ retryAfterMs: 5000 });
    expect(classify({ statusCode: 429, headers: { 'retry-after': 'soon' } })).toEqual({});
    expect(classify({ statusCode: 429 })).toEqual({});
  });

  it('takes a provider\'s extra codes, or a replacement list', () => {
    const openstack = createThrottlingClassifier({ extraCodes: ['OverLimit'], statuses: [429, 413] });
    expect(openstack({ code: 'OverLimit' })).toEqual({});
    expect(openstack({ statusCode: 413 })).toEqual({});
    expect(openstack({ name: 'RequestLimitExceeded' })).toEqual({});
    const only = createThrottlingClassifier({ codes: ['OnlyThis'] });
    expect(only({ name: 'RequestLimitExceeded' })).toBeUndefined();
    expect(only({ name: 'OnlyThis' })).toEqual({});
  });

  it('is exported ready-made', () => {
    expect(defaultThrottlingClassifier({ statusCode: 429 })).toEqual({});
  });
});

describe('parseRetryAfter', () => {
  it.each([
    ['120', 120_000],
    [' 1.5 ', 1_500],
    ['0', 0],
    [3, 3_000],
    ['Thu, 01 Jan 2026 00:00:10 GMT', 10_000],
    ['Wed, 31 Dec 2025 23:59:00 GMT', 0],
  ] as const)('reads %j', (value, expected) => {
    expect(parseRetryAfter(value, NOW)).toBe(expected);
  });

  it.each(['-1', '', 'soon', '12abc', Number.NaN, -5])('rejects %j', (value) => {
    expect(parseRetryAfter(value, NOW)).toBeUndefined();
  });
});
