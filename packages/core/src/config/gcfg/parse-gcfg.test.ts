import { describe, expect, it } from 'vitest';
import { formatCloudConfigProblem } from '../cloud-config-error.js';
import { parseGcfg } from './parse-gcfg.js';

/** A compact view of a document: "section[/sub].var" -> values (undefined for a bare name). */
function flatten(text: string): Record<string, (string | undefined)[]> {
  const document = parseGcfg(text, 'cloud.conf');
  expect(document.problems.map(formatCloudConfigProblem)).toEqual([]);
  const result: Record<string, (string | undefined)[]> = {};
  for (const section of document.sections) {
    for (const variable of section.variables) {
      const key = `${section.name.toLowerCase()}${section.subsection === undefined ? '' : `/${section.subsection}`}.${variable.name.toLowerCase()}`;
      (result[key] ??= []).push(variable.value);
    }
  }
  return result;
}

describe('parseGcfg values', () => {
  it.each([
    ['plain value', '[Global]\nZone = us-east-1a\n', { 'global.zone': ['us-east-1a'] }],
    ['no spaces around =', '[global]\nzone=a\n', { 'global.zone': ['a'] }],
    ['trailing and leading blanks trimmed, inner kept', '[g]\nname =   a  b\tc   \n', { 'g.name': ['a  b\tc'] }],
    ['empty value', '[g]\nname =\n', { 'g.name': [''] }],
    ['bare name is blank (true for booleans)', '[g]\nenabled\n', { 'g.enabled': [undefined] }],
    ['bare name followed by a comment', '[g]\nenabled ; on\n', { 'g.enabled': [undefined] }],
    ['quoted value keeps ; and #', '[g]\npassword = "p@ss;word#1" ; comment\n', { 'g.password': ['p@ss;word#1'] }],
    ['inline ; comment', '[g]\nkey = value ; a comment\n', { 'g.key': ['value'] }],
    ['inline # comment', '[g]\nkey = value # a comment\n', { 'g.key': ['value'] }],
    ['quotes keep blanks', '[g]\nkey = "  padded  "\n', { 'g.key': ['  padded  '] }],
    ['quotes in the middle', '[g]\nkey = a" b "c\n', { 'g.key': ['a b c'] }],
    ['escapes in quotes', '[g]\nkey = "say \\"hi\\" \\\\ tab\\tnl\\n"\n', { 'g.key': ['say "hi" \\ tab\tnl\n'] }],
    ['escapes outside quotes', '[g]\nkey = a\\"b\n', { 'g.key': ['a"b'] }],
    ['line continuation', '[g]\nkey = first \\\n  second\n', { 'g.key': ['first   second'] }],
    ['line continuation with CRLF', '[g]\r\nkey = one\\\r\ntwo\r\n', { 'g.key': ['onetwo'] }],
    ['CRLF line ends', '[g]\r\nkey = v\r\nother = w\r\n', { 'g.key': ['v'], 'g.other': ['w'] }],
    ['numeric-looking IDs stay strings', '[Global]\ntenant-id = 0001234\n', { 'global.tenant-id': ['0001234'] }],
    ['multi-valued variables keep order', '[Global]\nNodeIPFamilies = ipv6\nnodeipfamilies = ipv4\n', { 'global.nodeipfamilies': ['ipv6', 'ipv4'] }],
    ['names may contain digits and hyphens', '[g]\nsoap-roundtrip-count2 = 3\n', { 'g.soap-roundtrip-count2': ['3'] }],
    ['unicode letters in names', '[grüße]\nkäse = ja\n', { 'grüße.käse': ['ja'] }],
    ['no final newline', '[g]\nkey = v', { 'g.key': ['v'] }],
    ['comments and blank lines', '; top\n# also\n\n[g] ; header comment\n  ; indented\nkey = v\n', { 'g.key': ['v'] }],
    ['URL with # inside quotes only', '[g]\nurl = "http://h/#frag" \n', { 'g.url': ['http://h/#frag'] }],
    ['equals sign inside a value', '[g]\nkey = a=b\n', { 'g.key': ['a=b'] }],
  ])('%s', (_name, text, expected) => {
    expect(flatten(text)).toEqual(expected);
  });

  it('tolerates a UTF-8 byte order mark', () => {
    expect(flatten('\uFEFF[Global]\nzone = a\n')).toEqual({ 'global.zone': ['a'] });
  });
});

describe('parseGcfg sections', () => {
  it('keeps subsections case-sensitive and section names case-insensitive', () => {
    const document = parseGcfg('[VirtualCenter "10.0.0.1"]\nuser = a\n[virtualcenter "VC.example"]\nuser = b\n[VIRTUALCENTER]\nuser = c\n', 'vsphere.conf');
    expect(document.problems).toEqual([]);
    expect(document.section('virtualcenter', '10.0.0.1')?.variables.map((variable) => variable.value)).toEqual(['a']);
    expect(document.section('VirtualCenter', 'VC.example')?.variables.map((variable) => variable.value)).toEqual(['b']);
    expect(document.section('VirtualCenter', 'vc.example')).toBeUndefined();
    expect(document.section('VirtualCenter')?.variables.map((variable) => variable.value)).toEqual(['c']);
    expect(document.sectionsNamed('virtualCenter').map((section) => section.subsection)).toEqual(['10.0.0.1', 'VC.example', undefined]);
  });

  it('unescapes quoted subsection names', () => {
    const document = parseGcfg('[s "a \\"quoted\\" \\\\ name"]\nk = v\n', 'x.conf');
    expect(document.problems).toEqual([]);
    expect(document.sections[0]?.subsection).toBe('a "quoted" \\ name');
  });

  it('merges repeated headers and keeps variables in file order', () => {
    const document = parseGcfg('[Global]\na = 1\n[Other]\nb = 2\n[global]\na = 3\n', 'x.conf');
    expect(document.sections.map((section) => section.name)).toEqual(['Global', 'Other']);
    expect(document.values('GLOBAL', 'A')).toEqual(['1', '3']);
    expect(document.variable('global', 'a')?.line).toBe(6);
  });

  it('allows blanks inside the header brackets', () => {
    const document = parseGcfg('[ Global  "sub" ]\nk = v\n', 'x.conf');
    expect(document.problems).toEqual([]);
    expect(document.section('global', 'sub')?.variables).toHaveLength(1);
  });

  it('a bare name resets a multi-valued variable', () => {
    const document = parseGcfg('[g]\nlist = a\nlist\nlist = b\n', 'x.conf');
    expect(document.values('g', 'list')).toEqual(['b']);
    expect(document.variable('g', 'list')?.value).toBe('b');
  });

  it('creates a section even when it has no variables', () => {
    const document = parseGcfg('[Empty]\n', 'x.conf');
    expect(document.section('empty')?.variables).toEqual([]);
  });
});

describe('parseGcfg errors', () => {
  it.each([
    ['missing =', '[Global]\nZone us-east-1\n', ["cloud.conf:2: missing '=' after variable \"Zone\""]],
    ['variable before any section', 'zone = a\n', ['cloud.conf:1: variable "zone" appears before any [section] header']],
    ['missing ]', '[Global\nzone = a\n', ['cloud.conf:1: missing \']\' at the end of the header of section "Global"']],
    ['empty section name', '[]\n', ["cloud.conf:1: expected a section name after '['"]],
    ['empty subsection', '[Global ""]\n', ['cloud.conf:1: empty subsection name in section "Global" (use [Global] instead)']],
    ['dotted subsection', '[Global.sub]\n', ['cloud.conf:1: the [section.subsection] form is not supported: write [Global "subsection"]']],
    ['text after header', '[Global] junk\n', ['cloud.conf:1: unexpected text after section header "Global"']],
    ['unterminated quote', '[g]\nk = "abc\nother = 1\n', ['cloud.conf:2: unterminated quoted value of variable "k"']],
    ['bad escape', '[g]\nk = "a\\qb"\n', ["cloud.conf:2: invalid escape sequence '\\' followed by 'q' in the value of variable \"k\""]],
    ['unterminated subsection', '[g "abc\n', ['cloud.conf:1: unterminated subsection name']],
    ['a line starting with a digit', '[g]\n1abc = 2\n', ["cloud.conf:2: unexpected character '1': expected a section header or a variable"]],
    ['NUL', '[g]\n\0\n', ['cloud.conf:2: illegal character NUL']],
  ])('%s', (_name, text, expected) => {
    expect(parseGcfg(text, 'cloud.conf').problems.map(formatCloudConfigProblem)).toEqual(expected);
  });

  it('reports every problem, not just the first, and keeps what parsed', () => {
    const text = ['[Global]', 'Zone us-east-1', 'Region = us-east-1', '[Broken', 'key = "open', '[Other]', 'ok = yes', '= value', ''].join('\n');
    const document = parseGcfg(text, 'cloud.conf');
    expect(document.problems.map(formatCloudConfigProblem)).toEqual([
      'cloud.conf:2: missing \'=\' after variable "Zone"',
      'cloud.conf:4: missing \']\' at the end of the header of section "Broken"',
      'cloud.conf:5: unterminated quoted value of variable "key"',
      "cloud.conf:8: unexpected character '=': expected a section header or a variable",
    ]);
    expect(document.variable('global', 'region')?.value).toBe('us-east-1');
    expect(document.variable('other', 'ok')?.value).toBe('yes');
    // Variables under a broken header are dropped, not attributed to the previous section.
    expect(document.values('global', 'key')).toEqual([]);
  });

  it('never echoes the value of a secret-looking variable, even the rest of an unterminated one', () => {
    const text = [
      '[Global]',
      'password = "Hunter2Secret',
      'Hunter2More',
      'Hunter2Rest" tail',
      'zone = a',
      'secret-access-key = "x\\QSecretEscape"',
      'token = "Open',
      '[Other]',
      'k = v',
      '',
    ].join('\n');
    const document = parseGcfg(text, 'cloud.conf');
    const messages = document.problems.map(formatCloudConfigProblem);
    const continued = (line: number, name: string, from: number) =>
      `cloud.conf:${line}: cannot parse this line, it may continue the unterminated quoted value of variable "${name}" on line ${from} (text withheld)`;
    expect(messages).toEqual([
      'cloud.conf:2: unterminated quoted value of variable "password"',
      continued(3, 'password', 2),
      continued(4, 'password', 2),
      "cloud.conf:6: invalid escape sequence '\\' followed by a character (withheld) in the value of variable \"secret-access-key\"",
      'cloud.conf:7: unterminated quoted value of variable "token"',
    ]);
    for (const message of messages) expect(message).not.toMatch(/Hunter2|tail|QSecret|Open/);
    expect(document.variable('global', 'zone')?.value).toBe('a');
    expect(document.variable('other', 'k')?.value).toBe('v');
  });

  it('other variables keep their parse messages after an unterminated quote', () => {
    expect(parseGcfg('[g]\nk = "abc\nrest of it\n', 'cloud.conf').problems.map(formatCloudConfigProblem)).toEqual([
      'cloud.conf:2: unterminated quoted value of variable "k"',
      'cloud.conf:3: missing \'=\' after variable "rest"',
    ]);
  });

  it('counts lines across continuations', () => {
    const document = parseGcfg('[g]\nk = a\\\nb\nbad line\n', 'cloud.conf');
    expect(document.problems.map(formatCloudConfigProblem)).toEqual(['cloud.conf:4: missing \'=\' after variable "bad"']);
  });
});
