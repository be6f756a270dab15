import { describe, expect, it } from 'vitest';
import { propertyFilterSpecXml, readRetrieveResult } from './property-collector-specs.js';

describe('propertyFilterSpecXml', () => {
  it('writes elements in schema order with escaped values', () => {
    expect(
      propertyFilterSpecXml({
        propSet: [{ type: 'VirtualMachine', paths: ['name', 'config.extraConfig["guestinfo.a&b"]'] }],
        objectSet: [{ obj: { type: 'VirtualMachine', value: 'vm-1' } }, { obj: { type: 'Folder', value: 'group-d1' }, skip: true, selectSet: [{ name: 'x' }] }],
        reportMissingObjectsInResults: true,
      }),
    ).toBe(
      '<specSet><propSet><type>VirtualMachine</type><all>false</all><pathSet>name</pathSet><pathSet>config.extraConfig[&quot;guestinfo.a&amp;b&quot;]</pathSet></propSet>' +
        '<objectSet><obj type="VirtualMachine">vm-1</obj><skip>false</skip></objectSet>' +
        '<objectSet><obj type="Folder">group-d1</obj><skip>true</skip><selectSet xsi:type="SelectionSpec"><name>x</name></selectSet></objectSet>' +
        '<reportMissingObjectsInResults>true</reportMissingObjectsInResults></specSet>',
    );
  });
});

describe('readRetrieveResult', () => {
  it('reads an absent returnval (no objects) as an empty result', () => {
    expect(readRetrieveResult('RetrievePropertiesEx', undefined)).toEqual({ token: undefined, objects: [] });
  });
});
