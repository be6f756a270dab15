// The driver's request classifier for the benchmark's counting proxy (no moto needed).
import { describe, expect, it } from 'vitest';
import { awsOperationOf } from './aws-driver.js';

const request = (body: string, path = '/', headers: Record<string, string> = {}) => ({ method: 'POST', path, headers, body });

describe('awsOperationOf', () => {
  it('names a query-protocol request by its Action, in the form body or the query string', () => {
    expect(awsOperationOf(request('Action=DescribeInstances&Version=2016-11-15&Filter.1.Name=private-dns-name'))).toBe('DescribeInstances');
    expect(awsOperationOf({ method: 'GET', path: '/?Action=DescribeLoadBalancers&Version=2012-06-01', headers: {}, body: '' })).toBe('DescribeLoadBalancers');
  });

  it('names a JSON-protocol request by its X-Amz-Target, anything else by method and path', () => {
    expect(awsOperationOf(request('{}', '/', { 'x-amz-target': 'AWSSecurityTokenServiceV20110615.AssumeRole' }))).toBe('AWSSecurityTokenServiceV20110615.AssumeRole');
    expect(awsOperationOf({ method: 'GET', path: '/moto-api/?x=1', headers: {}, body: '' })).toBe('GET /moto-api/');
  });
});
