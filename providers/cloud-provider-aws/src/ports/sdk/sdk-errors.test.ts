import { describe, expect, it } from 'vitest';
import { AwsApiError } from '../../errors.js';
import { classifyAwsError, errorCodeOf, toAwsApiError } from './sdk-errors.js';

describe('SDK error classification', () => {
  it.each([
    ['RequestLimitExceeded', 503, 'Throttled', true],
    ['Throttling', 400, 'Throttled', true],
    ['ThrottlingException', 400, 'Throttled', true],
    ['Anything', 429, 'Throttled', true],
    ['InvalidInstanceID.NotFound', 400, 'NotFound', false],
    ['LoadBalancerNotFound', 400, 'NotFound', false],
    ['TargetGroupNotFound', 400, 'NotFound', false],
    ['PolicyNotFound', 400, 'NotFound', false],
    ['InvalidGroup.NotFound', 400, 'NotFound', false],
    ['InvalidPermission.NotFound', 400, 'NotFound', false],
    ['DependencyViolation', 400, 'DependencyViolation', false],
    ['ResourceInUse', 400, 'DependencyViolation', false],
    ['InvalidGroup.Duplicate', 400, 'Conflict', false],
    ['InvalidPermission.Duplicate', 400, 'Conflict', false],
    ['RouteAlreadyExists', 400, 'Conflict', false],
    ['DuplicateTargetGroupName', 400, 'Conflict', false],
    ['UnauthorizedOperation', 403, 'Unauthorized', false],
    ['AccessDenied', 403, 'Unauthorized', false],
    ['InternalError', 500, 'Unavailable', true],
    ['ServiceUnavailable', 503, 'Unavailable', true],
    ['ECONNRESET', undefined, 'Unavailable', true],
    ['TimeoutError', undefined, 'Unavailable', true],
    ['InvalidParameterValue', 400, 'Invalid', false],
    ['ValidationError', 400, 'Invalid', false],
    ['AbortError', undefined, 'Unknown', false],
  ])('%s (HTTP %s) -> %s, retryable %s', (code, status, kind, retryable) => {
    expect(classifyAwsError(code, status, undefined)).toBe(kind);
    const error = toAwsApiError('ec2.describeInstances', Object.assign(new Error('m'), { name: code, ...(status === undefined ? {} : { $metadata: { httpStatusCode: status } }) }));
    expect(error).toBeInstanceOf(AwsApiError);
    expect(error.kind).toBe(kind);
    expect(error.retryable).toBe(retryable);
    expect(error.operation).toBe('ec2.describeInstances');
  });

  it('prefers the query-protocol Code over the exception name', () => {
    const sdkError = Object.assign(new Error('The specified load balancer does not exist: x'), { name: 'AccessPointNotFoundException', Code: 'LoadBalancerNotFound', $metadata: { httpStatusCode: 400 } });
    expect(errorCodeOf(sdkError)).toBe('LoadBalancerNotFound');
    const converted = toAwsApiError('elb.describeLoadBalancers', sdkError);
    expect(converted.message).toBe('elb.describeLoadBalancers: LoadBalancerNotFound: The specified load balancer does not exist: x');
    expect(converted.cause).toBe(sdkError);
    expect(converted.httpStatus).toBe(400);
  });

  it('passes an AwsApiError through and handles non-errors', () => {
    const existing = toAwsApiError('a', new Error('x'));
    expect(toAwsApiError('b', existing)).toBe(existing);
    expect(toAwsApiError('c', 'text').kind).toBe('Unknown');
  });
});
