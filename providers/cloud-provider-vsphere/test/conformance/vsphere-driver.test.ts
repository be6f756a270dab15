// The driver's request classifier for the benchmark's counting proxy (no simulator needed).
import { describe, expect, it } from 'vitest';
import { vsphereOperationOf } from './vsphere-driver.js';

describe('vsphereOperationOf', () => {
  it('names a SOAP request by the first element of its body', () => {
    const body =
      '<?xml version="1.0"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body>\n  <RetrievePropertiesEx xmlns="urn:vim25"><_this type="PropertyCollector">propertyCollector</_this></RetrievePropertiesEx></soapenv:Body></soapenv:Envelope>';
    expect(vsphereOperationOf({ method: 'POST', path: '/sdk', headers: {}, body })).toBe('RetrievePropertiesEx');
    expect(vsphereOperationOf({ method: 'POST', path: '/sdk', headers: {}, body: '<Envelope><Body><vim25:FindAllByDnsName/></Body></Envelope>' })).toBe('FindAllByDnsName');
  });

  it('names a vAPI REST request by method and path, object IDs left out', () => {
    expect(vsphereOperationOf({ method: 'GET', path: '/rest/com/vmware/cis/tagging/tag/id:urn:vmomi:InventoryServiceTag:1:GLOBAL?x=1', headers: {}, body: '' })).toBe('GET /rest/com/vmware/cis/tagging/tag');
    expect(vsphereOperationOf({ method: 'POST', path: '/rest/com/vmware/cis/session', headers: {}, body: '' })).toBe('POST /rest/com/vmware/cis/session');
  });
});
