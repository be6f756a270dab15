import { describe, expect, it } from 'vitest';
import { defaultCell, documentedValues, GENERATED_BEGIN, GENERATED_END, renderValuesTables, withValuesTables } from './values-doc.js';

describe('documentedValues', () => {
  it('takes the "# --" comment of a key (continuation lines joined), walks undocumented maps, and reports the rest by line', () => {
    const text = [
      '# A header, not a description.',
      '',
      '# -- The name.',
      'name: x',
      'image:',
      '  # -- Repository,',
      '  # pulled by the node.',
      '  repository: r',
      '  tag: ""',
      '# plain comment',
      'replicas: 2',
      'mode: 0440',
    ].join('\n');
    expect(documentedValues(text)).toEqual({
      rows: [
        { key: 'name', defaultValue: 'x', description: 'The name.' },
        { key: 'image.repository', defaultValue: 'r', description: 'Repository, pulled by the node.' },
      ],
      undocumented: [
        { key: 'image.tag', line: 9 },
        { key: 'replicas', line: 11 },
        { key: 'mode', line: 12 },
      ],
    });
  });

  it('reads values as YAML 1.1, as Helm does (0440 is octal)', () => {
    expect(documentedValues('# -- Mode.\nmode: 0440\n').rows[0]!.defaultValue).toBe(0o440);
  });

  it('names a values file that is not YAML', () => {
    expect(() => documentedValues('a: [1\n')).toThrow(/^values\.yaml: /);
  });
});

describe('the tables', () => {
  it.each([
    ['x', '`"x"`'],
    [{ a: 1 }, '`{"a":1}`'],
    ['a\nb\n', '(a file: see values.yaml)'],
    ['y'.repeat(100), '(see values.yaml)'],
    ['a|b', '`"a\\|b"`'],
  ])('shows the default %j as %s', (value, cell) => {
    expect(defaultCell(value)).toBe(cell);
  });

  it('puts the values every chart shares in one table and the rest under each chart', () => {
    const tables = renderValuesTables(
      new Map([
        ['one', '# -- Shared.\nshared: 1\n# -- Repository.\nrepository: a\n'],
        ['two', '# -- Shared.\nshared: 1\n# -- Repository.\nrepository: b\n'],
      ]),
    );
    expect(tables).toContain('| `shared` | `1` | Shared. |');
    expect(tables.split('### one')[1]).toContain('| `repository` | `"a"` | Repository. |');
    expect(tables.split('### one')[1]).not.toContain('`shared`');
  });

  it('replaces only the part between the markers, and refuses a document without them', () => {
    const document = `before\n${GENERATED_BEGIN}\nold\n${GENERATED_END}\nafter\n`;
    expect(withValuesTables(document, 'new')).toBe(`before\n${GENERATED_BEGIN}\n\nnew\n\n${GENERATED_END}\nafter\n`);
    expect(() => withValuesTables('no markers', 'new')).toThrow('no generated values section');
  });
});
