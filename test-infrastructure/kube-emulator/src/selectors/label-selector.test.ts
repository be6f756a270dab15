import { describe, expect, it } from 'vitest';
import { LabelSelectorParseError, parseLabelSelector } from './label-selector.js';

const labels = { app: 'web', tier: 'frontend', version: '3' };

describe('parseLabelSelector', () => {
  it.each([
    ['', true],
    ['app=web', true],
    ['app==web', true],
    ['app=db', false],
    ['app!=db', true],
    ['app!=web', false],
    ['missing!=x', true],
    ['app in (db, web)', true],
    ['app in (db)', false],
    ['app notin (db)', true],
    ['app notin (web,db)', false],
    ['missing notin (x)', true],
    ['app', true],
    ['missing', false],
    ['!missing', true],
    ['!app', false],
    ['app=web,tier=frontend', true],
    ['app=web,tier=backend', false],
    ['version>2', true],
    ['version<3', false],
    ['  app  =  web , !missing ', true],
  ])('%j matches %j', (selector, expected) => {
    expect(parseLabelSelector(selector).matches(labels)).toBe(expected);
  });

  it('treats absent labels as an empty set', () => {
    expect(parseLabelSelector('app').matches(undefined)).toBe(false);
    expect(parseLabelSelector('!app').matches(undefined)).toBe(true);
    expect(parseLabelSelector('app=').matches({ app: '' })).toBe(true);
  });

  it('reports requirements in order', () => {
    expect(parseLabelSelector('a in (x,y),!b').requirements).toEqual([
      { key: 'a', operator: 'in', values: ['x', 'y'] },
      { key: 'b', operator: 'doesNotExist', values: [] },
    ]);
  });

  it.each(['app in ()', 'app in (a', 'app=web,', '=web', 'app > x', 'bad key!=x', 'app=bad value!', 'app ~ x', 'app in a'])('rejects %j', (selector) => {
    expect(() => parseLabelSelector(selector)).toThrow(LabelSelectorParseError);
  });
});
