import { describe, expect, it } from 'vitest';
import { fixture, soapEnvelope } from '../__tests__/fake-soap-server.js';
import { VsphereError } from '../vsphere-error.js';
import { readCookieValue, readSoapResponse } from './soap-transport.js';

describe('readSoapResponse', () => {
  it('returns the <Method>Response element, also when it is empty', () => {
    const response = readSoapResponse('FindByUuid', 200, soapEnvelope('<FindByUuidResponse xmlns="urn:vim25"><returnval type="VirtualMachine">vm-1</returnval></FindByUuidResponse>'));
    expect(response['returnval']).toEqual([{ '#text': 'vm-1', '@_type': 'VirtualMachine' }]);
    expect(readSoapResponse('FindByUuid', 200, soapEnvelope('<FindByUuidResponse xmlns="urn:vim25"></FindByUuidResponse>'))['returnval']).toBeUndefined();
  });

  it.each([
    ['fault-invalid-login.xml', 'Login', 'InvalidLogin', 'InvalidLogin', 'Login: InvalidLogin: Cannot complete login due to an incorrect user name or password.', undefined],
    ['fault-not-authenticated.xml', 'FindByUuid', 'NotAuthenticated', 'NotAuthenticated', 'FindByUuid: NotAuthenticated: The session is not authenticated. (SearchIndex:SearchIndex)', 'SearchIndex:SearchIndex'],
  ])('turns the fault in %s into a typed error', (file, method, kind, faultType, message, object) => {
    let error: unknown;
    try {
      readSoapResponse(method, 500, fixture(file));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(VsphereError);
    expect(error).toMatchObject({ kind, faultType, message, object, httpStatus: 500, retryable: false });
  });

  it('reads the fault type from the element name when xsi:type is absent, and maps unknown types to Unknown', () => {
    const body = soapEnvelope(
      '<soapenv:Fault><faultcode>ServerFaultCode</faultcode><faultstring>The object has already been deleted</faultstring><detail><ManagedObjectNotFoundFault xmlns="urn:vim25"><obj type="VirtualMachine">vm-9</obj></ManagedObjectNotFoundFault></detail></soapenv:Fault>',
    );
    expect(() => readSoapResponse('RetrievePropertiesEx', 500, body)).toThrow(expect.objectContaining({ kind: 'ManagedObjectNotFound', object: 'VirtualMachine:vm-9' }));
    const other = soapEnvelope('<soapenv:Fault><faultcode>ServerFaultCode</faultcode><faultstring>busy</faultstring><detail><TaskInProgressFault xmlns="urn:vim25" xsi:type="TaskInProgress"/></detail></soapenv:Fault>');
    expect(() => readSoapResponse('PowerOffVM_Task', 500, other)).toThrow(expect.objectContaining({ kind: 'Unknown', faultType: 'TaskInProgress', message: 'PowerOffVM_Task: TaskInProgress: busy' }));
  });

  it('rejects answers without a SOAP envelope as InvalidResponse (retryable for 5xx)', () => {
    expect(() => readSoapResponse('Login', 503, '<html><body>Service Unavailable</body></html>')).toThrow(
      expect.objectContaining({ kind: 'InvalidResponse', httpStatus: 503, retryable: true, message: 'Login: HTTP 503 without a SOAP envelope (<html><body>Service Unavailable</body></html>)' }),
    );
    expect(() => readSoapResponse('Login', 200, soapEnvelope('<OtherResponse/>'))).toThrow(expect.objectContaining({ kind: 'InvalidResponse', retryable: false }));
  });
});

describe('readCookieValue', () => {
  it.each([
    ['vmware_soap_session="52a1b2"; Path=/; HttpOnly; Secure', '52a1b2'],
    ['vmware_soap_session=abc; HttpOnly', 'abc'],
    ['other=1; Path=/', undefined],
    ['vmware_soap_session=; Path=/', undefined],
  ])('%s -> %s', (header, value) => {
    expect(readCookieValue(header, 'vmware_soap_session')).toBe(value);
  });
});
