/**
 * The one renderer of every provider's reference tables: Service annotations and config keys,
 * with the status vocabulary of input-status.ts. A provider's `render-<cloud>-reference.ts` hands
 * its registries to these and places the lines in its page.
 */
import type { AnnotationDefinition } from './annotation-definition.js';
import { describeInputStatus, type InputStatus } from './input-status.js';

/** Text made safe for one Markdown table cell. */
export function markdownCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export interface TableColumn<Row> {
  header: string;
  /** The cell's Markdown (already escaped). */
  cell: (row: Row) => string;
}

/** A Markdown table: the header, the separator and one line per row. */
export function renderMarkdownTable<Row>(rows: readonly Row[], columns: readonly TableColumn<Row>[]): string[] {
  return [
    `| ${columns.map((column) => column.header).join(' | ')} |`,
    `| ${columns.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${columns.map((column) => column.cell(row)).join(' | ')} |`),
  ];
}

const extraColumns = <Row extends { columns?: Readonly<Record<string, string>> }>(headers: readonly string[]): Array<TableColumn<Row>> =>
  headers.map((header) => ({
    header,
    cell: (row: Row) => {
      const value = row.columns?.[header];
      if (value === undefined) throw new Error(`no "${header}" column declared`);
      return markdownCell(value);
    },
  }));

/**
 * `| Annotation | <extra columns> | Default | Status | Description |`, one row per definition in
 * registry order (an empty default is `(none)`). `columns` names the definitions' extra columns to show (each must declare them).
 */
export function renderAnnotationTable(definitions: readonly AnnotationDefinition[], options: { columns?: readonly string[] } = {}): string[] {
  return renderMarkdownTable(definitions, [
    { header: 'Annotation', cell: (definition) => `\`${definition.key}\`` },
    ...extraColumns<AnnotationDefinition>(options.columns ?? []),
    { header: 'Default', cell: (definition) => (definition.defaultValue === '' ? '(none)' : markdownCell(definition.defaultValue)) },
    { header: 'Status', cell: (definition) => markdownCell(describeInputStatus(definition.status, definition.reason)) },
    { header: 'Description', cell: (definition) => markdownCell(definition.description) },
  ]);
}

/** One config key as its docs row shows it. */
export interface ConfigKeyRow {
  /** The key as written in the file. */
  name: string;
  /** The type as the docs say it. */
  type: string;
  /** The default as the docs say it (Markdown). */
  defaultValue: string;
  status: InputStatus;
  /** Why the key is not used as upstream does, or how it is used. */
  note?: string;
  description: string;
  /** Extra docs columns (Markdown), by header. */
  columns?: Readonly<Record<string, string>>;
}

/** `| Key | Type | Default | <extra columns> | Status | Description |`, one row per key. */
export function renderConfigKeyTable(rows: readonly ConfigKeyRow[], options: { columns?: readonly string[] } = {}): string[] {
  return renderMarkdownTable(rows, [
    { header: 'Key', cell: (row) => `\`${row.name}\`` },
    { header: 'Type', cell: (row) => row.type },
    { header: 'Default', cell: (row) => row.defaultValue },
    ...(options.columns ?? []).map((header) => ({ header, cell: (row: ConfigKeyRow) => row.columns?.[header] ?? '' })),
    { header: 'Status', cell: (row) => markdownCell(describeInputStatus(row.status, row.note)) },
    { header: 'Description', cell: (row) => markdownCell(row.description) },
  ]);
}

/** A config key's status and note, as the providers declare them next to their schemas. */
export interface KeyStatus {
  status: InputStatus;
  /** Why a key is not supported or ignored, or a note on how it is supported. */
  note?: string;
}
