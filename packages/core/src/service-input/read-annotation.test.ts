import type { V1Service } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { isPermanentInvalidInput } from '../provider/cloud-errors.js';
import { defineAnnotations, type AnnotationValueType } from './annotation-definition.js';
import { InvalidAnnotationError } from './invalid-annotation-error.js';
import { parseAnnotationValue, readAnnotation } from './read-annotation.js';

const KEY = 'example.com/value';
const service = (annotations: Record<string, string>): V1Service => ({ metadata: { name: 's', namespace: 'n', annotations } });

function failure(type: AnnotationValueType, raw: string): InvalidAnnotationError {
  try {
    parseAnnotationValue(KEY, raw, type);
  } catch (error) {
    if (error instanceof InvalidAnnotationError) return error;
    throw error;
  }
  throw new Error(`${JSON.stringify(raw)} was accepted as ${type.kind}`);
}

describe('parseAnnotationValue', () => {
  it.each<[AnnotationValueType, string, unknown]>([
    [{ kind: 'string' }, ' a b ', 'a b'],
    [{ kind: 'boolean', syntax: 'go' }, 'T', true],
    [{ kind: 'boolean', syntax: 'go' }, '0', false],
    [{ kind: 'boolean', syntax: 'true-false' }, 'true', true],
    [{ kind: 'boolean', syntax: 'true-false-any-case' }, 'FALSE', false],
    [{ kind: 'integer', min: 1, max: 10 }, '+7', 7],
    [{ kind: 'duration' }, '1m30s', 90_000],
    [{ kind: 'enum', values: ['Tcp', 'Http'], caseInsensitive: true }, 'http', 'Http'],
    [{ kind: 'list' }, ' a, ,b ,', ['a', 'b']],
    [{ kind: 'cidr-list' }, '10.0.0.7/8, 192.168.1.0/24,10.1.0.0/8', ['10.0.0.0/8', '192.168.1.0/24']],
    [{ kind: 'cidr-list' }, '::ffff:10.0.0.0/104', ['10.0.0.0/8']],
    [{ kind: 'key-value-map', syntax: 'lenient' }, 'a=1,b,=x,c=2=3', { a: '1', b: '', c: '2' }],
    [{ kind: 'key-value-map', syntax: 'key-or-pair' }, 'a = 1, b', { a: '1', b: '' }],
    [{ kind: 'key-value-map', syntax: 'pair' }, 'a=1=2', { a: '1=2' }],
  ])('%j reads %j as %j', (type, raw, expected) => {
    expect(parseAnnotationValue(KEY, raw, type)).toEqual(expected);
  });

  it.each<[AnnotationValueType, string, RegExp]>([
    [{ kind: 'boolean', syntax: 'go' }, 'yes', /expected a boolean/],
    [{ kind: 'boolean', syntax: 'true-false' }, 'True', /must be true or false/],
    [{ kind: 'boolean', syntax: 'true-false', trim: false }, 'true ', /must be true or false/],
    [{ kind: 'boolean', syntax: 'true-false', empty: 'invalid' }, '', /must be true or false/],
    [{ kind: 'integer' }, '1.5', /expected an integer/],
    [{ kind: 'integer' }, '99999999999999999999', /integer out of range/],
    [{ kind: 'integer', min: 5 }, '4', /must be at least 5/],
    [{ kind: 'integer', min: 1, max: 10 }, '11', /must be between 1 and 10/],
    [{ kind: 'duration' }, '5 minutes', /Go duration/],
    [{ kind: 'enum', values: ['Standard', 'Premium'] }, 'premium', /must be Standard or Premium/],
    [{ kind: 'cidr-list' }, '10.0.0.0/8,10.0.0.0/33', /"10.0.0.0\/33" is not a CIDR/],
    [{ kind: 'key-value-map', syntax: 'key-or-pair' }, 'a=1=2', /is not key=value or key/],
    [{ kind: 'key-value-map', syntax: 'pair' }, 'a', /is not key=value/],
  ])('%j refuses %j, naming the annotation and the value', (type, raw, reason) => {
    const error = failure(type, raw);
    expect(error.message).toMatch(reason);
    expect(error.message).toContain(`annotation ${KEY}=${JSON.stringify(raw)}: `);
    expect(error).toMatchObject({ annotation: KEY, value: raw, kind: 'PermanentInvalidInput' });
    expect(isPermanentInvalidInput(error)).toBe(true);
  });

  it('an empty text is absent unless the type says empty is invalid', () => {
    expect(parseAnnotationValue(KEY, '  ', { kind: 'integer' })).toBeUndefined();
    expect(() => parseAnnotationValue(KEY, '', { kind: 'enum', values: ['a'], empty: 'invalid' })).toThrow(InvalidAnnotationError);
  });

  it('a field of the Service is named as a field', () => {
    expect(new InvalidAnnotationError('spec.loadBalancerIP', 'x', 'must be an IPv4 address').message).toBe('field spec.loadBalancerIP="x": must be an IPv4 address');
  });
});

describe('readAnnotation', () => {
  const registry = defineAnnotations({
    timeout: { key: KEY, type: { kind: 'integer', min: 0 }, defaultValue: '5', status: 'supported', description: 'Seconds.' },
  });

  it('reads a Service or its annotations, undefined when absent', () => {
    expect(readAnnotation(service({ [KEY]: '7' }), registry.timeout)).toBe(7);
    expect(readAnnotation({ [KEY]: '8' }, registry.timeout)).toBe(8);
    expect(readAnnotation(service({}), registry.timeout)).toBeUndefined();
    expect(readAnnotation({ metadata: {} }, registry.timeout)).toBeUndefined();
  });

  it('a registry declares each key once and says why an input is not supported', () => {
    expect(() => defineAnnotations({ a: { key: KEY, defaultValue: '', status: 'supported', description: '' }, b: { key: KEY, defaultValue: '', status: 'supported', description: '' } })).toThrow(/declared twice/);
    expect(() => defineAnnotations({ a: { key: KEY, defaultValue: '', status: 'accepted-and-ignored', description: '' } })).toThrow(/without a reason/);
  });
});
