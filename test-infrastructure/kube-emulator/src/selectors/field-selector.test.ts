import { describe, expect, it } from 'vitest';
import { FieldSelectorParseError, parseFieldSelector } from './field-selector.js';

const fields: Record<string, string> = { 'metadata.name': 'n1', 'spec.unschedulable': 'false', weird: 'a,b=c' };
const lookup = (field: string): string => fields[field] ?? '';

describe('parseFieldSelector', () => {
  it.each([
    ['', true],
    ['metadata.name=n1', true],
    ['metadata.name==n1', true],
    ['metadata.name!=n1', false],
    ['metadata.name=n2', false],
    ['metadata.name=n1,spec.unschedulable=false', true],
    ['metadata.name=n1,spec.unschedulable!=false', false],
    ['metadata.namespace=', true],
    ['weird=a\\,b\\=c', true],
  ])('%j matches %j', (selector, expected) => {
    expect(parseFieldSelector(selector).matches(lookup)).toBe(expected);
  });

  it('parses fields and operators', () => {
    expect(parseFieldSelector('a=b,c!=d').requirements).toEqual([
      { field: 'a', operator: 'equals', value: 'b' },
      { field: 'c', operator: 'notEquals', value: 'd' },
    ]);
  });

  it.each(['metadata.name', 'a=b=c', 'a=b\\x'])('rejects %j', (selector) => {
    expect(() => parseFieldSelector(selector)).toThrow(FieldSelectorParseError);
  });
});
