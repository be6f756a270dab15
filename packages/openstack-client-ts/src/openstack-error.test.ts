import { describe, expect, it } from 'vitest';
import { isImmutableConflict, kindForStatus, parseFaultBody } from './openstack-error.js';

// Fault bodies as the services send them (Keystone 22, Neutron 21, Octavia 11, Nova 26).
const RECORDED = {
  keystoneUnauthorized: '{"error":{"code":401,"title":"Unauthorized","message":"The request you have made requires authentication."}}',
  neutronPortNotFound: '{"NeutronError": {"type": "PortNotFound", "message": "Port nope could not be found.", "detail": ""}}',
  neutronIpInUse: '{"NeutronError": {"type": "IpAddressAlreadyAllocated", "message": "IP address 10.0.0.5 already allocated in subnet 1a2b", "detail": ""}}',
  octaviaImmutable: '{"faultcode": "Client", "faultstring": "Load Balancer 5b1c is immutable and cannot be updated.", "debuginfo": null}',
  octaviaInvalidState: '{"faultcode": "Client", "faultstring": "Invalid state PENDING_UPDATE of loadbalancer resource 5b1c", "debuginfo": null}',
  novaItemNotFound: '{"itemNotFound": {"code": 404, "message": "Instance 42 could not be found."}}',
  novaOverLimit: '{"overLimit": {"code": 413, "message": "Quota exceeded for instances", "retryAfter": "0"}}',
  webobNotFound: '{"title": "Not Found", "description": "The resource could not be found."}',
  html: '<html><body><h1>503 Service Unavailable</h1>No server is available.</body></html>',
};

describe('parseFaultBody', () => {
  it.each([
    ['Keystone', RECORDED.keystoneUnauthorized, 'The request you have made requires authentication.', 'Unauthorized'],
    ['Neutron', RECORDED.neutronPortNotFound, 'Port nope could not be found.', 'PortNotFound'],
    ['Neutron conflict', RECORDED.neutronIpInUse, 'IP address 10.0.0.5 already allocated in subnet 1a2b', 'IpAddressAlreadyAllocated'],
    ['Octavia', RECORDED.octaviaImmutable, 'Load Balancer 5b1c is immutable and cannot be updated.', 'Client'],
    ['Nova', RECORDED.novaItemNotFound, 'Instance 42 could not be found.', 'itemNotFound'],
    ['Nova over limit', RECORDED.novaOverLimit, 'Quota exceeded for instances', 'overLimit'],
    ['webob', RECORDED.webobNotFound, 'The resource could not be found.', 'Not Found'],
  ])('reads the %s shape', (_shape, body, message, faultType) => {
    expect(parseFaultBody(body)).toEqual({ message, faultType });
  });

  it('strips HTML and keeps plain text', () => {
    expect(parseFaultBody(RECORDED.html).message).toBe('503 Service Unavailable No server is available.');
    expect(parseFaultBody('plain failure').message).toBe('plain failure');
  });

  it('shortens long unknown bodies', () => {
    expect(parseFaultBody('x'.repeat(1000)).message).toHaveLength(303);
  });
});

describe('kindForStatus and immutability', () => {
  it.each([
    [400, 'BadRequest'],
    [401, 'Unauthorized'],
    [403, 'Forbidden'],
    [404, 'NotFound'],
    [409, 'Conflict'],
    [413, 'OverLimit'],
    [429, 'OverLimit'],
    [500, 'ServerError'],
    [503, 'ServiceUnavailable'],
    [302, 'UnexpectedStatus'],
  ])('%d is %s', (status, kind) => {
    expect(kindForStatus(status)).toBe(kind);
  });

  it('tells Octavia\'s PENDING conflicts from other conflicts', () => {
    expect(isImmutableConflict(409, parseFaultBody(RECORDED.octaviaImmutable).message)).toBe(true);
    expect(isImmutableConflict(409, parseFaultBody(RECORDED.octaviaInvalidState).message)).toBe(true);
    expect(isImmutableConflict(409, parseFaultBody(RECORDED.neutronIpInUse).message)).toBe(false);
    expect(isImmutableConflict(400, parseFaultBody(RECORDED.octaviaImmutable).message)).toBe(false);
  });
});

