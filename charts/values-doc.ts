// The values tables of docs/helm.md, generated from the "# --" comments of each chart's
// values.yaml (the helm-docs convention): one table of the values every chart shares, then one
// table per chart of the values that are its own.
import { isMap, isPair, isScalar, parseDocument, type YAMLMap } from 'yaml';

/** One documented value: its dotted path, its default as YAML text, and its description. */
export interface ValueRow {
  key: string;
  defaultValue: unknown;
  description: string;
}

/** A key without a "# --" description, reported as `values.yaml:line key`. */
export interface UndocumentedValue {
  key: string;
  line: number;
}

export interface ValuesDocumentation {
  rows: ValueRow[];
  undocumented: UndocumentedValue[];
}

/**
 * Reads the documented values of a values.yaml: a key whose comment holds a line starting with
 * "-- " is a row (its default is the whole value); a map without one is walked into, so every
 * leaf of it needs its own. Anything else is undocumented.
 */
export function documentedValues(valuesYaml: string): ValuesDocumentation {
  // YAML 1.1, as Helm reads values (0440 is octal there).
  const document = parseDocument(valuesYaml, { version: '1.1' });
  if (document.errors.length > 0) throw new Error(`values.yaml: ${document.errors[0]!.message}`);
  const lineStarts = [0];
  for (let index = 0; index < valuesYaml.length; index++) if (valuesYaml[index] === '\n') lineStarts.push(index + 1);
  const lineOf = (offset: number) => {
    let line = 0;
    while (line + 1 < lineStarts.length && lineStarts[line + 1]! <= offset) line++;
    return line + 1;
  };
  const rows: ValueRow[] = [];
  const undocumented: UndocumentedValue[] = [];
  const walk = (map: YAMLMap, prefix: string) => {
    for (const item of map.items) {
      if (!isPair(item) || !isScalar(item.key)) continue;
      const key = `${prefix}${String(item.key.value)}`;
      // The comment before a map's first key belongs to the map (or, at the top, to the document).
      const first = map.items[0] === item;
      const description = describedBy(item.key.commentBefore ?? (first ? (map.commentBefore ?? (prefix === '' ? document.commentBefore : undefined)) : undefined));
      if (description !== undefined) {
        rows.push({ key, defaultValue: toPlain(item.value), description });
      } else if (isMap(item.value) && item.value.items.length > 0) {
        walk(item.value, `${key}.`);
      } else {
        undocumented.push({ key, line: lineOf(item.key.range?.[0] ?? 0) });
      }
    }
  };
  if (!isMap(document.contents)) throw new Error('values.yaml: the top level is not a map');
  walk(document.contents, '');
  return { rows, undocumented };
}

function toPlain(node: unknown): unknown {
  if (node === null || node === undefined) return null;
  return (node as { toJSON(): unknown }).toJSON();
}

/** The text after the "-- " line of a comment (continuation lines joined), or undefined. */
function describedBy(comment: string | null | undefined): string | undefined {
  if (!comment) return undefined;
  const lines = comment.split('\n').map((line) => line.trim());
  const start = lines.findIndex((line) => line.startsWith('-- '));
  if (start === -1) return undefined;
  return lines
    .slice(start)
    .map((line, index) => (index === 0 ? line.slice(3) : line))
    .join(' ')
    .trim();
}

/** A default as one table cell: YAML flow text in backticks, or a pointer to values.yaml when long or multi-line. */
export function defaultCell(value: unknown): string {
  if (typeof value === 'string' && value.includes('\n')) return `(a file: see values.yaml)`;
  const text = JSON.stringify(value);
  if (text.length > 90) return '(see values.yaml)';
  return `\`${text.replace(/\|/g, '\\|')}\``;
}

function table(rows: ValueRow[]): string {
  const lines = ['| Key | Default | Description |', '|---|---|---|'];
  for (const row of rows) lines.push(`| \`${row.key}\` | ${defaultCell(row.defaultValue)} | ${row.description.replace(/\|/g, '\\|')} |`);
  return lines.join('\n');
}

/** The generated part of docs/helm.md for these charts (name -> values.yaml text). */
export function renderValuesTables(charts: ReadonlyMap<string, string>): string {
  const rowsByChart = new Map([...charts].map(([name, text]) => [name, documentedValues(text).rows] as const));
  const signature = (row: ValueRow) => JSON.stringify([row.key, row.defaultValue, row.description]);
  const all = [...rowsByChart.values()];
  const shared = all[0]!.filter((row) => all.every((rows) => rows.some((other) => signature(other) === signature(row))));
  const sharedSignatures = new Set(shared.map(signature));
  const sections = [
    `### Values of every chart\n\nThe same key, default and meaning in all ${charts.size} charts.\n\n${table(shared)}`,
  ];
  for (const [name, rows] of rowsByChart) {
    sections.push(`### ${name}\n\n${table(rows.filter((row) => !sharedSignatures.has(signature(row))))}`);
  }
  return sections.join('\n\n');
}

export const GENERATED_BEGIN = '<!-- BEGIN values tables: generated from charts/*/values.yaml by charts/values-doc.ts; UPDATE_HELM_DOC=1 npx vitest run charts/charts.test.ts rewrites them -->';
export const GENERATED_END = '<!-- END values tables -->';

/** The document with its generated section replaced. */
export function withValuesTables(documentText: string, tables: string): string {
  const begin = documentText.indexOf(GENERATED_BEGIN);
  const end = documentText.indexOf(GENERATED_END);
  if (begin === -1 || end === -1 || end < begin) throw new Error('docs/helm.md has no generated values section (its BEGIN and END markers)');
  return `${documentText.slice(0, begin + GENERATED_BEGIN.length)}\n\n${tables}\n\n${documentText.slice(end)}`;
}
