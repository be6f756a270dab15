import { describe, expect, it } from 'vitest';
import { CONTROLLER_NAMES } from '../../names/controller-names.js';
import { isControllerEnabled, resolveControllerAliases, validateControllerEntries } from './controller-selection.js';

describe('resolveControllerAliases', () => {
  it.each([
    [['*'], ['*']],
    [['route'], ['node-route-controller']],
    [['-service'], ['-service-lb-controller']],
    [['cloud-node', '-cloud-node-lifecycle'], ['cloud-node-controller', '-cloud-node-lifecycle-controller']],
    [['node-route-controller', 'unknown', '-unknown'], ['node-route-controller', 'unknown', '-unknown']],
    [['toString', 'constructor'], ['toString', 'constructor']],
  ])('%j -> %j', (entries, expected) => {
    expect(resolveControllerAliases(entries)).toEqual(expected);
  });
});

describe('isControllerEnabled', () => {
  const cases: [string, string[], string[], boolean][] = [
    ['star enables', ['*'], [], true],
    ['no star, not named: disabled', ['other'], [], false],
    ['empty list: disabled', [], [], false],
    ['named', ['x'], [], true],
    ['minus disables despite star after', ['-x', '*'], [], false],
    ['first match wins (enable first)', ['x', '-x'], [], true],
    ['first match wins (disable first)', ['-x', 'x'], [], false],
    ['star then minus: minus still wins (only star is not a match)', ['*', '-x'], [], false],
    ['disabled by default with star', ['*'], ['x'], false],
    ['disabled by default but named', ['*', 'x'], ['x'], true],
    ['other controllers disabled do not matter', ['*', '-y'], [], true],
  ];
  it.each(cases)('%s', (_name, entries, disabledByDefault, expected) => {
    expect(isControllerEnabled('x', entries, new Set(disabledByDefault))).toBe(expected);
  });

  it('uses canonical names after alias resolution', () => {
    const entries = resolveControllerAliases(['-route', '*']);
    expect(isControllerEnabled('node-route-controller', entries)).toBe(false);
    expect(isControllerEnabled('service-lb-controller', entries)).toBe(true);
  });
});

describe('validateControllerEntries', () => {
  it.each([
    [['*'], []],
    [['*', '-route', 'service', 'cloud-node-controller'], []],
    [['foo'], ['--controllers: "foo" is not in the list of known controllers']],
    [['-foo', 'bar', '*'], ['--controllers: "foo" is not in the list of known controllers', '--controllers: "bar" is not in the list of known controllers']],
    [['**'], ['--controllers: "**" is not in the list of known controllers']],
  ])('%j', (entries, expected) => {
    expect(validateControllerEntries(entries, CONTROLLER_NAMES)).toEqual(expected);
  });

  it('only accepts controllers this binary has', () => {
    expect(validateControllerEntries(['route'], ['cloud-node-controller'])).toEqual(['--controllers: "node-route-controller" is not in the list of known controllers']);
  });
});
