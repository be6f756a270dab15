import { describe, expect, it } from 'vitest';
import { parseGoBool } from '../../util/parse-go-bool.js';
import { parseGoFloat, parseGoInt, splitCommaSeparated } from './parse-flag-value.js';

describe('Go value parsers', () => {
  it.each([
    ['1', true], ['t', true], ['T', true], ['TRUE', true], ['true', true], ['True', true],
    ['0', false], ['f', false], ['F', false], ['FALSE', false], ['false', false], ['False', false],
    ['yes', undefined], ['tRUE', undefined], ['', undefined],
  ])('parseGoBool(%j) = %j', (text, expected) => {
    expect(parseGoBool(text)).toBe(expected);
  });

  it.each([
    ['42', 42], ['-3', -3], ['+3', 3], ['0', 0], ['0x1f', 31], ['0X1F', 31], ['010', 8], ['0o17', 15], ['0b101', 5], ['0x_1f', undefined],
    ['0x1_f', 31], ['1_000', undefined], ['', undefined], ['abc', undefined], ['1.5', undefined], ['08', undefined], ['9007199254740993', undefined],
  ])('parseGoInt(%j) = %j', (text, expected) => {
    expect(parseGoInt(text)).toBe(expected);
  });

  it.each([
    ['20', 20], ['0.5', 0.5], ['.5', 0.5], ['5.', 5], ['-1', -1], ['1e3', 1000], ['abc', undefined], ['', undefined], ['1e999', undefined], ['Inf', undefined],
  ])('parseGoFloat(%j) = %j', (text, expected) => {
    expect(parseGoFloat(text)).toBe(expected);
  });

  it.each([
    ['', []],
    ['a', ['a']],
    ['a,b', ['a', 'b']],
    ['a,,b', ['a', '', 'b']],
    ['a,', ['a', '']],
    ['"a,b",c', ['a,b', 'c']],
    ['"say ""hi"""', ['say "hi"']],
    [' a , b', [' a ', ' b']],
  ])('splitCommaSeparated(%j)', (text, expected) => {
    expect(splitCommaSeparated(text)).toEqual(expected);
  });

  it.each(['"a', 'a"b', '"a"b'])('splitCommaSeparated rejects %j', (text) => {
    expect(() => splitCommaSeparated(text)).toThrow('parse error');
  });
});
